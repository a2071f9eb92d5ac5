import { expect, type Page, test } from '@playwright/test'
import {
  collectRequests,
  isSameDocument,
  markDocument,
  openPage,
  waitForRouteUpdates,
} from '../support/helpers'

const ABOUT_DATA = '**/page-data/en/about/page-data.json'
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' })

/** Clicks "About us" in the main navigation. */
async function clickAbout(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'About us' }).click()
}

/** Opens the home page with prefetching off (data saver), so only navigations fetch. */
async function openWithoutPrefetch(page: Page, path = '/en/'): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'connection', {
      value: { saveData: true },
      configurable: true,
    })
  })
  await openPage(page, path)
  await markDocument(page)
}

/** Holds every response to `url` until `release` is called, then lets them through. */
async function holdResponses(page: Page, url: string) {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(url, async (route) => {
    await released
    await route.continue()
  })
  return { release }
}

/** Waits for a full load of `path` (a new document, marker gone). */
async function expectFullLoad(page: Page, path: string): Promise<void> {
  await page.waitForURL(path)
  await page.waitForFunction(() => window.__marker === undefined)
  expect(await isSameDocument(page)).toBe(false)
}

test.describe('failure policy in the browser', () => {
  test('page data 503 twice, then 200: the navigation succeeds after 3 requests', async ({
    page,
  }) => {
    let calls = 0
    await page.route(ABOUT_DATA, (route) => {
      calls += 1
      return calls <= 2 ? route.fulfill({ status: 503, body: 'busy' }) : route.continue()
    })
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/en/about/')
    expect(await isSameDocument(page)).toBe(true)
    expect(calls).toBe(3)
  })

  test('page data always 503: 4 requests, then one full load', async ({ page }) => {
    let calls = 0
    await page.route(ABOUT_DATA, (route) => {
      calls += 1
      return route.fulfill({ status: 503, body: 'busy' })
    })
    const documents = collectRequests(page, /^\/en\/about\/$/)
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await expectFullLoad(page, '/en/about/')
    expect(calls).toBe(4)
    await page.waitForTimeout(300)
    expect(documents.filter((request) => request.isNavigationRequest())).toHaveLength(1)
  })

  test('page data 500: no retry, one full load', async ({ page }) => {
    let calls = 0
    await page.route(ABOUT_DATA, (route) => {
      calls += 1
      return route.fulfill({ status: 500, body: 'error' })
    })
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await expectFullLoad(page, '/en/about/')
    expect(calls).toBe(1)
  })

  test('page data 404 for a page that exists: HEAD says so, one full load', async ({ page }) => {
    await page.route(ABOUT_DATA, (route) => route.fulfill({ status: 404, body: 'gone' }))
    const heads = collectRequests(page, /^\/en\/about\/$/)
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await expectFullLoad(page, '/en/about/')
    expect(heads.filter((request) => request.method() === 'HEAD')).toHaveLength(1)
  })

  test('page data 200 without path: treated as not found, then one full load', async ({ page }) => {
    await page.route(ABOUT_DATA, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"result":{}}' }),
    )
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await expectFullLoad(page, '/en/about/')
  })

  test('a missing template chunk ends in one full load', async ({ page }) => {
    await page.route(/\/assets\/page-[^/]+\.js$/, (route) =>
      route.fulfill({ status: 404, body: '' }),
    )
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await expectFullLoad(page, '/en/about/')
  })

  test('a changed build hash ends in one full load', async ({ page }) => {
    await page.route('**/page-data/app-data.json', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ webpackCompilationHash: 'a-newer-build' }),
      }),
    )
    const documents = collectRequests(page, /^\/en\/about\/$/)
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await expectFullLoad(page, '/en/about/')
    await page.waitForTimeout(500)
    expect(documents.filter((request) => request.isNavigationRequest())).toHaveLength(1)
  })

  test('page data delayed past the threshold: route-update-delayed fires once, then the page shows', async ({
    page,
  }) => {
    // The data is held until the delayed event has fired (a signal, not a timer that a loaded
    // machine could outrun), then sent.
    const held = await holdResponses(page, ABOUT_DATA)
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await page.waitForFunction(() => window.__delayed.length === 1)
    held.release()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/en/about/')
    expect(await isSameDocument(page)).toBe(true)
    expect(await page.evaluate(() => window.__delayed)).toHaveLength(1)
  })

  test('a navigation overtaken by a newer one is dropped', async ({ page }) => {
    // About's data arrives only after the navigation to Careers has finished.
    const held = await holdResponses(page, ABOUT_DATA)
    await openWithoutPrefetch(page)
    await clickAbout(page)
    await mainNav(page).getByRole('link', { name: 'Careers' }).click()
    await waitForRouteUpdates(page, 2)
    const aboutData = page.waitForResponse((response) =>
      response.url().endsWith('/page-data/en/about/page-data.json'),
    )
    held.release()
    await (await aboutData).finished()
    await page.waitForTimeout(300)
    await expect(page).toHaveURL('/en/careers/')
    expect(await page.evaluate(() => window.__routeUpdates)).toEqual(['/en/', '/en/careers/'])
  })
})
