/**
 * Consent in the browser, against the built site (built with tracker IDs, see E2E_TRACKING).
 * Every request to another host is intercepted: answered locally with an empty script, and
 * recorded, so a test sees exactly what would have left the browser.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { BASE_URL } from '../support/env'
import { openPage, waitForRouteUpdates } from '../support/helpers'

declare global {
  interface Window {
    dataLayer: unknown[]
  }
}

/** Answers every request to another host locally, and records its address. */
async function interceptThirdParties(context: BrowserContext): Promise<string[]> {
  const requests: string[] = []
  await context.route(
    (url) => url.origin !== BASE_URL,
    (route) => {
      requests.push(route.request().url())
      return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' })
    },
  )
  return requests
}

const allowAll = async (context: BrowserContext) => {
  const expires = Math.floor(Date.now() / 1000) + 3600
  const cookie = (name: string, value: string) => ({
    name,
    value,
    url: BASE_URL,
    expires,
    sameSite: 'Lax' as const,
  })
  await context.addCookies([
    cookie('cookieconsent_analytics', 'allow'),
    cookie('cookieconsent_conversion', 'allow'),
    cookie('cookieconsent_revision', '1'),
  ])
}

/** The gtag calls of the page as arrays (plain pushes, such as GTM's start, left out). */
const gtagCalls = (page: Page) =>
  page.evaluate(() =>
    (window.dataLayer ?? [])
      .filter((entry) => typeof (entry as IArguments).length === 'number')
      .map((entry) => JSON.parse(JSON.stringify([...(entry as IArguments)])) as unknown[]),
  )

const pageViews = async (page: Page) =>
  (await gtagCalls(page))
    .filter(
      (call) =>
        call[0] === 'event' &&
        call[1] === 'page_view' &&
        (call[2] as { page_path?: string }).page_path,
    )
    .map((call) => (call[2] as { page_path: string }).page_path)

// These tests start as a first-time visitor: no choice stored.
test.use({ storageState: { cookies: [], origins: [] } })

// Every page as a first-time visitor (nothing to another host, nothing stored, nothing
// blocked by the policy) is checked in accessibility.spec.ts's walk over every page: one load
// per page for all it checks.

test('with every category allowed, exactly the configured trackers load, after Consent Mode’s default', async ({
  page,
  context,
}) => {
  const requests = await interceptThirdParties(context)
  await allowAll(context)
  await openPage(page, '/en/')
  await expect.poll(() => requests.length).toBe(4)
  expect(requests.map((url) => new URL(url).origin + new URL(url).pathname).sort()).toEqual([
    'https://snap.licdn.com/li.lms-analytics/insight.min.js',
    'https://static.ads-twitter.com/uwt.js',
    'https://www.googletagmanager.com/gtag/js',
    'https://www.googletagmanager.com/gtm.js',
  ])
  const calls = await gtagCalls(page)
  expect(calls[0]).toEqual([
    'consent',
    'default',
    {
      ad_storage: 'denied',
      analytics_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      wait_for_update: 500,
    },
  ])
  expect(calls[1]).toEqual(['set', { anonymize_ip: true }])
  expect(calls.find((call) => call[0] === 'consent' && call[1] === 'update')).toEqual([
    'consent',
    'update',
    {
      ad_storage: 'granted',
      analytics_storage: 'granted',
      ad_user_data: 'granted',
      // Conversion tracking measures; ads are never personalised.
      ad_personalization: 'denied',
    },
  ])
  // Every Google tag comes after the default.
  expect(calls.findIndex((call) => call[0] === 'js')).toBeGreaterThan(0)
  await expect.poll(() => pageViews(page)).toEqual(['/en/'])
})

