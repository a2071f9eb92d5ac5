/**
 * The site search, as a visitor uses it: by keyboard only, in both languages, a query for each
 * kind of content, nothing found, the other language, offline; axe-core on the open dialog.
 */
import { expect, type Page, test } from '@playwright/test'
import { axeViolations } from '../support/axe'
import {
  collectRequests,
  isSameDocument,
  markDocument,
  openPage,
  waitForRouteUpdates,
} from '../support/helpers'

const WORDS = {
  en: {
    home: '/en/',
    button: 'Search',
    dialog: 'Search the website',
    field: 'Search for',
    results: /^\d+ results$/,
    noResults: 'No results for “xyzzy”',
    other: 'Search the German pages',
    otherNote: 'Results from the German pages',
    offline: 'You are offline: results show the pages saved on this device.',
    // A question in a visitor's words finds the FAQ answer, with the answer as the section.
    question: 'how do I block my card',
    answer: { path: '/en/support/faq/', title: 'Support FAQ', where: /lost or stolen/ },
    // One query for each kind of content.
    kinds: [
      ['service', 'SplitPay', '/en/services/splitpay/'],
      ['support page', 'BISON', '/en/support/bison/'],
      ['customer information', 'deposit guarantee France', '/en/customer-information/france/'],
      ['blog post', 'idempotent', '/blog/designing-idempotent-payment-apis/'],
      ['FAQ', 'replacement card', '/en/support/faq/'],
    ],
    // Words of legal boilerplate and of outcome pages: not found; the legal page by its name.
    notFound: [
      ['data protection officer', '/en/privacy-policy/'],
      ['thank you', '/en/newsletter-success/'],
    ],
    byName: ['privacy policy', '/en/privacy-policy/'],
    otherLanguageQuery: 'Kontoauszug',
    spanish: { path: '/en/customer-information/spain/', section: 'Customer information' },
  },
  de: {
    home: '/de/',
    button: 'Suche',
    dialog: 'Website durchsuchen',
    field: 'Suchen nach',
    results: /^\d+ Ergebnisse$/,
    noResults: 'Keine Ergebnisse für „xyzzy“',
    other: 'In den englischen Seiten suchen',
    otherNote: 'Ergebnisse aus den englischen Seiten',
    offline: 'Sie sind offline: Es werden die auf diesem Gerät gespeicherten Seiten gezeigt.',
    question: 'Wie sperre ich meine Karte',
    answer: { path: '/de/support/faq/', title: 'Häufige Fragen (FAQ)', where: /verloren/ },
    kinds: [
      ['service', 'Kreditkarte', '/de/services/cards/'],
      ['support page', 'Samsung Pay', '/de/support/samsung-pay/'],
      ['customer information', 'Fernabsatzverträge', '/de/customer-information/germany/'],
      ['blog post', 'Einlagensicherungsgesetz', '/blog/einlagensicherung-einfach-erklaert'],
      ['FAQ', 'Kontoauszüge', '/de/support/faq/'],
    ],
    notFound: [
      ['Datenschutzbeauftragte', '/de/privacy-policy/'],
      ['vielen Dank für Ihre Anmeldung', '/de/newsletter-success/'],
    ],
    byName: ['Datenschutzerklärung', '/de/privacy-policy/'],
    otherLanguageQuery: 'statements',
    spanish: { path: '/de/customer-information/spain/', section: 'Kundeninformationen' },
  },
} as const

const dialogOf = (page: Page, name: string) => page.getByRole('dialog', { name })
const resultLinks = (page: Page) => page.locator('[data-search-dialog] a[data-search-result]')

/** Opens the search with `/` and types a query, waiting until the count is announced. */
async function searchFor(page: Page, words: (typeof WORDS)['en' | 'de'], query: string) {
  await page.keyboard.press('/')
  const field = dialogOf(page, words.dialog).getByRole('searchbox', { name: words.field })
  await expect(field).toBeFocused()
  await field.fill(query)
  return field
}

