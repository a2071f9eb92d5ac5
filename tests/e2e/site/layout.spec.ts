/**
 * Layout from the smallest phone to a desktop: every template in both languages, photographed
 * at 320, 375 and 1280 px (the screenshots go to the test report), with no sideways scrolling,
 * nothing sticking out of the page and no text or image lying on top of another.
 */
import { expect, type Page, test } from '@playwright/test'
import { openPage } from '../support/helpers'
import { templateSamples } from '../support/site'

const WIDTHS = [320, 375, 1280]
const SCREENSHOTS = process.env.LAYOUT_SCREENSHOTS !== 'off'

/** Elements wider than the window, and pairs of texts or images that overlap. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = []
    const width = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > width)
      problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`)

    const label = (element: Element) =>
      `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 40)}"`
    // Inside an element that scrolls on purpose (wide tables), content may extend past the window.
    const scrolls = (element: Element) => {
      for (let node: Element | null = element; node; node = node.parentElement) {
        const overflow = getComputedStyle(node).overflowX
        if (overflow === 'auto' || overflow === 'scroll' || overflow === 'hidden') return true
      }
      return false
    }
    // Not drawn: hidden, folded away (closed answers), or only for screen readers.
    const hidden = (element: Element) =>
      !element.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }) ||
      element.closest('[aria-hidden="true"], .visually-hidden') !== null

    interface Box {
      element: Element
      rect: DOMRect
    }
    const boxes: Box[] = []
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement
      if (!parent || !node.textContent?.trim() || hidden(parent)) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      for (const rect of range.getClientRects()) {
        if (rect.width < 1 || rect.height < 1) continue
        if (rect.right > width + 1 && !scrolls(parent))
          problems.push(`${label(parent)} sticks out on the right (${Math.round(rect.right)} px)`)
        boxes.push({ element: parent, rect })
      }
    }
    for (const element of document.querySelectorAll('img, svg, input, select, textarea, button')) {
      if (hidden(element) && element.tagName !== 'svg') continue
      const rect = element.getBoundingClientRect()
      if (rect.width < 1 || rect.height < 1) continue
      if (element.closest('[aria-hidden="true"]') && element.tagName === 'svg') continue
      boxes.push({ element, rect })
    }
    // Sorted by top edge, only neighbours in height are compared.
    boxes.sort((a, b) => a.rect.top - b.rect.top)
    for (let i = 0; i < boxes.length; i++) {
      const a = boxes[i] as Box
      for (let j = i + 1; j < boxes.length; j++) {
        const b = boxes[j] as Box
        if (b.rect.top >= a.rect.bottom - 1) break
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue
        const overlapX = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left)
        const overlapY = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top)
        if (overlapX > 2 && overlapY > 2)
          problems.push(`${label(a.element)} overlaps ${label(b.element)}`)
      }
    }
    return [...new Set(problems)]
  })
}

for (const width of WIDTHS) {
  test(`every template in both languages fits a ${width} px screen`, async ({ page }, testInfo) => {
    test.setTimeout(180_000)
    await page.setViewportSize({ width, height: 900 })
    const problems: string[] = []
    for (const sample of await templateSamples()) {
      await openPage(page, sample.path)
      // Fonts are in before the picture is taken and the boxes are measured.
      await page.evaluate(() => document.fonts.ready)
      for (const problem of await layoutProblems(page)) problems.push(`${sample.path}: ${problem}`)
      const name = `${sample.template}-${sample.language ?? 'neutral'}-${width}.png`
      // The picture is for people reading the report (CI keeps none: LAYOUT_SCREENSHOTS=off);
      // Chromium sometimes cannot take a very tall one under load, which says nothing about
      // the layout measured above.
      if (SCREENSHOTS) {
        const picture = await page.screenshot({ fullPage: true }).catch(() => undefined)
        if (picture) await testInfo.attach(name, { body: picture, contentType: 'image/png' })
      }
    }
    expect(problems).toEqual([])
  })
}

test('the overlap check finds text lying on text', async ({ page }) => {
  await openPage(page, '/en/')
  expect(await layoutProblems(page)).toEqual([])
  await page.evaluate(() => {
    const heading = document.querySelector('h1') as HTMLElement
    const lead = heading.nextElementSibling as HTMLElement
    lead.style.marginTop = '-3em'
    const wide = document.createElement('p')
    wide.textContent = 'W'.repeat(400)
    wide.style.overflowWrap = 'normal'
    document.querySelector('main')?.append(wide)
  })
  const problems = await layoutProblems(page)
  expect(problems.some((problem) => problem.includes('overlaps'))).toBe(true)
  expect(problems.some((problem) => problem.includes('sticks out'))).toBe(true)
})

test('legal texts and customer information print without the site around them', async ({
  page,
}) => {
  for (const path of [
    '/en/privacy-policy/',
    '/de/customer-information/germany/de-iban/german/',
    '/en/support/faq/',
  ]) {
    await openPage(page, path)
    await page.emulateMedia({ media: 'print' })
    await expect(page.locator('header[data-site-header]')).toBeHidden()
    await expect(page.locator('footer[data-site-footer]')).toBeHidden()
    for (const navigation of await page.getByRole('navigation').all())
      await expect(navigation).toBeHidden()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // Folded answers print too.
    for (const answer of await page.locator('details > .prose').all())
      await expect(answer).toBeVisible()
    const pdf = await page.pdf({ format: 'A4' })
    expect(pdf.byteLength).toBeGreaterThan(10_000)
    await page.emulateMedia({ media: 'screen' })
  }
})
