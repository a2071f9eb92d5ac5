import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../../src/content/collections'
import { loadContent } from '../../../../src/content/load'
import { createPageData, createStaticQueries } from '../../../../src/engine/pages/page-data'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import { CUSTOMER_INFORMATION, SPEC_PAGES } from '../../../../src/shared/spec-routes'
import { memorySource, validDocuments } from '../../../fixtures/content'

const content = await loadContent(memorySource(validDocuments()), { collections: ALL_COLLECTIONS })
const routes = createRouteTable(content)
const byPath = new Map(routes.map((page) => [page.route.path, page]))
const SITE = 'https://bank.example'

describe('route table', () => {
  it('holds the 60 pages of the spec under /en/ and /de/', () => {
    expect(SPEC_PAGES).toHaveLength(60)
    for (const language of ['en', 'de']) {
      for (const path of SPEC_PAGES)
        expect(byPath.has(`/${language}${path}`), `/${language}${path}`).toBe(true)
    }
  })

  it('holds exactly the 10 customer-information combinations of the spec', () => {
    const details = routes.filter((page) =>
      /^\/en\/customer-information\/.+\/.+\/.+\/$/.test(page.route.path),
    )
    expect(details.map((page) => page.route.path).sort()).toEqual(
      CUSTOMER_INFORMATION.flatMap(({ country, iban, languages }) =>
        languages.map((language) => `/en/customer-information/${country}/${iban}/${language}/`),
      ).sort(),
    )
    expect(details).toHaveLength(10)
  })

  it('serves the English home at / without a prefix, pointing search engines at /en/', () => {
    const root = byPath.get('/')
    expect(root).toMatchObject({
      language: 'en',
      routed: false,
      canonicalPath: '/en/',
      originalPath: '/',
    })
    expect(root?.route.template).toBe('home')
  })

  it('keeps /blog/ outside the prefixes, language-neutral', () => {
    expect(byPath.get('/blog/')).toMatchObject({ routed: false, languageNeutral: true })
    expect(byPath.get('/blog/')?.route.language).toBeUndefined()
    expect(byPath.has('/en/blog/')).toBe(false)
  })

  it('has a 404 page per language matching everything under its prefix', () => {
    expect(byPath.get('/en/404/')?.route).toMatchObject({
      template: 'not-found',
      matchPath: '/en/*',
    })
    expect(byPath.get('/de/404/')?.route).toMatchObject({
      template: 'not-found',
      matchPath: '/de/*',
    })
    expect(routes.filter((page) => page.route.matchPath)).toHaveLength(2)
  })

  it('counts 60 spec pages, a 404 page and a support category per language, plus / and /blog/', () => {
    expect(routes).toHaveLength(126)
  })
})

describe('page data', () => {
  const queries = createStaticQueries(content)

  it('carries path, componentChunkName, staticQueryHashes and result', () => {
    const page = byPath.get('/de/services/cards/')
    if (!page) throw new Error('missing route')
    const data = createPageData(page, queries, content, SITE)
    expect(Object.keys(data)).toEqual(['path', 'componentChunkName', 'staticQueryHashes', 'result'])
    expect(data).toMatchObject({
      path: '/de/services/cards/',
      componentChunkName: 'service',
      staticQueryHashes: [queries.de.hash],
    })
    expect(data.result.language).toEqual({
      language: 'de',
      languages: ['en', 'de'],
      defaultLanguage: 'en',
      redirect: false,
      routed: true,
      originalPath: '/services/cards/',
      ignoredPaths: ['/blog/**'],
    })
    expect(data.result.head).toMatchObject({
      lang: 'de',
      canonical: `${SITE}/de/services/cards/`,
      manifest: '/manifest-de.webmanifest',
      alternates: [
        { hreflang: 'en', href: `${SITE}/en/services/cards/` },
        { hreflang: 'de', href: `${SITE}/de/services/cards/` },
        { hreflang: 'x-default', href: `${SITE}/en/services/cards/` },
      ],
    })
  })

  it('gives the 404 pages their match path and no alternates', () => {
    const page = byPath.get('/de/404/')
    if (!page) throw new Error('missing route')
    const data = createPageData(page, queries, content, SITE)
    expect(data.matchPath).toBe('/de/*')
    expect(data.result.head.alternates).toEqual([])
  })

  it('gives / the canonical /en/ and the routed flag false', () => {
    const page = byPath.get('/')
    if (!page) throw new Error('missing route')
    const data = createPageData(page, queries, content, SITE)
    expect(data.result.head.canonical).toBe(`${SITE}/en/`)
    expect(data.result.language.routed).toBe(false)
  })

  it('gives the language-neutral blog every language of content and shared data', () => {
    const page = byPath.get('/blog/')
    if (!page) throw new Error('missing route')
    const data = createPageData(page, queries, content, SITE)
    expect(Object.keys(data.result.content)).toEqual(['en', 'de'])
    expect(data.staticQueryHashes).toEqual([queries.en.hash, queries.de.hash])
    expect(data.result.languageNeutral).toBe(true)
  })

  it('stores shared data once per language under a hash of its content', () => {
    expect(queries.en.hash).not.toBe(queries.de.hash)
    expect(queries.en.hash).toMatch(/^[0-9a-f]{16}$/)
    expect(JSON.parse(queries.de.json)).toMatchObject({ language: 'de', brandName: 'Test Bank' })
  })
})
