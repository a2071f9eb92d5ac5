/**
 * Saving an entry without restyling the file. Decap sends the whole file re-serialised in its
 * own YAML style, so writing that text would show every folded, quoted or reordered field as
 * changed. Instead the data of both texts is compared and only the source ranges of the fields
 * that changed are replaced in the stored text; every other byte stays as it was.
 */
import { isDeepStrictEqual } from 'node:util'
import {
  Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  Pair,
  Scalar,
  type ScalarTag,
  visit,
  YAMLMap,
  YAMLSeq,
  parseDocument as yamlDocument,
} from 'yaml'
import { stringTag } from 'yaml/util'
import { FRONT_MATTER, parseContentFile, parseYaml } from './file-store'

/**
 * Width for folding a new long text: the site's folded fields were wrapped near 100 columns,
 * so a new one reads like its neighbours.
 */
const FOLD_WIDTH = 100

/** A replacement of `text.slice(start, end)`; an insertion has `start === end`. */
interface Edit {
  start: number
  end: number
  text: string
}

interface Context {
  text: string
  edits: Edit[]
  /** Whether block lists under a key are indented (`key:\n  - a`) or not (`key:\n- a`). */
  indentSeq: boolean
}

type Replace = (value: unknown) => boolean

/**
 * The text to store for an editor's save: `original` with only the changed fields rewritten,
 * parsing (as the content store does) to the same data as `updated`. Where that cannot be
 * guaranteed, `updated` itself.
 */
export function rewriteKeepingFormat(file: string, original: string, updated: string): string {
  if (!/\.(ya?ml|md)$/.test(file)) return updated
  const before = dataOf(file, original)
  const after = dataOf(file, updated)
  if (before === undefined || after === undefined) return updated
  if (isDeepStrictEqual(before, after)) return original
  let result: string | undefined
  try {
    result = file.endsWith('.md')
      ? rewriteMarkdown(original, updated)
      : rewriteYaml(original, before, after)
  } catch {
    // A shape this module does not expect: the editor's text is still a correct file.
    result = undefined
  }
  if (result === undefined) return updated
  const check = dataOf(file, result)
  return check !== undefined && isDeepStrictEqual(check, after) ? result : updated
}

function dataOf(file: string, text: string): unknown {
  const parsed = parseContentFile(file, text)
  return 'document' in parsed ? parsed.document.data : undefined
}

function rewriteMarkdown(original: string, updated: string): string | undefined {
  const pattern = new RegExp(FRONT_MATTER.source, 'd')
  const old = pattern.exec(original)
  const neu = pattern.exec(updated)
  const oldFront = old?.indices?.groups?.front
  const oldBody = old?.indices?.groups?.body
  if (!old?.groups || !neu?.groups || !oldFront || !oldBody) return undefined
  const frontText = old.groups.front ?? ''
  const frontBefore = parseYaml(frontText) ?? {}
  const frontAfter = parseYaml(neu.groups.front ?? '') ?? {}
  let front = frontText
  if (!isDeepStrictEqual(frontBefore, frontAfter)) {
    // The front matter is edited as a YAML file of its own, which ends with a line break.
    const edited = rewriteYaml(`${frontText}\n`, frontBefore, frontAfter)
    if (edited === undefined) return undefined
    front = edited.endsWith('\n') ? edited.slice(0, -1) : edited
  }
  const body =
    old.groups.body === neu.groups.body ? (old.groups.body ?? '') : (neu.groups.body ?? '')
  return original.slice(0, oldFront[0]) + front + original.slice(oldFront[1], oldBody[0]) + body
}

function rewriteYaml(text: string, before: unknown, after: unknown): string | undefined {
  const doc = yamlDocument(text)
  const root = doc.contents
  if (doc.errors.length > 0 || !isMap(root) || root.flow) return undefined
  // Anchors share one node between several places, so an edit at one would change the others;
  // and the two parsers must agree on the data before their nodes can stand for each other.
  let aliased = false
  visit(doc, {
    Alias() {
      aliased = true
      return visit.BREAK
    },
  })
  if (aliased || !isDeepStrictEqual(doc.toJS(), before)) return undefined
  if (!isRecord(before) || !isRecord(after)) return undefined
  const ctx: Context = { text, edits: [], indentSeq: seqIndented(text, root) }
  if (!diffMap(ctx, root, before, after)) return undefined
  return applyEdits(text, ctx.edits)
}

