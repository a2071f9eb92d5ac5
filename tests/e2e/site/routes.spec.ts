import { expect, test } from '@playwright/test'
import { SPEC_PAGES } from '../../../src/shared/spec-routes'
import { pageDataPath } from '../support/helpers'

const routed = ['en', 'de'].flatMap((language) =>
  [...SPEC_PAGES, '/404/'].map((path) => `/${language}${path}`),
)
const ALL = ['/', '/blog/', ...routed]

test.describe('routes', () => {
  test('every route answers 200 with its page data, in both languages', async ({ request }) => {
    for (const path of ALL) {
      const page = await request.get(path)
      expect(page.status(), path).toBe(200)
      const html = await page.text()
      expect(html, path).toContain('<div id="root">')
      const data = await request.get(pageDataPath(path))
      expect(data.status(), pageDataPath(path)).toBe(200)
      const json = await data.json()
      expect(json.path, path).toBe(path)
      expect(typeof json.componentChunkName).toBe('string')
      expect(Array.isArray(json.staticQueryHashes)).toBe(true)
      expect(json.result.language.redirect).toBe(false)
      for (const hash of json.staticQueryHashes) {
        expect((await request.get(`/page-data/sq/d/${hash}.json`)).status()).toBe(200)
      }
    }
  })

  test('unknown paths answer 404 with the page of their language', async ({ request }) => {
    const german = await request.get('/de/gibt-es-nicht/')
    expect(german.status()).toBe(404)
    expect(await german.text()).toContain('<html lang="de">')
    for (const path of ['/en/does-not-exist/', '/nothing-here/', '/fr/']) {
      const english = await request.get(path)
      expect(english.status(), path).toBe(404)
      expect(await english.text(), path).toContain('<html lang="en">')
    }
  })

  test('/ is the English home without a redirect, canonical at /en/', async ({ request }) => {
    const response = await request.get('/', { maxRedirects: 0 })
    expect(response.status()).toBe(200)
    const html = await response.text()
    expect(html).toContain('<html lang="en">')
    expect(html).toMatch(/<link rel="canonical" href="[^"]*\/en\/">/)
  })

  test('app data names the build hash embedded in every page', async ({ request }) => {
    const appData = await (await request.get('/page-data/app-data.json')).json()
    expect(appData.webpackCompilationHash).toMatch(/^[0-9a-f]{20}$/)
    const html = await (await request.get('/de/about/')).text()
    expect(html).toContain(`"buildHash":"${appData.webpackCompilationHash}"`)
  })

  test('a web manifest per language, linked by the page of that language', async ({ request }) => {
    for (const [language, startUrl] of [
      ['en', '/'],
      ['de', '/de/'],
    ] as const) {
      const response = await request.get(`/manifest-${language}.webmanifest`)
      expect(response.status()).toBe(200)
      expect(response.headers()['content-type']).toContain('application/manifest+json')
      const manifest = await response.json()
      expect(manifest).toMatchObject({
        start_url: startUrl,
        display: 'minimal-ui',
        background_color: '#ffffff',
        theme_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      })
      expect(manifest.name.length).toBeGreaterThan(0)
      expect(manifest.short_name.length).toBeGreaterThan(0)
      expect(manifest.icons).toHaveLength(1)
      expect((await request.get(manifest.icons[0].src)).status()).toBe(200)
      const html = await (await request.get(`/${language}/about/`)).text()
      expect(html).toContain(`<link rel="manifest" href="/manifest-${language}.webmanifest">`)
      expect(html).toContain(`<meta name="theme-color" content="${manifest.theme_color}">`)
    }
  })
})
