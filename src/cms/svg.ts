/**
 * Drawings (SVG) that editors upload, checked before they are stored. A drawing opened on its
 * own is a document of the site's origin, and the build draws each one with librsvg into a
 * sharing card, so a drawing may hold nothing that runs, nothing that is not a drawing, and
 * nothing outside itself.
 *
 * A drawing the check would change is refused, not cleaned: the editor reads what was found
 * and where (`cover.svg contains script (a <script> element), which the site does not run:
 * remove it`), and what is published, reviewed and kept in the history is byte for byte what
 * the editor uploaded. A cleaned copy would publish something nobody saw, and could lose what
 * the drawing needs without a word. Drawings exported as plain SVG pass unchanged.
 *
 * The check, in order:
 * 1. The text: UTF-8 (what the file is served as, whatever it declares), and no declarations
 *    in a document type (`<!DOCTYPE svg [<!ENTITY …> <!ATTLIST …>]>`): a browser's XML parser
 *    expands their entities and adds their default attributes (an `onload`, say), which the
 *    parser below does not.
 * 2. The document as browsers read a file served as `image/svg+xml`: parsed as XML (jsdom's
 *    `DOMParser`); not well-formed, or not an `<svg>` of the SVG namespace, is refused. The
 *    site shows drawings with `<img>` and never writes their text into a page, so this is the
 *    only way they are ever parsed. A drawing that would cost too much to draw (too many filter
 *    primitives, elements filtered, or path data: `costProblem`) is refused here too.
 * 3. DOMPurify, a maintained sanitiser, walks that document in place with its SVG profile
 *    (SVG and its filters; no `<use>`, `<foreignObject>`, `<set>` or `<animate>`), keeping
 *    comments and CDATA sections (it still removes those that hold markup). Whatever it removes
 *    (a script in any namespace, an event handler in any case, a `javascript:` link, HTML, an
 *    animation of a link, a processing instruction) is reported. jsdom is the DOM DOMPurify
 *    supports on a server; it is loaded with the first drawing, not with the service.
 * 4. The site's own rule on top: nothing outside the drawing. Every `href` and `src` is a
 *    fragment of the drawing (`#shape`), except an `<image>` of a PNG, JPEG, GIF, WebP or AVIF
 *    `data:` address; CSS (style attributes, presentation attributes, `<style>`) refers only to
 *    fragments with `url(#…)`, with no `@import`, no `@font-face`, no image functions and no
 *    escapes (which could spell any of these unseen).
 */
import type { DOMPurify } from 'dompurify'

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg'
const XHTML_NAMESPACE = 'http://www.w3.org/1999/xhtml'
/** Where jsdom's `DOMParser` puts its account of a document that is not well-formed XML. */
const PARSER_ERROR_NAMESPACE = 'http://www.mozilla.org/newlayout/xml/parsererror.xml'

const ELEMENT_NODE = 1
const PROCESSING_INSTRUCTION_NODE = 7
const COMMENT_NODE = 8

/** The sanitiser's settings: SVG and its filters, comments and CDATA sections kept. */
const PURIFY_CONFIG = {
  USE_PROFILES: { svg: true, svgFilters: true },
  ADD_TAGS: ['#comment', '#cdata-section'],
  IN_PLACE: true,
}

type DomWindow = Window & typeof globalThis

/** One window for every check: its documents run no script and load nothing. */
let sanitiser: Promise<{ window: DomWindow; purify: DOMPurify }> | undefined

const loadSanitiser = () => {
  sanitiser ??= Promise.all([import('jsdom'), import('dompurify')]).then(
    ([{ JSDOM }, { default: createDOMPurify }]) => {
      const { window } = new JSDOM('')
      const purify = createDOMPurify(window)
      // Without a DOM it can use, DOMPurify hands back what it was given: nothing would pass.
      if (!purify.isSupported) throw new Error('DOMPurify cannot work on this jsdom window')
      return { window, purify }
    },
  )
  return sanitiser
}