for (const language of ['en', 'de'] as const) {
  const words = WORDS[language]

  test.describe(`${language}:`, () => {
    test('nothing of the search loads before the visitor reaches for it, then the dialog and index do', async ({
      page,
    }) => {
      const requests = collectRequests(page, /^\/search\/|\/assets\/dialog-/)
      await openPage(page, words.home)
      await page.waitForTimeout(500)
      expect(requests).toEqual([])
      await page.getByRole('button', { name: words.button }).hover()
      await expect
        .poll(() => requests.map((request) => new URL(request.url()).pathname))
        .toEqual(
          expect.arrayContaining([
            `/search/${language}/index.json`,
            expect.stringMatching(/dialog-/),
          ]),
        )
    })

    test('by keyboard only: open with /, arrow to a result, Enter follows it in the page', async ({
      page,
    }) => {
      await openPage(page, words.home)
      await markDocument(page)
      const field = await searchFor(page, words, words.question)
      await expect(page.getByRole('status')).toHaveText(words.results)
      // The FAQ's answer is among the results, named by its question.
      const answer = page
        .locator('[data-search-dialog] li')
        .filter({ has: page.getByRole('link', { name: words.answer.title, exact: true }) })
      await expect(answer).toContainText(words.answer.where)
      // The first result speaks of blocking a card, its words marked.
      const first = resultLinks(page).first()
      const marks = await page
        .locator('[data-search-dialog] li')
        .first()
        .locator('mark')
        .allTextContents()
      expect(marks.some((mark) => /block|sperr/i.test(mark))).toBe(true)
      const href = (await first.getAttribute('href')) ?? ''

      await page.keyboard.press('ArrowDown')
      await expect(first).toBeFocused()
      await page.keyboard.press('ArrowDown')
      await expect(resultLinks(page).nth(1)).toBeFocused()
      await page.keyboard.press('ArrowUp')
      await page.keyboard.press('ArrowUp')
      await expect(field).toBeFocused()
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('Enter')

      await waitForRouteUpdates(page, 2)
      const target = new URL(href, page.url())
      expect(new URL(page.url()).pathname).toBe(target.pathname)
      expect(await isSameDocument(page)).toBe(true)
      await expect(dialogOf(page, words.dialog)).toBeHidden()
      // Focus goes where the result leads: the block's heading, else the page's title.
      await expect(
        target.hash ? page.locator(`[id="${target.hash.slice(1)}"]`) : page.locator('h1'),
      ).toBeFocused()
    })

    test('Ctrl+K opens it too; Escape closes it and focus returns to the button', async ({
      page,
    }) => {
      await openPage(page, words.home)
      const button = page.getByRole('button', { name: words.button })
      await button.focus()
      await page.keyboard.press('Enter')
      await expect(dialogOf(page, words.dialog)).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(dialogOf(page, words.dialog)).toBeHidden()
      await expect(button).toBeFocused()

      await page.locator('main a').first().focus()
      await page.keyboard.press('Control+k')
      await expect(dialogOf(page, words.dialog)).toBeVisible()
      // Tab stays inside the dialog.
      for (let i = 0; i < 6; i++) await page.keyboard.press('Tab')
      expect(
        await page.evaluate(() => document.activeElement?.closest('[data-search-dialog]') !== null),
      ).toBe(true)
      await page.keyboard.press('Escape')
      await expect(page.locator('main a').first()).toBeFocused()
    })

    test('finds each kind of content, and neither legal boilerplate nor outcome pages', async ({
      page,
    }) => {
      await openPage(page, words.home)
      const field = await searchFor(page, words, '')
      for (const [, query, path] of words.kinds) {
        await field.fill(query)
        await expect(page.getByRole('status')).toHaveText(words.results)
        await expect(page.locator(`[data-search-dialog] a[href^="${path}"]`).first()).toBeVisible()
      }
      for (const [query, path] of words.notFound) {
        await field.fill(query)
        await expect(page.getByRole('status')).not.toBeEmpty()
        await expect(page.locator(`[data-search-dialog] a[href^="${path}"]`)).toHaveCount(0)
      }
      await field.fill(words.byName[0])
      await expect(resultLinks(page).first()).toHaveAttribute('href', words.byName[1])
    })

    test('says so when nothing is found, and searches the other language on request', async ({
      page,
    }) => {
      await openPage(page, words.home)
      const field = await searchFor(page, words, 'xyzzy')
      await expect(page.getByRole('status')).toContainText(words.noResults)
      await field.fill(words.otherLanguageQuery)
      await expect(page.getByRole('status')).toContainText(words.otherLanguageQuery)
      await page.getByRole('button', { name: words.other }).click()
      await expect(page.getByText(words.otherNote)).toBeVisible()
      const other = language === 'en' ? 'de' : 'en'
      await expect(page.locator('[data-search-dialog] ol')).toHaveAttribute('lang', other)
      await expect(resultLinks(page).first()).toHaveAttribute('href', new RegExp(`^/${other}/`))
      expect(await axeViolations(page)).toEqual([])
    })

    test('a result in another language is marked so: its title Spanish, its section not', async ({
      page,
    }) => {
      await openPage(page, words.home)
      await searchFor(page, words, 'reclamaciones')
      const result = page
        .locator('[data-search-dialog] li')
        .filter({ has: page.locator(`a[href^="${words.spanish.path}"]`) })
      await expect(result.getByRole('link')).toHaveAttribute('lang', 'es')
      const where = result.locator('[id$="-where"]')
      await expect(where).toContainText(words.spanish.section)
      // The section is the interface's word: no Spanish around it.
      expect(
        await where.evaluate((element) => element.closest('[lang]')?.getAttribute('lang')),
      ).toBe(language)
      await expect(result.locator('[id$="-text"]')).toHaveAttribute('lang', 'es')
    })

    test('axe-core finds nothing in the open dialog with results, on a phone too', async ({
      page,
    }) => {
      await openPage(page, words.home)
      await searchFor(page, words, words.question)
      await expect(resultLinks(page).first()).toBeVisible()
      expect(await axeViolations(page)).toEqual([])
      await page.setViewportSize({ width: 375, height: 700 })
      expect(await axeViolations(page)).toEqual([])
    })
  })
}

