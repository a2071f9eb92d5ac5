import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../../src/content/collections'
import { loadContent } from '../../../../src/content/load'
import { feedPath } from '../../../../src/engine/pages/feed-links'
import { renderDocument, sharingTags } from '../../../../src/engine/pages/html-document'
import { createPageData, createStaticQueries } from '../../../../src/engine/pages/page-data'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import { rssFeed } from '../../../../src/engine/site-files/feeds'
import { indexedPages, robotsTxt, sitemapXml } from '../../../../src/engine/site-files/seo'
import { addBlogPost, memorySource, validDocuments } from '../../../fixtures/content'

const SITE = 'https://bank.example'
const documents = validDocuments()
addBlogPost(documents)
const content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
const routes = createRouteTable(content)
const queries = createStaticQueries(content)
const page = (path: string) => {
  const found = routes.find((route) => route.route.path === path)
  if (!found) throw new Error(`no page ${path}`)
  return createPageData(found, queries, content, SITE)
}

/** Each `<url>` of the sitemap: its address and its alternates by language. */
function parseSitemap(xml: string): Map<string, Record<string, string>> {
  const urls = new Map<string, Record<string, string>>()
  for (const [, body = ''] of xml.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
    const loc = /<loc>([^<]+)<\/loc>/.exec(body)?.[1] ?? ''
    const links: Record<string, string> = {}
    for (const [, hreflang = '', href = ''] of body.matchAll(
      /<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g,
    ))
      links[hreflang] = href
    urls.set(loc, links)
  }
  return urls
}

describe('sitemap and robots.txt', () => {
  const xml = sitemapXml(routes, SITE)
  const urls = parseSitemap(xml)

  it('lists every page that is its own canonical once, by absolute address', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset ')).toBe(true)
    expect(urls.size).toBe(indexedPages(routes).length)
    expect(urls.has(`${SITE}/en/services/cards/`)).toBe(true)
    expect(urls.has(`${SITE}/blog/hello-from-the-bank/`)).toBe(true)
    // `/` points search engines at /en/; the 404 pages answer patterns.
    for (const path of ['/', '/en/404/', '/de/404/']) expect(urls.has(`${SITE}${path}`)).toBe(false)
  })

  it('leaves out the pages a form or an e-mail link leads to, and tells robots not to index them', () => {
    expect(urls.has(`${SITE}/en/newsletter-success/`)).toBe(false)
    expect(urls.has(`${SITE}/de/survey-success/`)).toBe(false)
    expect(urls.has(`${SITE}/en/newsletter/`)).toBe(true)
    expect(page('/en/newsletter-success/').result.head.noindex).toBe(true)
    expect(page('/en/newsletter/').result.head.noindex).toBeUndefined()
  })

  it('names every page in both languages and x-default, reciprocally', () => {
    for (const [loc, links] of urls) {
      if (!/\/(en|de)\//.test(new URL(loc).pathname.slice(0, 4))) continue
      expect(Object.keys(links).sort(), loc).toEqual(['de', 'en', 'x-default'])
      expect(Object.values(links), loc).toContain(loc)
      for (const href of Object.values(links)) expect(urls.get(href), href).toEqual(links)
    }
  })

  it('gives blog posts and language-neutral pages no alternates (they have no twin)', () => {
    expect(urls.get(`${SITE}/blog/hello-from-the-bank/`)).toEqual({})
    expect(urls.get(`${SITE}/blog/`)).toEqual({})
    expect(page('/blog/hello-from-the-bank/').result.head.alternates).toEqual([])
  })

  it('robots.txt names the sitemap by absolute address', () => {
    expect(robotsTxt(SITE)).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://bank.example/sitemap.xml\n',
    )
  })
})

