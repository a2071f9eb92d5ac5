/**
 * Accessibility (WCAG 2.1 AA is law for this site): axe-core on every built page, in both
 * languages, and what a keyboard user does: skip link, menu, accordion, language switcher.
 *
 * The walk over every page is one load per page doing what used to be three walks: it comes as
 * a first-time visitor (nothing stored), so it checks what consent demands before any choice
 * (nothing sent to another host, nothing stored on the device, the page, runtime and banner
 * within the policy), that the page hydrates without a warning or error (hydration.spec.ts
 * keeps the language-neutral pages' own case) and has one h1; then the visitor rejects all in
 * the banner, and axe-core checks the page as a decided visitor has it. The banner itself is
 * checked by axe-core in consent.spec.ts.
 */
import { type BrowserContext, expect, test } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { BASE_URL } from '../support/env'
import {
  collectConsoleProblems,
  openPage,
  recordCspViolations,
  waitForRouteUpdates,
} from '../support/helpers'
import { builtPages, shard } from '../support/site'

const SHARDS = 6

/**
 * Records every request to another host, without intercepting: where none may be made, none
 * needs answering, and the walk does not pay a round trip per request.
 */
function watchThirdParties(context: BrowserContext): string[] {
  const requests: string[] = []
  context.on('request', (request) => {
    if (new URL(request.url()).origin !== BASE_URL) requests.push(`${request.url()}`)
  })
  return requests
}

test.describe('every built page: before consent nothing goes to another host and the policy blocks nothing; it hydrates without a warning, has one h1, and axe-core finds nothing', () => {
  // A first-time visitor: no choice stored.
  test.use({ storageState: { cookies: [], origins: [] } })
  for (let index = 0; index < SHARDS; index++) {
    test(`on every built page (part ${index + 1} of ${SHARDS})`, async ({ page, context }) => {
      test.setTimeout(240_000)
      const problems: string[] = []
      const consoleProblems = collectConsoleProblems(page)
      const thirdParties = watchThirdParties(context)
      const violations = await recordCspViolations(page)
      let consentLoaded = 0
      page.on('response', (response) => {
        if (/\/assets\/consent-[\w-]+\.js$/.test(response.url())) consentLoaded += 1
      })
      for (const { path } of shard(await builtPages(), index, SHARDS)) {
        await context.clearCookies()
        await openPage(page, path)
        // The consent code has run (it loads beside the page) and decided nothing may load.
        await page.waitForFunction(() => Array.isArray(window.dataLayer))
        // Nothing stored on the device, nothing sent elsewhere, nothing blocked by the policy.
        const stored = await page.evaluate(() => document.cookie)
        if (stored) problems.push(`${path}: stored before consent: ${stored}`)
        for (const request of thirdParties.splice(0)) problems.push(`${path}: sent ${request}`)
        for (const violation of await violations()) problems.push(`${path}: ${violation}`)
        // Hydrated as served: React warns of any difference, in the console.
        for (const problem of consoleProblems.splice(0)) problems.push(`${path}: ${problem}`)
        // One h1 per page: the page's own title, where focus goes after client navigation.
        const headings = await page.locator('h1').count()
        if (headings !== 1) problems.push(`${path}: ${headings} h1 elements`)
        // Decided: the page as a returning visitor has it, checked by axe-core.
        const banner = page.locator('[data-consent-banner]')
        await banner.getByRole('button', { name: /^(Reject all|Alle ablehnen)$/ }).click()
        await expect(banner).toHaveCount(0)
        for (const violation of await axeViolations(page)) problems.push(`${path}: ${violation}`)
        for (const problem of consoleProblems.splice(0)) problems.push(`${path}: ${problem}`)
        for (const request of thirdParties.splice(0)) problems.push(`${path}: sent ${request}`)
      }
      expect(consentLoaded).toBeGreaterThan(0)
      expect(problems).toEqual([])
    })
  }
})

test.describe('axe-core finds nothing', () => {
  test.describe('on language-neutral pages shown in German', () => {
    test.use({ locale: 'de-DE' })
    test('the blog archive and its categories', async ({ page }) => {
      test.setTimeout(120_000)
      const problems: string[] = []
      for (const { path } of (await builtPages()).filter((built) => !built.language)) {
        await openPage(page, path)
        await expect(page.locator('html')).toHaveAttribute('lang', 'de')
        for (const violation of await axeViolations(page)) problems.push(`${path}: ${violation}`)
      }
      expect(problems).toEqual([])
    })
  })

  test('on a phone, with the menu open and an answer unfolded', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await openPage(page, '/de/support/faq/')
    await page.getByRole('button', { name: 'Menü' }).click()
    await page.locator('summary').first().click()
    expect(await axeViolations(page)).toEqual([])
  })
})

