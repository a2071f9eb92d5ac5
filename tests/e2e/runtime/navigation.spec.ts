import { expect, test } from '@playwright/test'
import {
  addLink,
  collectConsoleProblems,
  collectRequests,
  disablePrefetch,
  isSameDocument,
  markDocument,
  openPage,
  recordRouteEvents,
  routeUpdates,
  waitForRouteUpdates,
} from '../support/helpers'

const mainNav = (page: import('@playwright/test').Page) =>
  page.getByRole('navigation', { name: 'Main navigation' })

test.describe('client navigation', () => {
  test('an internal link navigates without a full load and updates the page', async ({ page }) => {
    const problems = collectConsoleProblems(page)
    await openPage(page, '/en/')
    await markDocument(page)
    const historyLength = await page.evaluate(() => history.length)
    await mainNav(page).getByRole('link', { name: 'About us' }).click()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/en/about/')
    expect(await isSameDocument(page)).toBe(true)
    expect(await page.evaluate(() => history.length)).toBe(historyLength + 1)
    const data = await (await page.request.get('/page-data/en/about/page-data.json')).json()
    await expect(page.locator('h1')).toHaveText(data.result.content.en.title)
    await expect(page).toHaveTitle(data.result.head.title)
    expect(await page.locator('link[rel=canonical]').getAttribute('href')).toBe(
      data.result.head.canonical,
    )
    expect(problems).toEqual([])
  })

  test('the first load carries no navigation code; a link clicked before it arrives is followed without a full load', async ({
    page,
  }) => {
    await disablePrefetch(page)
    const html = await (await page.request.get('/en/')).text()
    expect(html).not.toMatch(/navigation-[\w-]+\.js/)
    // The navigation code is held back until the link has been clicked.
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(/\/assets\/navigation-[\w-]+\.js$/, async (route) => {
      await released
      await route.continue()
    })
    await recordRouteEvents(page)
    await page.goto('/en/')
    // Hydrating marks the root element; the held click needs the hydrated page.
    await page.waitForFunction(() =>
      Object.keys(document.getElementById('root') ?? {}).some((key) =>
        key.startsWith('__reactContainer'),
      ),
    )
    await markDocument(page)
    await mainNav(page).getByRole('link', { name: 'About us' }).click()
    // Held, not followed by the browser.
    await page.waitForTimeout(300)
    await expect(page).toHaveURL('/en/')
    release()
    await expect(page).toHaveURL('/en/about/')
    await waitForRouteUpdates(page, 2)
    expect(await isSameDocument(page)).toBe(true)
    await expect(page.locator('h1')).toHaveText('About Lumora Bank')
  })

  test('the first load needs no request for its own page data', async ({ page }) => {
    await disablePrefetch(page)
    const requests = collectRequests(page, /^\/page-data\//)
    await openPage(page, '/en/careers/')
    await page.waitForTimeout(300)
    expect(requests.map((request) => request.url())).toEqual([])
  })

  test('moves focus to the new heading and announces the page', async ({ page }) => {
    await openPage(page, '/en/')
    await mainNav(page).getByRole('link', { name: 'Careers' }).click()
    await waitForRouteUpdates(page, 2)
    const title = await page.title()
    await expect(page.locator('#route-announcer')).toHaveText(`Navigated to ${title}`)
    await expect(page.locator('#route-announcer')).toHaveAttribute('aria-live', 'assertive')
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1')
  })

  test('announces in German on German pages', async ({ page }) => {
    await openPage(page, '/de/')
    await page
      .getByRole('navigation', { name: 'Hauptnavigation' })
      .getByRole('link', { name: 'Karriere' })
      .click()
    await waitForRouteUpdates(page, 2)
    await expect(page.locator('#route-announcer')).toHaveText(
      `Seite geladen: ${await page.title()}`,
    )
  })

  test('a link to the current page replaces the history entry', async ({ page }) => {
    await openPage(page, '/en/about/')
    await markDocument(page)
    const length = await page.evaluate(() => history.length)
    await (await addLink(page, '/en/about/')).click()
    await waitForRouteUpdates(page, 2)
    expect(await page.evaluate(() => history.length)).toBe(length)
    expect(await isSameDocument(page)).toBe(true)
  })

  test('external links open in a new tab without opener or referrer', async ({ page }) => {
    await openPage(page, '/en/')
    const external = page.locator('footer a[href^="https://"]').first()
    await expect(external).toHaveAttribute('target', '_blank')
    await expect(external).toHaveAttribute('rel', 'noopener noreferrer')
    const internal = page.locator('footer a[href^="/en/"]').first()
    expect(await internal.getAttribute('target')).toBeNull()
  })

  for (const href of ['/documents/terms.pdf', '/en/press/download/', '/content/report/']) {
    test(`a link to ${href} is a plain link`, async ({ page }) => {
      await disablePrefetch(page)
      await openPage(page, '/en/')
      await markDocument(page)
      const link = await addLink(page, href)
      const pageData = collectRequests(page, /^\/page-data\/(?!app-data)/)
      await Promise.all([page.waitForURL(href), link.click()])
      expect(pageData.map((request) => request.url())).toEqual([])
      expect(await isSameDocument(page)).toBe(false)
    })
  }

  test('clicks with a modifier key, on download links or with another target are left to the browser', async ({
    page,
    context,
  }) => {
    await openPage(page, '/en/')
    await markDocument(page)
    const link = mainNav(page).getByRole('link', { name: 'Careers' })
    const popup = context.waitForEvent('page')
    await link.click({ modifiers: ['ControlOrMeta'] })
    await (await popup).close()
    const download = await addLink(page, '/en/about/', { download: true })
    const framed = await addLink(page, '/en/press/', { target: '_blank' })
    const second = context.waitForEvent('page')
    await framed.click()
    await (await second).close()
    const downloaded = page.waitForEvent('download')
    await download.click()
    await downloaded
    expect(await routeUpdates(page)).toEqual(['/en/'])
    await expect(page).toHaveURL('/en/')
    expect(await isSameDocument(page)).toBe(true)
  })

  test('back and forward restore the page and its scroll position; new pages start at the top', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 800, height: 400 })
    await openPage(page, '/en/')
    await page.evaluate(() => window.scrollTo(0, 250))
    await page.waitForFunction(() => window.scrollY === 250)
    // A click from script leaves the scroll position where it is (a pointer click would first
    // scroll the link into view).
    await page.evaluate(() =>
      document.querySelector<HTMLAnchorElement>('footer a[href="/en/careers/"]')?.click(),
    )
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/en/careers/')
    expect(await page.evaluate(() => window.scrollY)).toBe(0)
    await page.evaluate(() => window.scrollTo(0, 120))
    await page.waitForFunction(() => window.scrollY === 120)
    await page.goBack()
    await waitForRouteUpdates(page, 3)
    await expect(page).toHaveURL('/en/')
    await page.waitForFunction(() => window.scrollY === 250)
    await page.goForward()
    await waitForRouteUpdates(page, 4)
    await expect(page).toHaveURL('/en/careers/')
    await page.waitForFunction(() => window.scrollY === 120)
  })

  test('scroll positions survive a full reload', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 400 })
    await openPage(page, '/en/about/')
    await page.evaluate(() => window.scrollTo(0, 200))
    await page.waitForFunction(() => window.scrollY === 200)
    await page.reload()
    await waitForRouteUpdates(page, 1)
    await page.waitForFunction(() => window.scrollY === 200)
  })

  test('an address with a hash scrolls to and focuses its target, on first load and after navigation', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 800, height: 400 })
    await openPage(page, '/en/about/#footer')
    await page.waitForFunction(() => window.scrollY > 0)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('footer')
    await page.evaluate(() => window.scrollTo(0, 0))
    await (await addLink(page, '/en/careers/#footer', { first: true })).click()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/en/careers/#footer')
    await page.waitForFunction(() => window.scrollY > 0)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('footer')
  })

  test('client navigation to an unknown path shows the 404 page of that language', async ({
    page,
  }) => {
    await openPage(page, '/de/')
    await markDocument(page)
    await (await addLink(page, '/de/gibt-es-nicht/')).click()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/de/gibt-es-nicht/')
    expect(await isSameDocument(page)).toBe(true)
    const data = await (await page.request.get('/page-data/de/404/page-data.json')).json()
    await expect(page.locator('h1')).toHaveText(data.result.content.de.title)
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de')
  })

  test('route-update fires on the first page and after every navigation', async ({ page }) => {
    await openPage(page, '/en/')
    await mainNav(page).getByRole('link', { name: 'Services' }).click()
    await waitForRouteUpdates(page, 2)
    await mainNav(page).getByRole('link', { name: 'Support' }).click()
    await waitForRouteUpdates(page, 3)
    expect(await routeUpdates(page)).toEqual(['/en/', '/en/services/', '/en/support/'])
    expect(await page.evaluate(() => window.__delayed)).toEqual([])
  })
})