function applyEdits(text: string, edits: Edit[]): string | undefined {
  const crlf = text.includes('\r\n')
  const sorted = edits
    .map((edit, order) => ({ ...edit, order }))
    .sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start) || a.order - b.order)
  let out = ''
  let at = 0
  for (const edit of sorted) {
    if (edit.start < at) return undefined
    out += text.slice(at, edit.start) + (crlf ? edit.text.replace(/\r?\n/g, '\r\n') : edit.text)
    at = edit.end
  }
  return out + text.slice(at)
}

/** Changes `node` (whose data is `old`) to hold `neu`, by the smallest edits it can make. */
function diff(ctx: Context, node: unknown, old: unknown, neu: unknown, replace: Replace): boolean {
  if (isDeepStrictEqual(old, neu)) return true
  const mark = ctx.edits.length
  if (isMap(node) && !node.flow && isRecord(old) && isRecord(neu)) {
    if (diffMap(ctx, node, old, neu)) return true
    ctx.edits.length = mark
  }
  if (isSeq(node) && !node.flow && Array.isArray(old) && Array.isArray(neu)) {
    if (diffSeq(ctx, node, old, neu)) return true
    ctx.edits.length = mark
  }
  return replace(neu)
}

function diffMap(
  ctx: Context,
  map: YAMLMap,
  old: Record<string, unknown>,
  neu: Record<string, unknown>,
): boolean {
  const { text } = ctx
  const pairs = map.items
  const first = pairs[0]
  if (!first || Object.keys(neu).length === 0) return false
  const keys: string[] = []
  for (const [index, pair] of pairs.entries()) {
    const key = keyOf(pair)
    if (key === undefined || !isNode(pair.key)) return false
    // Every key but the first (which may follow a list's `- `) opens its own line.
    if (index > 0 && !atLineStart(text, pair.key.range[0])) return false
    keys.push(key)
  }
  if (!isNode(first.key)) return false
  const column = columnOf(text, first.key.range[0])
  const kept = pairs.filter((_, index) => Object.hasOwn(neu, keys[index] ?? ''))
  const firstKept = kept[0]
  if (!firstKept || !isNode(firstKept.key)) return false

  for (const [index, pair] of pairs.entries()) {
    const key = keys[index] ?? ''
    if (!Object.hasOwn(neu, key)) continue
    const replace: Replace = (value) => replacePairValue(ctx, pair, key, value, column)
    if (!diff(ctx, pair.value, old[key], neu[key], replace)) return false
  }

  // Removed keys, in runs of neighbours.
  for (let index = 0; index < pairs.length; index++) {
    if (Object.hasOwn(neu, keys[index] ?? '')) continue
    let last = index
    while (last + 1 < pairs.length && !Object.hasOwn(neu, keys[last + 1] ?? '')) last++
    const from = pairs[index]?.key
    const to = pairs[last]
    const next = pairs[last + 1]
    if (!isNode(from) || !to) return false
    if (index === 0 && !atLineStart(text, from.range[0])) {
      // `- title: …` loses its first key: the next key moves up behind the `- `.
      if (!next || !isNode(next.key)) return false
      ctx.edits.push({ start: from.range[0], end: next.key.range[0], text: '' })
    } else {
      ctx.edits.push({
        start: lineStart(text, from.range[0]),
        end: lineEnd(text, pairEnd(to)),
        text: '',
      })
    }
    index = last
  }

  // Added keys, each after the key that precedes it in the new data, or before the first one.
  const inserts = new Map<Pair | undefined, string[]>()
  let previous: Pair | undefined
  for (const key of Object.keys(neu)) {
    const at = keys.indexOf(key)
    if (at >= 0) {
      previous = pairs[at]
      continue
    }
    const entry = renderEntry(ctx, 'pair', key, neu[key], null, column)
    if (entry === undefined) return false
    const list = inserts.get(previous) ?? []
    list.push(entry)
    inserts.set(previous, list)
  }
  for (const [after, entries] of inserts) {
    if (after) {
      const at = lineEnd(text, pairEnd(after))
      const lead = at === text.length && !text.endsWith('\n') ? '\n' : ''
      const body = entries.map((entry) => ' '.repeat(column) + entry).join('')
      ctx.edits.push({ start: at, end: at, text: lead + body })
    } else {
      const at = firstKept.key.range[0]
      // Behind a `- ` (kept, or left by the removed keys before this one) the new keys go inline.
      if (atLineStart(text, at) && atLineStart(text, first.key.range[0])) {
        const start = lineStart(text, at)
        const body = entries.map((entry) => ' '.repeat(column) + entry).join('')
        ctx.edits.push({ start, end: start, text: body })
      } else {
        const body = entries.join(' '.repeat(column)) + ' '.repeat(column)
        ctx.edits.push({ start: at, end: at, text: body })
      }
    }
  }
  return true
}

