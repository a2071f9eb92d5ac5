/** What search engines read: robots.txt, the sitemap, and each page's canonical and alternates. */
import { expect, test } from '@playwright/test'
import { structuredDataOf, structuredDataProblems } from '../../support/structured-data'
import { openPage, waitForRouteUpdates } from '../support/helpers'

test('robots.txt names the sitemap, and the sitemap lists every page with its alternates', async ({
  page,
  request,
}) => {
  const robots = await (await request.get('/robots.txt')).text()
  const sitemapUrl = /^Sitemap: (https?:\/\/[^\s]+\/sitemap\.xml)$/m.exec(robots)?.[1]
  expect(sitemapUrl).toBeDefined()
  const origin = new URL(sitemapUrl as string).origin

  const response = await request.get('/sitemap.xml')
  expect(response.headers()['content-type']).toContain('xml')
  const xml = await response.text()
  await page.goto('/en/')
  // The browser's XML parser: the sitemap must be well-formed, in the sitemap namespace.
  const urls = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml')
    if (doc.querySelector('parsererror')) throw new Error('sitemap.xml is not well-formed XML')
    const root = doc.documentElement
    return {
      namespace: root.namespaceURI,
      entries: [...root.children].map((url) => ({
        loc: url.getElementsByTagName('loc')[0]?.textContent ?? '',
        alternates: [...url.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link')].map(
          (link) => `${link.getAttribute('hreflang')} ${link.getAttribute('href')}`,
        ),
      })),
    }
  }, xml)
  expect(urls.namespace).toBe('http://www.sitemaps.org/schemas/sitemap/0.9')
  expect(urls.entries.length).toBeGreaterThan(160)

  const listed = new Map(urls.entries.map((entry) => [entry.loc, entry.alternates.sort()]))
  for (const { loc, alternates } of urls.entries) {
    expect(loc.startsWith(`${origin}/`), loc).toBe(true)
    const path = loc.slice(origin.length)
    const html = await (await request.get(path)).text()
    // Each listed page answers, is its own canonical, and names the same alternates.
    expect(html, path).toContain(`<link rel="canonical" href="${loc}">`)
    for (const alternate of alternates) {
      const [hreflang, href] = alternate.split(' ')
      expect(html, path).toContain(`<link rel="alternate" hreflang="${hreflang}" href="${href}">`)
      if (hreflang !== 'x-default') expect(listed.get(href as string), href).toEqual(alternates)
    }
  }
})

test('each blog feed is valid RSS of its language, and pages name their feed', async ({
  page,
  request,
}) => {
  await page.goto('/blog/')
  const feeds = await page
    .locator('link[rel="alternate"][type="application/rss+xml"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  expect(feeds).toEqual(['/blog/rss-en.xml', '/blog/rss-de.xml'])
  for (const [feed, language] of [
    ['/blog/rss-en.xml', 'en-GB'],
    ['/blog/rss-de.xml', 'de-DE'],
  ] as const) {
    const xml = await (await request.get(feed)).text()
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml')
      if (doc.querySelector('parsererror')) throw new Error('the feed is not well-formed XML')
      const channel = doc.querySelector('rss[version="2.0"] > channel')
      return {
        language: channel?.querySelector(':scope > language')?.textContent,
        items: [...doc.querySelectorAll('item')].map((item) => ({
          link: item.querySelector('link')?.textContent ?? '',
          date: item.querySelector('pubDate')?.textContent ?? '',
        })),
      }
    }, xml)
    expect(parsed.language).toBe(language)
    expect(parsed.items.length).toBeGreaterThanOrEqual(6)
    const dates = parsed.items.map((item) => Date.parse(item.date))
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    for (const item of parsed.items) {
      const post = await request.get(new URL(item.link).pathname)
      expect(post.status(), item.link).toBe(200)
      expect(await post.text()).toContain(`<html lang="${language.slice(0, 2)}">`)
    }
  }
})

test('after a client navigation to the other language, the head names that feed', async ({
  page,
}) => {
  await openPage(page, '/en/about/')
  const feeds = () =>
    page
      .locator('link[rel="alternate"][type="application/rss+xml"]')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  expect(await feeds()).toEqual(['/blog/rss-en.xml'])
  await page.getByRole('link', { name: 'Deutsch' }).first().click()
  await waitForRouteUpdates(page, 2)
  await expect(page).toHaveURL('/de/about/')
  expect(await feeds()).toEqual(['/blog/rss-de.xml'])
  expect(await page.locator('link[rel="alternate"][hreflang]').count()).toBe(3)
})

test('every page of the built site writes valid JSON-LD of its kind', async ({ request }) => {
  const xml = await (await request.get('/sitemap.xml')).text()
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    ([, loc]) => new URL(loc ?? '').pathname,
  )
  const seen = new Map<string, number>()
  for (const path of ['/', ...paths]) {
    const items = structuredDataOf(await (await request.get(path)).text())
    for (const item of items) {
      expect(structuredDataProblems(item), path).toEqual([])
      const type = String((item as { '@type': string })['@type'])
      seen.set(type, (seen.get(type) ?? 0) + 1)
    }
    const types = items.map((item) => (item as { '@type': string })['@type'])
    if (/^\/(en|de)\/careers\/.+/.test(path)) expect(types, path).toContain('JobPosting')
    if (/^\/(en|de)\/press\/.+/.test(path)) expect(types, path).toContain('NewsArticle')
    if (/^\/(en|de)\/(support\/faq|consumer-credit-faqs|services\/[^/]+)\/$/.test(path))
      expect(types, path).toContain('FAQPage')
    if (/^\/(en|de)\/.+/.test(path)) expect(types, path).toContain('BreadcrumbList')
    if (/^\/((en|de)\/)?$/.test(path)) expect(types, path).toEqual(['Organization'])
  }
  expect(seen.get('BlogPosting')).toBe(14)
  expect(seen.get('JobPosting')).toBe(10)
})
