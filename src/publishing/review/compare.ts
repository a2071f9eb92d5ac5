/**
 * A draft's change as a reviewer from marketing reads it: by field, not by file. Each content
 * file is read as data (as the build reads it), so a save that only reformatted a field shows
 * nothing, and each field that changed is named by its label in the reviewer's language, with
 * the old and the new value and the changed words marked. Long texts (Markdown, or any text of
 * several paragraphs) are compared paragraph by paragraph as they read, without their markup;
 * image fields are shown as images. Pure: the page and the editor render what this returns.
 */
import { fieldLabel, sectionTypeLabel } from '../../cms/field-labels'
import { parseContentFile } from '../../content/file-store'
import type { EditorLanguage } from '../people/roles'
import { diffSequences, diffWords, type Segment } from './sequence-diff'

export type { Segment } from './sequence-diff'

/** One paragraph of a long text: kept (not shown), added, removed or changed in words. */
export interface ParagraphChange {
  kind: 'added' | 'removed' | 'changed'
  before?: Segment[]
  after?: Segment[]
}

/** One field that changed, as the reviewer reads it. */
export interface FieldChange {
  /** Where in the file: `sections.2.features.0.text`. */
  path: string
  /** The same, in the reviewer's words: "Sections › 3 (Feature grid) › Features › 1 › Text". */
  label: string
  change: 'added' | 'removed' | 'changed'
  /** How it is shown: words marked, paragraphs, images, or a value as it is. */
  kind: 'text' | 'paragraphs' | 'image' | 'value'
  /** The old and the new value as text (an image's address; a list's items joined). */
  before?: string
  after?: string
  /** For `text`: the old with removed words marked, the new with added ones. */
  words?: { before: Segment[]; after: Segment[] }
  /** For `paragraphs`: the paragraphs that changed, in order. */
  paragraphs?: ParagraphChange[]
}

/** A file of the draft as the reviewer reads it. */
export interface FileReview {
  path: string
  change: 'added' | 'removed' | 'changed'
  /** Its fields that changed; none for a file that is no content (an image, a drawing). */
  fields: FieldChange[]
  /** Set when the file could not be read as data: the reason, and the file is shown as text. */
  unreadable?: string
  /** The entry's title (as the draft has it, or had it before a deletion): drafts are named by it. */
  title?: string
}

/** Files read as content data; anything else is shown as an image or a file. */
const CONTENT_FILE = /\.(ya?ml|md)$/i
const IMAGE_VALUE = /^\/?images\/[^\s?#]+\.(svg|png|jpe?g|webp|avif)$/i

type Data = unknown

const isMap = (value: Data): value is Record<string, Data> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Deep equality of parsed YAML data (maps, lists, scalars, dates). */
function same(a: Data, b: Data): boolean {
  if (a === b) return true
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime()
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => same(item, b[index]))
  }
  if (isMap(a) && isMap(b)) {
    const keys = Object.keys(a)
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && same(a[key], b[key]))
    )
  }
  return false
}

/** A value as a reviewer reads it: text as it is, a date by day, a list of values joined. */
function asText(value: Data): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString().slice(0, 10)
  if (Array.isArray(value)) return value.map(asText).join(', ')
  if (isMap(value)) return JSON.stringify(value)
  return String(value)
}

/** Whether a value is a leaf a reviewer reads whole: a scalar, or a list of scalars. */
const isLeaf = (value: Data) =>
  !isMap(value) &&
  !(Array.isArray(value) && value.some((item) => isMap(item) || Array.isArray(item)))

/** A long text read as paragraphs: Markdown, or any text with a blank line in it. */
const isLong = (key: string, value: Data) =>
  typeof value === 'string' && (key === 'body' || /\n\s*\n/.test(value))

/**
 * A paragraph of Markdown as it reads on the page: no heading marks, emphasis or code marks;
 * a link as its text with its address after it (a changed address is a change to review).
 */
