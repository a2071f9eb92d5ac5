/**
 * Rich text as the content carries it: Markdown waiting to be rendered after validation, the
 * HTML it becomes, and the error of a text that cannot become HTML. Apart from the renderer
 * (`markdown-render.ts`) and its cache (`markdown.ts`), which both need them, so that the
 * renderer's libraries still load only when a text is not in the cache.
 */

/** Rendered rich text: what templates receive for a Markdown field. */
export interface RichText {
  html: string
}

export class MarkdownError extends Error {}

/** A Markdown text that passed validation and waits to be rendered. */
export class PendingMarkdown {
  constructor(readonly source: string) {}
}
