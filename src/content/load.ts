import { existsSync } from 'node:fs'
import { join } from 'node:path'
/**
 * Turns the documents of a content source into the validated site content, or throws one
 * ContentValidationError listing every problem with its file, field and what was expected:
 * schema errors, missing twins, missing spec pages, broken internal links and references
 * to entries that do not exist.
 */
import type { z } from 'zod'
import { LINK_EXPIRED_PAGE, UNSUBSCRIBED_PAGE } from '../shared/forms/definition'
import { LANGUAGES, type Language } from '../shared/languages'
import { SPEC_PAGES } from '../shared/spec-routes'
import type { SiteSettings, TemplateName } from '../shared/types'
import { KNOWN_FILES, locate } from './collections'
import type { CollectionName } from './schema/collection-name'
import { documentsOf, MEDIA_KIT_PATH } from './documents'
import {
  type FormsContent,
  formExists,
  isFormFile,
  localizeForm,
  readForms,
  SETTINGS_FILE,
} from './forms'
import { type ContentProblem, ContentValidationError } from './errors'
import { validateDocument } from './validate-document'
import { cardRatesData, ecbRatesData, isRatesFile, type RatesContent, readRates } from './rates'
import { linksIn, type MarkdownCache, memoryCache, renderRichText } from './markdown'
import {
  blogArchive,
  type LayoutContent,
  layout,
  siteSettings,
} from './schema/entries'
import type { ContentDocument, ContentSource } from './source'

type ArchiveFields = z.output<typeof blogArchive>

/** One validated entry with where it lives. */
export interface ContentEntry {
  collection: CollectionName
  file: string
  /** Pairs twins: the path below the language folder (`services/cards`). */
  name: string
  /** Folder language, or a blog post's own; undefined for language-neutral entries. */
  language: Language | undefined
  /** The path without language prefix: `/services/cards/`, `/blog/my-post/`. */
  originalPath: string
  /** True when the page lives under `/{language}/`. */
  routed: boolean
  template: TemplateName
  data: { title?: string; description?: string; [field: string]: unknown }
}

export interface SiteContent {
  settings: SiteSettings
  layouts: Record<Language, LayoutContent>
  blogArchive: ArchiveFields
  /** Mailing lists and surveys (`forms/`), language-neutral. */
  forms: FormsContent
  /** The ECB's and the card networks' exchange rates (`exchange-rates/`). */
  rates: RatesContent
  entries: ContentEntry[]
}

const BLOG_ARCHIVE_FILE = 'blog/archive.yaml'
const layoutFile = (language: Language) => `${language}/layout.yaml`
const NOT_FOUND_PAGE = '/404/'
/** Pages that exist beyond the specification's routes and are required all the same. */
const REQUIRED_EXTRA_PAGES = [NOT_FOUND_PAGE]

export interface LoadOptions {
  /** Content types to read page files as (tests use every type). */
  collections?: ReadonlySet<CollectionName>
  /** Where `/images/…` files live (the project's `public/`); images are checked when given. */
  publicDir?: string
  /** Earlier renderings of Markdown texts (default: this process's memory). */
  markdownCache?: MarkdownCache
  /** The ECB's rates downloaded at build time (`RATES_FETCH=1`), over the stored snapshot. */
  fetchedEcbRates?: { text: string; url: string }
  /** Times the loading's phases (the build's profile); by default they are not timed. */
  measure?: <T>(name: string, work: () => Promise<T>) => Promise<T>
}

