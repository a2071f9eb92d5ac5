/**
 * What search engines read besides the pages: `sitemap.xml` with every page that is its own
 * canonical and its language alternates, and `robots.txt` naming the sitemap by absolute URL.
 */

import type { BuildPage } from '../build-page'
import { escapeHtml } from '../pages/html-document'
import { alternates } from '../pages/page-data'

export const SITEMAP_PATH = '/sitemap.xml'
export const ROBOTS_PATH = '/robots.txt'

/**
 * Pages a search engine should index: their own canonical, not a pattern's answer (404), not
 * where a form or an e-mail link leads (`newsletter-success`, `unsubscribed`, …).
 */
export function indexedPages(pages: readonly BuildPage[]): BuildPage[] {
  return pages.filter(
    (page) =>
      !page.route.matchPath &&
      page.canonicalPath === page.route.path &&
      page.route.template !== 'confirmation',
  )
}

export function sitemapXml(pages: readonly BuildPage[], siteUrl: string): string {
  const urls = indexedPages(pages).map((page) => {
    const links = alternates(page, siteUrl).map(
      (link) =>
        `    <xhtml:link rel="alternate" hreflang="${escapeHtml(link.hreflang)}" href="${escapeHtml(link.href)}"/>`,
    )
    return [
      `  <url>`,
      `    <loc>${escapeHtml(`${siteUrl}${page.route.path}`)}</loc>`,
      ...links,
      `  </url>`,
    ].join('\n')
  })
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls.join('\n')}
</urlset>
`
}

export function robotsTxt(siteUrl: string): string {
  return `User-agent: *
Allow: /

Sitemap: ${siteUrl}${SITEMAP_PATH}
`
}
