/**
 * Turns the documents of a content source into the validated site content, or throws one
 * ContentValidationError listing every problem with its file and field.
 */
import type { z } from 'zod'
import { LANGUAGES, type Language } from '../shared/languages'
import { SPEC_PAGES } from '../shared/spec-routes'
import { type ContentProblem, ContentValidationError } from './errors'
import {
  blogArchiveSchema,
  type LayoutContent,
  layoutSchema,
  type PageFields,
  pageSchema,
  type SiteSettings,
  siteSettingsSchema,
} from './schema'
import type { ContentDocument, ContentSource } from './source'

export interface PageEntry extends PageFields {
  file: string
  language: Language
  /** The path without language prefix: `/services/cards/`. */
  originalPath: string
  template: 'home' | 'page' | 'not-found'
}

export interface SiteContent {
  settings: SiteSettings
  layouts: Record<Language, LayoutContent>
  pages: PageEntry[]
  blogArchive: Record<Language, PageFields>
}

const SETTINGS_FILE = 'site.yaml'
const BLOG_ARCHIVE_FILE = 'blog/archive.yaml'
const layoutFile = (language: Language) => `${language}/layout.yaml`
const PAGE_FILE = /^(?<language>[a-z]{2})\/pages\/(?<name>.+)\.ya?ml$/
const NOT_FOUND_PAGE = '/404/'

/** `index` files stand for their folder: `services/index.yaml` and `services.yaml` both give `/services/`. */
function originalPathOf(name: string): string {
  const parts = name.split('/')
  if (parts.at(-1) === 'index') parts.pop()
  return parts.length === 0 ? '/' : `/${parts.join('/')}/`
}

function validate<T>(
  schema: z.ZodType<T>,
  document: ContentDocument,
  problems: ContentProblem[],
): T | undefined {
  const parsed = schema.safeParse(document.data)
  if (parsed.success) return parsed.data
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.')
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}: expected only the fields of this content type`
        : issue.message
    problems.push({ file: document.file, field, message })
  }
  return undefined
}

export async function loadContent(source: ContentSource): Promise<SiteContent> {
  const { documents, problems } = await source.read()
  const byFile = new Map(documents.map((document) => [document.file, document]))

  const required = (file: string) => {
    const document = byFile.get(file)
    if (!document) problems.push({ file, field: '', message: 'expected this file; it is missing' })
    return document
  }

  const settingsDocument = required(SETTINGS_FILE)
  const settings = settingsDocument && validate(siteSettingsSchema, settingsDocument, problems)

  const layouts: Partial<Record<Language, LayoutContent>> = {}
  for (const language of LANGUAGES) {
    const document = required(layoutFile(language))
    const layout = document && validate(layoutSchema, document, problems)
    if (layout) layouts[language] = layout
  }

  const archiveDocument = required(BLOG_ARCHIVE_FILE)
  const blogArchive = archiveDocument && validate(blogArchiveSchema, archiveDocument, problems)

  const pages: PageEntry[] = []
  /** Every page file by language and path, valid or not: an invalid page is still present. */
  const present: { key: string; file: string; language: Language; originalPath: string }[] = []
  const known = new Set([SETTINGS_FILE, BLOG_ARCHIVE_FILE, ...LANGUAGES.map(layoutFile)])
  for (const document of documents) {
    if (known.has(document.file)) continue
    const match = PAGE_FILE.exec(document.file)
    const language = match?.groups?.language as Language | undefined
    if (!match?.groups?.name || !language || !LANGUAGES.includes(language)) {
      problems.push({
        file: document.file,
        field: '',
        message: `unknown file: expected ${SETTINGS_FILE}, ${BLOG_ARCHIVE_FILE}, {${LANGUAGES.join(',')}}/layout.yaml or {${LANGUAGES.join(',')}}/pages/**.yaml`,
      })
      continue
    }
    const originalPath = originalPathOf(match.groups.name)
    present.push({ key: `${language}${originalPath}`, file: document.file, language, originalPath })
    const fields = validate(pageSchema, document, problems)
    if (!fields) continue
    const template =
      originalPath === NOT_FOUND_PAGE
        ? 'not-found'
        : (fields.template ?? (originalPath === '/' ? 'home' : 'page'))
    pages.push({ ...fields, file: document.file, language, originalPath, template })
  }

  checkPages(present, problems)
  checkLinks(layouts, pages, problems)

  if (problems.length > 0 || !settings || !blogArchive) {
    throw new ContentValidationError(problems, source.label)
  }
  return { settings, layouts: layouts as Record<Language, LayoutContent>, pages, blogArchive }
}

/** Every spec page and the 404 page exist in every language; no page lacks its twin; no duplicates. */
function checkPages(
  pages: { key: string; file: string; language: Language; originalPath: string }[],
  problems: ContentProblem[],
): void {
  const seen = new Map<string, string>()
  for (const page of pages) {
    const earlier = seen.get(page.key)
    if (earlier) {
      problems.push({
        file: page.file,
        field: '',
        message: `expected one entry per page; ${earlier} already defines /${page.key}`,
      })
    }
    seen.set(page.key, page.file)
  }
  for (const path of [...SPEC_PAGES, NOT_FOUND_PAGE]) {
    for (const language of LANGUAGES) {
      if (!seen.has(`${language}${path}`)) {
        const name = path === '/' ? 'index' : path.slice(1, -1)
        problems.push({
          file: `${language}/pages/${name}.yaml`,
          field: '',
          message: `expected this page: the route /${language}${path} of the specification has no content`,
        })
      }
    }
  }
  for (const page of pages) {
    for (const language of LANGUAGES) {
      if (language !== page.language && !seen.has(`${language}${page.originalPath}`)) {
        problems.push({
          file: page.file,
          field: '',
          message: `expected a ${language} twin at ${language}/pages${page.originalPath === '/' ? '/index' : page.originalPath.slice(0, -1)}.yaml; every page exists in every language`,
        })
      }
    }
  }
}

/** Internal links of navigation and footer point at pages that exist. */
function checkLinks(
  layouts: Partial<Record<Language, LayoutContent>>,
  pages: PageEntry[],
  problems: ContentProblem[],
): void {
  const paths = new Set(pages.map((page) => `/${page.language}${page.originalPath}`))
  paths.add('/')
  paths.add('/blog/')
  for (const language of LANGUAGES) {
    const layout = layouts[language]
    if (!layout) continue
    const check = (href: string, field: string) => {
      if (!href.startsWith('/') || href.startsWith('/documents/')) return
      const path = href.split(/[?#]/)[0] ?? href
      if (!paths.has(path)) {
        problems.push({
          file: layoutFile(language),
          field,
          message: `expected a link to an existing page; nothing is published at ${path}`,
        })
      }
    }
    layout.navigation.forEach((item, index) => {
      check(item.href, `navigation.${index}.href`)
    })
    layout.footer.forEach((group, groupIndex) => {
      group.links.forEach((item, index) => {
        check(item.href, `footer.${groupIndex}.links.${index}.href`)
      })
    })
  }
}