test.describe('keyboard', () => {
  test('the skip link is the first stop and moves focus to the main content', async ({ page }) => {
    await openPage(page, '/en/services/')
    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: 'Skip to content' })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()
    await page.keyboard.press('Enter')
    await expect(page.locator('main')).toBeFocused()
    await page.keyboard.press('Tab')
    const focused = page.locator(':focus')
    expect(await focused.evaluate((element) => Boolean(element.closest('main')))).toBe(true)
  })

  test('every focused element shows a visible focus indicator', async ({ page }) => {
    await openPage(page, '/en/')
    const unmarked: string[] = []
    const visited = new Set<string>()
    // Tab through the page until focus leaves it (header, content, footer).
    for (let step = 0; step < 80; step++) {
      await page.keyboard.press('Tab')
      const focused = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null
        if (!element || element === document.body) return undefined
        const style = getComputedStyle(element)
        const visible = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2
        const name = `${element.tagName} ${element.textContent?.trim().slice(0, 40)}`
        return { name, visible }
      })
      if (!focused) break
      visited.add(focused.name)
      if (!focused.visible) unmarked.push(focused.name)
    }
    expect(visited.size).toBeGreaterThan(20)
    expect(unmarked).toEqual([])
  })

  test('the phone menu opens, is walked and closes by keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await openPage(page, '/en/')
    const button = page.getByRole('button', { name: 'Menu' })
    const navigation = page.getByRole('navigation', { name: 'Main navigation' })
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(navigation).toBeHidden()
    await button.focus()
    await page.keyboard.press('Enter')
    await expect(button).toHaveAttribute('aria-expanded', 'true')
    await expect(navigation).toBeVisible()
    await page.keyboard.press('Tab')
    await expect(navigation.getByRole('link').first()).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(navigation).toBeHidden()
    await expect(button).toBeFocused()
    await expect(button).toHaveAttribute('aria-expanded', 'false')

    // Following a link from the open menu leaves it closed on the next page.
    await page.keyboard.press('Enter')
    await navigation.getByRole('link', { name: 'Services' }).click()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/en/services/')
    await expect(button).toHaveAttribute('aria-expanded', 'false')
    await expect(navigation).toBeHidden()
  })

  test('on a desktop the navigation shows without a menu button', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await openPage(page, '/en/')
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden()
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
  })

  test('answers of the FAQ unfold and fold with Enter and Space', async ({ page }) => {
    await openPage(page, '/en/support/faq/')
    const question = page.locator('details').first()
    await question.locator('summary').focus()
    await page.keyboard.press('Enter')
    await expect(question).toHaveAttribute('open', '')
    await expect(question.locator('.prose')).toBeVisible()
    await page.keyboard.press(' ')
    await expect(question).not.toHaveAttribute('open', '')
  })

  test('the language switcher leads to the same page in German', async ({ page }) => {
    await openPage(page, '/en/services/cards/')
    const german = page
      .getByRole('navigation', { name: 'Choose language' })
      .getByRole('link', { name: 'Deutsch' })
    await german.focus()
    await page.keyboard.press('Enter')
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/de/services/cards/')
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused()
  })

  test('breadcrumbs name the way down to the page, which they mark as current', async ({
    page,
  }) => {
    await openPage(page, '/en/services/cards/')
    const trail = page.getByRole('navigation', { name: 'Breadcrumb' })
    await expect(trail.getByRole('link')).toHaveText(['Home', /Services/])
    await expect(trail.locator('[aria-current="page"]')).toHaveText(
      (await page.getByRole('heading', { level: 1 }).textContent()) ?? '',
    )
    await trail.getByRole('link', { name: 'Home' }).click()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/en/')
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0)
  })
})

test('motion stops under reduced-motion settings', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await page.setViewportSize({ width: 375, height: 800 })
  await openPage(page, '/en/')
  const durations = await page.evaluate(() =>
    [...document.querySelectorAll('*')].flatMap((element) =>
      [getComputedStyle(element), getComputedStyle(element, '::before')].map((style) =>
        Math.max(
          ...`${style.transitionDuration},${style.animationDuration}`
            .split(',')
            .map((value) => Number.parseFloat(value) * (value.trim().endsWith('ms') ? 1 : 1000)),
        ),
      ),
    ),
  )
  expect(Math.max(...durations)).toBeLessThan(1)
})

test.describe('without script', () => {
  test.use({ javaScriptEnabled: false })
  test('the phone shows the navigation unfolded instead of a menu button that cannot work', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 800 })
    await page.goto('/en/')
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden()
    await page.setViewportSize({ width: 1280, height: 800 })
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Choose language' })).toBeInViewport()
  })
})
