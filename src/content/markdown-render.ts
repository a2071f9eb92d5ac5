/**
 * The Markdown renderer: editors' Markdown (CommonMark with GitHub's tables, strikethrough and
 * autolinks) becomes safe HTML at build time only; no Markdown parser ships to the browser.
 * Headings start at h2 (the page title is the only h1), heading ids are derived with the slug
 * helper for deep links, and links to other sites open in a new tab without opener. Loaded
 * only when a text is not in the render cache (`./markdown.ts`).
 *
 * Safety is by construction rather than by sanitising a tree afterwards: raw HTML is parsed
 * (so it ends where CommonMark says it ends) and then dropped, and a link or image whose
 * address is not of an allowed kind loses its address and keeps its text. Every other element
 * comes from Markdown syntax, so the output holds only the elements and attributes written
 * below. markdown-it replaced unified (remark, rehype, rehype-sanitize): it renders the site's
 * 566 texts (970 KB) in 0.1-0.3 s instead of 1.3-2.0 s, which was half of a build from an
 * empty cache.
 */
import MarkdownIt, { type StateCore, type Token } from 'markdown-it'
import { TEXT_LANGUAGES } from '../shared/languages'
import { classifyLink, linkAttributes } from '../shared/links'
import { slugify } from '../shared/slug'
import { MarkdownError, type RichText } from './rich-text'

const RENDER_BASE = 'https://site.invalid/'

/**
 * Schemes a link may use: the web, e-mail, chat (GitHub's sanitising defaults) and `tel:`,
 * since support and legal texts give phone numbers visitors should be able to call. Relative
 * addresses (`/en/…`, `#section`) resolve to `https:` here and are allowed.
 */
const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'xmpp:', 'irc:', 'ircs:', 'tel:'])
/** Images load from this site or over the web, never from `data:` or other schemes. */
const IMAGE_SCHEMES = new Set(['http:', 'https:'])

/** Judges an address as a browser reads it (the URL parser ignores tabs, newlines, case). */
function allowed(address: string, schemes: ReadonlySet<string>): boolean {
  try {
    return schemes.has(new URL(address, RENDER_BASE).protocol)
  } catch {
    return false
  }
}

const markdown = new MarkdownIt('default', { html: true, linkify: true })
// GitHub's autolinks: addresses with a scheme and e-mail addresses; a bare `bank.example`
// stays text.
markdown.linkify.set({ fuzzyLink: false })
// Every address reaches the renderer, which decides (below) instead of leaving the syntax as
// text: `[x](javascript:…)` shows "x", as sanitising did.
markdown.validateLink = () => true

const rules = markdown.renderer.rules
rules.html_block = () => ''
rules.html_inline = () => ''
rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index] as Token
  const href = String(token.attrGet('href') ?? '')
  if (!allowed(href, LINK_SCHEMES)) {
    token.meta = { dropped: true }
    return ''
  }
  for (const [name, value] of Object.entries(linkAttributes(classifyLink(href, RENDER_BASE)))) {
    token.attrSet(name, value)
  }
  return self.renderToken(tokens, index, options)
}
rules.link_close = (tokens, index, options, _env, self) =>
  openingLink(tokens, index)?.meta?.dropped ? '' : self.renderToken(tokens, index, options)
const renderImage = rules.image
rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index] as Token
  if (allowed(String(token.attrGet('src') ?? ''), IMAGE_SCHEMES) && renderImage)
    return renderImage(tokens, index, options, env, self)
  return markdown.utils.escapeHtml(self.renderInlineAsText(token.children ?? [], options, env))
}

/**
 * `{lang=fr}` right after a link, or after text in brackets, says the language of its words:
 * `[Informations clients](/en/informations-clients/){lang=fr}`, `[Schlichtungsstelle]{lang=de}`
 * on an English page. The link or a span gets `lang`, so screen readers speak those words in
 * their own language (WCAG 3.1.2). Only the languages the site's texts are written in count.
 */
const LANG_SUFFIX = /^\{lang=([^}\s]*)\}/
const LANG_SPAN = /\[([^[\]]+)\]\{lang=([^}\s]*)\}/g

