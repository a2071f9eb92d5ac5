/**
 * One FAQ answer can be linked: each question has an id from the slug helper; an address with
 * it opens and shows that answer, on a first load and after a client navigation; the link under
 * each answer is copied by keyboard and the copy is announced. Both languages.
 */
import { expect, test } from '@playwright/test'
import { ANNOUNCER_ELEMENT_ID } from '../../../src/shared/constants'
import { slugify } from '../../../src/shared/slug'
import { structuredDataOf, structuredDataProblems } from '../../support/structured-data'
import {
  addLink,
  isSameDocument,
  markDocument,
  openPage,
  waitForRouteUpdates,
} from '../support/helpers'

const CASES = {
  en: {
    faq: '/en/support/faq/',
    from: '/en/support/',
    consumerCredit: '/en/consumer-credit-faqs/',
    service: '/en/services/cards/',
    question: 'My card has been lost or stolen. What should I do?',
    copy: 'Copy link to this answer',
    copied: 'Link copied',
  },
  de: {
    faq: '/de/support/faq/',
    from: '/de/support/',
    consumerCredit: '/de/consumer-credit-faqs/',
    service: '/de/services/cards/',
    question: 'Meine Karte ist verloren gegangen oder wurde gestohlen. Was muss ich tun?',
    copy: 'Link zu dieser Antwort kopieren',
    copied: 'Link kopiert',
  },
} as const

for (const language of ['en', 'de'] as const) {
  const words = CASES[language]
  const id = slugify(words.question)

  test.describe(`${language}:`, () => {
    test("the FAQPage data names every question the page shows, at its answer's address", async ({
      page,
    }) => {
      for (const path of [words.faq, words.consumerCredit, words.service]) {
        await openPage(page, path)
        const data = structuredDataOf(await page.content()).find(
          (item) => (item as { '@type': string })['@type'] === 'FAQPage',
        ) as { mainEntity: { name: string; url: string }[]; inLanguage: string } | undefined
        expect(data, path).toBeDefined()
        expect(structuredDataProblems(data)).toEqual([])
        expect(data?.inLanguage).toMatch(new RegExp(`^${language}`))
        const shown = await page.locator('main details').evaluateAll((items) =>
          items.map((item) => ({
            name: item.querySelector('summary')?.textContent?.trim(),
            hash: `#${item.id}`,
          })),
        )
        expect(
          data?.mainEntity.map((question) => ({
            name: question.name,
            hash: new URL(question.url).hash,
          })),
        ).toEqual(shown)
      }
    })

    test('every question has a unique id from its text', async ({ page }) => {
      await openPage(page, words.faq)
      const ids = await page
        .locator('main details')
        .evaluateAll((all) => all.map((each) => each.id))
      expect(ids.length).toBeGreaterThan(5)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids).toContain(id)
    })

    test('an address with a question’s id opens that answer and shows it, on a first load', async ({
      page,
    }) => {
      await openPage(page, `${words.faq}#${id}`)
      const answer = page.locator(`details[id="${id}"]`)
      await expect(answer).toHaveAttribute('open', '')
      await expect(answer).toBeInViewport()
      // The others stay folded.
      await expect(page.locator('main details[open]')).toHaveCount(1)
    })

    test('and after a client navigation', async ({ page }) => {
      await openPage(page, words.from)
      await markDocument(page)
      await (await addLink(page, `${words.faq}#${id}`)).click()
      await waitForRouteUpdates(page, 2)
      expect(await isSameDocument(page)).toBe(true)
      const answer = page.locator(`details[id="${id}"]`)
      await expect(answer).toHaveAttribute('open', '')
      await expect(answer).toBeInViewport()
      await expect(answer).toBeFocused()
    })

    test('the link to an answer is copied by keyboard, and the copy is announced', async ({
      page,
      context,
      baseURL,
    }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'])
      await openPage(page, words.faq)
      const answer = page.locator(`details[id="${id}"]`)
      await answer.locator('summary').focus()
      await page.keyboard.press('Enter')
      await expect(answer).toHaveAttribute('open', '')
      const copy = answer.getByRole('link', { name: words.copy })
      await copy.focus()
      await page.keyboard.press('Enter')
      await expect(page.locator(`#${ANNOUNCER_ELEMENT_ID}`)).toHaveText(words.copied)
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        `${baseURL}${words.faq}#${id}`,
      )
      // Copying is no navigation: the page stays where it was.
      expect(new URL(page.url()).hash).toBe('')
    })
  })
}
