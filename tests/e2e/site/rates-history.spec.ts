/**
 * The card network's rates by day, loaded on demand (built site, Chromium, both languages):
 * the converter works from the page data at once; opening the rates by day fetches that
 * currency's file and no other; reaching for a control fetches its file ahead (never with data
 * saver); a failed or outdated file says so in the page's language with a way forward, moving
 * nothing on the page; the service worker keeps a currency seen once for offline use; without
 * script the build's table is there as before.
 */
import { expect, type Locator, type Page, test } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { collectRequests, disablePrefetch, openPage, waitForRouteUpdates } from '../support/helpers'

const WORDS = {
  en: {
    path: '/en/exchange-rates/mastercard/',
    amount: 'Amount in the foreign currency',
    currency: 'Currency',
    date: 'Date',
    chf: 'Swiss Franc',
    usd: 'US Dollar',
    show: (currency: string) => `Show the rates of ${currency} by day`,
    table: (currency: string) => new RegExp(`^${currency}: Mastercard rate`),
    latestResult: 'CHF 250.00 is €234.32 at the Mastercard rate of 1.066903 (28 January 2020).',
    olderResult: '€230.23',
    latestUsd: 'US$100.00 is €91.37',
    olderUsd: 'US$100.00 is €90.14',
    olderRow: '27 December 2019',
    olderRate: '1.085885',
    error: (currency: string) => `The rates of ${currency} by day could not be loaded.`,
    retry: 'Try again',
    outdated: 'The rates have been updated since you opened this page.',
    reload: 'Reload the page',
  },
  de: {
    path: '/de/exchange-rates/mastercard/',
    amount: 'Betrag in Fremdwährung',
    currency: 'Währung',
    date: 'Datum',
    chf: 'Schweizer Franken',
    usd: 'US-Dollar',
    show: (currency: string) => `Kurse von ${currency} nach Tagen anzeigen`,
    table: (currency: string) => new RegExp(`^${currency}: Mastercard-Kurs`),
    latestResult: '250,00 CHF sind 234,32 € zum Mastercard-Kurs von 1,066903 (28. Januar 2020).',
    olderResult: '230,23 €',
    latestUsd: '100,00 $ sind 91,37 €',
    olderUsd: '100,00 $ sind 90,14 €',
    olderRow: '27. Dezember 2019',
    olderRate: '1,085885',
    error: (currency: string) => `Die Kurse von ${currency} konnten nicht geladen werden.`,
    retry: 'Erneut versuchen',
    outdated: 'Die Kurse wurden aktualisiert, seit Sie die Seite geöffnet haben.',
    reload: 'Seite neu laden',
  },
} as const

/** Where an element is on the page (not in the window, which scrolls when focus moves). */
const pageTop = (locator: Locator) =>
  locator.evaluate((element) => element.getBoundingClientRect().top + window.scrollY)

const HISTORY = /^\/rates\/mastercard\/[0-9a-f]{10}\/[A-Z]{3}\.json$/
/** Playwright matches a regular expression against the whole URL; the pattern is a path. */
const isHistory = (url: URL) => HISTORY.test(url.pathname)
const fileOf = (url: string) => new URL(url).pathname.split('/').pop()

/** Sums the page's layout shifts not caused by the visitor's input (what CLS counts). */
async function watchLayoutShifts(page: Page) {
  await page.evaluate(() => {
    const shifts: number[] = []
    ;(window as unknown as { __shifts: number[] }).__shifts = shifts
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
      })[]) {
        if (!entry.hadRecentInput) shifts.push(entry.value)
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  return () =>
    page.evaluate(() =>
      (window as unknown as { __shifts: number[] }).__shifts.reduce((sum, value) => sum + value, 0),
    )
}

