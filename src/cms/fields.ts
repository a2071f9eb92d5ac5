/**
 * Decap CMS fields generated from the content model's zod schemas: every field the schema
 * knows, with its editor (text, Markdown, date, image, select, list, reference), whether it is
 * required, its hint and length limit. Nothing is written twice, so the CMS can never offer a
 * field the build rejects, or drop one the build needs.
 */
import type { z } from 'zod'
import type { CollectionName } from '../content/schema/collection-name'
import { type EditorMeta, editorMeta } from '../content/schema/editor'

export interface CmsField {
  name: string
  label: string
  /** A list's one item, as Decap names it ("Add section", "1 section"). */
  label_singular?: string
  widget: string
  required?: boolean
  hint?: string
  default?: unknown
  i18n?: boolean | 'duplicate'
  pattern?: [string, string]
  options?: readonly (string | Choice)[]
  value_type?: 'int' | 'float'
  fields?: CmsField[]
  field?: CmsField
  types?: CmsField[]
  typeKey?: string
  summary?: string
  collapsed?: boolean
  minimize_collapsed?: boolean
  min?: number
  max?: number
  format?: string
  date_format?: string
  time_format?: boolean
  picker_utc?: boolean
  multiple?: boolean
  choose_url?: boolean
}

/** An entry a reference field may name: its name, shown by its title. */
export interface Choice {
  label: string
  value: string
}

export interface FieldOptions {
  /** Mark every field translatable (collections with an entry per language). */
  i18n: boolean
  /** The entries of each content type a field may name. */
  references: Partial<Record<CollectionName, readonly Choice[]>>
}

/** Long texts get a text area; short ones a single line. */
const SINGLE_LINE_MAX = 200

interface ZodDef {
  type: string
  innerType?: z.ZodType
  defaultValue?: unknown
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  options?: z.ZodType[]
  discriminator?: string
  entries?: Record<string, string>
  values?: unknown[]
  in?: z.ZodType
  out?: z.ZodType
  checks?: { _zod: { def: Record<string, unknown> } }[]
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def

/** "contactBank" → "Contact bank". */
export function labelOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

interface Unwrapped {
  schema: z.ZodType
  required: boolean
  default?: unknown
  meta: EditorMeta
}

/** Strips optional and default wrappers, collecting what they say and the editor metadata. */
function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema
  let required = true
  let fallback: unknown
  let meta: EditorMeta = { ...editorMeta.get(current) }
  for (;;) {
    const def = defOf(current)
    if (def.type === 'optional' && def.innerType) required = false
    else if (def.type === 'default' && def.innerType) {
      required = false
      fallback = typeof def.defaultValue === 'function' ? def.defaultValue() : def.defaultValue
    } else break
    current = def.innerType
    meta = { ...editorMeta.get(current), ...meta }
  }
  return { schema: current, required, default: fallback, meta }
}

function maxLength(schema: z.ZodType): number | undefined {
  for (const check of defOf(schema).checks ?? []) {
    const def = check._zod.def
    if (def.check === 'max_length' && typeof def.maximum === 'number') return def.maximum
  }
  return undefined
}

function isInteger(schema: z.ZodType): boolean {
  return (defOf(schema).checks ?? []).some(
    (check) => check._zod.def.check === 'number_format' && check._zod.def.format === 'safeint',
  )
}

