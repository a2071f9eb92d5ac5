/**
 * Consent in the browser, against the built site (built with tracker IDs, see E2E_TRACKING).
 * Every request to another host is intercepted: answered locally with an empty script, and
 * recorded, so a test sees exactly what would have left the browser.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { BASE_URL } from './support/env'
import { openPage, waitForRouteUpdates } from './support/helpers'
import { builtPages, shard } from './support/site'

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

const SHARDS = 4

test.describe('before consent, nothing goes to another host', () => {
  for (let index = 0; index < SHARDS; index++) {
    test(`on every built page (part ${index + 1} of ${SHARDS})`, async ({ page, context }) => {
      test.setTimeout(180_000)
      const requests = await interceptThirdParties(context)
      const consentLoaded: string[] = []
      page.on('response', (response) => {
        if (/\/assets\/consent-[\w-]+\.js$/.test(response.url())) consentLoaded.push(response.url())
      })
      for (const { path } of shard(await builtPages(), index, SHARDS)) {
        await openPage(page, path)
        // The consent code has run (it loads beside the page) and decided nothing may load.
        await page.waitForFunction(() => Array.isArray(window.dataLayer))
      }
      expect(consentLoaded.length).toBeGreaterThan(0)
      expect(requests).toEqual([])
    })
  }
})

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
  expect(calls[1]).toEqual([
    'consent',
    'update',
    {
      ad_storage: 'granted',
      analytics_storage: 'granted',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
    },
  ])
  await expect.poll(() => pageViews(page)).toEqual(['/en/'])
})

test('page views follow client navigations after two frames, none on untracked pages', async ({
  page,
  context,
}) => {
  await interceptThirdParties(context)
  await allowAll(context)
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
})
