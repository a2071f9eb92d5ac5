/**
 * Gathers the pages of a build for the search, as they are rendered, and writes each language's
 * index at the end (`./write-index.ts`). What goes in is a policy by template
 * (`searchScope`): legal texts only by their title, outcome pages, the 404 page and lists of
 * other pages not at all.
 *
 * A page the build links from the last site (unchanged, `../cache/page-reuse.ts`) is not rendered:
 * its text comes from the cache, under the same key as the page's files, or from its file.
 */
import { createHash } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { LANGUAGES, type Language } from '../../shared/languages'
import type { LayoutData, PageData, TemplateName } from '../../shared/types'
import { readKeptJson, writeKeptJson } from '../cache/kept-json'
import { type ExtractedPage, extractPage } from './extract'
import { type SearchEntry, writeSearchIndex } from './write-index'

/** How much of a page the search finds: all of it, its title only, or nothing. */
export type SearchScope = 'page' | 'title' | 'none'

const SCOPES: Partial<Record<TemplateName, SearchScope>> = {
  // Legal boilerplate: found by its name ("privacy", "imprint"), not by every word of it.
  legal: 'title',
  confirmation: 'none',
  'not-found': 'none',
  // Lists of posts: the posts are found themselves.
  'blog-archive': 'none',
  'blog-category': 'none',
}

export function searchScope(page: PageData): SearchScope {
  if (page.result.languageNeutral || page.matchPath || page.result.head.noindex) return 'none'
  // A page that is another's copy (`/` of `/en/`) is found as the other.
  if (new URL(page.result.head.canonical).pathname !== page.path) return 'none'
  return SCOPES[page.componentChunkName] ?? 'page'
}

/**
 * The part of the site a page belongs to: the label of the longest link of the navigation or
 * the footer above it ("Support" for `/en/support/faq/`), else the breadcrumb above it.
 */
export function sectionOf(page: PageData, layout: LayoutData | undefined): string | undefined {
  const links = [
    ...(layout?.navigation ?? []),
    ...(layout?.footer.flatMap((group) => group.links) ?? []),
  ]
  let best: { label: string; href: string } | undefined
  for (const link of links) {
    if (!link.href.startsWith('/') || link.href === page.path || HOMES.has(link.href)) continue
    if (page.path.startsWith(link.href) && link.href.length > (best?.href.length ?? 0)) best = link
  }
  if (best) return best.label
  const trail = page.result.breadcrumbs?.[page.result.language.language]
  return trail && trail.length >= 3 ? trail.at(-2)?.label : undefined
}

const HOMES = new Set(['/', ...LANGUAGES.map((language) => `/${language}/`)])

const CACHE_FILE = join('search', 'pages.json')

export interface SearchCollector {
  /**
   * A page of the build, with the key of its files: its HTML when rendered now, nothing when
   * linked from the last site.
   */
  add(page: PageData, key: string, html?: string): void
  /** Every language's index files (site path and JSON); `readPage` reads a linked page's HTML. */
  files(readPage: (path: string) => Promise<string>): Promise<[string, string][]>
  /** Keeps the pages' text for the next build. */
  save(): Promise<void>
}

/** A language's index as the cache keeps it: its files, and the hash of what they were made of. */
interface KeptIndex {
  key: string
  files: [string, string][]
}

interface Pending {
  page: PageData
  key: string
  scope: SearchScope
}

export async function openSearchCollector(
  cacheDir: string,
  layouts: Partial<Record<Language, LayoutData>>,
  /** The code's version: an index kept by an earlier code is written anew. */
  codeVersion: string,
): Promise<SearchCollector> {
  const cacheFile = join(cacheDir, CACHE_FILE)
  // Parsed once per change in a long-running builder (`../cache/kept-json.ts`).
  const cached = await readKeptJson<Record<string, ExtractedPage>>(cacheFile).then(
    (pages) => new Map(Object.entries(pages)),
    () => new Map<string, ExtractedPage>(),
  )
  const next = new Map<string, ExtractedPage>()
  // By path: a page linked at first and rendered after all (its file was gone) counts once.
  const pending = new Map<string, Pending>()
  /** Indexes written anew, kept for the next build under their entries' hash. */
  const written: [string, KeptIndex][] = []

  return {
    add(page, key, html) {
      const scope = searchScope(page)
      if (scope === 'none') return
      if (html !== undefined) next.set(key, extractPage(html))
      else {
        const known = cached.get(key)
        if (known) next.set(key, known)
      }
      pending.set(page.path, { page, key, scope })
    },
    async files(readPage) {
      const entries: Record<Language, SearchEntry[]> = { en: [], de: [] }
      for (const { page, key, scope } of pending.values()) {
        let extracted = next.get(key)
        if (!extracted) {
          extracted = extractPage(await readPage(page.path))
          next.set(key, extracted)
        }
        const language = page.result.language.language
        const lang = extracted.lang && extracted.lang !== language ? extracted.lang : undefined
        const entry: SearchEntry = {
          url: page.path,
          title: extracted.title || page.result.head.title,
          blocks:
            scope === 'title'
              ? []
              : extracted.blocks.map((block) => {
                  if (!block.lang || block.lang !== (lang ?? language)) return block
                  const { lang: _same, ...rest } = block
                  return rest
                }),
        }
        const section = sectionOf(page, layouts[language])
        if (section) entry.section = section
        if (lang) entry.lang = lang
        entries[language].push(entry)
      }
      // A language whose pages gave the same entries as in the last build has the same index:
      // its files come from the cache (most edits change one language's pages, or none).
      return (
        await Promise.all(
          LANGUAGES.map(async (language) => {
            const sorted = [...entries[language]].sort((a, b) => (a.url < b.url ? -1 : 1))
            const key = createHash('sha256')
              .update(codeVersion)
              .update(JSON.stringify(sorted))
              .digest('hex')
            const file = join(cacheDir, 'search', `index-${language}.json`)
            const known = await readKeptJson<KeptIndex>(file).catch(() => undefined)
            if (known?.key === key) return known.files
            const { files } = writeSearchIndex(language, sorted)
            written.push([file, { key, files }])
            return files
          }),
        )
      ).flat()
    },
    async save() {
      await mkdir(join(cacheDir, 'search'), { recursive: true })
      await writeKeptJson(cacheFile, Object.fromEntries(next))
      await Promise.all(written.map(([file, index]) => writeKeptJson(file, index)))
    },
  }
}
