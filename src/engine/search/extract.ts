/**
 * A rendered page's text for the search, read from its HTML as a visitor sees it: the `<main>`
 * element, cut into blocks at its headings (`h2`-`h4`, and an FAQ question's `summary`), each
 * with the id to link to and the language it is written in.
 *
 * Left out: what is no reading text (`script`, `style`, `svg`, `template`, `noscript`,
 * `button`, `select`), navigation (`nav`: breadcrumbs, pagination), forms, what is hidden
 * (`hidden`, `aria-hidden="true"`), and whatever a component marks `data-search="skip"` (rate
 * tables, lists of other pages' teasers, which those pages hold themselves).
 *
 * The HTML is React's and markdown-it's, so well formed: `../html-scan.ts` reads it.
 */
import type { SearchBlock } from '../../shared/search/format'
import { attributesOf, decodeEntities, scanHtml, VOID_ELEMENTS } from '../html-scan'

export interface ExtractedPage {
  /** The `h1`'s text. */
  title: string
  /** The language of the page's text, where an element's `lang` says it differs. */
  lang?: string
  blocks: SearchBlock[]
}

const SKIPPED = new Set([
  'script',
  'style',
  'svg',
  'template',
  'noscript',
  'nav',
  'form',
  'button',
  'select',
  'textarea',
])
/** Elements within running text: no word break at their edges. */
const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
])
const BLOCK_HEADINGS = new Set(['h2', 'h3', 'h4', 'summary'])

const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map()

interface Open {
  name: string
  skip: boolean
  id?: string
  lang?: string
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The page's title and blocks of text, from its whole HTML or its `<main>` alone. */
export function extractPage(html: string): ExtractedPage {
  const start = html.search(/<main[\s>]/)
  const end = html.lastIndexOf('</main>')
  const main = start >= 0 ? html.slice(start, end > start ? end + 7 : undefined) : html

  let title = ''
  let pageLang: string | undefined
  const blocks: SearchBlock[] = []
  const stack: Open[] = []
  // The text before the first heading takes its language from where its text begins.
  let current: {
    heading: string[]
    text: string[]
    anchor?: string
    lang?: string
    langKnown: boolean
  } = { heading: [], text: [], langKnown: false }
  let capture: 'title' | 'heading' | undefined
  let captureDepth = 0
  let titleText: string[] = []

  let skipped = 0
  const skipping = () => skipped > 0
  const langNow = () => stack.findLast((element) => element.lang)?.lang
  const flush = () => {
    const heading = collapse(current.heading.join(''))
    const text = collapse(current.text.join(''))
    if (heading || text) {
      const block: SearchBlock = { heading, text }
      if (current.anchor) block.anchor = current.anchor
      if (current.lang) block.lang = current.lang
      blocks.push(block)
    }
  }
  const separate = () => {
    if (capture === 'title') titleText.push(' ')
    else if (capture === 'heading') current.heading.push(' ')
    else current.text.push(' ')
  }

  const onText = (raw: string) => {
    if (skipping()) return
    const text = decodeEntities(raw)
    if (capture === 'title') titleText.push(text)
    else if (capture === 'heading') current.heading.push(text)
    else {
      if (!current.langKnown && text.trim()) {
        current.langKnown = true
        const lang = langNow()
        if (lang) current.lang = lang
      }
      current.text.push(text)
    }
  }

  const onClose = (name: string) => {
    const at = stack.findLastIndex((element) => element.name === name)
    if (at < 0) return
    for (let i = at; i < stack.length; i++) if (stack[i]?.skip) skipped--
    stack.length = at
    if (capture && stack.length < captureDepth) {
      if (capture === 'title') title = collapse(titleText.join(''))
      capture = undefined
    }
    if (!INLINE.has(name)) separate()
  }

  const onOpen = (name: string, rawAttributes: string, selfClosing: boolean) => {
    // Most tags carry only classes: their attributes are read only when one may matter.
    const attributes = /\b(id|lang|hidden|aria-hidden|data-search)\b/.test(rawAttributes)
      ? attributesOf(rawAttributes)
      : NO_ATTRIBUTES
    const skip =
      SKIPPED.has(name) ||
      attributes.has('hidden') ||
      attributes.get('aria-hidden') === 'true' ||
      attributes.get('data-search') === 'skip'
    if (VOID_ELEMENTS.has(name) || selfClosing) {
      if (!INLINE.has(name) && !skipping()) separate()
      return
    }
    const element: Open = { name, skip }
    const id = attributes.get('id')
    if (id && name !== 'main') element.id = id
    const lang = attributes.get('lang')
    if (lang) element.lang = lang
    if (!INLINE.has(name)) separate()
    stack.push(element)
    if (skip) skipped++
    if (skipping() || capture) return
    if (name === 'h1' && !title) {
      capture = 'title'
      captureDepth = stack.length
      titleText = []
      pageLang = langNow()
    } else if (BLOCK_HEADINGS.has(name)) {
      flush()
      const anchorOwner = element.id
        ? element
        : stack.findLast((open) => open.id && (open.name === 'details' || open.name === 'section'))
      current = { heading: [], text: [], langKnown: true }
      if (anchorOwner?.id) current.anchor = anchorOwner.id
      const blockLang = langNow()
      if (blockLang) current.lang = blockLang
      capture = 'heading'
      captureDepth = stack.length
    }
  }

  scanHtml(main, { text: onText, open: onOpen, close: onClose })
  flush()
  const page: ExtractedPage = { title, blocks }
  if (pageLang) page.lang = pageLang
  return page
}