export function readable(paragraph: string): string {
  return paragraph
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '• ')
        .replace(/^\s*>\s?/, ''),
    )
    .join(' ')
    .replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, '[$1: $2]')
    .replace(/\[([^\]]+)\]\(([^)\s]+)[^)]*\)/g, '$1 ($2)')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\p{L}\p{N}])[*_](\S(?:.*?\S)?)[*_](?=[^\p{L}\p{N}]|$)/gu, '$1$2')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
}

const paragraphsOf = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map(readable)
    .filter((paragraph) => paragraph.length > 0)

/** The paragraphs of a long text that changed: added, removed, or changed word by word. */
export function compareParagraphs(before: string, after: string): ParagraphChange[] {
  const changes: ParagraphChange[] = []
  const removed: string[] = []
  const added: string[] = []
  // A run of removed and added paragraphs is paired up in order: changed ones, then the rest.
  const flush = () => {
    const pairs = Math.min(removed.length, added.length)
    for (let index = 0; index < pairs; index++) {
      changes.push({ kind: 'changed', ...diffWords(removed[index] ?? '', added[index] ?? '') })
    }
    for (const text of removed.slice(pairs)) {
      changes.push({ kind: 'removed', before: [{ kind: 'removed', text }] })
    }
    for (const text of added.slice(pairs)) {
      changes.push({ kind: 'added', after: [{ kind: 'added', text }] })
    }
    removed.length = 0
    added.length = 0
  }
  for (const step of diffSequences(paragraphsOf(before), paragraphsOf(after))) {
    if (step.kind === 'same') flush()
    else if (step.kind === 'removed') removed.push(step.before)
    else added.push(step.after)
  }
  flush()
  return changes
}

interface Walk {
  language: EditorLanguage
  changes: FieldChange[]
}

/** The label of a place in the data: each key by its label, each item by its number and type. */
function labelOf(segments: readonly (string | number)[], items: readonly Data[], walk: Walk) {
  return segments
    .map((segment, index) => {
      if (typeof segment === 'string') return fieldLabel(segment, walk.language)
      const item = items[index]
      const type = isMap(item) && typeof item.type === 'string' ? item.type : undefined
      return `${segment + 1}${type ? ` (${sectionTypeLabel(type, walk.language)})` : ''}`
    })
    .join(' › ')
}

/** One leaf that changed (or came, or went), in the form that shows it best. */
function leaf(
  segments: readonly (string | number)[],
  items: readonly Data[],
  before: Data,
  after: Data,
  walk: Walk,
) {
  const key = [...segments].reverse().find((segment) => typeof segment === 'string') ?? ''
  const change = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed'
  const old = before === undefined ? undefined : asText(before)
  const now = after === undefined ? undefined : asText(after)
  const base = {
    path: segments.join('.'),
    label: labelOf(segments, items, walk),
    change,
    ...(old === undefined ? {} : { before: old }),
    ...(now === undefined ? {} : { after: now }),
  } as const
  if ([old, now].some((value) => value !== undefined && IMAGE_VALUE.test(value))) {
    walk.changes.push({ ...base, kind: 'image' })
  } else if (isLong(String(key), before) || isLong(String(key), after)) {
    walk.changes.push({
      ...base,
      kind: 'paragraphs',
      paragraphs: compareParagraphs(old ?? '', now ?? ''),
    })
  } else if (typeof (before ?? after) === 'string' || typeof (before ?? after) === 'number') {
    walk.changes.push({ ...base, kind: 'text', words: diffWords(old ?? '', now ?? '') })
  } else {
    walk.changes.push({ ...base, kind: 'value' })
  }
}

