/**
 * The Content-Security-Policy that `npm start` sends, enforced by Chromium: the site's own
 * pages, runtime and banner stay within it, the configured trackers' tags work under it once
 * allowed (their hosts intercepted and answered by stand-ins that reach the same hosts the
 * real tags reach), and script that finds its way into a page does not run.
 */
import { type BrowserContext, expect, test } from '@playwright/test'
import { isTrackedPath } from '../../../src/shared/consent'
import { BASE_URL } from '../support/env'
import { openPage, recordCspViolations } from '../support/helpers'
import { shard, templateSamples } from '../support/site'

/**
 * Stand-ins for the trackers' scripts that do what the real ones do on a page view: beacons,
 * pixels, frames, to the hosts of Google's, LinkedIn's and X's published lists.
 */
const TAG_STAND_INS: Record<string, string> = {
  'www.googletagmanager.com': `
    navigator.sendBeacon('https://region1.google-analytics.com/g/collect?v=2&en=page_view');
    fetch('https://www.google.com/ccm/collect?en=page_view', { mode: 'no-cors' }).catch(() => {});
    new Image().src = 'https://googleads.g.doubleclick.net/pagead/viewthroughconversion/1/';
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.src = 'https://td.doubleclick.net/td/rul/1';
    document.body.append(frame);
    const loader = document.createElement('script');
    loader.src = 'https://www.googleadservices.com/pagead/conversion_async.js';
    document.head.append(loader);
  `,
  'www.googleadservices.com': '',
  'snap.licdn.com': `
    new Image().src = 'https://px.ads.linkedin.com/collect/?pid=424242&fmt=gif';
    fetch('https://px.ads.linkedin.com/wa/', { method: 'POST', mode: 'no-cors' }).catch(() => {});
  `,
  'static.ads-twitter.com': `
    new Image().src = 'https://t.co/i/adsct?p_id=Twitter';
    new Image().src = 'https://analytics.twitter.com/i/adsct?p_id=Twitter';
  `,
}

/** Answers every request to another host locally (scripts with their stand-ins), recording it. */
async function interceptThirdParties(context: BrowserContext): Promise<string[]> {
  const hosts: string[] = []
  await context.route(
    (url) => url.origin !== BASE_URL,
    (route) => {
      const url = new URL(route.request().url())
      hosts.push(url.host)
      const script = TAG_STAND_INS[url.host]
      return script === undefined
        ? route.fulfill({ status: 204, body: '' })
        : route.fulfill({ status: 200, contentType: 'text/javascript', body: script })
    },
  )
  return hosts
}

const allowAll = async (context: BrowserContext) => {
  const expires = Math.floor(Date.now() / 1000) + 3600
  await context.addCookies(
    [
      ['cookieconsent_analytics', 'allow'],
      ['cookieconsent_conversion', 'allow'],
      ['cookieconsent_revision', '1'],
    ].map(([name = '', value = '']) => ({ name, value, url: BASE_URL, expires })),
  )
}

const SHARDS = 2

// One page of each template in each language: the tags and the policy are the same on every
// page of a template. Every page, whatever its content, is walked within the policy on a first
// visit by consent.spec.ts.
test.describe('with every tracker allowed, their tags work within the policy', () => {
  for (let index = 0; index < SHARDS; index++) {
    test(`on a tracked page of every template, in both languages (part ${index + 1} of ${SHARDS})`, async ({
      page,
      context,
    }) => {
      test.setTimeout(120_000)
      const hosts = await interceptThirdParties(context)
      await allowAll(context)
      const violations = await recordCspViolations(page)
      // Untracked pages (customer information, legal texts, 404) load no tag at all.
      const pages = shard(await templateSamples(), index, SHARDS).filter(({ path }) =>
        isTrackedPath(path),
      )
      expect(pages.some(({ language }) => language === 'de')).toBe(true)
      for (const { path } of pages) {
        await openPage(page, path)
        // The stand-ins ran: the last pixel and frame of the tags have been asked for.
        await expect
          .poll(
            () => hosts.includes('analytics.twitter.com') && hosts.includes('td.doubleclick.net'),
            {
              message: path,
              // The stand-ins run as the page loads: look again soon, not after the default backoff.
              intervals: [20],
            },
          )
          .toBe(true)
        expect(await violations(), path).toEqual([])
        hosts.length = 0
      }
    })
  }
})

test('a tracker whose identifier is not configured stays blocked by the policy', async ({
  page,
  context,
}) => {
  await interceptThirdParties(context)
  const violations = await recordCspViolations(page)
  await openPage(page, '/en/')
  await page.evaluate(() => {
    const script = document.createElement('script')
    script.src = 'https://connect.facebook.net/en_US/fbevents.js'
    document.head.append(script)
  })
  await expect
    .poll(violations)
    .toEqual([expect.stringMatching(/^script-src-elem blocked https:\/\/connect\.facebook\.net\//)])
})

test('an injected inline script does not run, and its violation is reported', async ({ page }) => {
  const violations = await recordCspViolations(page)
  const reports: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/csp-report')
      reports.push(request.postData() ?? '')
  })
  await openPage(page, '/de/')
  await page.evaluate(() => {
    // As markup that slipped past sanitising would: an inline script and an event handler.
    const holder = document.createElement('div')
    holder.innerHTML = '<img src="data:," onerror="window.__injected = 1">'
    document.body.append(holder)
    const script = document.createElement('script')
    script.textContent = 'window.__injected = 2'
    document.body.append(script)
  })
  await expect.poll(async () => (await violations()).length).toBe(2)
  expect((await violations()).map((line) => line.split(' (')[0]).sort()).toEqual([
    'script-src-attr blocked inline',
    'script-src-elem blocked inline',
  ])
  expect(await page.evaluate(() => (window as { __injected?: number }).__injected)).toBeUndefined()
  // The browser reports both to the site, naming the page and the directive.
  await expect.poll(() => reports.length).toBe(2)
  for (const report of reports) {
    expect(JSON.parse(report)).toMatchObject({
      'csp-report': { 'document-uri': `${BASE_URL}/de/`, 'blocked-uri': 'inline' },
    })
  }
})
