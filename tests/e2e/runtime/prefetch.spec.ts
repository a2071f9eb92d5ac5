import { expect, test } from '@playwright/test'
import { collectRequests, openPage } from '../support/helpers'

test.describe('prefetch', () => {
  test('hovering a link prefetches its page data and template once', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 300 })
    const requests = collectRequests(page, /^\/page-data\/en\/careers\/page-data\.json$/)
    await openPage(page, '/en/')
    const link = page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Careers' })
    await link.hover()
    await expect.poll(() => requests.length).toBe(1)
    await page.mouse.move(0, 0)
    await link.hover()
    await page.waitForTimeout(300)
    expect(requests).toHaveLength(1)
  })

  test('links that scroll into view are prefetched', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 300 })
    const requests = collectRequests(page, /^\/page-data\/en\/privacy-policy\/page-data\.json$/)
    await openPage(page, '/en/')
    await page.waitForTimeout(300)
    expect(requests).toHaveLength(0)
    await page.locator('footer').scrollIntoViewIfNeeded()
    await expect.poll(() => requests.length).toBe(1)
  })

  for (const [name, connection] of [
    ['data saver', { saveData: true, effectiveType: '4g' }],
    ['2g', { saveData: false, effectiveType: '2g' }],
    ['slow 2g', { effectiveType: 'slow-2g' }],
  ] as const) {
    test(`nothing is prefetched with ${name}`, async ({ page }) => {
      await page.addInitScript((value) => {
        Object.defineProperty(navigator, 'connection', { value, configurable: true })
      }, connection)
      const requests = collectRequests(page, /^\/page-data\/(?!app-data)/)
      await openPage(page, '/en/')
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Careers' })
        .hover()
      await page.locator('footer').scrollIntoViewIfNeeded()
      await page.waitForTimeout(500)
      expect(requests.map((request) => request.url())).toEqual([])
    })
  }
})
