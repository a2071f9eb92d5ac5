import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CMS_COLLECTIONS, cmsConfig } from '../../../src/cms/config'
import type { CmsField } from '../../../src/cms/fields'
import { cmsPathOf, isSystemDataFile } from '../../../src/cms/paths'
import { ALL_COLLECTIONS } from '../../../src/content/collections'
import { createFileStore } from '../../../src/content/file-store'
import { SECTION_TYPES } from '../../../src/content/schema/sections'
import { ROOT } from '../../../src/engine/config'

interface CollectionConfig {
  name: string
  folder?: string
  i18n?: boolean
  create?: boolean
  delete?: boolean
  fields?: CmsField[]
  files?: { name: string; file: string; fields: CmsField[] }[]
}

const { documents } = await createFileStore(join(ROOT, 'content')).read()
const config = cmsConfig('http://localhost:5173', documents) as {
  backend: { name: string; proxy_url: string }
  i18n: { structure: string; locales: string[] }
  collections: CollectionConfig[]
}

/** The data's fields the CMS has no field for: saving through the CMS would lose them. */
function unknownFields(data: unknown, fields: readonly CmsField[], at: string): string[] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return []
  const found: string[] = []
  for (const [key, value] of Object.entries(data)) {
    const field = fields.find((candidate) => candidate.name === key)
    const path = `${at}.${key}`
    if (!field) found.push(path)
    else if (field.widget === 'object')
      found.push(...unknownFields(value, field.fields ?? [], path))
    else if (field.widget === 'list' && Array.isArray(value)) {
      value.forEach((item, index) => {
        const itemPath = `${path}.${index}`
        if (field.types) {
          const kind = (item as Record<string, unknown>)[field.typeKey ?? 'type']
          const type = field.types.find((candidate) => candidate.name === kind)
          if (!type) found.push(`${itemPath} (type ${String(kind)})`)
          else {
            const { [field.typeKey ?? 'type']: _, ...rest } = item as Record<string, unknown>
            found.push(...unknownFields(rest, type.fields ?? [], itemPath))
          }
        } else if (field.fields) found.push(...unknownFields(item, field.fields, itemPath))
      })
    }
  }
  return found
}

function fieldsFor(file: string): CmsField[] {
  const path = cmsPathOf(file) as string
  for (const collection of config.collections) {
    if (collection.folder && path.startsWith(`${collection.folder}/`))
      return collection.fields ?? []
    const entry = collection.files?.find((candidate) => candidate.file === path)
    if (entry) return entry.fields
  }
  throw new Error(`no CMS collection shows ${file}`)
}