for (const [language, words] of Object.entries(WORDS)) {
  test.describe(`${language}:`, () => {
    test('the converter uses the latest rates at once; opening the rates by day loads that currency’s file, no other', async ({
      page,
    }) => {
      // Data saver: no prefetch, so every request below is one the page needed.
      await disablePrefetch(page)
      const requests = collectRequests(page, HISTORY)
      await openPage(page, words.path)
      await page.getByRole('textbox', { name: words.amount }).fill('250')
      await page.getByRole('combobox', { name: words.currency }).selectOption('CHF')
      const result = page.locator('[data-converter-result]')
      await expect(result).toContainText(words.latestResult)
      expect(requests).toHaveLength(0)

      const button = page.getByRole('button', { name: words.show(words.chf) })
      await expect(button).toHaveAttribute('aria-expanded', 'false')
      await button.click()
      await expect(button).toHaveAttribute('aria-expanded', 'true')
      const table = page.getByRole('table', { name: words.table(words.chf) })
      await expect(table.locator('tbody tr')).toHaveCount(28)
      await expect(table.locator('tbody tr').filter({ hasText: words.olderRow })).toContainText(
        words.olderRate,
      )
      expect(requests.map((request) => fileOf(request.url()))).toEqual(['CHF.json'])

      // Another day converts from the file already there: no second request.
      await page.getByRole('combobox', { name: words.date }).selectOption('2019-12-27')
      await expect(result).toContainText(words.olderResult)
      expect(requests).toHaveLength(1)
      expect(await axeViolations(page)).toEqual([])
    })

    test('reaching for a control fetches its file ahead: hovering it, focusing it', async ({
      page,
    }) => {
      const requests = collectRequests(page, HISTORY)
      await openPage(page, words.path)
      await page.waitForTimeout(300)
      expect(requests).toHaveLength(0)
      // Hovering the button of the rates by day (USD, the currency shown first).
      await page.getByRole('button', { name: words.show(words.usd) }).hover()
      await expect
        .poll(() => requests.map((request) => fileOf(request.url())))
        .toEqual(['USD.json'])
      // Choosing another currency, then focusing the list of days: that currency's file.
      await page.getByRole('combobox', { name: words.currency }).selectOption('JPY')
      await page.getByRole('combobox', { name: words.date }).focus()
      await expect
        .poll(() => requests.map((request) => fileOf(request.url())))
        .toEqual(['USD.json', 'JPY.json'])
    })

    test('with data saver nothing is fetched ahead; the file loads when needed', async ({
      page,
    }) => {
      await disablePrefetch(page)
      const requests = collectRequests(page, HISTORY)
      await openPage(page, words.path)
      const button = page.getByRole('button', { name: words.show(words.usd) })
      await button.hover()
      await page.getByRole('combobox', { name: words.date }).focus()
      await page.waitForTimeout(400)
      expect(requests).toHaveLength(0)
      await button.click()
      await expect(page.getByRole('table', { name: words.table(words.usd) })).toBeVisible()
      expect(requests).toHaveLength(1)
    })

    test('rates by day that cannot be loaded say so, move nothing, and retry works', async ({
      page,
    }) => {
      await disablePrefetch(page)
      let failing = true
      await page.route(isHistory, (route) => (failing ? route.abort() : route.fallback()))
      await openPage(page, words.path)
      const shifts = await watchLayoutShifts(page)
      const below = page.getByRole('heading', { level: 2 }).nth(1)
      await page.getByRole('button', { name: words.show(words.usd) }).click()
      const before = await pageTop(below)
      const status = page.locator('[data-history-status]')
      await expect(status).toContainText(words.error(words.usd))
      expect(await pageTop(below)).toBe(before)
      expect(await axeViolations(page)).toEqual([])

      failing = false
      await status.getByRole('button', { name: words.retry }).click()
      const table = page.getByRole('table', { name: words.table(words.usd) })
      await expect(table.locator('tbody tr')).toHaveCount(28)
      // The retry button gave way to the table: the visitor's focus went with it.
      await expect(table.locator('xpath=..')).toBeFocused()
      expect(await pageTop(below)).toBe(before)
      expect(await shifts()).toBe(0)
    })

    test('the converter says so in its result box, which keeps its size, and retry works', async ({
      page,
    }) => {
      await disablePrefetch(page)
      let failing = true
      await page.route(isHistory, (route) => (failing ? route.abort() : route.fallback()))
      await openPage(page, words.path)
      const shifts = await watchLayoutShifts(page)
      const result = page.locator('[data-converter-result]')
      await expect(result).toContainText(words.latestUsd)
      const box = await result.boundingBox()
      await page.getByRole('combobox', { name: words.date }).selectOption('2019-12-27')
      await expect(result).toContainText(words.error(words.usd))
      expect(await result.boundingBox()).toEqual(box)
      expect(await axeViolations(page)).toEqual([])

      failing = false
      await result.getByRole('button', { name: words.retry }).click()
      await expect(result).toContainText(words.olderUsd)
      await expect(result).toBeFocused()
      expect((await result.boundingBox())?.height).toBe(box?.height)
      // The rates by day, opened now, need no second request: the file is there.
      await page.getByRole('button', { name: words.show(words.usd) }).click()
      await expect(page.getByRole('table', { name: words.table(words.usd) })).toBeVisible()
      expect(await shifts()).toBe(0)
    })

    test('files gone since the page was opened (a deploy) ask for a reload, which works', async ({
      page,
    }) => {
      await disablePrefetch(page)
      let gone = true
      await page.route(isHistory, (route) =>
        gone ? route.fulfill({ status: 404, body: 'Not found' }) : route.fallback(),
      )
      await openPage(page, words.path)
      await page.getByRole('button', { name: words.show(words.usd) }).click()
      await expect(page.locator('[data-history-status]')).toContainText(words.outdated)
      gone = false
      await page.getByRole('button', { name: words.reload }).click()
      await page.waitForEvent('load')
      // The reloaded page's code runs after its first paint: wait until it has taken over.
      await waitForRouteUpdates(page, 1)
      await page.getByRole('button', { name: words.show(words.usd) }).click()
      await expect(page.getByRole('table', { name: words.table(words.usd) })).toBeVisible()
    })

    test('without script the first currency’s rates by day are there, as the build drew them', async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: false })
      const page = await context.newPage()
      await page.goto(words.path)
      const table = page.getByRole('table', { name: words.table(words.usd) })
      await expect(table.locator('tbody tr')).toHaveCount(28)
      // The button that only script could work is left out.
      await expect(page.getByRole('button', { name: words.show(words.usd) })).toBeHidden()
      await expect(page.locator('[data-converter-result]')).not.toBeEmpty()
      await context.close()
    })
  })
}