export async function loadContent(
  source: ContentSource,
  options: LoadOptions = {},
): Promise<SiteContent> {
  const measure: NonNullable<LoadOptions['measure']> =
    options.measure ?? ((_name, work) => work())
  const { documents, problems } = await measure('content: read files', () => source.read())
  const byFile = new Map(documents.map((document) => [document.file, document]))
  const required = (file: string) => {
    const document = byFile.get(file)
    if (!document) problems.push({ file, field: '', message: 'expected this file; it is missing' })
    return document
  }

  const settingsDocument = required(SETTINGS_FILE)
  const settings = settingsDocument && validateDocument(siteSettings, settingsDocument, problems)
  const layouts: Partial<Record<Language, LayoutContent>> = {}
  for (const language of LANGUAGES) {
    const document = required(layoutFile(language))
    const parsed = document && validateDocument(layout, document, problems)
    if (parsed) layouts[language] = parsed
  }
  const archiveDocument = required(BLOG_ARCHIVE_FILE)
  const archive = archiveDocument && validateDocument(blogArchive, archiveDocument, problems)

  const forms = readForms(documents, problems)
  const rates = readRates(documents, problems, options.fetchedEcbRates)
  const known = new Set([SETTINGS_FILE, BLOG_ARCHIVE_FILE, ...LANGUAGES.map(layoutFile)])
  const entries: ContentEntry[] = []
  const publishedPaths = new Set<string>(['/', '/blog/'])
  /** Every located file, valid or not: an invalid entry is still present for twin checks. */
  const present: Located[] = []
  for (const document of documents) {
    if (known.has(document.file) || isFormFile(document.file) || isRatesFile(document.file))
      continue
    const located = locate(document.file, options.collections)
    if (!located) {
      problems.push({
        file: document.file,
        field: '',
        message: `unknown file: expected ${KNOWN_FILES}`,
      })
      continue
    }
    const { collection, name } = located
    present.push({
      file: document.file,
      collection: collection.name,
      name,
      language: located.language,
    })
    // Pages in a language folder keep their address even while invalid, so links to them
    // are not reported as broken on top of the real problem.
    if (located.language) publishedPaths.add(`/${located.language}${collection.path(name, {})}`)
    const data = validateDocument(collection.schema, document, problems) as ContentEntry['data'] | undefined
    if (!data) continue
    const language = located.language ?? (data.language as Language | undefined)
    entries.push({
      collection: collection.name,
      file: document.file,
      name,
      language,
      originalPath: collection.path(name, data),
      routed: located.language !== undefined,
      template: collection.template(name, data),
      data,
    })
  }

  await measure('content: Markdown', async () => {
    for (const entry of entries) {
      await renderRichText(
        entry.data,
        (path, message) => problems.push({ file: entry.file, field: path.join('.'), message }),
        options.markdownCache ?? memoryCache,
      )
    }
  })

  attachForms(entries, forms, problems)
  attachRates(entries, rates, problems)
  checkPresence(present, problems)
  checkUniquePaths(entries, problems)
  checkReferences(entries, present, problems)
  checkLinks(layouts, entries, publishedPaths, problems)
  checkFormPages(forms, publishedPaths, problems)
  if (options.publicDir) checkImages(entries, options.publicDir, problems)

  if (problems.length > 0 || !settings || !archive)
    throw new ContentValidationError(problems, source.label)
  return {
    settings,
    layouts: layouts as Record<Language, LayoutContent>,
    blogArchive: archive,
    forms,
    rates,
    entries,
  }
}

/**
 * Every `form` section names a form of `forms/`; it receives that form in the page's language
 * (`definition`), so the page renders and checks it without another request.
 */
function attachForms(entries: ContentEntry[], forms: FormsContent, problems: ContentProblem[]) {
  for (const entry of entries) {
    const sections = entry.data.sections
    if (!Array.isArray(sections)) continue
    sections.forEach((section: { type?: string; form?: string; definition?: unknown }, index) => {
      if (section.type !== 'form' || !section.form) return
      if (entry.collection !== 'page' || entry.template === 'confirmation') {
        problems.push({
          file: entry.file,
          field: `sections.${index}`,
          message:
            'expected forms on pages of the Pages collection only (such as newsletter or survey), not on this content type',
        })
        return
      }
      const definition =
        entry.language && formExists(forms, section.form)
          ? localizeForm(forms, section.form, entry.language)
          : undefined
      if (definition) section.definition = definition
      else
        problems.push({
          file: entry.file,
          field: `sections.${index}.form`,
          message: `expected the name of a form in forms/lists/ or forms/surveys/; there is no "${section.form}"`,
        })
    })
  }
}

