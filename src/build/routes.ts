/**
 * The route table: every page the build writes, derived from the validated content.
 * Spec pages under `/en/` and `/de/`, `/` (the English home, not redirected), the
 * language-neutral `/blog/` and the per-language 404 pages with their match paths.
 */
import type { SiteContent } from '../content/load'
import { DEFAULT_LANGUAGE, IGNORED_PATHS, LANGUAGES, type Language } from '../shared/languages'
import { notFoundMatchPath } from '../shared/paths'
import type { LanguageContext, PageContent, RouteRecord } from '../shared/types'

export interface BuildPage {
  route: RouteRecord
  /** The path without its language prefix. */
  originalPath: string
  /** Language of the page's interface at build time. */
  language: Language
  routed: boolean
  languageNeutral: boolean
  /** Where search engines should look: `/` points at `/en/`. */
  canonicalPath: string
  content: Partial<Record<Language, PageContent & { description: string }>>
}

export function createRouteTable(content: SiteContent): BuildPage[] {
  const pages: BuildPage[] = []
  for (const entry of content.pages) {
    const path = `/${entry.language}${entry.originalPath}`
    const isNotFound = entry.template === 'not-found'
    const fields = { title: entry.title, intro: entry.intro, description: entry.description }
    pages.push({
      route: {
        path,
        template: entry.template,
        language: entry.language,
        ...(isNotFound ? { matchPath: notFoundMatchPath(entry.language) } : {}),
      },
      originalPath: entry.originalPath,
      language: entry.language,
      routed: true,
      languageNeutral: false,
      canonicalPath: path,
      content: { [entry.language]: fields },
    })
    if (entry.originalPath === '/' && entry.language === DEFAULT_LANGUAGE) {
      pages.push({
        route: { path: '/', template: entry.template, language: entry.language },
        originalPath: '/',
        language: entry.language,
        routed: false,
        languageNeutral: false,
        canonicalPath: path,
        content: { [entry.language]: fields },
      })
    }
  }
  pages.push({
    route: { path: '/blog/', template: 'blog-archive', language: undefined },
    originalPath: '/blog/',
    language: DEFAULT_LANGUAGE,
    routed: false,
    languageNeutral: true,
    canonicalPath: '/blog/',
    content: content.blogArchive,
  })
  return pages.sort((a, b) => a.route.path.localeCompare(b.route.path))
}

export function languageContext(page: BuildPage): LanguageContext {
  return {
    language: page.language,
    languages: LANGUAGES,
    defaultLanguage: DEFAULT_LANGUAGE,
    redirect: false,
    routed: page.routed,
    originalPath: page.originalPath,
    ignoredPaths: IGNORED_PATHS,
  }
}
