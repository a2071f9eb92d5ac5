/**
 * Blog navigation: the archive and every category link each topic, the current one marked;
 * the archive mixes English and German posts, each teaser says its language, the visitor's
 * language comes first, and a choice of one language holds across lists and visits. Both
 * interface languages, by keyboard.
 */
import { expect, type Page, test } from '@playwright/test'
import { axeViolations } from './support/axe'
import {
  collectConsoleProblems,
  isSameDocument,
  markDocument,
  openPage,
  waitForRouteUpdates,
} from './support/helpers'

const WORDS = {
  en: {
    locale: 'en-GB',
    topics: 'Topics',
    all: 'All topics',
    engineering: 'Engineering',
    choice: 'Language of the articles',
    firstOwn: 'All, English first',
    onlyOther: 'German only',
    onlyOwn: 'English only',
    shown: /^\d+ articles$/,
    otherLabel: 'Article in German',
    next: 'Next page',
  },
  de: {
    locale: 'de-DE',
    topics: 'Themen',
    all: 'Alle Themen',
    engineering: 'Engineering',
    choice: 'Sprache der Beiträge',
    firstOwn: 'Alle, Deutsch zuerst',
    onlyOther: 'Nur Englisch',
    onlyOwn: 'Nur Deutsch',
    shown: /^\d+ Beiträge$/,
    otherLabel: 'Beitrag auf Englisch',
    next: 'Nächste Seite',
  },
} as const

/** The teasers' languages, in the order they are listed. */
const teaserLanguages = (page: Page) =>
  page
    .locator('main article > ul > li')
    .evaluateAll((items) => items.map((item) => item.getAttribute('lang')))

for (const language of ['en', 'de'] as const) {
  const words = WORDS[language]
  const other = language === 'en' ? 'de' : 'en'

  test.describe(`${language} visitor:`, () => {
    test.use({ locale: words.locale })

    test('the archive links every topic, marks the current one, and leads to a category by keyboard', async ({
      page,
    }) => {
      await openPage(page, '/blog/')
      const topics = page.getByRole('navigation', { name: words.topics })
      await expect(topics.getByRole('link')).toHaveCount(5)
      await expect(topics.getByRole('link', { name: words.all })).toHaveAttribute(
        'aria-current',
        'page',
      )
      await expect(topics.locator('[aria-current]')).toHaveCount(1)

      await markDocument(page)
      await topics.getByRole('link', { name: words.engineering }).focus()
      await page.keyboard.press('Enter')
      await waitForRouteUpdates(page, 2)
      await expect(page).toHaveURL('/blog/category/engineering/')
      expect(await isSameDocument(page)).toBe(true)
      await expect(page.locator('h1')).toHaveText(words.engineering)
      const current = page
        .getByRole('navigation', { name: words.topics })
        .locator('[aria-current="page"]')
      await expect(current).toHaveText(words.engineering)
      // The archive's later pages keep "all topics" as the current topic.
      await openPage(page, '/blog/page/2/')
      await expect(
        page.getByRole('navigation', { name: words.topics }).getByRole('link', { name: words.all }),
      ).toHaveAttribute('aria-current', 'true')
    })

    test("each teaser says its language; the visitor's language comes first", async ({ page }) => {
      await openPage(page, '/blog/category/engineering/')
      await expect(page.getByRole('radio', { name: words.firstOwn })).toBeChecked()
      const languages = await teaserLanguages(page)
      expect(languages).toEqual(expect.arrayContaining([language, other]))
      // Every teaser of the visitor's language before any of the other.
      expect(languages.indexOf(other)).toBe(languages.lastIndexOf(language) + 1)
      // A teaser in the other language says so in the visitor's, and keeps its date in it.
      const foreign = page.locator(`main article > ul > li[lang="${other}"]`).first()
      await expect(foreign.locator(`[lang="${language}"]`)).toContainText(words.otherLabel)
      // Each teaser's language is its post's.
      const href = (await foreign.locator('h2 a').getAttribute('href')) ?? ''
      await foreign.locator('h2 a').click()
      await waitForRouteUpdates(page, 2)
      await expect(page).toHaveURL(href)
      await expect(page.locator('html')).toHaveAttribute('lang', other)
    })

    test('a choice of one language, made by keyboard, is announced and kept for every list and visit', async ({
      page,
    }) => {
      const problems = collectConsoleProblems(page)
      await openPage(page, '/blog/')
      await page.getByRole('radio', { name: words.firstOwn }).focus()
      // Arrow keys move through a radio group: own language only, then the other only.
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      await expect(page.getByRole('radio', { name: words.onlyOther })).toBeChecked()
      await expect(page.getByRole('status').filter({ hasText: words.shown })).toHaveCount(1)
      expect(new Set(await teaserLanguages(page))).toEqual(new Set([other]))
      expect(await axeViolations(page)).toEqual([])

      // Kept on the next visit, and on a category reached from the archive.
      await page.reload()
      await waitForRouteUpdates(page, 1)
      await expect(page.getByRole('radio', { name: words.onlyOther })).toBeChecked()
      expect(new Set(await teaserLanguages(page))).toEqual(new Set([other]))
      await page
        .getByRole('navigation', { name: words.topics })
        .getByRole('link', { name: words.engineering })
        .click()
      await waitForRouteUpdates(page, 2)
      await expect(page.getByRole('radio', { name: words.onlyOther })).toBeChecked()
      expect(new Set(await teaserLanguages(page))).toEqual(new Set([other]))

      // Back to every language: the visitor's first again.
      await page.getByRole('radio', { name: words.onlyOwn }).check()
      expect(new Set(await teaserLanguages(page))).toEqual(new Set([language]))
      await page.getByRole('radio', { name: words.firstOwn }).check()
      expect((await teaserLanguages(page))[0]).toBe(language)
      expect(problems).toEqual([])
    })

    test("the archive's pages follow the choice: as many as its posts fill", async ({ page }) => {
      await openPage(page, '/blog/')
      const pagination = () => page.locator('main nav').filter({ hasText: words.next })
      await expect(pagination()).toBeVisible()
      await page.getByRole('radio', { name: words.onlyOwn }).check()
      const own = await page.evaluate(
        async () => (await (await fetch('/page-data/blog/page-data.json')).json()).result.blog,
      )
      const count = own.counts[language] as number
      const pages = Math.ceil(count / (own.perPage as number))
      if (pages === 1) await expect(pagination()).toHaveCount(0)
      else await expect(pagination()).toBeVisible()
      // Past the chosen language's last page, the page says so and leads back.
      await openPage(page, `/blog/page/${pages + 1}/`)
      await expect(page.locator('main article > ul > li')).toHaveCount(0)
      await expect(page.locator('main article')).toContainText(
        language === 'en' ? 'No more articles in English.' : 'Keine weiteren Beiträge auf Deutsch.',
      )
    })
  })
}
