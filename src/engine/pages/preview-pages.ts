/**
 * The pages some store files make, with the shared data they name: what the CMS's preview beside
 * the editor shows (the dev server's editor and the publishing service's), made by the build's
 * own code so the preview cannot drift from the site.
 */
import type { SiteContent } from '../../content/site-content'
import { DEFAULT_LANGUAGE, LANGUAGES } from '../../shared/languages'
import type { LayoutData } from '../../shared/types'
import { createRouteTable } from '../routes/route-table'
import { createPageData, createStaticQueries } from './page-data'

/** The address of the page an entry makes (whether a route serves it is the route table's). */
const pathOf = (entry: SiteContent['entries'][number]) =>
  entry.routed ? `/${entry.language ?? DEFAULT_LANGUAGE}${entry.originalPath}` : entry.originalPath

/** Each store file's page, by the file (relative to the content): what a preview opens. */
export function pagesOfFiles(
  content: SiteContent,
  routes: readonly { route: { path: string } }[],
): Record<string, string> {
  const served = new Set(routes.map((page) => page.route.path))
  const pages: Record<string, string> = {}
  for (const entry of content.entries) {
    const path = pathOf(entry)
    if (served.has(path)) pages[entry.file] = path
  }
  return pages
}

export function previewPages(content: SiteContent, files: readonly string[], siteUrl: string) {
  const routes = new Map(createRouteTable(content).map((page) => [page.route.path, page]))
  const queries = createStaticQueries(content)
  const byHash = new Map(
    LANGUAGES.map((language) => [queries[language].hash, queries[language].data]),
  )
  return content.entries
    .filter((entry) => files.includes(entry.file))
    .flatMap((entry) => {
      const page = routes.get(pathOf(entry))
      if (!page) return []
      const data = createPageData(page, queries, content, siteUrl)
      const staticQueries: Record<string, LayoutData> = {}
      for (const hash of data.staticQueryHashes) {
        const query = byHash.get(hash)
        if (query) staticQueries[hash] = query
      }
      return [{ file: entry.file, page: data, staticQueries }]
    })
}
