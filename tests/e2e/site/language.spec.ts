import { expect, test } from '@playwright/test'
import { openPage, waitForRouteUpdates } from '../support/helpers'

test.describe('language', () => {
  test.describe('with a German browser', () => {
    test.use({ locale: 'de-DE' })

    test('the blog archive shows German without a redirect', async ({ page }) => {
      await openPage(page, '/blog/')
      await expect(page).toHaveURL('/blog/')
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de')
      await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible()
    })

    test('a stored choice wins over the browser language', async ({ page }) => {
      await page.addInitScript(() => localStorage.setItem('site-language', 'en'))
      await openPage(page, '/blog/')
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en')
    })

    test('prefixed pages keep their own language whatever the browser says', async ({ page }) => {
      await openPage(page, '/en/about/')
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en')
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
    })
  })

  test.describe('with a browser in another language', () => {
    test.use({ locale: 'fr-FR' })

    test('the blog archive falls back to English', async ({ page }) => {
      await openPage(page, '/blog/')
      await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
    })
  })

  test('switching language leads to the same page in the other language and is remembered', async ({
    page,
  }) => {
    await openPage(page, '/en/services/cards/')
    const switcher = page.getByRole('navigation', { name: 'Choose language' })
    await switcher.getByRole('link', { name: 'Deutsch' }).click()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/de/services/cards/')
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de')
    expect(await page.evaluate(() => localStorage.getItem('site-language'))).toBe('de')
    await page.goto('/blog/')
    await waitForRouteUpdates(page, 1)
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible()
  })

  test('the blog archive switches language in place', async ({ page }) => {
    await openPage(page, '/blog/')
    await page
      .getByRole('navigation', { name: 'Choose language' })
      .getByRole('button', { name: 'Deutsch' })
      .click()
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible()
    await expect(page).toHaveURL('/blog/')
    expect(await page.evaluate(() => localStorage.getItem('site-language'))).toBe('de')
  })

  test("a static host's generic 404 page shows the German 404 under /de/", async ({ page }) => {
    await page.route('**/de/kein-treffer/', async (route) => {
      const generic = await page.request.get('/404.html')
      await route.fulfill({ status: 404, contentType: 'text/html', body: await generic.text() })
    })
    await openPage(page, '/de/kein-treffer/')
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de')
    const data = await (await page.request.get('/page-data/de/404/page-data.json')).json()
    await expect(page.locator('h1')).toHaveText(data.result.content.de.title)
  })
})
