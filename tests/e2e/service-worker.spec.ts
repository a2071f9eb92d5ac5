import { expect, test } from '@playwright/test'
import { TEST_PORT } from './support/env'
import { openPage } from './support/helpers'

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
    await openPage(page, '/en/')
    await page.evaluate(async () => navigator.serviceWorker.ready)
    await page.reload()
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true)
    // context.route also sees the requests the worker makes.
    await context.route('**/en/about/', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Fresh deploy</h1>' }),
    )
    await page.goto('/en/about/')
    await expect(page.locator('h1')).toHaveText('Fresh deploy')
  })
})
