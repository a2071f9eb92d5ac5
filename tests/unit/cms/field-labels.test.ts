import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cmsConfig } from '../../../src/cms/config'
import {
  fieldLabel,
  GERMAN_FIELD_LABELS,
  GERMAN_TYPE_LABELS,
  sectionTypeLabel,
} from '../../../src/cms/field-labels'
import { type CmsField, labelOf } from '../../../src/cms/fields'
import { listContentFiles, parseContentFile } from '../../../src/content/file-store'
import type { ContentDocument } from '../../../src/content/source'
import { ROOT } from '../../../src/engine/config'

const CONTENT = join(ROOT, 'content')

const parsed = await Promise.all(
  (await listContentFiles(CONTENT)).map(async (file) =>
    parseContentFile(file, await readFile(join(CONTENT, file), 'utf8')),
  ),
)
const documents: ContentDocument[] = parsed.flatMap((result) =>
  'document' in result ? [result.document] : [],
)

/** Each name with the first place it occurs, so that a missing label says where to look. */
type Found = Map<string, string>

const note = (found: Found, name: string, at: string) => {
  if (!found.has(name)) found.set(name, at)
}

/** Every key of the stored content (Markdown: its front matter), and every `type` value. */
function contentNames(): { fields: Found; types: Found } {
  const fields: Found = new Map()
  const types: Found = new Map()
  const walk = (value: unknown, at: string): void => {
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) walk(item, `${at} › ${index}`)
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        note(fields, key, `${at} › ${key}`)
        if (key === 'type' && typeof inner === 'string') note(types, inner, at)
        walk(inner, `${at} › ${key}`)
      }
    }
  }
  for (const document of documents) walk(document.data, document.file)
  return { fields, types }
}

interface CollectionConfig {
  name: string
  fields?: CmsField[]
  files?: { name: string; fields: CmsField[] }[]
}

interface FieldList {
  at: string
  fields: CmsField[]
  /** The types of a list of sections or questions, not fields. */
  types?: true
}

/** Every list of sibling fields the CMS shows (an entry's, an object's, a list item's, a type's). */
function fieldLists(collections: readonly CollectionConfig[]): FieldList[] {
  const lists: FieldList[] = []
  const walk = (fields: CmsField[], at: string): void => {
    lists.push({ at, fields })
    for (const field of fields) {
      const path = `${at} › ${field.name}`
      if (field.fields) walk(field.fields, path)
      if (field.field) walk([field.field], path)
      if (field.types) {
        lists.push({ at: path, fields: field.types, types: true })
        for (const type of field.types) walk(type.fields ?? [], `${path} › ${type.name}`)
      }
    }
  }
  for (const collection of collections) {
    if (collection.fields) walk(collection.fields, collection.name)
    for (const file of collection.files ?? [])
      walk(file.fields, `${collection.name} › ${file.name}`)
  }
  return lists
}

/** Every field name and type name the CMS configuration generates from the content schemas. */
function configNames(collections: readonly CollectionConfig[]): { fields: Found; types: Found } {
  const fields: Found = new Map()
  const types: Found = new Map()
  for (const { at, fields: list, types: isTypes } of fieldLists(collections)) {
    for (const field of list) {
      if (isTypes) note(types, field.name, at)
      else note(fields, field.name, at)
      if (field.typeKey) note(fields, field.typeKey, `${at} › ${field.name}`)
    }
  }
  return { fields, types }
}

/** The names without a German label, each with where it occurs. */
const missing = (names: Found, dictionary: Readonly<Record<string, string>>) =>
  [...names]
    .filter(([name]) => !Object.hasOwn(dictionary, name))
    .map(([name, at]) => `${name} (${at})`)

const { collections } = cmsConfig('http://localhost:5173', documents) as {
  collections: CollectionConfig[]
}
const content = contentNames()
const generated = configNames(collections)