function diffSeq(ctx: Context, seq: YAMLSeq, old: unknown[], neu: unknown[]): boolean {
  const { text } = ctx
  const items = seq.items
  if (neu.length === 0 || items.length !== old.length || items.length === 0) return false
  const nodes: Ranged[] = []
  const dashes: number[] = []
  for (const item of items) {
    if (!isNode(item)) return false
    const dash = dashOf(text, item.range[0])
    if (dash < 0) return false
    nodes.push(item)
    dashes.push(dash)
  }
  const column = columnOf(text, dashes[0] ?? 0)
  const matches = commonItems(old, neu)
  if (!matches) return false
  const endOf = (index: number) => nodes[index]?.range[1] ?? 0

  let oldAt = 0
  let newAt = 0
  for (const [oldMatch, newMatch] of [...matches, [old.length, neu.length] as const]) {
    const oldCount = oldMatch - oldAt
    const newCount = newMatch - newAt
    const paired = Math.min(oldCount, newCount)
    for (let k = 0; k < paired; k++) {
      const item = nodes[oldAt + k]
      if (!item) return false
      const replace: Replace = (value) => replaceItem(ctx, item, value, column)
      if (!diff(ctx, item, old[oldAt + k], neu[newAt + k], replace)) return false
    }
    if (oldCount > paired) {
      ctx.edits.push({
        start: lineStart(text, dashes[oldAt + paired] ?? 0),
        end: lineEnd(text, endOf(oldMatch - 1)),
        text: '',
      })
    }
    if (newCount > paired) {
      const entries: string[] = []
      for (const value of neu.slice(newAt + paired, newMatch)) {
        const entry = renderEntry(ctx, 'item', '', value, null, column)
        if (entry === undefined) return false
        entries.push(' '.repeat(column) + entry)
      }
      const before = oldAt + paired - 1
      const at = before >= 0 ? lineEnd(text, endOf(before)) : lineStart(text, dashes[0] ?? 0)
      const lead = at === text.length && !text.endsWith('\n') ? '\n' : ''
      ctx.edits.push({ start: at, end: at, text: lead + entries.join('') })
    }
    oldAt = oldMatch + 1
    newAt = newMatch + 1
  }
  return true
}

/**
 * The items both lists share, in order (a longest common subsequence), as index pairs; so an
 * added or removed section leaves its unchanged neighbours alone.
 */
function commonItems(old: unknown[], neu: unknown[]): [number, number][] | undefined {
  const n = old.length
  const m = neu.length
  if (n * m > 250_000) return undefined
  const table = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0))
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as number[]
    const below = table[i + 1] as number[]
    for (let j = m - 1; j >= 0; j--) {
      row[j] = isDeepStrictEqual(old[i], neu[j])
        ? (below[j + 1] ?? 0) + 1
        : Math.max(below[j] ?? 0, row[j + 1] ?? 0)
    }
  }
  const pairs: [number, number][] = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (isDeepStrictEqual(old[i], neu[j])) {
      pairs.push([i, j])
      i++
      j++
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) i++
    else j++
  }
  return pairs
}

