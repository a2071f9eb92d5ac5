/**
 * Lists generated from the content store: services, case studies, support categories and
 * their partners, jobs, press releases, customer information, and the blog with its
 * pagination and categories. Each list page gets the entries it shows; nothing is edited twice.
 */

import { customerDocumentPath } from '../../content/documents'
import type { ContentEntry, SiteContent } from '../../content/site-content'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../shared/languages'
import { blogArchivePath } from '../../shared/paths'
import type { BlogList, ListingItem, PageContent } from '../../shared/types'
import type { BuildPage } from '../build-page'

/** Posts per page of the blog archive. */
export const POSTS_PER_PAGE = 6
/** Reading speed for the reading-time estimate. */
const WORDS_PER_MINUTE = 220

const hrefOf = (entry: ContentEntry) =>
  entry.routed ? `/${entry.language}${entry.originalPath}` : entry.originalPath
const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

export function readingMinutes(html: string): number {
  const words = html
    .replace(/<[^>]+>/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE))
}

function byDateDescending(a: ContentEntry, b: ContentEntry): number {
  return String(b.data.date ?? b.data.datePosted ?? '').localeCompare(
    String(a.data.date ?? a.data.datePosted ?? ''),
  )
}

function item(entry: ContentEntry, extra: Partial<ListingItem> = {}): ListingItem {
  return {
    title: entry.data.title ?? '',
    href: hrefOf(entry),
    summary: text(entry.data.summary) ?? text(entry.data.description),
    ...extra,
  }
}

