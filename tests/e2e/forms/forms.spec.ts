/**
 * The forms in the browser, against the built site served with a forms service of the test's
 * own (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) that mails to a real SMTP server.
 */
import { expect, type Page, test } from '@playwright/test'
import {
  databases,
  linkIn,
  SITE_CONTENT,
  startService,
  type TestService,
} from '../../support/forms'
import { axeViolations } from '../support/axe'
import { recordCspViolations, recordRouteEvents, waitForRouteUpdates } from '../support/helpers'
import { DIST } from '../support/site'

for (const database of databases()) {
  test.describe(`forms on ${database.name}`, () => {
    test.describe.configure({ mode: 'serial' })
    let service: TestService
    let origin: string
    test.beforeAll(async () => {
      service = await startService(database, { root: DIST, contentDir: SITE_CONTENT })
      origin = await service.app.listen({ port: 0, host: '127.0.0.1' })
    })
    test.afterAll(async () => {
      await service.close()
    })

    /** Marks the document, so a client navigation (which keeps it) can be told from a load. */
    const markDocument = (page: Page) =>
      page.evaluate(() => {
        ;(window as unknown as { marked: boolean }).marked = true
      })
    /** Opens a page and waits until its code has taken over (it starts after the first paint). */
    const openForm = async (page: Page, url: string) => {
      await recordRouteEvents(page)
      await page.goto(url)
      await waitForRouteUpdates(page, 1)
    }
    const stillMarked = (page: Page) =>
      page.evaluate(() => (window as unknown as { marked?: boolean }).marked === true)

    test('newsletter: sign up, confirm from the e-mail, land on the confirmation page', async ({
      page,
    }) => {
      const before = service.inbox.mails.length
      await openForm(page, `${origin}/en/newsletter/`)
      await markDocument(page)
      await page.getByLabel('E-mail address').fill('ada.browser@example.com')
      await page.getByLabel('Regulatory developments').check()
      await page.getByLabel(/Yes, I would like to receive/).check()
      await page.getByRole('button', { name: 'Subscribe to the newsletter' }).click()
      await expect(page).toHaveURL(`${origin}/en/newsletter-success/`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'Please confirm your subscription',
      )
      expect(await stillMarked(page)).toBe(true)
      // Where a form leads is not for search engines, after a client navigation too.
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')

      const mails = await service.inbox.waitFor(before + 1)
      const mail = mails[before]
      expect(mail?.subject).toBe('Please confirm your newsletter subscription')
      const confirm = new URL(linkIn(mail, '/confirm'))
      // The link opens a page with one button (mail scanners open links; they press nothing),
      // styled within the service's content security policy.
      const violations = await recordCspViolations(page)
      await page.goto(`${origin}${confirm.pathname}${confirm.search}`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your subscription')
      expect(await violations()).toEqual([])
      await expect(page.getByRole('button', { name: 'Confirm subscription' })).toHaveCSS(
        'border-radius',
        '999px',
      )
      expect(await axeViolations(page)).toEqual([])
      await page.getByRole('button', { name: 'Confirm subscription' }).click()
      await expect(page).toHaveURL(`${origin}/en/newsletter-confirmed/`)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
      await page.getByRole('link', { name: 'Home', exact: true }).first().click()
      await expect(page.locator('meta[name="robots"]')).toHaveCount(0)
      const [row] = await service.query<{ status: string; topics: string[] }>(
        "SELECT status, topics FROM subscribers WHERE email = 'ada.browser@example.com'",
      )
      expect(row).toEqual({ status: 'confirmed', topics: ['regulation'] })
    })

    test('shows errors beside their fields in the page language and focuses the first', async ({
      page,
    }) => {
      let sent = 0
      page.on('request', (request) => {
        if (request.url().includes('/api/')) sent += 1
      })
      await openForm(page, `${origin}/de/newsletter/`)
      await page.getByLabel('E-Mail-Adresse').fill('kein-at-zeichen')
      await page.getByRole('button', { name: 'Newsletter abonnieren' }).click()
      const email = page.getByLabel('E-Mail-Adresse')
      await expect(email).toBeFocused()
      await expect(email).toHaveAttribute('aria-invalid', 'true')
      await expect(email).toHaveAccessibleDescription(
        /Fehler: Bitte geben Sie eine gültige E-Mail-Adresse ein/,
      )
      await expect(page.getByText('Bitte korrigieren Sie 3 Angaben:')).toBeVisible()
      await expect(page.getByRole('group', { name: /Themen/ })).toHaveAccessibleDescription(
        /Bitte wählen Sie mindestens eine Option/,
      )
      expect(sent).toBe(0)
      // A link of the summary takes focus to its field (a group: its first choice).
      await page.getByRole('link', { name: /Themen.*: Bitte wählen/ }).click()
      await expect(page.getByLabel('Neue Leistungen und Funktionen')).toBeFocused()
      // Corrections clear their errors as the visitor makes them.
      await email.fill('ada@example.com')
      await expect(page.getByText('Bitte korrigieren Sie 2 Angaben:')).toBeVisible()
      await expect(email).not.toHaveAttribute('aria-invalid', 'true')
      expect(await axeViolations(page)).toEqual([])
    })

    test('works without script: a classic post, then the success page; errors on a page of their own', async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: false })
      const page = await context.newPage()
      await page.goto(`${origin}/de/newsletter/`)
      await page.getByLabel('E-Mail-Adresse').fill('ohne.skript@example.com')
      await page.getByLabel('Studien und Beiträge').check()
      await page.getByLabel(/Ja, ich möchte den Newsletter/).check()
      await page.getByRole('button', { name: 'Newsletter abonnieren' }).click()
      await expect(page).toHaveURL(`${origin}/de/newsletter-success/`)
      const [row] = await service.query<{ language: string; topics: string[] }>(
        "SELECT language, topics FROM subscribers WHERE email = 'ohne.skript@example.com'",
      )
      expect(row).toEqual({ language: 'de', topics: ['studies'] })

      // The browser's own checks are bypassed here, as an old browser or a bot would.
      await page.goto(`${origin}/de/newsletter/`)
      await page.evaluate(() => document.querySelector('form')?.setAttribute('novalidate', ''))
      await page.getByRole('button', { name: 'Newsletter abonnieren' }).click()
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'Bitte prüfen Sie Ihre Angaben',
      )
      await expect(
        page.getByText('E-Mail-Adresse: Bitte füllen Sie dieses Feld aus.'),
      ).toBeVisible()
      await page.getByRole('link', { name: 'Zurück zum Formular' }).click()
      await expect(page).toHaveURL(`${origin}/de/newsletter/`)
      await context.close()
    })

    test("the service's own pages fit a phone, pass axe and take the site's look", async ({
      browser,
    }) => {
      test.skip(
        database.name !== databases()[0]?.name,
        'the pages look the same whatever the database',
      )
      // On a phone's width. The site's scripts do not load, so its forms are sent as a browser
      // without script sends them (the visitors these pages are for); the service's pages have
      // no script to load, and the test's own (axe, the policy's reports) still run.
      const context = await browser.newContext({ viewport: { width: 375, height: 740 } })
      const page = await context.newPage()
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort())
      const violations = await recordCspViolations(page)
      /** The files the service's pages load, and what each was answered. */
      const files: string[] = []
      page.on('response', (response) => {
        const { pathname } = new URL(response.url())
        if (pathname.startsWith('/api/pages.css') || pathname.startsWith('/api/fonts/')) {
          files.push(`${pathname} ${response.status()}`)
        }
      })
      /** The page's heading, the bank at the top, the site's tokens applied, no sideways scroll. */
      const expectServicePage = async (heading: string) => {
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
        await expect(page.getByRole('banner')).toHaveText('Lumora Bank')
        const look = await page.evaluate(() => ({
          font: getComputedStyle(document.body).fontFamily,
          background: getComputedStyle(document.body).backgroundColor,
          card: getComputedStyle(document.querySelector('main') as Element).backgroundColor,
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }))
        // --font-sans, --color-subtle and --color-surface of the site's tokens.css.
        expect(look.font).toMatch(/^"Inter Variable", "Inter Fallback", system-ui/)
        expect(look.background).toBe('rgb(248, 245, 242)')
        expect(look.card).toBe('rgb(255, 255, 255)')
        expect(look.scrollWidth).toBeLessThanOrEqual(look.clientWidth)
        expect(await violations()).toEqual([])
        expect(await axeViolations(page)).toEqual([])
      }

      // What to correct in a form sent without script (the browser's own checks bypassed).
      await page.goto(`${origin}/en/newsletter/`)
      await page.evaluate(() => document.querySelector('form')?.setAttribute('novalidate', ''))
      await page.getByRole('button', { name: 'Subscribe to the newsletter' }).click()
      await expectServicePage('Please check your entries')
      const back = page.getByRole('link', { name: 'Back to the form' })
      await page.keyboard.press('Tab')
      await expect(back).toBeFocused()
      await expect(back).toHaveCSS('outline-style', 'solid')
      await expect(back).toHaveCSS('outline-color', 'rgb(26, 86, 219)')

      // The page of a confirmation link, in German.
      const before = service.inbox.mails.length
      await page.goto(`${origin}/de/newsletter/`)
      await page.getByLabel('E-Mail-Adresse').fill('schmal@example.com')
      await page.getByLabel('Studien und Beiträge').check()
      await page.getByLabel(/Ja, ich möchte den Newsletter/).check()
      await page.getByRole('button', { name: 'Newsletter abonnieren' }).click()
      await expect(page).toHaveURL(`${origin}/de/newsletter-success/`)
      const mails = await service.inbox.waitFor(before + 1)
      const confirm = new URL(linkIn(mails[before], '/confirm'))
      await page.goto(`${origin}${confirm.pathname}${confirm.search}`)
      await expectServicePage('Anmeldung bestätigen')
      const button = page.getByRole('button')
      await expect(button).toHaveCount(1)
      await expect(button).toHaveCSS('background-color', 'rgb(179, 71, 0)')
      await page.keyboard.press('Tab')
      await expect(button).toBeFocused()
      await expect(button).toHaveCSS('outline-style', 'solid')

      // On a wide screen, one column as wide as text reads well, in the middle.
      await page.setViewportSize({ width: 1280, height: 800 })
      const card = await page.locator('main').boundingBox()
      expect(card?.width).toBeLessThanOrEqual(42 * 16)
      expect(Math.abs((card?.x ?? 0) * 2 + (card?.width ?? 0) - 1280)).toBeLessThan(2)
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true)
      // The stylesheet and Inter came from the service, each answered (or revalidated).
      expect(files).toContain('/api/pages.css 200')
      expect(files).toContain('/api/fonts/inter-latin-wght-normal.woff2 200')
      expect(files.filter((file) => !/ (200|304)$/.test(file))).toEqual([])
      await context.close()
    })

    test('the split-payment survey works by keyboard alone and stores the answers', async ({
      page,
    }) => {
      await openForm(page, `${origin}/de/services/splitpay/survey/`)
      const form = page.locator('form[data-form="splitpay-survey"]')
      /** Presses Tab until `target` has focus (from wherever focus is), 60 stops at most. */
      const tabTo = async (target: ReturnType<typeof page.locator>) => {
        for (let stops = 0; stops < 60; stops++) {
          if (await target.evaluate((element) => element === document.activeElement)) return
          await page.keyboard.press('Tab')
        }
      }
      // From the top of the page, Tab reaches the first question's first answer.
      const first = form.locator('input[type=radio]').first()
      await tabTo(first)
      await expect(first).toBeFocused()
      await page.keyboard.press('Space')
      // Tab moves on to the next group; arrow keys choose within a radio group.
      const scale = form.getByRole('group', { name: /Gesamtkosten/ })
      await tabTo(scale.locator('input').first())
      await expect(scale.locator('input').first()).toBeFocused()
      await page.keyboard.press('ArrowRight')
      await page.keyboard.press('ArrowRight')
      const submit = form.getByRole('button', { name: 'Antworten senden' })
      await tabTo(submit)
      await expect(submit).toBeFocused()
      await page.keyboard.press('Enter')
      await expect(page).toHaveURL(`${origin}/de/survey-success/`)
      const rows = await service.query<{
        survey: string
        language: string
        answers: Record<string, unknown>
      }>("SELECT survey, language, answers FROM survey_responses WHERE survey = 'splitpay-survey'")
      expect(rows).toHaveLength(1)
      expect(rows[0]?.language).toBe('de')
      expect(Object.values(rows[0]?.answers ?? {})).toContain(3)
    })

    test('says so when the form cannot be sent, and keeps what was entered', async ({ page }) => {
      await page.route('**/api/forms/**', (route) => route.abort('internetdisconnected'))
      await openForm(page, `${origin}/en/services/`)
      const form = page.locator('form[data-form="productupdates"]')
      await form.getByLabel('E-mail address').fill('offline@example.com')
      await form.locator('input[type=checkbox][name=topics]').first().check()
      await form.locator('input[name=consent]').check()
      await form.getByRole('button').click()
      await expect(form.getByRole('alert')).toHaveText(
        /could not be sent. Please check your connection/,
      )
      await expect(form.getByLabel('E-mail address')).toHaveValue('offline@example.com')
      await expect(page).toHaveURL(`${origin}/en/services/`)
    })
  })
}