function replacePairValue(
  ctx: Context,
  pair: Pair,
  key: string,
  value: unknown,
  column: number,
): boolean {
  const { text } = ctx
  const node = pair.value
  if (!isNode(pair.key) || !isNode(node)) return false
  const colon = colonAfter(text, pair.key.range[1])
  if (colon < 0) return false
  // Rendered under a stand-in key as long as the real one (which may need quotes), so that
  // what follows its colon is easy to cut out.
  const standIn = 'k'.repeat(key.length || 1)
  const rendered = renderEntry(ctx, 'pair', standIn, value, node, column)
  if (rendered === undefined) return false
  const out = rendered.slice(standIn.length + 1)
  return splice(ctx, colon + 1, node.range[1], keepFoldedLines(ctx, node, value, out, column))
}

function replaceItem(ctx: Context, item: Ranged, value: unknown, column: number): boolean {
  const rendered = renderEntry(ctx, 'item', '', value, item, column)
  if (rendered === undefined) return false
  const out = rendered.slice(2)
  return splice(ctx, item.range[0], item.range[1], keepFoldedLines(ctx, item, value, out, column))
}

/**
 * An edit inside a folded paragraph keeps the lines before and after it as they were broken,
 * and folds only the changed words anew: re-folding the whole paragraph would move line breaks
 * (the stored ones were not all made at one width) and show unchanged words as changed.
 * Falls back to `rendered`, the whole paragraph folded anew.
 */
function keepFoldedLines(
  ctx: Context,
  original: Ranged,
  value: unknown,
  rendered: string,
  column: number,
): string {
  const header = /^ ?>-?\n/.exec(rendered)?.[0]
  if (!header || !isScalar(original) || original.type !== Scalar.BLOCK_FOLDED) return rendered
  if (typeof value !== 'string') return rendered
  const core = value.replace(/\n+$/, '')
  const source = ctx.text.slice(original.range[0], original.range[1]).split('\n').slice(1, -1)
  const indent = /^ */.exec(source[0] ?? '')?.[0] ?? ''
  const lines = source.map((line) => line.slice(indent.length))
  const simple = (line: string) => /^\S(.*\S)?$/.test(line)
  if (
    core.includes('\n') ||
    !indent ||
    !source.every((line, i) => line.startsWith(indent) && simple(lines[i] ?? ''))
  ) {
    return rendered
  }
  // The most lines at the start, then at the end, whose words the new text still has.
  let head = 0
  while (head < lines.length && core.startsWith(`${lines.slice(0, head + 1).join(' ')} `)) head++
  let tail = 0
  const prefix = () => (head > 0 ? lines.slice(0, head).join(' ').length + 1 : 0)
  const suffix = (count: number) =>
    count > 0 ? lines.slice(lines.length - count).join(' ').length + 1 : 0
  while (
    head + tail < lines.length &&
    core.endsWith(` ${lines.slice(lines.length - tail - 1).join(' ')}`) &&
    prefix() + suffix(tail + 1) < core.length
  ) {
    tail++
  }
  // Words only added between two lines join the line before them (or after, at the start).
  if (head + tail === lines.length) {
    if (head > 0) head--
    else tail--
  }
  const middle = core.slice(prefix(), core.length - suffix(tail))
  if (!simple(middle) || (head === 0 && tail === 0)) return rendered
  const folded = renderEntry(ctx, 'pair', 'k', middle, original, column)
  if (!folded?.startsWith('k: >-\n')) return rendered
  const middleLines = folded
    .split('\n')
    .slice(1, -1)
    .map((line) => line.trimStart())
  const body = [...lines.slice(0, head), ...middleLines, ...lines.slice(lines.length - tail)]
  const out = `${header}${body.map((line) => indent + line).join('\n')}\n`
  return isDeepStrictEqual(parseYaml(`k:${out.startsWith(' ') ? '' : ' '}${out}`), { k: value })
    ? out
    : rendered
}

