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