test.describe('service worker', () => {
  test.use({ serviceWorkers: 'allow' })

  test('a currency seen once works offline; one never seen says so, and loads once online', async ({
    page,
    context,
  }) => {
    const words = WORDS.en
    await openPage(page, words.path)
    await page.evaluate(async () => navigator.serviceWorker.ready)
    await page.reload()
    // The button shows with the page; it works once the page's code, after the first paint, has
    // taken over (a click before that does nothing).
    await waitForRouteUpdates(page, 1)
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true)
    await page.getByRole('button', { name: words.show(words.usd) }).click()
    await expect(page.getByRole('table', { name: words.table(words.usd) })).toBeVisible()
    // The worker answers the page first and writes its cache after (Workbox waits on it in the
    // fetch event), so the file may reach the cache a moment after the table shows.
    await expect
      .poll(() =>
        page.evaluate(async () =>
          (await (await caches.open('rates')).keys()).map(
            (request) => new URL(request.url).pathname,
          ),
        ),
      )
      .toEqual([expect.stringMatching(/\/USD\.json$/)])

    await context.setOffline(true)
    await page.reload()
    await waitForRouteUpdates(page, 1)
    await page.getByRole('button', { name: words.show(words.usd) }).click()
    await expect(
      page.getByRole('table', { name: words.table(words.usd) }).locator('tbody tr'),
    ).toHaveCount(28)
    await page.getByRole('combobox', { name: words.currency }).selectOption('CHF')
    await expect(page.locator('[data-history-status]')).toContainText(words.error(words.chf))

    await context.setOffline(false)
    await page.getByRole('button', { name: words.retry }).click()
    await expect(page.getByRole('table', { name: words.table(words.chf) })).toBeVisible()
  })
})
