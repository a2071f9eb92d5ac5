/**
 * The part of jsdom the drawing check uses (jsdom ships no types): a window whose DOM
 * DOMPurify walks. Its documents run no script and load nothing unless asked to.
 */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string)
    readonly window: Window & typeof globalThis
  }
}
