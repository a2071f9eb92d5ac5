/**
 * Hydration as a German visitor sees the language-neutral blog. That every built page hydrates
 * without a warning or error is checked by the walk over every page in accessibility.spec.ts.
 */
import { expect, test } from '@playwright/test'
import { collectConsoleProblems, openPage } from '../support/helpers'

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