test('page views follow client navigations after two frames, none on untracked pages', async ({
  page,
  context,
}) => {
  await interceptThirdParties(context)
  await allowAll(context)
  // Right after each route-update its page view must not have been sent yet (two frames later).
  await page.addInitScript(() => {
    const early: string[] = []
    ;(window as unknown as { early: string[] }).early = early
    window.addEventListener('route-update', (event) => {
      const path = (event as CustomEvent<{ location: { pathname: string } }>).detail.location
        .pathname
      // After every listener of this event has run, but before the next frame.
      queueMicrotask(() => {
        const sent = (window.dataLayer ?? []).some((entry) => {
          if (typeof (entry as IArguments).length !== 'number') return false
          const call = [...(entry as IArguments)]
          return call[1] === 'page_view' && (call[2] as { page_path?: string })?.page_path === path
        })
        if (sent) early.push(path)
      })
    })
  })
  await openPage(page, '/en/')
  await expect.poll(() => pageViews(page)).toEqual(['/en/'])
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'About us' })
    .click()
  await waitForRouteUpdates(page, 2)
  await expect.poll(() => pageViews(page)).toEqual(['/en/', '/en/about/'])
  await page.getByRole('contentinfo').getByRole('link', { name: 'Imprint' }).click()
  await waitForRouteUpdates(page, 3)
  await page.waitForTimeout(300)
  expect(await pageViews(page)).toEqual(['/en/', '/en/about/'])
  expect(await page.evaluate(() => (window as unknown as { early: string[] }).early)).toEqual([])
})

test('the privacy policy’s opt-out links store the opt-out until 2099, with the specification’s alerts', async ({
  page,
  context,
}) => {
  await interceptThirdParties(context)
  const alerts: string[] = []
  page.on('dialog', async (dialog) => {
    alerts.push(dialog.message())
    await dialog.accept()
  })
  // What the page writes (Chromium keeps a cookie 400 days at most, whatever it is asked).
  await page.addInitScript(() => {
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')
    const written: string[] = []
    ;(window as unknown as { cookieWrites: string[] }).cookieWrites = written
    Object.defineProperty(document, 'cookie', {
      get: () => descriptor?.get?.call(document),
      set: (text: string) => {
        written.push(text)
        descriptor?.set?.call(document, text)
      },
    })
  })
  await openPage(page, '/en/privacy-policy/')
  await page.waitForFunction(() => Array.isArray(window.dataLayer))
  for (const name of [
    'Deactivate Google Analytics',
    'Deactivate Google Ads conversion tracking',
    'Deactivate X (Twitter) conversion tracking',
    'Deactivate LinkedIn Insight Tag',
  ]) {
    await page.getByRole('link', { name }).click()
  }
  expect(alerts).toEqual([
    'Google Analytics deactivated',
    'Google AdWords Conversion Tracking has been deactivated.',
    'Twitter Conversion Tracking has been deactivated. Please refresh the page for this to take effect.',
  ])
  const cookies = Object.fromEntries(
    (await context.cookies()).map((cookie) => [cookie.name, cookie]),
  )
  const writes = await page.evaluate(
    () => (window as unknown as { cookieWrites: string[] }).cookieWrites,
  )
  const inAYear = Date.now() / 1000 + 365 * 86_400
  for (const name of [
    'cookieconsent_googleanalytics',
    'cookieconsent_adwords',
    'cookieconsent_twitter',
    'cookieconsent_linkedin',
  ]) {
    expect(cookies[name]?.value, name).toBe('deny')
    expect(cookies[name]?.sameSite, name).toBe('Lax')
    expect(cookies[name]?.expires, name).toBeGreaterThan(inAYear)
    expect(
      writes.find((text) => text.startsWith(`${name}=deny`)),
      name,
    ).toContain('Expires=Thu, 31 Dec 2099 23:59:59 GMT')
  }
  expect(cookies['ga-disable-G-E2ETEST01']?.value).toBe('true')
  expect(page.url()).toBe(`${BASE_URL}/en/privacy-policy/`)
  // Each link answers on the page too, also LinkedIn's, which has no alert: below the list,
  // so no link moved under the pointer.
  const status = page.getByRole('main').getByRole('status')
  await expect(status.locator('span')).toHaveText([
    'Google Analytics 4 is now deactivated in this browser.',
    'Google Ads conversion tracking is now deactivated in this browser.',
    'X (Twitter) conversion pixel is now deactivated in this browser.',
    'LinkedIn Insight Tag is now deactivated in this browser.',
  ])
  expect(await status.evaluate((element) => element.previousElementSibling?.tagName)).toBe('UL')
})

