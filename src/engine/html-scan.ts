/**
 * A scanner for the HTML the build itself makes (React's and markdown-it's, so well formed):
 * text, opening and closing tags in document order, by character codes, no parser. The search
 * index reads rendered pages with it, the PDF writer the content's rich text.
 */

export interface HtmlHandlers {
  /** Text between tags, entities still encoded (`decodeEntities`). */
  text(raw: string): void
  /** An opening tag; `attributes` as written (`attributesOf` reads them). */
  open(name: string, attributes: string, selfClosing: boolean): void
  close(name: string): void
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  shy: '',
  ndash: '–',
  mdash: '—',
  hellip: '…',
}

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X'
          ? Number.parseInt(name.slice(2), 16)
          : Number.parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/** The attributes of a tag, names in lower case, values decoded. */
export function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>()
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]?.toLowerCase()
    if (name) attributes.set(name, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''))
  }
  return attributes
}

/** Letters, digits and `-` (custom elements): the characters of a tag's name. */
function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 45
  )
}

/** Calls the handlers for each piece of `html`; comments are skipped. */
export function scanHtml(html: string, handlers: HtmlHandlers): void {
  const n = html.length
  let i = 0
  while (i < n) {
    const lt = html.indexOf('<', i)
    if (lt < 0) {
      handlers.text(html.slice(i))
      break
    }
    if (lt > i) handlers.text(html.slice(i, lt))
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4)
      i = end < 0 ? n : end + 3
      continue
    }
    const closing = html.charCodeAt(lt + 1) === 47 // '/'
    let j = lt + (closing ? 2 : 1)
    const nameStart = j
    while (j < n && isNameChar(html.charCodeAt(j))) j++
    if (j === nameStart) {
      handlers.text('<')
      i = lt + 1
      continue
    }
    const name = html.slice(nameStart, j).toLowerCase()
    const attributesStart = j
    // Up to the `>` that ends the tag: one inside a quoted value does not.
    let quote = 0
    for (; j < n; j++) {
      const code = html.charCodeAt(j)
      if (quote) {
        if (code === quote) quote = 0
      } else if (code === 34 || code === 39) quote = code
      else if (code === 62) break // '>'
    }
    if (closing) handlers.close(name)
    else {
      const selfClosing = html.charCodeAt(j - 1) === 47
      handlers.open(name, html.slice(attributesStart, selfClosing ? j - 1 : j), selfClosing)
    }
    i = j + 1
  }
}

/** Elements that have no end tag. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
])
