/** axe-core in the page under test: WCAG 2.0 and 2.1 A/AA plus best practice. */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from '@playwright/test'

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
let axeSource: string | undefined
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']

interface AxeViolation {
  id: string
  help: string
  nodes: { target: string[] }[]
}

declare global {
  interface Window {
    axe: {
      run(
        context: Document | { include: string[][] },
        options: object,
      ): Promise<{ violations: AxeViolation[] }>
    }
  }
}

/**
 * axe's findings on the page as it is now, one line per rule with the elements it hit; within
 * the element `within` selects (an open dialog, say), when given.
 */
export async function axeViolations(page: Page, within?: string): Promise<string[]> {
  // Evaluated by the test's own channel, not added as an inline script: the site's policy
  // rightly blocks those, and the tests run with it enforced.
  axeSource ??= readFileSync(AXE, 'utf8')
  await page.evaluate(axeSource)
  const { violations } = await page.evaluate(
    // Violations only: axe then skips gathering every element that passed (half its time).
    ({ tags, within }) =>
      window.axe.run(within ? { include: [[within]] } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      }),
    { tags: AXE_TAGS, within },
  )
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.help}): ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  )
}