test('silent mode opts out without an alert', async ({ page, context }) => {
  await interceptThirdParties(context)
  const alerts: string[] = []
  page.on('dialog', async (dialog) => {
    alerts.push(dialog.message())
    await dialog.accept()
  })
  await openPage(page, '/en/')
  await page.waitForFunction(() => 'cookieConsent' in window)
  await page.evaluate(() =>
    (
      window as unknown as { cookieConsent: { optOut(t: string, o: object): void } }
    ).cookieConsent.optOut('twitter', { silent: true }),
  )
  const cookie = (await context.cookies()).find((c) => c.name === 'cookieconsent_twitter')
  expect(cookie?.value).toBe('deny')
  expect(alerts).toEqual([])
})

const banner = (page: Page) => page.locator('[data-consent-banner]')
const settings = (page: Page) => page.locator('[data-consent-settings]')

test.describe('the banner', () => {
  test('asks on the first visit: three equal choices, purposes named, focus inside, axe finds nothing', async ({
    page,
    context,
  }) => {
    const requests = await interceptThirdParties(context)
    await openPage(page, '/en/')
    const dialog = page.getByRole('dialog', { name: 'Cookies and tracking on this website' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('heading', { level: 2 })).toBeFocused()
    const buttons = dialog.getByRole('button')
    await expect(buttons).toHaveText(['Accept all', 'Reject all', 'Settings'])
    const boxes = await buttons.evaluateAll((elements) =>
      elements.map((element) => {
        const style = getComputedStyle(element)
        return [style.backgroundColor, style.color, style.fontSize, style.fontWeight].join()
      }),
    )
    expect(new Set(boxes).size).toBe(1)
    await expect(dialog).toContainText('Google Analytics')
    await expect(dialog).toContainText('LinkedIn')
    await expect(dialog).toContainText('2 years')
    expect(await axeViolations(page)).toEqual([])
    // Tab stays in the banner, both ways; Escape closes it and decides nothing.
    await page.keyboard.press('Shift+Tab')
    await expect(dialog.getByRole('button', { name: 'Settings' })).toBeFocused()
    for (let stops = 0; stops < 8; stops++) await page.keyboard.press('Tab')
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    expect((await context.cookies()).map((cookie) => cookie.name)).toEqual([])
    expect(requests).toEqual([])
  })

  test('follows the page into the other language while it is open', async ({ page, context }) => {
    await interceptThirdParties(context)
    await openPage(page, '/en/')
    await expect(banner(page)).toHaveAttribute('lang', 'en')
    await page
      .getByRole('navigation', { name: 'Choose language' })
      .getByRole('link', { name: 'Deutsch' })
      .click()
    await expect(page).toHaveURL('/de/')
    await expect(banner(page)).toHaveAttribute('lang', 'de')
    await expect(banner(page).getByRole('button')).toHaveText([
      'Alle akzeptieren',
      'Alle ablehnen',
      'Einstellungen',
    ])
    await expect(banner(page).getByRole('link')).toHaveAttribute('href', /^\/de\/privacy-policy\//)
    // The settings opened from it, in German too.
    await banner(page).getByRole('button', { name: 'Einstellungen' }).click()
    await expect(settings(page)).toHaveAttribute('lang', 'de')
  })

  test('accept all starts tracking at once, with a page view, and records the choice without an address', async ({
    page,
    context,
  }) => {
    const requests = await interceptThirdParties(context)
    const recorded: unknown[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/api/consent')) recorded.push(request.postDataJSON())
    })
    await openPage(page, '/en/services/')
    await banner(page).getByRole('button', { name: 'Accept all' }).click()
    await expect(banner(page)).toBeHidden()
    await expect.poll(() => requests.length).toBe(4)
    await expect.poll(() => pageViews(page)).toEqual(['/en/services/'])
    await expect.poll(() => recorded.length).toBe(1)
    expect(recorded[0]).toMatchObject({
      categories: { analytics: true, conversion: true },
      trackers: { googleanalytics: true, adwords: true, twitter: true, linkedin: true },
      revision: '1',
      language: 'en',
    })
    // The next page asks nothing.
    await page.reload()
    await page.waitForFunction(() => Array.isArray(window.dataLayer))
    await page.waitForTimeout(300)
    await expect(banner(page)).toHaveCount(0)
  })

  test('reject all loads nothing and is remembered', async ({ page, context }) => {
    const requests = await interceptThirdParties(context)
    await openPage(page, '/de/')
    await banner(page).getByRole('button', { name: 'Alle ablehnen' }).click()
    await expect(banner(page)).toBeHidden()
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c.value]))
    expect(cookies).toMatchObject({
      cookieconsent_analytics: 'deny',
      cookieconsent_conversion: 'deny',
      cookieconsent_revision: '1',
    })
    await page.goto('/de/about/')
    await page.waitForFunction(() => Array.isArray(window.dataLayer))
    await page.waitForTimeout(300)
    await expect(banner(page)).toHaveCount(0)
    expect(requests).toEqual([])
  })

  test('settings by keyboard alone: switches per category and tracker; only what is on loads', async ({
    page,
    context,
  }) => {
    const requests = await interceptThirdParties(context)
    await openPage(page, '/en/')
    await banner(page).getByRole('button', { name: 'Settings' }).focus()
    await page.keyboard.press('Enter')
    const dialog = settings(page)
    await expect(dialog.getByRole('heading', { level: 2 })).toBeFocused()
    const analytics = dialog.getByRole('switch', { name: 'Analytics', exact: true })
    await expect(analytics).not.toBeChecked()
    await expect(
      dialog.getByRole('switch', { name: 'Conversion tracking', exact: true }),
    ).not.toBeChecked()
    // Nothing looks ticked under a category that is off.
    const linkedin = dialog.getByRole('switch', { name: 'LinkedIn Insight Tag' })
    await expect(linkedin).not.toBeChecked()
    await expect(linkedin).toBeDisabled()
    await analytics.focus()
    await page.keyboard.press('Space')
    await expect(analytics).toBeChecked()
    expect(await axeViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Save settings' }).focus()
    await page.keyboard.press('Enter')
    await expect(dialog).toBeHidden()
    await expect.poll(() => requests.length).toBe(2)
    expect(requests.map((url) => new URL(url).pathname).sort()).toEqual(['/gtag/js', '/gtm.js'])
  })

  test('the footer’s cookie settings reopen it on every page; withdrawing stops tracking and removes cookies', async ({
    page,
    context,
  }) => {
    const requests = await interceptThirdParties(context)
    await allowAll(context)
    await openPage(page, '/en/about/')
    await expect.poll(() => pageViews(page)).toEqual(['/en/about/'])
    // What the trackers would have set, on this host.
    await context.addCookies([
      { name: '_ga', value: 'GA1.1.42', url: BASE_URL },
      { name: '_gcl_au', value: '1.1.42', url: BASE_URL },
    ])
    const link = page.getByRole('contentinfo').getByRole('link', { name: 'Cookie settings' })
    await link.click()
    const dialog = settings(page)
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Reject all' }).click()
    await expect(dialog).toBeHidden()
    await expect(link).toBeFocused()
    const names = (await context.cookies()).map((cookie) => cookie.name)
    expect(names).not.toContain('_ga')
    expect(names).not.toContain('_gcl_au')
    // LinkedIn's and X's scripts cannot be unloaded: the next page is loaded whole, without
    // them, and nothing more goes to another host.
    const sent = requests.length
    await page.evaluate(() => {
      ;(window as unknown as { sameDocument: boolean }).sameDocument = true
    })
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Careers' })
      .click()
    await expect(page).toHaveURL(`${BASE_URL}/en/careers/`)
    await page.waitForLoadState('load')
    expect(
      await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    ).toBeUndefined()
    await page.waitForTimeout(300)
    expect(await pageViews(page)).toEqual([])
    expect(requests.slice(sent)).toEqual([])
  })

  test('a new banner revision asks again, and loads nothing until answered', async ({
    page,
    context,
  }) => {
    const requests = await interceptThirdParties(context)
    await allowAll(context)
    await context.addCookies([{ name: 'cookieconsent_revision', value: '0', url: BASE_URL }])
    await openPage(page, '/en/')
    await expect(banner(page)).toBeVisible()
    await page.waitForTimeout(300)
    expect(requests).toEqual([])
    expect(await pageViews(page)).toEqual([])
  })

  test('Escape in the settings returns to the first layer', async ({ page, context }) => {
    await interceptThirdParties(context)
    await openPage(page, '/en/')
    await banner(page).getByRole('button', { name: 'Settings' }).click()
    await expect(settings(page)).toBeVisible()
    // Its title takes focus once shown (an effect after the paint): where the keys go.
    await expect(settings(page).locator(':focus')).toHaveCount(1)
    await page.keyboard.press('Escape')
    await expect(settings(page)).toHaveCount(0)
    await expect(banner(page).getByRole('heading', { level: 2 })).toBeFocused()
  })

  test('gclid waits in memory until conversion tracking is allowed', async ({ page, context }) => {
    await interceptThirdParties(context)
    await openPage(page, '/en/?gclid=Cj0KCQ-test&gclsrc=aw.ds')
    await expect(banner(page)).toBeVisible()
    expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain('gclid')
    await banner(page).getByRole('button', { name: 'Accept all' }).click()
    await expect
      .poll(async () => (await context.cookies()).find((c) => c.name === 'gclid')?.value)
      .toBe('Cj0KCQ-test')
    const gclid = (await context.cookies()).find((cookie) => cookie.name === 'gclid')
    const days = ((gclid?.expires ?? 0) * 1000 - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(89)
    expect(days).toBeLessThan(91)
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 667 } })
    test('leaves most of the page readable behind it', async ({ page, context }) => {
      await interceptThirdParties(context)
      await openPage(page, '/de/services/cards/')
      const box = await banner(page).boundingBox()
      expect(box?.height ?? 999).toBeLessThanOrEqual(667 * 0.4 + 1)
      // The end of the page (the footer's links) can be scrolled clear of the banner.
      const room = await page.evaluate(() => Number.parseFloat(document.body.style.paddingBottom))
      expect(room).toBeGreaterThanOrEqual(box?.height ?? 999)
      await page.mouse.wheel(0, 600)
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300)
    })

    test('keeps every choice reachable with text at twice its size', async ({ page, context }) => {
      await interceptThirdParties(context)
      await openPage(page, '/de/services/cards/')
      // The reader's own text size, set as a browser's setting would (an inline stylesheet
      // is what the site's policy rightly blocks).
      await page.evaluate(() =>
        document.documentElement.style.setProperty('font-size', '200%', 'important'),
      )
      for (const name of ['Alle akzeptieren', 'Alle ablehnen', 'Einstellungen']) {
        const button = banner(page).getByRole('button', { name })
        await button.scrollIntoViewIfNeeded()
        const box = await button.boundingBox()
        expect(box, name).not.toBeNull()
        expect((box?.y ?? 999) + (box?.height ?? 0), name).toBeLessThanOrEqual(667)
      }
    })
  })
})
