/** URL helpers of the page-data protocol (docs/runtime.md), shared by build and runtime. */
import { LANGUAGES, type Language, languageOfPath } from './languages'

export const PAGE_DATA_PREFIX = '/page-data'
export const APP_DATA_URL = `${PAGE_DATA_PREFIX}/app-data.json`

/** A path with a leading and a trailing slash, no query or hash: `/en/about` gives `/en/about/`. */
export function normalizePath(path: string): string {
  let clean = path.split(/[?#]/)[0] ?? '/'
  if (!clean.startsWith('/')) clean = `/${clean}`
  if (!clean.endsWith('/') && !/\.[a-z0-9]+$/i.test(clean)) clean = `${clean}/`
  return clean.replace(/\/{2,}/g, '/')
}

/** `{page}` of the protocol: the path without its outer slashes, `index` for `/`. */
export function pageDataName(path: string): string {
  const trimmed = normalizePath(path).replace(/^\/+|\/+$/g, '')
  return trimmed === '' ? 'index' : trimmed
}

/** `/page-data/{page}/page-data.json` of a page path. */
export function pageDataUrl(path: string): string {
  return `${PAGE_DATA_PREFIX}/${pageDataName(path)}/page-data.json`
}

/** `/page-data/sq/d/{hash}.json` of a shared data set. */
export function staticQueryUrl(hash: string): string {
  return `${PAGE_DATA_PREFIX}/sq/d/${hash}.json`
}

/** The 404 page of a language. */
export function notFoundPath(language: Language): string {
  return `/${language}/404/`
}

/** The pattern a language's 404 page answers. */
export function notFoundMatchPath(language: Language): string {
  return `/${language}/*`
}

/** The 404 page for an unknown path: the German one under `/de/`, the English one elsewhere. */
export function notFoundPathFor(path: string): string {
  return notFoundPath(languageOfPath(path) ?? LANGUAGES[0])
}

/** True for the paths of the 404 pages themselves. */
export function isNotFoundPath(path: string): boolean {
  const normalized = normalizePath(path)
  return normalized === '/404.html' || LANGUAGES.some((l) => normalized === notFoundPath(l))
}

/** `matchPath` pattern test: `/de/*` matches everything below `/de/`. */
export function matchesPattern(pattern: string, path: string): boolean {
  if (pattern.endsWith('/*')) return path.startsWith(pattern.slice(0, -1))
  return normalizePath(pattern) === normalizePath(path)
}

/** The blog archive's pages: `/blog/`, then `/blog/page/2/` and on. */
export function blogArchivePath(page: number): string {
  return page <= 1 ? '/blog/' : `/blog/page/${page}/`
}
