/**
 * Turns the documents of a content source into the validated site content, or throws one
 * ContentValidationError listing every problem with its file, field and what was expected:
 * schema errors, missing twins, missing spec pages, broken internal links and references
 * to entries that do not exist.
 */
import { LANGUAGES, type Language } from '../shared/languages'
import { checkTwinAddresses, checkUniquePaths, collectRedirects, followMoves } from './addresses'
import { checkPresence, checkReferences, type PresentEntry } from './check-entries'
import { checkFormPages, checkImages, checkLinks } from './check-links'
import { KNOWN_FILES, layoutFile, locate } from './collections'
import { ContentValidationError } from './errors'
import { isFormFile, readForms, SETTINGS_FILE } from './forms'
import { type MarkdownCache, memoryCache, renderRichText } from './markdown'
import { isRatesFile, readRates } from './rates'
import type { CollectionName } from './schema/collection-name'
import { blogArchive, type LayoutContent, layout, siteSettings } from './schema/entries'
import { attachForms, attachRates } from './section-data'
import type { ContentEntry, SiteContent } from './site-content'
import type { ContentSource } from './source'
import { validateDocument } from './validate-document'

const BLOG_ARCHIVE_FILE = 'blog/archive.yaml'

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
  const measure: NonNullable<LoadOptions['measure']> = options.measure ?? ((_name, work) => work())
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
  const present: PresentEntry[] = []
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
    const data = validateDocument(collection.schema, document, problems) as
      | ContentEntry['data']
      | undefined
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
  checkTwinAddresses(entries, problems)
  const redirects = collectRedirects(entries, problems)
  // Links to an earlier address lead to the page where it moved (and are valid links).
  for (const entry of entries) followMoves(entry.data, redirects)
  for (const language of LANGUAGES) followMoves(layouts[language], redirects)
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
    redirects,
  }
}