const find = (fields: readonly CmsField[] | undefined, name: string) => {
  const field = fields?.find((candidate) => candidate.name === name)
  if (!field) throw new Error(`no field ${name}`)
  return field
}
const collection = (name: string) => {
  const found = config.collections.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no collection ${name}`)
  return found
}

describe('CMS configuration', () => {
  it('talks to the local backend beside the editor, with both languages side by side', () => {
    expect(config.backend).toEqual({
      name: 'proxy',
      proxy_url: 'http://localhost:5173/admin/api/v1',
      branch: 'main',
    })
    expect(config.i18n).toMatchObject({ structure: 'multiple_folders', locales: ['en', 'de'] })
  })

  it('names no field like its collection (Decap would show such an entry empty)', () => {
    for (const entry of config.collections) {
      const names = (entry.fields ?? []).map((field) => field.name)
      expect(names, entry.name).not.toContain(entry.name)
    }
  })

  it('offers every content type of the store, the layouts and both kinds of form', () => {
    const types = new Set<string>(
      CMS_COLLECTIONS.flatMap((entry): readonly string[] =>
        typeof entry.types === 'string' ? [entry.types] : entry.types,
      ),
    )
    expect([...types].sort()).toEqual(
      [...ALL_COLLECTIONS, 'layout', 'mailingList', 'survey'].sort(),
    )
  })

  it('has a field for everything the stored entries hold, so saving loses nothing', () => {
    const unknown = documents
      .filter((document) => !isSystemDataFile(document.file))
      .flatMap((document) => unknownFields(document.data, fieldsFor(document.file), document.file))
    expect(unknown).toEqual([])
  })

  it('edits entries with a twin in both languages, and single-language entries alone', () => {
    for (const name of ['pages', 'service', 'legal', 'siteTexts', 'pressRelease']) {
      const entry = collection(name)
      expect(entry.i18n, name).toBe(true)
      // A page's address is one for both languages: set once, copied to the other.
      expect(
        entry.fields?.every((field) => field.i18n === (field.name === 'slug' ? 'duplicate' : true)),
        name,
      ).toBe(true)
    }
    for (const name of ['service', 'caseStudy', 'supportClient', 'supportCategory', 'study'])
      expect(collection(name).fields?.[1]?.name, name).toBe('slug')
    for (const name of ['pages', 'legal', 'customerInformation'])
      expect(collection(name).fields?.some((field) => field.name === 'slug')).toBe(false)
    for (const name of ['blogPost', 'blogCategory']) {
      expect(collection(name).i18n, name).toBeUndefined()
      expect(collection(name).fields?.some((field) => field.i18n)).toBe(false)
    }
  })

  it('lets editors add to open-ended types but not delete pages with fixed addresses', () => {
    for (const name of ['pages', 'customerInformation', 'legal', 'siteTexts']) {
      expect(collection(name)).toMatchObject({ create: false, delete: false })
    }
    for (const name of ['service', 'jobPosting', 'pressRelease', 'blogPost', 'blogCategory']) {
      expect(collection(name)).toMatchObject({ create: true, delete: true })
    }
  })

  it('picks the editor each field needs from the schema', () => {
    const service = collection('service').fields
    expect(find(service, 'whatItIs').widget).toBe('markdown')
    expect(find(service, 'icon')).toMatchObject({
      widget: 'select',
      options: expect.arrayContaining(['card', 'loan']),
    })
    expect(find(service, 'title')).toMatchObject({
      widget: 'string',
      pattern: ['^[\\s\\S]{0,120}$', 'At most 120 characters'],
      hint: 'The page title; at most 120 characters.',
    })
    expect(find(service, 'intro').widget).toBe('text')
    expect(find(service, 'audience')).toMatchObject({ widget: 'list', field: { widget: 'string' } })
    expect(find(service, 'sections')).toMatchObject({ widget: 'list', required: false })
    const sectionTypes = find(service, 'sections').types?.map((type) => type.name)
    expect(sectionTypes).toEqual([...SECTION_TYPES])
    const job = collection('jobPosting').fields
    expect(find(job, 'datePosted')).toMatchObject({ widget: 'datetime', format: 'YYYY-MM-DD' })
    expect(find(job, 'remote').widget).toBe('boolean')
    expect(find(find(job, 'salary').fields, 'min')).toMatchObject({
      widget: 'number',
      value_type: 'int',
    })
    expect(find(job, 'salary').required).toBe(false)
    const post = collection('blogPost').fields
    expect(find(post, 'category')).toMatchObject({ widget: 'select' })
    expect(find(post, 'category').options).toContainEqual({
      label: 'Regulation',
      value: 'regulation',
    })
    expect(find(find(post, 'cover').fields, 'src').widget).toBe('image')
    // References offer the entries of the store, by English title, the same in both languages.
    const services = find(collection('caseStudy').fields, 'services')
    expect(services).toMatchObject({ widget: 'select', multiple: true, i18n: 'duplicate' })
    expect(services.options).toHaveLength(9)
    expect(services.options).toContainEqual({
      label: 'Card issuing: debit and credit cards for your customers',
      value: 'cards',
    })
    expect(find(collection('supportClient').fields, 'category').options).toHaveLength(4)
  })
})