/**
 * Something the check found: a phrase for the editor, whether it is script, and where it comes
 * in the message (script first; a namespace declaration, which only names what else is there,
 * last).
 */
interface Finding {
  text: string
  script: boolean
  rank?: number
}

/** At most this many findings are named; the rest are counted. */
const NAMED_FINDINGS = 5

/** An uploaded value as the editor's message quotes it: one line, and short. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are replaced
  const line = value.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim()
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line)
}

/** `a <rect>`, `an <image>`: the article by the element's name. */
const article = (name: string) => (/^[aeio]/i.test(name) ? `an <${name}>` : `a <${name}>`)

const ANIMATIONS = new Set(['animate', 'animatecolor', 'animatemotion', 'animatetransform', 'set'])
/** Trimmed as browsers trim an address before they read its scheme. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters a URL parser drops
const URL_NOISE = /[\u0000-\u0020]/g

/** What the sanitiser removed, in the editor's words. */
function removedFinding(entry: DOMPurify['removed'][number]): Finding {
  if ('attribute' in entry && entry.attribute) {
    const { name, value } = entry.attribute
    const on = entry.from ? ` on <${entry.from.nodeName}>` : ''
    const local = name.slice(name.indexOf(':') + 1).toLowerCase()
    if (local.startsWith('on'))
      return { text: `script (the attribute ${name}=${quoted(value)}${on})`, script: true }
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.replace(URL_NOISE, ''))?.[1]?.toLowerCase()
    if (scheme === 'javascript' || scheme === 'vbscript')
      return { text: `script (a ${scheme}: address in ${name}${on})`, script: true }
    if (local === 'href' || local === 'src')
      return {
        text: `a reference outside the drawing (${name}=${quoted(value)}${on})`,
        script: false,
      }
    if (name.startsWith('xmlns:'))
      return { text: `the namespace ${name}=${quoted(value)}${on}`, script: false, rank: 2 }
    return { text: `the attribute ${name}=${quoted(value)}${on}`, script: false }
  }
  const node = 'element' in entry ? entry.element : undefined
  if (!node) return { text: 'something the sanitiser removed', script: false }
  if (node.nodeType === PROCESSING_INSTRUCTION_NODE)
    return { text: `a processing instruction (<?${node.nodeName} …?>)`, script: false }
  if (node.nodeType === COMMENT_NODE)
    return { text: 'a comment holding markup (<!-- <… -->)', script: false }
  if (node.nodeType !== ELEMENT_NODE) return { text: 'text holding markup', script: false }
  const element = node as Element
  const local = element.localName.toLowerCase()
  const what = `${article(element.nodeName)} element`
  if (local === 'script') return { text: `script (${what})`, script: true }
  if (local === 'foreignobject' || element.namespaceURI === XHTML_NAMESPACE)
    return { text: `HTML (${what})`, script: false }
  if (ANIMATIONS.has(local)) return { text: `an animation (${what})`, script: false }
  return { text: what, script: false }
}

/** A raster image embedded in an `<image>`: part of the drawing, not a reference out of it. */
const EMBEDDED_RASTER = /^data:image\/(png|jpeg|gif|webp|avif)[;,]/i

/** A reference out of the drawing in an `href` or `src`, or undefined. */
function outsideLink(element: Element, attribute: Attr): Finding | undefined {
  if (!['href', 'src'].includes(attribute.localName.toLowerCase())) return undefined
  const value = attribute.value.replace(URL_NOISE, '')
  if (value.startsWith('#')) return undefined
  if (element.localName === 'image' && EMBEDDED_RASTER.test(value)) return undefined
  return {
    text: `a reference outside the drawing (${attribute.name}=${quoted(attribute.value)} on <${element.nodeName}>)`,
    script: false,
  }
}

