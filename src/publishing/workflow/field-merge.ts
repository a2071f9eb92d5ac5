/**
 * A three-way merge of one content file, field by field: what a draft restarted on main keeps
 * of main's newer changes. Git merges lines; an entry is data, and the editor sends it whole,
 * so a draft saved again after main changed the same file would otherwise put back every
 * field as the draft began with it, undoing main's change to fields the draft never touched.
 */
import { isDeepStrictEqual } from 'node:util'
import { CMS_CONTENT_ROOT } from '../../cms/paths'
import { formatContentFile } from '../../content/file-format'
import { parseContentFile } from '../../content/file-store'

type Fields = Record<string, unknown>

export interface FieldMerge {
  /** The merged fields. */
  merged: Fields
  /** Fields (dotted paths) both sides changed, differently: the draft's value is kept. */
  overridden: string[]
}

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Merges `ours` (the draft) and `theirs` (main) from their common `base`: a field changed on
 * one side only takes that side's value (removed if that side removed it); a field both
 * changed alike is kept; nested fields merge alike; a list or text both changed differently
 * keeps the draft's value, named in `overridden`. Field order follows the draft, then fields
 * only main has.
 */
export function mergeFields(base: Fields, ours: Fields, theirs: Fields, at = ''): FieldMerge {
  // Entries, not an object built by assignment: a field named like one of Object's own
  // (`constructor`, `__proto__`) is a field like any other.
  const merged: [string, unknown][] = []
  const overridden: string[] = []
  const own = (fields: Fields, key: string) =>
    Object.hasOwn(fields, key) ? fields[key] : undefined
  const keys = [
    ...Object.keys(ours),
    ...Object.keys(theirs).filter((key) => !Object.hasOwn(ours, key)),
  ]
  for (const key of keys) {
    const path = at ? `${at}.${key}` : key
    const [b, o, t] = [own(base, key), own(ours, key), own(theirs, key)]
    let value: unknown
    if (isDeepStrictEqual(o, b)) value = t
    else if (isDeepStrictEqual(t, b) || isDeepStrictEqual(o, t)) value = o
    else if (isFields(o) && isFields(t)) {
      const inner = mergeFields(isFields(b) ? b : {}, o, t, path)
      value = inner.merged
      overridden.push(...inner.overridden)
    } else {
      value = o
      overridden.push(path)
    }
    if (value !== undefined) merged.push([key, value])
  }
  return { merged: Object.fromEntries(merged), overridden }
}

const normalBody = (body: string) =>
  body
    .replace(/\r\n?/g, '\n')
    .replace(/^\s*\n/, '')
    .trimEnd()

/**
 * The draft's file merged with main's newer version of it, when both are content documents
 * (YAML, or Markdown with front matter) that read: the text to write and the fields where
 * the draft's value replaced main's. Undefined when the file is no such document (an image, a
 * data table, a file that does not read): the draft's version is kept whole then.
 */
export function mergeContentFile(
  path: string,
  base: Buffer | undefined,
  ours: Buffer,
  theirs: Buffer,
): { content: Buffer; overridden: string[] } | undefined {
  if (!path.startsWith(`${CMS_CONTENT_ROOT}/`) || !/\.(ya?ml|md)$/.test(path)) return undefined
  const file = path.slice(CMS_CONTENT_ROOT.length + 1)
  const read = (source: Buffer | undefined) => {
    if (!source) return {}
    const parsed = parseContentFile(file, source.toString('utf8'))
    if (!('document' in parsed) || !isFields(parsed.document.data)) return undefined
    const data = parsed.document.data
    // A post's body as the store writes it (formatContentFile): line ends, a blank line after
    // the front matter and trailing space are no change of the text.
    return typeof data.body === 'string' ? { ...data, body: normalBody(data.body) } : data
  }
  const [b, o, t] = [read(base), read(ours), read(theirs)]
  if (!b || !o || !t) return undefined
  const { merged, overridden } = mergeFields(b, o, t)
  return { content: Buffer.from(formatContentFile(file, merged)), overridden }
}