/**
 * Replaces a value's source by `out` (which ends with a line break). A value that ended inside
 * its line keeps the rest of that line, unless the new one needs lines of its own; a trailing
 * comment then moves behind the block's header.
 */
function splice(ctx: Context, start: number, end: number, out: string): boolean {
  const { text } = ctx
  const endsLine = end > 0 && text[end - 1] === '\n'
  if (endsLine) {
    ctx.edits.push({ start, end, text: out })
    return true
  }
  const single = out.slice(0, -1)
  if (!single.includes('\n')) {
    ctx.edits.push({ start, end, text: single })
    return true
  }
  const stop = lineEnd(text, end)
  const rest = text.slice(end, stop).trim()
  let body = out
  if (rest.startsWith('#')) {
    const headerEnd = out.startsWith('\n') ? 0 : out.indexOf('\n')
    body = `${out.slice(0, headerEnd)} ${rest}${out.slice(headerEnd)}`
  } else if (rest !== '') return false
  ctx.edits.push({
    start,
    end: stop,
    text: stop === text.length && !text.endsWith('\n') ? body.slice(0, -1) : body,
  })
  return true
}

/**
 * One entry as YAML text: `key: value` or `- value`, its later lines indented to `column`,
 * ending with a line break. A changed text keeps the style of the one it replaces (`original`);
 * a new text gets a block style when it is long or has line breaks.
 */
function renderEntry(
  ctx: Context,
  kind: 'pair' | 'item',
  key: string,
  value: unknown,
  original: Ranged | null,
  column: number,
): string | undefined {
  const width = foldWidth(ctx.text, original)
  for (const quoteAll of [false, true]) {
    const doc = new Document(undefined, {
      customTags: (tags) =>
        tags.map((tag) => (tag === stringTag ? foldingAt(width - column) : tag)),
    })
    const node = doc.createNode(value)
    const start = column + (kind === 'pair' ? key.length + 2 : 2)
    styleNew(node, start, quoteAll)
    if (isScalar(node) && typeof node.value === 'string' && isScalar(original)) {
      node.type = keptStyle(original.type, node.value, quoteAll)
    }
    // A list written `[a, b]` stays on its line.
    const flow = (isMap(original) || isSeq(original)) && original.flow === true
    if (flow && (isMap(node) || isSeq(node)) && isMap(node) === isMap(original)) node.flow = true
    const holder = kind === 'pair' ? new YAMLMap() : new YAMLSeq()
    if (holder instanceof YAMLMap) holder.items.push(new Pair(new Scalar(key), node))
    else holder.items.push(node)
    doc.contents = holder
    const out = doc.toString({
      lineWidth: 0,
      indent: 2,
      indentSeq: ctx.indentSeq,
      flowCollectionPadding: flow && !!original && ctx.text[original.range[0] + 1] === ' ',
    })
    // The text must read back as the value on its own; a plain text the store's parser would
    // read as something else (a number, say) is quoted on the second try.
    const expected = kind === 'pair' ? { [key]: value } : [value]
    if (isDeepStrictEqual(parseYaml(out), expected)) return shift(out, column)
  }
  return undefined
}

/** A string tag that folds `>` texts at `width` while every other text keeps its line. */
function foldingAt(width: number): ScalarTag {
  return {
    ...stringTag,
    stringify(item, ctx, onComment, onChompKeep) {
      const folded = isScalar(item) && item.type === Scalar.BLOCK_FOLDED
      const options = folded ? { ...ctx.options, lineWidth: Math.max(width, 40) } : ctx.options
      return stringTag.stringify?.(item, { ...ctx, options }, onComment, onChompKeep) ?? ''
    },
  }
}

