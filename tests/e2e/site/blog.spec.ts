/**
 * Blog navigation: the archive and every category link each topic, the current one marked;
 * the archive mixes English and German posts, each teaser says its language, the visitor's
 * language comes first, and a choice of one language holds across lists and visits. Both
 * interface languages, by keyboard.
 */
import { expect, type Page, test } from '@playwright/test'
import { axeViolations } from '../support/axe'
import {
  collectConsoleProblems,
  isSameDocument,
  markDocument,
  openPage,
  waitForRouteUpdates,
} from '../support/helpers'

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
    shown: (count: number) => `${count} articles`,
    otherLabel: 'Article in German',
    next: 'Next page',
    product: 'Product',
    noneHere: 'No articles in German on this topic yet.',
    showAll: 'Show articles in every language',
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
    shown: (count: number) => `${count} Beiträge`,
    otherLabel: 'Beitrag auf Englisch',
    next: 'Nächste Seite',
    product: 'Produkt',
    noneHere: 'Zu diesem Thema gibt es noch keine Beiträge auf Englisch.',
    showAll: 'Beiträge in allen Sprachen zeigen',
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
      const counts = await page.evaluate(
        async () =>
          (await (await fetch('/page-data/blog/page-data.json')).json()).result.blog.counts,
      )
      await expect(
        page.getByRole('status').filter({ hasText: new RegExp(`^${words.shown(counts[other])}$`) }),
      ).toHaveCount(1)
      await expect.poll(() => teaserLanguages(page)).not.toContain(language)
      expect(await axeViolations(page)).toEqual([])

      // Kept on the next visit, and on a category reached from the archive.
      await page.reload()
      await waitForRouteUpdates(page, 1)
      await expect(page.getByRole('radio', { name: words.onlyOther })).toBeChecked()
      await expect.poll(() => teaserLanguages(page)).not.toContain(language)
      await page
        .getByRole('navigation', { name: words.topics })
        .getByRole('link', { name: words.engineering })
        .click()
      await waitForRouteUpdates(page, 2)
      await expect(page.getByRole('radio', { name: words.onlyOther })).toBeChecked()
      await expect.poll(() => teaserLanguages(page)).not.toContain(language)
      expect(await teaserLanguages(page)).toContain(other)

      // Back to every language: the visitor's first again.
      await page.getByRole('radio', { name: words.onlyOwn }).check()
      await expect.poll(() => teaserLanguages(page)).not.toContain(other)
      await page.getByRole('radio', { name: words.firstOwn }).check()
      await expect.poll(() => teaserLanguages(page)).toContain(other)
      expect((await teaserLanguages(page))[0]).toBe(language)
      expect(problems).toEqual([])
    })

    test('a topic without posts in the chosen language says so and offers every language', async ({
      page,
    }) => {
      // The product topic as if it had no posts in the other language.
      await page.route('**/page-data/blog/category/product/page-data.json', async (route) => {
        const data = await (await route.fetch()).json()
        const { blog } = data.result
        for (const order of Object.keys(blog.postsFirst))
          blog.postsFirst[order] = blog.postsFirst[order].filter(
            (item: { language: string }) => item.language !== other,
          )
        blog.counts[other] = 0
        await route.fulfill({ json: data })
      })
      await openPage(page, '/blog/')
      await page.getByRole('radio', { name: words.onlyOther }).check()
      await page
        .getByRole('navigation', { name: words.topics })
        .getByRole('link', { name: words.product })
        .click()
      await waitForRouteUpdates(page, 2)
      await expect(page.locator('main article > ul > li')).toHaveCount(0)
      await expect(page.locator('main article')).toContainText(words.noneHere)
      await page.getByRole('button', { name: words.showAll }).click()
      await expect(page.getByRole('radio', { name: words.firstOwn })).toBeChecked()
      await expect.poll(() => teaserLanguages(page)).toContain(language)
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