/** The Decap field for one schema field. */
export function toField(name: string, schema: z.ZodType, options: FieldOptions): CmsField {
  const { schema: inner, required, default: fallback, meta } = unwrap(schema)
  const def = defOf(inner)
  const field: CmsField = { name, label: labelOf(name), widget: 'string' }
  if (!required || meta.filledOnSave) field.required = false
  if (fallback !== undefined && !(Array.isArray(fallback) && fallback.length === 0)) {
    field.default = fallback
  }
  if (meta.hint) field.hint = meta.hint
  // A twin's address is one for both languages: set once, copied to the other.
  if (options.i18n) field.i18n = meta.sameInEveryLanguage ? 'duplicate' : true

  if (meta.reference) {
    const choices = options.references[meta.reference]
    if (!choices) throw new Error(`no entries listed for the content type "${meta.reference}"`)
    return {
      ...field,
      // A select, not Decap's relation widget: that one marks every entry it shows as changed.
      widget: 'select',
      options: choices,
      // The entry named is the same in every language: chosen once, copied to the twin.
      ...(options.i18n ? { i18n: 'duplicate' as const } : {}),
    }
  }
  // Rich text and raw Markdown both keep what the build renders, tables included.
  if (meta.widget === 'markdown') return { ...field, widget: 'markdown' }
  if (meta.widget === 'date') {
    return {
      ...field,
      widget: 'datetime',
      format: 'YYYY-MM-DD',
      date_format: 'YYYY-MM-DD',
      time_format: false,
      picker_utc: true,
    }
  }
  if (meta.widget === 'image' && def.shape) {
    const { src, ...rest } = def.shape
    if (!src) throw new Error(`field "${name}": an image needs a "src" field`)
    return {
      ...field,
      widget: 'object',
      fields: [
        { ...toField('src', src, options), widget: 'image', label: 'Image', choose_url: false },
        ...Object.entries(rest).map(([key, value]) => toField(key, value, options)),
      ],
    }
  }

  switch (def.type) {
    case 'string': {
      const max = maxLength(inner)
      if (max !== undefined) {
        field.pattern = [`^[\\s\\S]{0,${max}}$`, `At most ${max} characters`]
        if (max > SINGLE_LINE_MAX) field.widget = 'text'
      }
      return field
    }
    case 'number':
      return { ...field, widget: 'number', value_type: isInteger(inner) ? 'int' : 'float' }
    case 'boolean':
      return { ...field, widget: 'boolean', required: false }
    case 'enum':
      return { ...field, widget: 'select', options: Object.values(def.entries ?? {}) }
    case 'literal':
      return { ...field, widget: 'hidden', default: def.values?.[0] }
    case 'object':
      return { ...field, widget: 'object', fields: objectFields(inner, options) }
    case 'array':
      return listField(field, def.element as z.ZodType, options)
    default:
      throw new Error(`field "${name}": no CMS editor for a ${def.type} schema`)
  }
}

/** The fields of an object schema, in the schema's order (which is the files' order too). */
export function objectFields(schema: z.ZodType, options: FieldOptions): CmsField[] {
  const shape = defOf(schema).shape
  if (!shape) throw new Error('expected an object schema')
  return Object.entries(shape).map(([key, value]) => toField(key, value, options))
}

function listField(field: CmsField, element: z.ZodType, options: FieldOptions): CmsField {
  const item = unwrap(element)
  const def = defOf(item.schema)
  if (item.meta.reference) {
    const { hint, required, label, name } = field
    return { ...toField(name, element, options), label, multiple: true, hint, required }
  }
  const list: CmsField = { ...field, widget: 'list', collapsed: true, minimize_collapsed: true }
  if (def.type === 'union' && def.discriminator && def.options) {
    const key = def.discriminator
    return {
      ...list,
      typeKey: key,
      types: def.options.map((option) => {
        const shape = defOf(option).shape ?? {}
        const kind = defOf(shape[key] as z.ZodType).values?.[0]
        if (typeof kind !== 'string') throw new Error(`field "${field.name}": a type without name`)
        return {
          name: kind,
          label: labelOf(kind),
          widget: 'object',
          ...(options.i18n ? { i18n: true } : {}),
          fields: Object.entries(shape)
            .filter(([name]) => name !== key)
            .map(([name, value]) => toField(name, value, options)),
        }
      }),
    }
  }
  if (def.type === 'object' && !item.meta.widget) {
    const fields = objectFields(item.schema, options)
    const first = fields.find((candidate) => candidate.widget === 'string')
    return { ...list, fields, ...(first ? { summary: `{{fields.${first.name}}}` } : {}) }
  }
  return { ...list, field: toField(singular(field.name), element, options) }
}

function singular(name: string): string {
  if (name === 'rows') return 'row'
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`
  return name.endsWith('s') ? name.slice(0, -1) : `${name}Item`
}