/**
 * Every `ecbRates` and `cardRates` section receives its rates, in the page's language, so the
 * page renders them without another request.
 */
function attachRates(entries: ContentEntry[], rates: RatesContent, problems: ContentProblem[]) {
  for (const entry of entries) {
    const sections = entry.data.sections
    if (!Array.isArray(sections)) continue
    sections.forEach((section: { type?: string; network?: string; data?: unknown }, index) => {
      if (section.type !== 'ecbRates' && section.type !== 'cardRates') return
      const problem = (field: string, message: string) =>
        problems.push({ file: entry.file, field: `sections.${index}${field}`, message })
      if (entry.collection !== 'page' || !entry.language) {
        problem('', 'expected exchange rates on pages of the Pages collection only')
        return
      }
      if (entry.template !== 'rates') {
        problem('', 'expected exchange rates and a form on different pages')
        return
      }
      if (!rates.texts) {
        problem('', 'expected the words of the rate pages in exchange-rates/texts.yaml')
        return
      }
      if (section.type === 'ecbRates') {
        section.data = ecbRatesData(rates, entry.language)
        if (!section.data) problem('', 'expected ECB reference rates in exchange-rates/ecb.xml')
        return
      }
      const network = section.network ?? ''
      section.data = cardRatesData(rates, network, entry.language)
      if (!section.data && !problems.some((known) => known.file.startsWith(`exchange-rates/${network}.`))) {
        problem(
          '.network',
          `expected a card network with rates in exchange-rates/${network}.csv (or .json) and its name under networks in exchange-rates/texts.yaml`,
        )
      }
    })
  }
}

/** The pages a form leads to exist in every language. */
function checkFormPages(forms: FormsContent, paths: ReadonlySet<string>, problems: ContentProblem[]) {
  const check = (file: string, field: string, page: string) => {
    for (const language of LANGUAGES) {
      if (!paths.has(`/${language}/${page}/`)) {
        problems.push({
          file,
          field,
          message: `expected an existing page; there is no /${language}/${page}/`,
        })
      }
    }
  }
  for (const [id, list] of Object.entries(forms.lists)) {
    check(`forms/lists/${id}.yaml`, 'successPage', list.successPage)
    check(`forms/lists/${id}.yaml`, 'confirmedPage', list.confirmedPage)
  }
  for (const [id, survey] of Object.entries(forms.surveys)) {
    check(`forms/surveys/${id}.yaml`, 'successPage', survey.successPage)
  }
  // Where the links of every list's e-mails lead when they no longer work or unsubscribed.
  if (Object.keys(forms.lists).length > 0) {
    for (const page of [LINK_EXPIRED_PAGE, UNSUBSCRIBED_PAGE]) {
      for (const language of LANGUAGES) {
        if (!paths.has(`/${language}/${page}/`)) {
          problems.push({
            file: `${language}/pages/${page}.yaml`,
            field: '',
            message: `expected this page: the links of the mailing lists' e-mails lead to /${language}/${page}/`,
          })
        }
      }
    }
  }
}

interface Located {
  file: string
  collection: CollectionName
  name: string
  language: Language | undefined
}

const pageFile = (language: Language, path: string) =>
  `${language}/pages/${path === '/' ? 'index' : path.slice(1, -1)}.yaml`