/** The width a changed folded text was wrapped at, so its new lines break alike. */
function foldWidth(text: string, original: Ranged | null): number {
  if (!isScalar(original) || !isNode(original) || original.type !== Scalar.BLOCK_FOLDED) {
    return FOLD_WIDTH
  }
  const lines = text.slice(original.range[0], original.range[1]).split('\n').slice(1, -1)
  if (lines.length < 2) return FOLD_WIDTH
  return Math.max(...lines.map((line) => line.length))
}

function keptStyle(type: Scalar.Type | undefined, value: string, quoteAll: boolean): Scalar.Type {
  if (type === Scalar.BLOCK_FOLDED || type === Scalar.BLOCK_LITERAL) return type
  if (value.includes('\n')) return Scalar.BLOCK_LITERAL
  if (quoteAll) return Scalar.QUOTE_DOUBLE
  return type ?? Scalar.PLAIN
}

/** Styles for texts new to the file: block styles for long or multi-line ones. */
function styleNew(node: unknown, start: number, quoteAll: boolean): void {
  const style = (scalar: Scalar, column: number) => {
    if (typeof scalar.value !== 'string') return
    if (scalar.value.includes('\n')) scalar.type = Scalar.BLOCK_LITERAL
    else if (column + scalar.value.length > FOLD_WIDTH) scalar.type = Scalar.BLOCK_FOLDED
    else if (quoteAll) scalar.type = Scalar.QUOTE_DOUBLE
  }
  if (isScalar(node)) {
    style(node, start)
    return
  }
  if (!isMap(node) && !isSeq(node)) return
  visit(node, {
    Scalar(key, scalar, path) {
      if (key === 'key') return
      const depth = path.filter((step) => isMap(step) || isSeq(step)).length
      style(scalar, start + 2 * depth)
    },
  })
}

/** Indents every line but the first by `column`; empty lines stay empty. */
function shift(text: string, column: number): string {
  const pad = ' '.repeat(column)
  return text.replace(/\n(?=.)/g, `\n${pad}`)
}

function seqIndented(text: string, root: YAMLMap): boolean {
  let indented = true
  visit(root, {
    Pair(_, pair) {
      if (isSeq(pair.value) && !pair.value.flow && isNode(pair.key)) {
        const item = pair.value.items[0]
        if (!isNode(item)) return
        const dash = dashOf(text, item.range[0])
        if (dash < 0) return
        indented = columnOf(text, dash) > columnOf(text, pair.key.range[0])
        return visit.BREAK
      }
    },
  })
  return indented
}

function keyOf(pair: Pair): string | undefined {
  const key = pair.key
  if (!isScalar(key)) return undefined
  return typeof key.value === 'string' ||
    typeof key.value === 'number' ||
    typeof key.value === 'boolean'
    ? String(key.value)
    : undefined
}

function pairEnd(pair: Pair): number {
  if (isNode(pair.value)) return pair.value.range[1]
  return isNode(pair.key) ? pair.key.range[1] : 0
}

/** The position of the `-` that opens the list item starting at `at`, if on the same line. */
function dashOf(text: string, at: number): number {
  let i = at - 1
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--
  if (text[i] !== '-' || i === at - 1) return -1
  return atLineStart(text, i) ? i : -1
}

function colonAfter(text: string, at: number): number {
  let i = at
  while (text[i] === ' ' || text[i] === '\t') i++
  return text[i] === ':' ? i : -1
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1
}

/** The start of the line after the one `at` is on (`at` itself when it starts a line). */
function lineEnd(text: string, at: number): number {
  if (at > 0 && text[at - 1] === '\n') return at
  const next = text.indexOf('\n', at)
  return next < 0 ? text.length : next + 1
}

function columnOf(text: string, at: number): number {
  return at - lineStart(text, at)
}

function atLineStart(text: string, at: number): boolean {
  return /^ *$/.test(text.slice(lineStart(text, at), at))
}

type Ranged = Node & { range: [number, number, number] }

function isNode(value: unknown): value is Ranged {
  return (isScalar(value) || isMap(value) || isSeq(value) || isAlias(value)) && !!value.range
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
