/**
 * Breadcrumb trails: the language's home, then every page above this one that exists, then the
 * page itself. Shown by the breadcrumb navigation and given to search engines as JSON-LD.
 */
import {
  LANGUAGES,
  type Language,
  langWhereDifferent,
  textLanguageOf,
} from '../../shared/languages'
import type { NavigationItem } from '../../shared/types'
import type { BreadcrumbTrails, BuildPage } from '../build-page'

/** The words a trail needs in each language: the home link, and "Page {page} of {pages}". */
export type BreadcrumbLabels = Record<Language, { home: string; pageOf: string }>

/** The paths above a page and its own, without the language prefix level: `/en/a/`, `/en/a/b/`. */
function ancestry(page: BuildPage): string[] {
  const segments = page.route.path.split('/').filter(Boolean)
  const start = page.routed ? 2 : 1
  const paths: string[] = []
  for (let end = start; end <= segments.length; end++) {
    paths.push(`/${segments.slice(0, end).join('/')}/`)
  }
  return paths
}

/** A trail per language the page shows; none for homes, the 404 pages and `/`. */
export function breadcrumbTrails(
  page: BuildPage,
  pages: ReadonlyMap<string, BuildPage>,
  labels: BreadcrumbLabels,
): BreadcrumbTrails | undefined {
  if (page.route.matchPath || page.originalPath === '/' || page.route.path === '/') return undefined
  const trails: BreadcrumbTrails = {}
  for (const language of page.languageNeutral ? LANGUAGES : [page.language]) {
    const trail: NavigationItem[] = [{ label: labels[language].home, href: `/${language}/` }]
    for (const path of ancestry(page)) {
      const content = pages.get(path)?.content[language]
      if (!content?.title) continue
      const lang = langWhereDifferent(textLanguageOf(content), language)
      trail.push({ label: content.title, href: path, ...(lang ? { lang } : {}) })
    }
    // Later pages of a list share its title: the last crumb says which page this is.
    const { pagination } = page
    const last = trail.at(-1)
    if (pagination && pagination.page > 1 && last?.href === page.route.path) {
      delete last.lang
      last.label = labels[language].pageOf
        .replace('{page}', String(pagination.page))
        .replace('{pages}', String(pagination.pages))
    }
    if (trail.length > 1) trails[language] = trail
  }
  return Object.keys(trails).length > 0 ? trails : undefined
}

/** Gives every page its trails, once the whole route table is known. */
export function attachBreadcrumbs(pages: BuildPage[], labels: BreadcrumbLabels): BuildPage[] {
  const byPath = new Map(pages.map((page) => [page.route.path, page]))
  for (const page of pages) {
    const trails = breadcrumbTrails(page, byPath, labels)
    if (trails) page.breadcrumbs = trails
  }
  return pages
}