/** Every spec page exists in every language, and every entry that needs a twin has one. */
function checkPresence(present: Located[], problems: ContentProblem[]): void {
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

/** No two entries publish the same address (blog slugs come from titles and may collide). */
function checkUniquePaths(entries: ContentEntry[], problems: ContentProblem[]): void {
  const owners = new Map<string, string>()
  for (const entry of entries) {
    const path = entry.routed ? `/${entry.language}${entry.originalPath}` : entry.originalPath
    const owner = owners.get(path)
    if (owner && owner !== entry.file) {
      problems.push({
        file: entry.file,
        field: entry.collection === 'blogPost' ? 'title' : '',
        message: `expected a unique address; ${owner} already publishes ${path}`,
      })
    }
    owners.set(path, entry.file)
  }
}

/** Fields that name other entries: [collection, field, referenced collection, same language]. */
const REFERENCES: [CollectionName, string, CollectionName, boolean][] = [
  ['caseStudy', 'services', 'service', true],
  ['supportClient', 'category', 'supportCategory', true],
  ['blogPost', 'category', 'blogCategory', false],
]

/** References count entries that exist even while invalid: their own problem is reported once. */
function checkReferences(
  entries: ContentEntry[],
  present: Located[],
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

/** Every `href` and every link inside rich text, with the field it stands in. */
function collectLinks(
  value: unknown,
  path: string[],
  found: { field: string; href: string }[],
): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      collectLinks(item, [...path, String(index)], found)
    })
    return
  }
  if (typeof value !== 'object' || value === null) return
  const record = value as Record<string, unknown>
  if (typeof record.html === 'string' && Object.keys(record).length === 1) {
    for (const href of linksIn({ html: record.html })) found.push({ field: path.join('.'), href })
    return
  }
  for (const [key, child] of Object.entries(record)) {
    if (key === 'href' && typeof child === 'string')
      found.push({ field: [...path, key].join('.'), href: child })
    else collectLinks(child, [...path, key], found)
  }
}

/** Internal links point at pages or documents that exist. */
function checkLinks(
  layouts: Partial<Record<Language, LayoutContent>>,
  entries: ContentEntry[],
  paths: Set<string>,
  problems: ContentProblem[],
): void {
  for (const entry of entries) {
    paths.add(entry.routed ? `/${entry.language}${entry.originalPath}` : entry.originalPath)
  }
  const documents = new Set<string>([MEDIA_KIT_PATH])
  for (const document of documentsOf(entries)) {
    if (documents.has(document.path)) {
      problems.push({
        file: document.file,
        field: '',
        message: `expected a unique document path; ${document.path} is published by another entry`,
      })
    }
    documents.add(document.path)
  }
  const check = (file: string, field: string, href: string) => {
    if (!href.startsWith('/')) return
    const path = href.split(/[?#]/)[0] ?? href
    if (path.startsWith('/documents/')) {
      if (!documents.has(path)) {
        problems.push({
          file,
          field,
          message: `expected a link to an existing document; nothing is published at ${path}`,
        })
      }
      return
    }
    if (!paths.has(path)) {
      problems.push({
        file,
        field,
        message: `expected a link to an existing page; nothing is published at ${path}`,
      })
    }
  }
  for (const language of LANGUAGES) {
    const found: { field: string; href: string }[] = []
    collectLinks(layouts[language], [], found)
    for (const link of found) check(layoutFile(language), link.field, link.href)
  }
  for (const entry of entries) {
    const found: { field: string; href: string }[] = []
    collectLinks(entry.data, [], found)
    for (const link of found) check(entry.file, link.field, link.href)
  }
}

/** Every image an entry names (`src` fields under /images/) exists in the public folder. */
function checkImages(entries: ContentEntry[], publicDir: string, problems: ContentProblem[]): void {
  const visit = (value: unknown, path: string[], file: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        visit(item, [...path, String(index)], file)
      })
      return
    }
    if (typeof value !== 'object' || value === null) return
    for (const [key, child] of Object.entries(value)) {
      if (key === 'src' && typeof child === 'string' && child.startsWith('/images/')) {
        if (!existsSync(join(publicDir, child))) {
          problems.push({
            file,
            field: [...path, key].join('.'),
            message: `expected an existing image; there is no public${child}`,
          })
        }
      } else visit(child, [...path, key], file)
    }
  }
  for (const entry of entries) visit(entry.data, [], entry.file)
}
