/**
 * Checks across the entries of the store: every specified page (docs/routes.md) exists in every
 * language with its twins, and references name entries that exist (addresses: ./addresses.ts).
 */
import { LANGUAGES, type Language } from '../shared/languages'
import { SPEC_PAGES } from '../shared/spec-routes'
import type { ContentProblem } from './errors'
import type { CollectionName } from './schema/collection-name'
import type { ContentEntry } from './site-content'

/** Pages that exist beyond the specification's routes and are required all the same. */
const REQUIRED_EXTRA_PAGES = ['/404/']

/** A file the store located, valid or not: twins and references count it even while invalid. */
export interface PresentEntry {
  file: string
  collection: CollectionName
  name: string
  language: Language | undefined
}

const pageFile = (language: Language, path: string) =>
  `${language}/pages/${path === '/' ? 'index' : path.slice(1, -1)}.yaml`

/** Every spec page exists in every language, and every entry that needs a twin has one. */
export function checkPresence(present: PresentEntry[], problems: ContentProblem[]): void {
  const seen = new Map<string, string>()
  const pageNames = new Set<string>()
  for (const entry of present) {
    if (!entry.language) continue
    const id = `${entry.language}|${entry.file.split('/')[1]}|${entry.name}`
    const earlier = seen.get(id)
    if (earlier) {
      problems.push({
        file: entry.file,
        field: '',
        message: `expected one entry per page; ${earlier} already defines it`,
      })
    }
    seen.set(id, entry.file)
    if (entry.file.split('/')[1] === 'pages') pageNames.add(`${entry.language}|${entry.name}`)
  }
  for (const path of [...SPEC_PAGES, ...REQUIRED_EXTRA_PAGES]) {
    const name = path === '/' ? 'index' : path.slice(1, -1)
    for (const language of LANGUAGES) {
      const indexed = `${language}|${name}/index`
      if (!pageNames.has(`${language}|${name}`) && !pageNames.has(indexed)) {
        problems.push({
          file: pageFile(language, path),
          field: '',
          message: `expected this page: the route /${language}${path} of the specification has no content`,
        })
      }
    }
  }
  for (const entry of present) {
    if (!entry.language) continue
    const folder = entry.file.split('/')[1]
    for (const language of LANGUAGES) {
      if (language === entry.language || seen.has(`${language}|${folder}|${entry.name}`)) continue
      const twin = entry.file.replace(new RegExp(`^${entry.language}/`), `${language}/`)
      problems.push({
        file: entry.file,
        field: '',
        message: `expected a ${language} twin at ${twin}; every page exists in every language`,
      })
    }
  }
}

/** Fields that name other entries: [collection, field, referenced collection, same language]. */
const REFERENCES: [CollectionName, string, CollectionName, boolean][] = [
  ['caseStudy', 'services', 'service', true],
  ['supportClient', 'category', 'supportCategory', true],
  ['blogPost', 'category', 'blogCategory', false],
]

/** References count entries that exist even while invalid: their own problem is reported once. */
export function checkReferences(
  entries: ContentEntry[],
  present: PresentEntry[],
  problems: ContentProblem[],
): void {
  const names = new Set(
    present.map((entry) => `${entry.collection}|${entry.language ?? ''}|${entry.name}`),
  )
  const neutral = new Set(present.map((entry) => `${entry.collection}|${entry.name}`))
  for (const [collection, field, target, sameLanguage] of REFERENCES) {
    for (const entry of entries) {
      if (entry.collection !== collection) continue
      const value = entry.data[field]
      const values = Array.isArray(value) ? (value as string[]) : [value as string]
      values.forEach((referenced, index) => {
        const targetName = target === 'service' ? `services/${referenced}` : referenced
        const exists = sameLanguage
          ? names.has(`${target}|${entry.language ?? ''}|${targetName}`)
          : neutral.has(`${target}|${targetName}`)
        if (!exists) {
          problems.push({
            file: entry.file,
            field: Array.isArray(value) ? `${field}.${index}` : field,
            message: `expected an existing ${target} entry; there is no "${referenced}"`,
          })
        }
      })
    }
  }
}
