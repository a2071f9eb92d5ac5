/** Images: the fade from the blurred preview, reduced motion, no script, and sharing cards. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { openPage } from '../support/helpers'
import { DIST } from '../support/site'

const SLOW_IMAGE = '/images/_/slow-test-image.png'

/**
 * Adds a content image to the page whose file is served only when the test calls `release`
 * (a signal, not a timer: under load a timer could run out before the test looked).
 */
async function addSlowImage(page: Page) {
  const body = await readFile(join(DIST, 'images/cards/site.png'))
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(`**${SLOW_IMAGE}`, async (route) => {
    await released
    await route.fulfill({ body, contentType: 'image/png' })
  })
  await page.evaluate((src) => {
    const image = document.createElement('img')
    image.src = src
    image.alt = 'A test image'
    image.width = 1200
    image.height = 630
    image.setAttribute('data-fade', '')
    image.id = 'slow-image'
    document.querySelector('main')?.prepend(image)
  }, SLOW_IMAGE)
  return { image: page.locator('#slow-image'), release }
}

const opacity = (page: Page) =>
  page.locator('#slow-image').evaluate((image) => Number(getComputedStyle(image).opacity))

test('a content image waits invisible for its file, then fades in over 500 ms', async ({
  page,
}) => {
  await openPage(page, '/en/')
  const { image, release } = await addSlowImage(page)
  expect(await opacity(page)).toBe(0)
  await expect(image).not.toHaveAttribute('data-loaded', '')
  release()
  await expect(image).toHaveAttribute('data-loaded', '')
  expect(await image.evaluate((element) => getComputedStyle(element).transitionDuration)).toBe(
    '0.5s',
  )
  await expect.poll(() => opacity(page)).toBe(1)
})

test('under reduced motion the image appears without a fade', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await openPage(page, '/en/')
  const { image, release } = await addSlowImage(page)
  release()
  await expect(image).toHaveAttribute('data-loaded', '')
  const duration = await image.evaluate((element) => getComputedStyle(element).transitionDuration)
  expect(Number.parseFloat(duration)).toBeLessThan(0.001)
})

test.describe('without script', () => {
  test.use({ javaScriptEnabled: false })
  test('images show as soon as they load, with no fade waiting for a runtime', async ({ page }) => {
    // The served page gets a content image as the Picture component writes it.
    await page.route('**/en/about/', async (route) => {
      const response = await route.fetch()
      const html = (await response.text()).replace(
        '<main id="main" tabindex="-1">',
        '<main id="main" tabindex="-1"><img id="plain" src="/images/cards/site.png" alt="A test image" width="1200" height="630" data-fade="">',
      )
      await route.fulfill({ response, body: html })
    })
    await page.goto('/en/about/')
    const image = page.locator('#plain')
    await expect(image).toBeVisible()
    expect(await image.evaluate((element) => (element as HTMLImageElement).complete)).toBe(true)
    expect(await image.evaluate((element) => getComputedStyle(element).opacity)).toBe('1')
    expect(await page.locator('html').getAttribute('data-image-fade')).toBeNull()
  })
})

test('every page names a sharing image that is a 1200 × 630 PNG on this site', async ({
  page,
  request,
}) => {
  const checked = new Set<string>()
  for (const path of ['/en/', '/de/imprint/', '/blog/designing-idempotent-payment-apis/']) {
    await page.goto(path)
    const url = await page.locator('meta[property="og:image"]').getAttribute('content')
    expect(url).toMatch(/^https?:\/\/[^/]+\/images\/cards\/[\w-]+\.png$/)
    const own = new URL(url ?? '').pathname
    checked.add(own)
    const response = await request.get(own)
    expect(response.status()).toBe(200)
    expect(response.headers()['content-type']).toBe('image/png')
    const png = await response.body()
    // Width and height sit at bytes 16–23 of a PNG's header chunk.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630])
    await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', /.+/)
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute(
      'content',
      'summary_large_image',
    )
  }
  expect(checked.size).toBe(2)
})