describe('sharing tags', () => {
  it('describe a page with its locale and the other language as alternate', () => {
    const { head } = page('/de/services/cards/').result
    const tags = sharingTags(head, 'Test Bank', 'service')
    expect(tags).toContain('<meta property="og:type" content="website">')
    expect(tags).toContain('<meta property="og:site_name" content="Test Bank">')
    expect(tags).toContain(`<meta property="og:url" content="${SITE}/de/services/cards/">`)
    expect(tags).toContain('<meta property="og:locale" content="de_DE">')
    expect(tags).toContain('<meta property="og:locale:alternate" content="en_GB">')
    expect(tags).toContain('<meta name="twitter:card" content="summary_large_image">')
    expect(tags).toContain(
      '<meta property="og:image" content="https://bank.example/images/cards/site.png">',
    )
    expect(tags).toContain('<meta property="og:image:alt" content="Test Bank">')
  })

  it('share customer information in its contract language, which its twin has too', () => {
    const found = routes.find((route) => route.route.template === 'customer-information')
    if (!found) throw new Error('no customer information')
    const info = page(found.route.path)
    const contract = String(info.result.content[info.result.language.language]?.contractLanguage)
    const tags = sharingTags(info.result.head, 'Test Bank', 'customer-information')
    expect(tags).toMatch(new RegExp(`<meta property="og:locale" content="${contract}_[A-Z]{2}">`))
    expect(tags).not.toContain('og:locale:alternate')
  })

  it('make blog posts articles, without an alternate locale, in the rendered document', () => {
    const data = page('/blog/hello-from-the-bank/')
    const html = renderDocument(
      {
        buildHash: 'x',
        serviceWorker: false,
        tracking: { adsIds: [] },
        page: data,
        staticQueries: { q: queries.en.data },
      },
      '',
      { entry: '/entry.js', preload: [], styles: [], fonts: [] },
    )
    expect(html).toContain('<meta property="og:type" content="article">')
    expect(html).toContain('<meta property="og:locale" content="en_GB">')
    expect(html).not.toContain('og:locale:alternate')
    expect(html).toContain(`<meta property="og:site_name" content="${queries.en.data.brandName}">`)
  })

  it('name one script, which loads the page code after the first paint, and no module preloads', () => {
    const boot = {
      buildHash: 'x',
      serviceWorker: false,
      tracking: { adsIds: [] },
      page: page('/en/'),
      staticQueries: { q: queries.en.data },
    }
    const assets = { entry: '/e.js', preload: ['/a.js', '/b.js'], styles: [], fonts: [] }
    const html = renderDocument(boot, '', { ...assets, boot: '/boot.js' })
    expect(html.match(/<script type="module"[^>]*>/g)).toEqual([
      '<script type="module" src="/boot.js" data-entry="/e.js" data-modules="/a.js /b.js">',
    ])
    expect(html).not.toContain('modulepreload')
    // Without a boot script (the dev server) the page names its entry and preloads.
    const direct = renderDocument(boot, '', assets)
    expect(direct).toContain('<script type="module" src="/e.js"></script>')
    expect(direct).toContain('<link rel="modulepreload" href="/a.js">')
  })
})

describe('blog feeds', () => {
  it('hold the posts of their language, newest first, with absolute links and RFC 822 dates', () => {
    const english = rssFeed(content, 'en', SITE)
    expect(english).toContain('<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"')
    expect(english).toContain(
      `<atom:link href="${SITE}/blog/rss-en.xml" rel="self" type="application/rss+xml"/>`,
    )
    expect(english).toContain('<title>Hello from the bank</title>')
    expect(english).toContain(`<link>${SITE}/blog/hello-from-the-bank/</link>`)
    expect(english).toContain('<pubDate>Mon, 02 Nov 2026 12:00:00 GMT</pubDate>')
    expect(english).toContain('<dc:creator>Ada Example</dc:creator>')
    expect(english).toContain('<category>News</category>')
    expect(english).toContain('<language>en-GB</language>')
    const german = rssFeed(content, 'de', SITE)
    expect(german).not.toContain('<item>')
    expect(german).toContain('<language>de-DE</language>')
  })

  it('are named in every head: the page language, or every language on neutral pages', () => {
    expect(page('/de/services/cards/').result.head.feeds.map((feed) => feed.href)).toEqual([
      feedPath('de'),
    ])
    expect(page('/blog/').result.head.feeds.map((feed) => feed.href)).toEqual([
      '/blog/rss-en.xml',
      '/blog/rss-de.xml',
    ])
  })
})
