import { expect, type Page, test } from '@playwright/test'
import { TEST_PORT } from '../support/env'
import { openPage } from '../support/helpers'

/** Opens the home page, and again once the worker is ready, so that it controls the page. */
async function controlledByTheWorker(page: Page) {
  await openPage(page, '/en/')
  await page.evaluate(async () => navigator.serviceWorker.ready)
  await page.reload()
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true)
}

test.describe('service worker', () => {
  test.use({ serviceWorkers: 'allow' })

  test('registers on localhost, precaches the app shell and controls the next load', async ({
    page,
  }) => {
    await openPage(page, '/en/')
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
    expect(scope).toBe(`http://localhost:${TEST_PORT}/`)
    await page.reload()
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true)
    const cached = await page.evaluate(async () => {
      const names = await caches.keys()
      const urls: string[] = []
      for (const name of names) {
        for (const request of await (await caches.open(name)).keys())
          urls.push(new URL(request.url).pathname)
      }
      return urls
    })
    expect(cached.some((path) => /^\/assets\/entry-.+\.js$/.test(path))).toBe(true)
    expect(cached).toContain('/manifest-de.webmanifest')
  })

  test('pages come from the network first, so a deploy is never hidden', async ({
    page,
    context,
  }) => {
    await controlledByTheWorker(page)
    // context.route also sees the requests the worker makes.
    await context.route('**/en/about/', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Fresh deploy</h1>' }),
    )
    await page.goto('/en/about/')
    await expect(page.locator('h1')).toHaveText('Fresh deploy')
  })

  test('keeps no page of the forms service (tokens in their addresses) nor any answer marked no-store', async ({
    page,
    context,
  }) => {
    await controlledByTheWorker(page)
    // A confirm page as the e-mail's link opens it (cacheable as far as its headers go), and a
    // page of the site answered no-store.
    await context.route('**/api/subscriptions/confirm?*', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Confirm</h1>' }),
    )
    await context.route('**/en/careers/', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        headers: { 'cache-control': 'no-store' },
        body: '<h1>Careers, not to keep</h1>',
      }),
    )
    await page.goto('/api/subscriptions/confirm?token=secret-confirm-token')
    await expect(page.locator('h1')).toHaveText('Confirm')
    await page.goto('/en/careers/')
    await expect(page.locator('h1')).toHaveText('Careers, not to keep')
    await page.goto('/en/about/')
    const cachedPaths = () =>
      page.evaluate(async () => {
        const urls: string[] = []
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) urls.push(request.url)
        }
        return urls.map((url) => new URL(url).pathname + new URL(url).search)
      })
    // The page after them is kept: by then the worker has settled what it keeps of them.
    await expect.poll(cachedPaths).toContain('/en/about/')
    const cached = await cachedPaths()
    expect(cached.filter((path) => path.startsWith('/api/') || path.includes('secret'))).toEqual([])
    expect(cached).not.toContain('/en/careers/')
  })
})