function checkedLanguage(value: string): string {
  if ((TEXT_LANGUAGES as readonly string[]).includes(value)) return value
  throw new MarkdownError(`expected a language in {lang=${value}}: ${TEXT_LANGUAGES.join(', ')}`)
}

/**
 * Runs after markdown-it has joined adjacent text, escaped characters included: the CMS's
 * rich-text editor writes `[` as `\\[` when it saves, and the words keep their language.
 */
function markLanguages(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue
    const children: Token[] = []
    let run = ''
    const flush = () => {
      if (run) children.push(...languageSpans(state, run, children))
      run = ''
    }
    for (const token of block.children) {
      if (token.type === 'text') run += token.content
      else {
        flush()
        children.push(token)
      }
    }
    flush()
    block.children = children
  }
}

/** A run of plain text as tokens: `[words]{lang=…}` a span, `{lang=…}` after a link its language. */
function languageSpans(state: StateCore, text: string, before: readonly Token[]): Token[] {
  const tokens: Token[] = []
  let content = text
  const previous = before.at(-1)
  const suffix = previous?.type === 'link_close' ? LANG_SUFFIX.exec(content) : null
  if (suffix && previous) {
    openingLink(before, before.length - 1)?.attrSet('lang', checkedLanguage(suffix[1] ?? ''))
    content = content.slice(suffix[0].length)
  }
  let from = 0
  for (const match of content.matchAll(LANG_SPAN)) {
    tokens.push(textToken(state, content.slice(from, match.index)))
    const open = new state.Token('span_open', 'span', 1)
    open.attrSet('lang', checkedLanguage(match[2] ?? ''))
    tokens.push(open, textToken(state, match[1] ?? ''), new state.Token('span_close', 'span', -1))
    from = match.index + match[0].length
  }
  const rest = content.slice(from)
  // Emphasis or code inside the brackets splits the words from their language: say so rather
  // than show the syntax on the page.
  if (/\]\{lang=/.test(rest))
    throw new MarkdownError(
      'expected plain words in [words]{lang=…}; put emphasis around the brackets, not inside',
    )
  tokens.push(textToken(state, rest))
  return tokens.filter((token) => token.type !== 'text' || token.content !== '')
}

function textToken(state: StateCore, content: string): Token {
  const token = new state.Token('text', '', 0)
  token.content = content
  return token
}

/** The `link_open` of the link whose `link_close` is at `index`: the nearest at its nesting. */
function openingLink(tokens: readonly Token[], index: number): Token | undefined {
  let depth = 0
  for (let at = index - 1; at >= 0; at -= 1) {
    const token = tokens[at] as Token
    if (token.type === 'link_close') depth += 1
    if (token.type === 'link_open') {
      if (depth === 0) return token
      depth -= 1
    }
  }
  return undefined
}

markdown.core.ruler.after('text_join', 'lang', (state) => {
  markLanguages(state)
  return true
})

/** The text a heading reads as: its words, code included, without raw HTML or image alt. */
function headingText(inline: Token | undefined): string {
  let text = ''
  for (const child of inline?.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content
  }
  return text
}

/** Ids for h2 to h4 from the slug helper, numbered when a heading text repeats. */
function addHeadingIds(tokens: Token[]): void {
  const used = new Map<string, number>()
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return
    if (token.tag === 'h1')
      throw new MarkdownError(
        'expected headings from "##" down; the page title is the only level-1 heading',
      )
    if (!/^h[2-4]$/.test(token.tag)) return
    const base = slugify(headingText(tokens[index + 1])) || 'section'
    const count = used.get(base) ?? 0
    used.set(base, count + 1)
    token.attrSet('id', count === 0 ? base : `${base}-${count + 1}`)
  })
}

/** Markdown to safe HTML; throws MarkdownError for a level-1 heading. */
export function renderMarkdown(source: string): RichText {
  const env = {}
  const tokens = markdown.parse(source, env)
  addHeadingIds(tokens)
  return { html: markdown.renderer.render(tokens, markdown.options, env).trimEnd() }
}