/** What CSS may not do in a drawing: each pattern, and how the editor hears of it. */
const CSS_RULES: [RegExp, string][] = [
  [/\\/, 'an escaped character in CSS'],
  [/@(import|font-face|namespace)\b/i, 'a CSS rule that loads files'],
  [/(image-set|image|cross-fade|element|src)\s*\(/i, 'a CSS image function'],
]

/** What a piece of CSS reaches outside the drawing, or undefined. */
function outsideCss(css: string, where: string): Finding | undefined {
  for (const [pattern, what] of CSS_RULES) {
    const found = pattern.exec(css)
    if (found)
      return { text: `${what} (${quoted(css.slice(found.index))} ${where})`, script: false }
  }
  for (const url of css.matchAll(/url\(\s*(['"]?)\s*([^'")]*)/gi)) {
    if (!url[2]?.startsWith('#'))
      return {
        text: `a reference outside the drawing (${quoted(url[0])} ${where})`,
        script: false,
      }
  }
  return undefined
}

/** The site's own rule: what the sanitiser kept that refers to something outside the drawing. */
function outsideReferences(root: Element): Finding[] {
  const findings: Finding[] = []
  for (const element of [root, ...root.getElementsByTagName('*')]) {
    for (const attribute of element.attributes) {
      const found =
        outsideLink(element, attribute) ??
        outsideCss(attribute.value, `in ${attribute.name} on <${element.nodeName}>`)
      if (found) findings.push(found)
    }
    if (element.localName === 'style') {
      const found = outsideCss(element.textContent ?? '', `in <${element.nodeName}>`)
      if (found) findings.push(found)
    }
  }
  return findings
}

/**
 * Text that a reader of markup would take for a tag (`&lt;/style>&lt;img …>` in a `<style>`): only
 * text to an XML parser, but markup again wherever the drawing's text were copied into HTML.
 */
function markupText(root: Element, window: DomWindow): Finding[] {
  const findings: Finding[] = []
  const walker = root.ownerDocument.createTreeWalker(
    root,
    window.NodeFilter.SHOW_TEXT | window.NodeFilter.SHOW_CDATA_SECTION,
  )
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const data = (node as CharacterData).data
    const found = /<[/!?a-z]/i.exec(data)
    if (found)
      findings.push({
        text: `text that reads as markup (${quoted(data.slice(found.index))} in <${node.parentNode?.nodeName}>)`,
        script: false,
      })
  }
  return findings
}

/**
 * How many elements a drawing may have, how deep they may nest, and how many attributes one
 * may carry. The check takes some 25 µs an element (most of it DOMPurify's), and jsdom builds a
 * tree in time that grows with depth times elements and with the square of one element's
 * attributes: a drawing of 1 MB nested 140,000 deep would hold the service for minutes. A
 * drawing needs a few thousand elements at most, nested a few dozen deep.
 */
const MAX_ELEMENTS = 20_000
const MAX_DEPTH = 128
const MAX_ATTRIBUTES = 128

/**
 * What a drawing may cost to draw. librsvg draws each filtered element through its whole filter
 * at the sharing card's size: a blur and a turbulence took about a quarter of a second an
 * element on two cores, so a drawing of 5 KB that applied one to 100 shapes held a preview for
 * a minute. Covers use a few filters at most, and their paths are a few kilobytes.
 */
export const MAX_FILTER_PRIMITIVES = 16
export const MAX_FILTERED_ELEMENTS = 8
export const MAX_PATH_DATA = 256 * 1024

/** A CSS declaration that applies a filter (`filter: none` applies none). */
const FILTER_DECLARATION = /(?:^|[;{\s])filter\s*:(?!\s*none\s*(?:;|}|$|!))/i

/** How many elements the rules of a `<style>` that set a filter select (all, when unreadable). */
function filteredByStyle(root: Element, css: string, all: number): number {
  let count = 0
  for (const rule of css.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const [, selector = '', body = ''] = rule
    if (!FILTER_DECLARATION.test(`;${body}`)) continue
    try {
      count += root.querySelectorAll(selector.trim()).length
    } catch {
      return all
    }
  }
  return count
}

/**
 * A drawing that would cost too much to draw: too many filter primitives, too many elements
 * a filter applies to (by attribute, style or a `<style>` rule), or too much path data.
 */
function costProblem(root: Element): string | undefined {
  const elements = [root, ...root.getElementsByTagName('*')]
  const primitives = elements.filter(
    (element) => element.namespaceURI === SVG_NAMESPACE && /^fe[A-Z]/.test(element.localName),
  ).length
  if (primitives > MAX_FILTER_PRIMITIVES)
    return `has ${primitives} filter primitives (<fe…> elements), more than a drawing may (${MAX_FILTER_PRIMITIVES}): use fewer filters`
  let filtered = 0
  let pathData = 0
  for (const element of elements) {
    const filter = element.getAttribute('filter')
    if (
      (filter !== null && filter.trim().toLowerCase() !== 'none') ||
      FILTER_DECLARATION.test(`;${element.getAttribute('style') ?? ''}`)
    )
      filtered += 1
    if (element.localName === 'style')
      filtered += filteredByStyle(root, element.textContent ?? '', elements.length)
    pathData +=
      (element.getAttribute('d') ?? '').length + (element.getAttribute('points') ?? '').length
  }
  if (filtered > MAX_FILTERED_ELEMENTS)
    return `applies filters to ${filtered} elements, more than a drawing may (${MAX_FILTERED_ELEMENTS}): filter a group of them once, or fewer shapes`
  if (pathData > MAX_PATH_DATA)
    return `has ${Math.ceil(pathData / 1024)} KB of path data, more than a drawing may (${MAX_PATH_DATA / 1024} KB): simplify its paths`
  return undefined
}

const skipPast = (text: string, end: string, from: number) => {
  const at = text.indexOf(end, from)
  return at === -1 ? text.length : at + end.length
}

/**
 * A drawing with too many elements, nested too deep or with too many attributes on one, found
 * by reading its tags once, in time that grows with its size only. In well-formed XML every `<` opens markup
 * and every `>` of a tag outside its quoted values closes it, so this counts what the parser
 * would build; what is not well-formed the parser refuses as soon as it gets there.
 */
function structureProblem(text: string): string | undefined {
  let depth = 0
  let elements = 0
  for (let index = text.indexOf('<'); index !== -1; index = text.indexOf('<', index)) {
    if (text.startsWith('<!--', index)) index = skipPast(text, '-->', index + 4)
    else if (text.startsWith('<![CDATA[', index)) index = skipPast(text, ']]>', index + 9)
    else if (text[index + 1] === '?') index = skipPast(text, '?>', index + 2)
    else if (text[index + 1] === '!') index = skipPast(text, '>', index + 2)
    else if (text[index + 1] === '/') {
      depth -= 1
      index = skipPast(text, '>', index + 2)
    } else {
      let attributes = 0
      let quote = ''
      let end = index + 1
      for (; end < text.length; end++) {
        const character = text[end]
        if (quote) {
          if (character === quote) quote = ''
        } else if (character === '"' || character === "'") quote = character
        else if (character === '=') attributes += 1
        else if (character === '>') break
      }
      elements += 1
      if (elements > MAX_ELEMENTS)
        return `has more than ${MAX_ELEMENTS.toLocaleString('en')} elements, more than a drawing may: simplify it`
      if (attributes > MAX_ATTRIBUTES)
        return `has an element with ${attributes} attributes, more than a drawing may (${MAX_ATTRIBUTES})`
      if (text[end - 1] !== '/') depth += 1
      if (depth > MAX_DEPTH)
        return `nests elements more than ${MAX_DEPTH} deep, more than a drawing may: flatten its groups`
      index = end + 1
    }
  }
  return undefined
}

/**
 * The text begins with `<svg`, after an XML declaration, comments and a document type: read
 * once from the start (a regular expression for it took time exponential in the comments).
 */
function beginsWithSvg(text: string): boolean {
  let at = 0
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at] as string)) at += 1
  }
  skipSpace()
  if (text.startsWith('<?xml', at)) at = skipPast(text, '?>', at + 5)
  skipSpace()
  while (text.startsWith('<!--', at)) {
    at = skipPast(text, '-->', at + 4)
    skipSpace()
  }
  if (text.slice(at, at + 9).toLowerCase() === '<!doctype') at = skipPast(text, '>', at + 9)
  skipSpace()
  return /^<svg[\s>/]/i.test(text.slice(at, at + 5))
}