test('German word forms: Karte finds Karten and compounds such as Kreditkarte', async ({
  page,
}) => {
  await openPage(page, '/de/')
  await searchFor(page, WORDS.de, 'Karte')
  await expect(resultLinks(page).first()).toBeVisible()
  // Every result, not the first ten only.
  const more = page.getByRole('button', { name: 'Weitere Ergebnisse zeigen' })
  while (await more.isVisible()) {
    const shown = await resultLinks(page).count()
    await more.click()
    await expect.poll(() => resultLinks(page).count()).toBeGreaterThan(shown)
  }
  const marked = await page.locator('[data-search-dialog] mark').allTextContents()
  const forms = new Set(marked.map((word) => word.toLowerCase()))
  expect(forms).toContain('karte')
  expect(forms).toContain('karten')
  expect([...forms].some((word) => /.+karte/.test(word))).toBe(true)
})

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' })

  /** A visitor who searched with a connection: the worker holds the FAQ, the home page and the search's files. */
  async function searchedOnline(page: Page) {
    const words = WORDS.en
    await openPage(page, words.answer.path)
    await page.evaluate(async () => navigator.serviceWorker.ready)
    await page.reload()
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true)
    await page.goto(words.home)
    await waitForRouteUpdates(page, 1)
    // Once used with a connection, the search keeps its files where they work offline.
    await searchFor(page, words, words.question)
    await expect(resultLinks(page).first()).toBeVisible()
    const chunks = await page.evaluate(async () => {
      const index = await (await fetch('/search/en/index.json')).json()
      return index.chunks.length as number
    })
    await expect
      .poll(
        async () => page.evaluate(async () => (await (await caches.open('search')).keys()).length),
        { timeout: 20_000 },
      )
      .toBeGreaterThan(chunks)
    await page.keyboard.press('Escape')
  }

  /** The search says it is offline and lists only the pages this device holds, which open. */
  async function searchesHeldPages(page: Page, query: string) {
    const words = WORDS.en
    await searchFor(page, words, query)
    await expect(page.getByText(words.offline)).toBeVisible()
    // Only pages this device holds: the FAQ, the home page.
    const hrefs = await resultLinks(page).evaluateAll((links) =>
      links.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
    )
    expect(hrefs.length).toBeGreaterThan(0)
    for (const href of hrefs) expect([words.answer.path, words.home]).toContain(href)
  }

  /** Opens the first result and waits for the runtime to have shown it: offline, the client
   * navigation may fall back to a full load the worker answers, whose scripts start later. */
  async function opensAnswer(page: Page) {
    await resultLinks(page).first().click()
    await expect(page.locator('h1')).toHaveText(WORDS.en.answer.title)
    await page.waitForFunction(
      (path) => window.__routeUpdates?.at(-1) === path,
      WORDS.en.answer.path,
    )
  }

  test('searches the pages the service worker holds, and opens them', async ({ page, context }) => {
    await searchedOnline(page)
    await context.setOffline(true)
    await page.reload()
    await waitForRouteUpdates(page, 1)
    await searchesHeldPages(page, WORDS.en.question)
    await opensAnswer(page)
    await context.setOffline(false)
  })

  // A network without internet, or a browser that reads online again after a reload the worker
  // answered (Chromium 150): `navigator.onLine` says true, the search sees otherwise.
  test('knows it is offline when the network fails while the browser says online', async ({
    page,
    context,
  }) => {
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => true })
    })
    await searchedOnline(page)
    await context.setOffline(true)
    // In the same page, with the index already loaded: the pages' text fails to load.
    await searchesHeldPages(page, 'card')
    await page.keyboard.press('Escape')
    // After a reload: the worker answers the index from its cache.
    await page.reload()
    await waitForRouteUpdates(page, 1)
    expect(await page.evaluate(() => navigator.onLine)).toBe(true)
    await searchesHeldPages(page, WORDS.en.question)
    await opensAnswer(page)
    // Back online: the search finds every page again.
    await context.setOffline(false)
    await searchFor(page, WORDS.en, WORDS.en.question)
    await expect(page.getByRole('status')).toHaveText(WORDS.en.results)
    await expect(page.getByText(WORDS.en.offline)).toBeHidden()
    await expect
      .poll(() =>
        resultLinks(page).evaluateAll(
          (links) =>
            links.filter(
              (link) =>
                !['/en/', '/en/support/faq/'].includes(
                  new URL((link as HTMLAnchorElement).href).pathname,
                ),
            ).length,
        ),
      )
      .toBeGreaterThan(0)
  })
})