/** Every field where `before` and `after` differ, depth first in the order of the new data. */
function walkData(
  segments: (string | number)[],
  items: Data[],
  before: Data,
  after: Data,
  walk: Walk,
): void {
  if (before !== undefined && after !== undefined && same(before, after)) return
  // A map on one side and a value on the other is one field that changed its kind.
  const mapAndValue =
    (isMap(before) && after !== undefined && !isMap(after)) ||
    (isMap(after) && before !== undefined && !isMap(before))
  if ((isMap(before) || isMap(after)) && !mapAndValue) {
    const old = isMap(before) ? before : {}
    const now = isMap(after) ? after : {}
    const keys = [
      ...Object.keys(now),
      ...Object.keys(old).filter((key) => !Object.hasOwn(now, key)),
    ]
    for (const key of keys) {
      walkData([...segments, key], [...items, undefined], old[key], now[key], walk)
    }
    return
  }
  const list = (value: Data) => (Array.isArray(value) ? value : undefined)
  const old = list(before)
  const now = list(after)
  const listAndValue =
    (old === undefined && before !== undefined) || (now === undefined && after !== undefined)
  if (!mapAndValue && !listAndValue && (old ?? now) && !isLeaf(old ?? now)) {
    // Items are paired by what stayed: an item put in between does not make all after it
    // "changed"; a run of removed and added items is paired up in order as changed ones.
    const removed: { index: number; item: Data }[] = []
    const added: { index: number; item: Data }[] = []
    const flush = () => {
      const pairs = Math.min(removed.length, added.length)
      for (let index = 0; index < pairs; index++) {
        const was = removed[index]
        const is = added[index]
        if (!was || !is) continue
        walkData([...segments, is.index], [...items, is.item], was.item, is.item, walk)
      }
      for (const was of removed.slice(pairs)) {
        walkData([...segments, was.index], [...items, was.item], was.item, undefined, walk)
      }
      for (const is of added.slice(pairs)) {
        walkData([...segments, is.index], [...items, is.item], undefined, is.item, walk)
      }
      removed.length = 0
      added.length = 0
    }
    const indexed = (value: readonly Data[] | undefined) =>
      (value ?? []).map((item, index) => ({ index, item }))
    for (const step of diffSequences(indexed(old), indexed(now), (a, b) => same(a.item, b.item))) {
      if (step.kind === 'same') flush()
      else if (step.kind === 'removed') removed.push(step.before)
      else added.push(step.after)
    }
    flush()
    return
  }
  leaf(segments, items, before, after, walk)
}

/** The data of a content file, or why it cannot be read. */
function dataOf(path: string, text: string | null): { data: Data } | { problem: string } {
  if (text === null) return { data: undefined }
  const parsed = parseContentFile(path, text)
  if ('problem' in parsed) return { problem: parsed.problem.message }
  return { data: parsed.document.data }
}

/** The title of the entry a content file holds, where it has one. */
export function entryTitle(path: string, text: string | null): string | undefined {
  return CONTENT_FILE.test(path) ? titleOf(dataOf(path, text)).title : undefined
}

/** An entry's title, where its data has one. */
function titleOf(read: { data: Data } | { problem: string }): { title?: string } {
  if (!('data' in read) || !isMap(read.data)) return {}
  const { title } = read.data
  return typeof title === 'string' && title.trim() ? { title: title.trim() } : {}
}

/**
 * A file of a draft as its reviewer reads it: for content, every field that changed between
 * `before` (the live version; `null` for a new file) and `after` (`null`: the file is deleted).
 */
export function compareFile(
  path: string,
  before: string | null,
  after: string | null,
  language: EditorLanguage,
): FileReview {
  const change = before === null ? 'added' : after === null ? 'removed' : 'changed'
  if (!CONTENT_FILE.test(path)) return { path, change, fields: [] }
  const old = dataOf(path, before)
  // A file that goes is named, not read field by field: all of it goes.
  if (after === null) return { path, change, fields: [], ...titleOf(old) }
  const now = dataOf(path, after)
  if ('problem' in old || 'problem' in now) {
    const problem = 'problem' in now ? now.problem : 'problem' in old ? old.problem : ''
    return { path, change, fields: [], unreadable: problem }
  }
  const walk: Walk = { language, changes: [] }
  walkData([], [], old.data, now.data, walk)
  return { path, change, fields: walk.changes, ...titleOf(now) }
}
