import { expect, test } from '@playwright/test'
import { SERVICES } from '../../../src/shared/spec-routes'
import { openPage, waitForRouteUpdates } from '../support/helpers'

test.describe('content pages', () => {
  test('a service page answers what, for whom, how, under which rules, with a keyboard FAQ', async ({
    page,
  }) => {
    await openPage(page, '/en/services/cards/')
    for (const heading of [
      'What it is',
      'Who it is for',
      'How integration works',
      'Regulatory notes',
      'Frequently asked questions',
    ]) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
    }
    const question = page.locator('details summary').first()
    const answer = page.locator('details').first().locator('.prose')
    await expect(answer).toBeHidden()
    await question.focus()
    await page.keyboard.press('Enter')
    await expect(answer).toBeVisible()
  })

  test('German service pages use German headings', async ({ page }) => {
    await openPage(page, '/de/services/cards/')
    await expect(
      page.getByRole('heading', { level: 2, name: 'So funktioniert die Integration' }),
    ).toBeVisible()
  })

  test('the services list links every service', async ({ page }) => {
    await openPage(page, '/de/services/')
    for (const service of SERVICES) {
      await expect(page.locator(`main a[href="/de/services/${service}/"]`).first()).toBeVisible()
    }
  })

  test('the imprint prints the company facts from the site settings', async ({ page, request }) => {
    const settings = await (
      await request.get(
        '/page-data/sq/d/' +
          (
            await (await request.get('/page-data/de/imprint/page-data.json')).json()
          ).staticQueryHashes[0] +
          '.json',
      )
    ).json()
    await openPage(page, '/de/imprint/')
    const main = page.locator('main')
    await expect(main).toContainText(settings.company.register.number)
    await expect(main).toContainText(settings.company.vatId)
    await expect(main).toContainText('Bundesanstalt für Finanzdienstleistungsaufsicht')
    await expect(main).not.toContainText('ec.europa.eu/consumers/odr')
  })

  test('the accessibility statement exists in both languages', async ({ request }) => {
    expect((await request.get('/en/accessibility/')).status()).toBe(200)
    expect((await request.get('/de/accessibility/')).status()).toBe(200)
  })

  test('customer information offers its documents as PDFs, in the contract language', async ({
    page,
    request,
  }) => {
    await openPage(page, '/en/customer-information/italy/it-iban/italian/')
    await expect(page.locator('article')).toHaveAttribute('lang', 'it')
    const links = page.locator('main a[href^="/documents/"]')
    await expect(links).toHaveCount(2)
    for (const href of await links.evaluateAll((anchors) =>
      anchors.map((a) => a.getAttribute('href') ?? ''),
    )) {
      const response = await request.get(href)
      expect(response.status(), href).toBe(200)
      expect(response.headers()['content-type']).toBe('application/pdf')
      expect((await response.body()).subarray(0, 5).toString()).toBe('%PDF-')
    }
  })

  test('the press page offers the media kit and lists the releases', async ({ page, request }) => {
    await openPage(page, '/en/press/')
    await expect(page.locator('main a[href^="/en/press/"]')).not.toHaveCount(0)
    expect((await request.get('/documents/press/media-kit.pdf')).status()).toBe(200)
  })

  test('careers lists at least four open positions with their details', async ({ page }) => {
    await openPage(page, '/en/careers/')
    const jobs = page.locator('main a[href^="/en/careers/"]')
    expect(await jobs.count()).toBeGreaterThanOrEqual(4)
    await jobs.first().click()
    await expect(page.getByRole('link', { name: 'Apply now' })).toHaveAttribute('href', /^mailto:/)
  })

  test('the blog archive is paginated and posts show author, date, reading time and category', async ({
    page,
  }) => {
    await openPage(page, '/blog/')
    await expect(page.locator('main article > ul > li')).toHaveCount(6)
    await page.getByRole('link', { name: 'Next page' }).click()
    await waitForRouteUpdates(page, 2)
    await expect(page).toHaveURL('/blog/page/2/')
    await page.locator('main article > ul > li h2 a').first().click()
    await waitForRouteUpdates(page, 3)
    await expect(page.locator('main article > header')).toContainText(/min read|Min\. Lesezeit/)
    await expect(page.locator('main article > img')).toHaveAttribute('alt', /.+/)
    await page.locator('main article > header a').first().click()
    await waitForRouteUpdates(page, 4)
    await expect(page).toHaveURL(/\/blog\/category\/[a-z-]+\/$/)
    expect(await page.locator('main article > ul > li').count()).toBeGreaterThanOrEqual(3)
  })

  test('support leads from categories to a partner page with help, complaints and contact', async ({
    page,
  }) => {
    await openPage(page, '/de/support/')
    await page.locator('main a[href="/de/support/kontist/"]').first().click()
    for (const heading of ['Hilfe im Alltag', 'Beschwerden', 'Kontakt zur Lumora Bank']) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
    }
  })

  test('consumer-credit FAQs hold at least 15 questions', async ({ page }) => {
    await openPage(page, '/en/consumer-credit-faqs/')
    expect(await page.locator('main details').count()).toBeGreaterThanOrEqual(15)
  })
})

test('long words wrap inside their cards, on a phone and a desktop', async ({ page }) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/blog/')
    const overflowing = await page
      .locator('main article li')
      .evaluateAll((cards) =>
        cards
          .filter((card) => card.scrollWidth > card.clientWidth + 1)
          .map((card) => card.textContent?.slice(0, 60)),
      )
    expect(overflowing, `width ${width}`).toEqual([])
  }
})
