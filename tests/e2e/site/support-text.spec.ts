/**
 * Partner-support and service pages each speak of their own partner or product: no two share
 * half their text (as four-word sequences, of the shorter page), in either language.
 */
import { expect, test } from '@playwright/test'
import { builtPages } from '../support/site'

/** A page's four-word sequences, as a visitor reads its main text. */
function sequences(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const found = new Set<string>()
  for (let i = 0; i + 4 <= words.length; i++) found.add(words.slice(i, i + 4).join(' '))
  return found
}

const MAX_SHARED = 0.5

for (const language of ['en', 'de'] as const) {
  test(`${language}: no two partner-support or service pages share half their text`, async ({
    page,
  }) => {
    test.setTimeout(120_000)
    const paths = (await builtPages())
      .map((built) => built.path)
      .filter((path) =>
        new RegExp(`^/${language}/(support|services)/(?!faq/|categories/)[^/]+/$`).test(path),
      )
    expect(paths.length).toBeGreaterThan(15)
    const texts = new Map<string, Set<string>>()
    for (const path of paths) {
      await page.goto(path)
      // The page's own text, folded answers included: not the breadcrumbs, which name the
      // section every page shares.
      const text = await page
        .locator('main article')
        .first()
        .evaluate((article) => {
          const parts: string[] = []
          const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT)
          while (walker.nextNode()) parts.push(walker.currentNode.textContent ?? '')
          return parts.join(' ')
        })
      texts.set(path, sequences(text))
    }
    const tooClose: string[] = []
    const entries = [...texts]
    entries.forEach(([a, first], index) => {
      for (const [b, second] of entries.slice(index + 1)) {
        let shared = 0
        for (const sequence of first) if (second.has(sequence)) shared++
        const share = shared / Math.min(first.size, second.size)
        if (share >= MAX_SHARED) tooClose.push(`${a} ~ ${b}: ${Math.round(share * 100)} %`)
      }
    })
    expect(tooClose).toEqual([])
  })
}