/** Declarations a browser's XML parser acts on (entities, default attributes) and jsdom's not. */
const DOCUMENT_TYPE_DECLARATIONS = /<!(ENTITY|ATTLIST|ELEMENT|NOTATION)\b|<!DOCTYPE[^<]*\[/i

/**
 * Why an uploaded drawing may not be published, as the rest of a sentence that begins with its
 * name (`is not an SVG drawing: …`, `contains script (…), which the site does not run: remove
 * it`), or undefined when it may be published as it is.
 */
export async function drawingProblem(data: Buffer): Promise<string | undefined> {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data)
  } catch {
    return 'is not UTF-8 text: save the drawing as UTF-8'
  }
  if (DOCUMENT_TYPE_DECLARATIONS.test(text))
    return 'declares entities or attributes in its document type (<!DOCTYPE … [ … ]>), which a drawing may not: remove them'
  if (!beginsWithSvg(text)) return 'is not an SVG drawing: it does not begin with <svg>'
  const encoding = /^<\?xml[^>]*\sencoding\s*=\s*(["'])(.*?)\1/.exec(text)?.[2]
  if (encoding !== undefined && !/^utf-8$/i.test(encoding))
    return `declares the encoding ${quoted(encoding)}: save the drawing as UTF-8`

  const structure = structureProblem(text)
  if (structure) return structure

  const { window, purify } = await loadSanitiser()
  const document = new window.DOMParser().parseFromString(text, 'image/svg+xml')
  const error = document.getElementsByTagNameNS(PARSER_ERROR_NAMESPACE, 'parsererror')[0]
  if (error) {
    const reason = (error.textContent ?? '').split('\n').find((line) => line.trim()) ?? ''
    return `is not a well-formed SVG drawing: ${reason.trim()}`
  }
  const root = document.documentElement
  if (root.localName !== 'svg' || root.namespaceURI !== SVG_NAMESPACE)
    return `is not an SVG drawing: it begins with <${root.nodeName}>, not <svg xmlns="${SVG_NAMESPACE}">`
  const cost = costProblem(root)
  if (cost) return cost

  const findings: Finding[] = []
  for (const node of document.childNodes) {
    if (node.nodeType === PROCESSING_INSTRUCTION_NODE)
      findings.push({ text: `a processing instruction (<?${node.nodeName} …?>)`, script: false })
  }
  findings.push(...markupText(root, window))
  try {
    purify.sanitize(root, PURIFY_CONFIG)
    findings.push(...purify.removed.map(removedFinding))
  } catch {
    // It would remove the root itself (markup in its text, say), which it cannot do in place.
    findings.push({
      text: `content the sanitiser refuses directly in <${root.nodeName}>`,
      script: false,
    })
  }
  findings.push(...outsideReferences(root))
  if (findings.length === 0) return undefined

  findings.sort((a, b) => rankOf(a) - rankOf(b))
  const named = [...new Set(findings.map((finding) => finding.text))]
  const more = named.length > NAMED_FINDINGS ? ` and ${named.length - NAMED_FINDINGS} more` : ''
  const why = findings.every((finding) => finding.script)
    ? 'which the site does not run'
    : 'which a drawing on the site may not have'
  return `contains ${named.slice(0, NAMED_FINDINGS).join('; ')}${more}, ${why}: remove ${
    named.length > 1 ? 'them' : 'it'
  }`
}

const rankOf = (finding: Finding) => finding.rank ?? (finding.script ? 0 : 1)