describe('German field labels', () => {
  it('reads every content file', () => {
    expect(parsed.filter((result) => 'problem' in result)).toEqual([])
    expect(documents.length).toBeGreaterThan(100)
  })

  it('label every key of every content file', () => {
    expect(content.fields.size).toBeGreaterThan(200)
    expect(missing(content.fields, GERMAN_FIELD_LABELS)).toEqual([])
  })

  it('label every field the CMS shows', () => {
    expect(generated.fields.size).toBeGreaterThan(200)
    expect(missing(generated.fields, GERMAN_FIELD_LABELS)).toEqual([])
  })

  it('label every section and question type', () => {
    expect(content.types.size).toBeGreaterThan(10)
    expect(missing(content.types, GERMAN_TYPE_LABELS)).toEqual([])
    expect(missing(generated.types, GERMAN_TYPE_LABELS)).toEqual([])
  })

  it('name a field or type added without a German label, and where it is', () => {
    const added: CollectionConfig = {
      name: 'pages',
      fields: [
        { name: 'title', label: 'Title', widget: 'string' },
        { name: 'teaserText', label: 'Teaser text', widget: 'string' },
        {
          name: 'sections',
          label: 'Sections',
          widget: 'list',
          typeKey: 'type',
          types: [{ name: 'videoEmbed', label: 'Video embed', widget: 'object', fields: [] }],
        },
      ],
    }
    const names = configNames([added])
    expect(missing(names.fields, GERMAN_FIELD_LABELS)).toEqual(['teaserText (pages)'])
    expect(missing(names.types, GERMAN_TYPE_LABELS)).toEqual(['videoEmbed (pages › sections)'])
  })

  it('are German words, not empty and not the English field name', () => {
    const camelCase = /^[a-z]+(?:[A-Z0-9][a-z0-9]*)+$/
    for (const dictionary of [GERMAN_FIELD_LABELS, GERMAN_TYPE_LABELS]) {
      for (const [name, label] of Object.entries(dictionary)) {
        expect(label.trim(), name).not.toBe('')
        expect(label, name).toBe(label.trim())
        expect(label, name).not.toBe(name)
        expect(label, name).not.toMatch(camelCase)
        // Labels start with a capital, as German nouns and UI labels do.
        expect(label, name).toMatch(/^\p{Lu}/u)
      }
    }
  })

  it('tell sibling fields apart, so a reviewer knows which one changed', () => {
    const clashes: string[] = []
    for (const { at, fields, types } of fieldLists(collections)) {
      const seen = new Map<string, string>()
      for (const { name } of fields) {
        const label = types ? sectionTypeLabel(name, 'de') : fieldLabel(name, 'de')
        const other = seen.get(label)
        if (other !== undefined && other !== name)
          clashes.push(`${at}: ${other}, ${name} → ${label}`)
        seen.set(label, name)
      }
    }
    expect(clashes).toEqual([])
  })
})

describe('fieldLabel', () => {
  it('gives the English label from the field name', () => {
    expect(fieldLabel('contactBank', 'en')).toBe('Contact bank')
    expect(fieldLabel('title', 'en')).toBe(labelOf('title'))
  })

  it('gives the German label from the dictionary', () => {
    expect(fieldLabel('title', 'de')).toBe('Titel')
    expect(fieldLabel('description', 'de')).toBe('Beschreibung')
    expect(fieldLabel('heading', 'de')).toBe('Überschrift')
    expect(fieldLabel('iban', 'de')).toBe('IBAN')
    expect(fieldLabel('seo', 'de')).toBe('Suchmaschinen (SEO)')
  })

  it('falls back to the English label for a name without a German one', () => {
    expect(fieldLabel('someNewField', 'de')).toBe('Some new field')
    // Not the dictionary's prototype.
    expect(fieldLabel('constructor', 'de')).toBe('Constructor')
    expect(fieldLabel('toString', 'de')).toBe('To string')
  })
})

describe('sectionTypeLabel', () => {
  it('gives the English label from the type name and the German one from the dictionary', () => {
    expect(sectionTypeLabel('richText', 'en')).toBe('Rich text')
    expect(sectionTypeLabel('richText', 'de')).toBe('Fließtext')
    expect(sectionTypeLabel('featureGrid', 'de')).toBe('Merkmale (Raster)')
    expect(sectionTypeLabel('hero', 'de')).toBe('Kopfbereich')
    expect(sectionTypeLabel('faq', 'de')).toBe('Häufige Fragen')
  })

  it('falls back to the English label for a type without a German one', () => {
    expect(sectionTypeLabel('videoEmbed', 'de')).toBe('Video embed')
    expect(sectionTypeLabel('hasOwnProperty', 'de')).toBe('Has own property')
  })
})