export function attachListings(pages: BuildPage[], content: SiteContent): BuildPage[] {
  const of = (collection: ContentEntry['collection'], language?: Language) =>
    content.entries.filter(
      (entry) => entry.collection === collection && (!language || entry.language === language),
    )
  const categoryNames = new Map(
    of('blogCategory').map((entry) => [entry.name, entry.data.name as Record<Language, string>]),
  )
  // Posts name their category by its file name, which its address need not be.
  const categoryHrefs = new Map(of('blogCategory').map((entry) => [entry.name, hrefOf(entry)]))
  const posts = of('blogPost').sort(byDateDescending)
  const postItem = (entry: ContentEntry): ListingItem =>
    item(entry, {
      summary: text(entry.data.description),
      date: text(entry.data.date),
      language: entry.language,
      label: categoryNames.get(String(entry.data.category))?.[entry.language ?? DEFAULT_LANGUAGE],
    })

  // By file name, so the page data stays the same from build to build; the page sorts them by
  // their names in the visitor's language.
  const topics = of('blogCategory')
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((entry) => ({
      href: hrefOf(entry),
      name: entry.data.name as Record<Language, string>,
    }))
  /** Posts `from` to `to` of `list` with each language's first, and the list's counts. */
  const blogList = (list: readonly ContentEntry[], from: number, to: number): BlogList => {
    const postsFirst = {} as Record<Language, ListingItem[]>
    const counts = {} as Record<Language, number>
    for (const language of LANGUAGES) {
      const own = list.filter((post) => post.language === language)
      const others = list.filter((post) => post.language !== language)
      postsFirst[language] = [...own, ...others].slice(from, to).map(postItem)
      counts[language] = own.length
    }
    return { postsFirst, counts, perPage: POSTS_PER_PAGE, topics }
  }

  const lists: Record<string, (language: Language) => ListingItem[]> = {
    '/services/': (language) =>
      of('service', language)
        .sort((a, b) => (a.data.title ?? '').localeCompare(b.data.title ?? '', language))
        .map((entry) => item(entry, { icon: text(entry.data.icon) })),
    '/case-studies/': (language) =>
      of('caseStudy', language).map((entry) => item(entry, { label: text(entry.data.partner) })),
    '/support/': (language) =>
      of('supportCategory', language)
        .sort((a, b) => Number(a.data.order) - Number(b.data.order))
        .map((category) =>
          item(category, {
            summary: text(category.data.intro),
            children: of('supportClient', language)
              .filter((client) => client.data.category === category.name)
              .map((client) => item(client, { title: String(client.data.partner) })),
          }),
        ),
    '/careers/': (language) =>
      of('jobPosting', language)
        .sort(byDateDescending)
        .map((entry) =>
          item(entry, { date: text(entry.data.datePosted), label: text(entry.data.team) }),
        ),
    '/press/': (language) =>
      of('pressRelease', language)
        .sort(byDateDescending)
        .map((entry) => item(entry, { date: text(entry.data.date) })),
    '/customer-information/': (language) =>
      of('customerInformation', language).map((entry) =>
        item(entry, {
          label: `${text(entry.data.country)} · ${text(entry.data.iban)}`,
          language: text(entry.data.contractLanguage),
        }),
      ),
  }

  const entryAt = (page: BuildPage) =>
    content.entries.find((entry) => hrefOf(entry) === page.route.path)
  const result: BuildPage[] = []
  for (const page of pages) {
    const list = page.routed ? lists[page.originalPath] : undefined
    if (list) {
      result.push({ ...page, listing: list(page.language) })
      continue
    }
    if (page.route.template === 'support-category') {
      // Partner pages name their category by its file name, which its address need not be.
      const name = entryAt(page)?.name
      const clients = of('supportClient', page.language).filter(
        (client) => client.data.category === name,
      )
      result.push({
        ...page,
        listing: clients.map((client) => item(client, { title: String(client.data.partner) })),
      })
      continue
    }
    if (page.route.template === 'case-study') {
      // The services it names, each at its address (which need not be its file name).
      const services = new Map(of('service', page.language).map((entry) => [entry.name, entry]))
      const names = (entryAt(page)?.data.services as string[] | undefined) ?? []
      result.push({
        ...page,
        listing: names.flatMap((name) => {
          const service = services.get(`services/${name}`)
          return service ? [item(service, { title: name, summary: undefined })] : []
        }),
      })
      continue
    }
    if (page.route.template === 'customer-information') {
      const entry = entryAt(page)
      const documents =
        (entry?.data.documents as { id: string; title: string; summary: string }[] | undefined) ??
        []
      result.push({
        ...page,
        listing: entry
          ? documents.map((document) => ({
              title: document.title,
              summary: document.summary,
              href: customerDocumentPath(entry, document.id),
            }))
          : [],
      })
      continue
    }
    if (page.route.template === 'blog-post') {
      result.push(enrichPost(page, categoryNames, categoryHrefs))
      continue
    }
    if (page.route.template === 'blog-category') {
      const name = entryAt(page)?.name
      const list = posts.filter((post) => post.data.category === name)
      result.push({ ...page, blog: blogList(list, 0, list.length) })
      continue
    }
    if (page.route.template === 'blog-archive') {
      result.push(...paginate(page, posts.length, (from, to) => blogList(posts, from, to)))
      continue
    }
    result.push(page)
  }
  return result
}

/** Adds reading time and the category's names to a post's content. */
function enrichPost(
  page: BuildPage,
  categoryNames: Map<string, Record<Language, string>>,
  categoryHrefs: Map<string, string>,
): BuildPage {
  const content: BuildPage['content'] = {}
  for (const [language, fields] of Object.entries(page.content) as [
    Language,
    PageContent & { description: string },
  ][]) {
    const body = fields.body as { html: string } | undefined
    const category = String(fields.category)
    content[language] = {
      ...fields,
      readingMinutes: readingMinutes(body?.html ?? ''),
      categoryName: categoryNames.get(category)?.[language],
      categoryHref: categoryHrefs.get(category) ?? `/blog/category/${category}/`,
    }
  }
  return { ...page, content }
}

/**
 * The archive's first page at /blog/, then /blog/page/2/ and so on; `list` gives each page
 * its posts, from and to their positions.
 */
function paginate(
  page: BuildPage,
  count: number,
  list: (from: number, to: number) => BlogList,
): BuildPage[] {
  const pages = Math.max(1, Math.ceil(count / POSTS_PER_PAGE))
  return Array.from({ length: pages }, (_, i) => {
    const index = i + 1
    const path = blogArchivePath(index)
    return {
      ...page,
      route: { ...page.route, path },
      originalPath: path,
      canonicalPath: path,
      blog: list(i * POSTS_PER_PAGE, index * POSTS_PER_PAGE),
      pagination: { page: index, pages },
    }
  })
}
