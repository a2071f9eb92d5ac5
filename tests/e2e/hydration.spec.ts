import { expect, test } from '@playwright/test'
import { SPEC_PAGES } from '../../src/shared/spec-routes'
import { collectConsoleProblems, openPage } from './support/helpers'

for (const language of ['en', 'de']) {
  test(`every ${language} page hydrates without a warning or error`, async ({ page }) => {
    test.setTimeout(120_000)
    const problems = collectConsoleProblems(page)
    const paths = [
      ...SPEC_PAGES.map((path) => `/${language}${path}`),
      ...(language === 'en' ? ['/', '/blog/'] : []),
    ]
    for (const path of paths) {
      await openPage(page, path)
      expect(problems, path).toEqual([])
    }
  })
}

test.describe('a German visitor on the blog, which has no language of its own', () => {
  test.use({ locale: 'de-DE' })

  test('the archive and a category hydrate as served, then show German', async ({ page }) => {
    const problems = collectConsoleProblems(page)
    for (const path of ['/blog/', '/blog/page/2/', '/blog/category/engineering/']) {
      await openPage(page, path)
      await expect(page.locator('html')).toHaveAttribute('lang', 'de')
      await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible()
      expect(problems, path).toEqual([])
    }
  })
})
