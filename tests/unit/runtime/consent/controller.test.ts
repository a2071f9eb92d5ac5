/**
 * The consent controller against a fake browser: a cookie jar that honours expiry, a script
 * loader that records what would be fetched, and the global object the tags read.
 */
import { describe, expect, it } from 'vitest'
import { type ConsentEnvironment, createConsent } from '../../../../src/runtime/consent/controller'
import { choiceOf, everyCategory, type TrackingIds } from '../../../../src/shared/consent'
import { acceptAll, rejectAll } from '../../../fixtures/consent'

const IDS: TrackingIds = {
  gtmId: 'GTM-TEST',
  gaMeasurementId: 'G-TEST123',
  adsIds: ['AW-111', 'AW-222'],
  linkedinPartnerId: '4242',
  twitterPixelId: 'tw-pixel',
}

function fakeBrowser(search = '') {
  const jar = new Map<string, string>()
  const written: string[] = []
  const scripts: string[] = []
  const alerts: string[] = []
  const frames: (() => void)[] = []
  const fullLoads: string[] = []
  const global: Record<string, unknown> = {}
  const now = new Date('2026-11-21T12:00:00Z')
  const env: ConsentEnvironment = {
    readCookies: () => [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
    writeCookie(text) {
      written.push(text)
      const [pair = '', ...attributes] = text.split(';').map((part) => part.trim())
      const name = pair.slice(0, pair.indexOf('='))
      const value = pair.slice(pair.indexOf('=') + 1)
      const expires = attributes.find((a) => a.startsWith('Expires='))?.slice(8)
      if (expires && new Date(expires) <= now) jar.delete(name)
      else jar.set(name, value)
    },
    hostname: 'www.bank.example',
    secure: true,
    search,
    loadScript: (src) => scripts.push(src),
    global,
    afterFrames: (work) => frames.push(work),
    alert: (message) => alerts.push(message),
    now: () => now,
    requireFullLoads: () => fullLoads.push('required'),
  }
  /** gtag calls (arguments objects) as arrays; plain pushes (GTM's start) as they are. */
  const dataLayer = () =>
    (global.dataLayer as unknown[]).map((entry): unknown[] =>
      typeof (entry as IArguments).length === 'number' ? [...(entry as IArguments)] : [entry],
    )
  const runFrames = () => {
    for (const work of frames.splice(0)) work()
  }
  return { env, jar, written, scripts, alerts, global, dataLayer, runFrames, fullLoads }
}

const page = { pathname: '/en/services/', href: 'https://www.bank.example/en/services/' }

describe('consent in the browser', () => {
  it('queues Consent Mode default (all denied) first and loads nothing without a choice', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    expect(browser.dataLayer()[0]).toEqual([
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
    expect(browser.scripts).toEqual([])
    expect(consent.needsDecision()).toBe(true)
    consent.pageView(page, 'Services')
    browser.runFrames()
    expect(browser.dataLayer().filter((entry) => entry[0] === 'event')).toEqual([])
    expect(browser.jar.size).toBe(0)
  })

  it('accept all: exactly the configured trackers load, update follows default, the current page is counted', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.pageView(page, 'Services')
    browser.runFrames()
    consent.decide(acceptAll())
    expect(browser.scripts).toEqual([
      'https://www.googletagmanager.com/gtag/js?id=G-TEST123',
      'https://www.googletagmanager.com/gtm.js?id=GTM-TEST',
      'https://snap.licdn.com/li.lms-analytics/insight.min.js',
      'https://static.ads-twitter.com/uwt.js',
    ])
    const layer = browser.dataLayer()
    const consentCalls = layer.filter((entry) => entry[0] === 'consent').map((entry) => entry[1])
    expect(consentCalls[0]).toBe('default')
    expect(new Set(consentCalls.slice(1))).toEqual(new Set(['update']))
    expect(
      layer.find(
        (entry) =>
          entry[0] === 'consent' &&
          entry[1] === 'update' &&
          (entry[2] as Record<string, string>).analytics_storage === 'granted',
      ),
    ).toBeTruthy()
    expect(layer).toContainEqual([
      'config',
      'G-TEST123',
      { anonymize_ip: true, send_page_view: false },
    ])
    expect(browser.global._linkedin_partner_id).toBe('4242')
    expect(consent.needsDecision()).toBe(false)
    browser.runFrames()
    expect(browser.dataLayer().filter((entry) => entry[0] === 'event')).toEqual([
      [
        'event',
        'page_view',
        {
          send_to: 'G-TEST123',
          page_location: page.href,
          page_path: page.pathname,
          page_title: 'Services',
        },
      ],
      ['event', 'page_view', { send_to: ['AW-111', 'AW-222'] }],
    ])
    const twq = browser.global.twq as unknown as { queue: unknown[][] }
    expect(twq.queue).toEqual([
      ['init', 'tw-pixel'],
      ['track', 'PageView'],
    ])
  })

  it('sends page views after the frames, and none on untracked pages', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.decide(acceptAll())
    consent.pageView(
      { pathname: '/de/imprint/', href: 'https://www.bank.example/de/imprint/' },
      'Impressum',
    )
    consent.pageView(page, 'Services')
    const events = () => browser.dataLayer().filter((entry) => entry[0] === 'event')
    expect(events()).toEqual([])
    browser.runFrames()
    expect(events().map((entry) => (entry[2] as { page_path?: string }).page_path)).toEqual([
      '/en/services/',
      undefined,
    ])
  })

  it('reject all loads nothing and stores no opt-out', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.decide(rejectAll())
    expect(browser.scripts).toEqual([])
    expect(Object.fromEntries(browser.jar)).toEqual({
      cookieconsent_analytics: 'deny',
      cookieconsent_conversion: 'deny',
      cookieconsent_revision: '1',
    })
    expect(
      browser.written.every(
        (text) =>
          text.includes('SameSite=Lax') && text.includes('Secure') && text.includes('Path=/'),
      ),
    ).toBe(true)
  })

  it('withdrawal stops page views at once and removes the trackers’ cookies it can reach', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.decide(acceptAll())
    browser.jar.set('_ga', 'GA1.1.123')
    browser.jar.set('_ga_TEST123', 'GS1')
    browser.jar.set('_gcl_au', '1.1.1')
    browser.jar.set('site-choice', 'keep')
    consent.decide(rejectAll())
    expect([...browser.jar.keys()].sort()).toEqual([
      'cookieconsent_analytics',
      'cookieconsent_conversion',
      'cookieconsent_revision',
      'site-choice',
    ])
    // Also on the parent domain, where Google sets them.
    expect(browser.written).toContain(
      '_ga=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Domain=bank.example',
    )
    const last = browser
      .dataLayer()
      .filter((entry) => entry[0] === 'consent')
      .at(-1)
    expect(last?.[2]).toMatchObject({ analytics_storage: 'denied', ad_storage: 'denied' })
    consent.pageView(page, 'Services')
    browser.runFrames()
    expect(
      browser
        .dataLayer()
        .filter(
          (entry) =>
            entry[0] === 'event' && (entry[2] as { page_title?: string }).page_title === 'Services',
        ),
    ).toEqual([])
  })

  it('asks again when the banner revision changes', () => {
    const browser = fakeBrowser()
    createConsent(IDS, '1', browser.env).decide(acceptAll())
    expect(createConsent(IDS, '2', browser.env).needsDecision()).toBe(true)
    expect(createConsent(IDS, '1', browser.env).needsDecision()).toBe(false)
  })

  it('opting out alerts with the specification’s words, unless silent', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.optOut('googleanalytics')
    consent.optOut('adwords')
    consent.optOut('twitter')
    consent.optOut('linkedin')
    consent.optOut('twitter', { silent: true })
    expect(browser.alerts).toEqual([
      'Google Analytics deactivated',
      'Google AdWords Conversion Tracking has been deactivated.',
      'Twitter Conversion Tracking has been deactivated. Please refresh the page for this to take effect.',
    ])
    expect(browser.jar.get('ga-disable-G-TEST123')).toBe('true')
    expect(
      browser.written.find((text) => text.startsWith('cookieconsent_linkedin=deny')),
    ).toContain('Expires=Thu, 31 Dec 2099 23:59:59 GMT')
    // An opted-out tracker stays off after accepting all categories.
    const after = fakeBrowser()
    for (const [name, value] of browser.jar) after.jar.set(name, value)
    const again = createConsent(IDS, '1', after.env)
    again.decide(everyCategory(true, choiceOf(again.current())))
    expect(after.jar.get('cookieconsent_linkedin')).toBe('deny')
    expect(after.scripts).not.toContain('https://snap.licdn.com/li.lms-analytics/insight.min.js')
  })

  it('keeps gclid in memory until conversion tracking is allowed, then stores it for 90 days', () => {
    const browser = fakeBrowser('?gclid=Cj0-abc&gclsrc=aw.ds')
    const consent = createConsent(IDS, '1', browser.env)
    consent.decide({ ...rejectAll(), categories: { analytics: true, conversion: false } })
    expect(browser.jar.has('gclid')).toBe(false)
    consent.decide(acceptAll())
    expect(browser.jar.get('gclid')).toBe('Cj0-abc')
    expect(browser.jar.get('gclsrc')).toBe('aw.ds')
    expect(browser.written.find((text) => text.startsWith('gclid='))).toContain(
      'Expires=Fri, 19 Feb 2027 12:00:00 GMT',
    )
  })

  it('leaves a tracker without an ID off', () => {
    const browser = fakeBrowser()
    createConsent({ adsIds: [] }, '1', browser.env).decide(acceptAll())
    expect(browser.scripts).toEqual([])
  })
})

describe('consent in the browser, after review', () => {
  it('loads nothing under another revision until the visitor answers again', () => {
    const browser = fakeBrowser()
    createConsent(IDS, '1', browser.env).decide(acceptAll())
    const again = fakeBrowser()
    for (const [name, value] of browser.jar) again.jar.set(name, value)
    const consent = createConsent(IDS, '2', again.env)
    consent.pageView(page, 'Services')
    again.runFrames()
    expect(again.scripts).toEqual([])
    expect(again.dataLayer().filter((entry) => entry[0] === 'event')).toEqual([])
    consent.decide(acceptAll())
    expect(again.scripts.length).toBe(4)
  })

  it('counts the current page once per tracker when consent widens', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.pageView(page, 'Services')
    browser.runFrames()
    consent.decide({ ...rejectAll(), categories: { analytics: true, conversion: false } })
    browser.runFrames()
    consent.decide(acceptAll())
    browser.runFrames()
    const views = browser.dataLayer().filter((entry) => entry[0] === 'event')
    expect(views.map((entry) => (entry[2] as { send_to: unknown }).send_to)).toEqual([
      'G-TEST123',
      ['AW-111', 'AW-222'],
    ])
  })

  it('loads no script on an untracked page, nor on the 404 page at an unknown address', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.decide(acceptAll())
    consent.pageView({ pathname: '/de/imprint/', href: 'https://x/de/imprint/' }, 'Impressum')
    consent.pageView(
      { pathname: '/en/no-such-page/', href: 'https://x/en/no-such-page/' },
      '404',
      '/en/404/',
    )
    browser.runFrames()
    expect(browser.scripts).toEqual([])
    expect(browser.dataLayer().filter((entry) => entry[0] === 'event')).toEqual([])
    consent.pageView(page, 'Services')
    expect(browser.scripts.length).toBe(4)
  })

  it('an opt-out of one tracker removes its cookies and stops analytics through gtag.js’s own flag', () => {
    const browser = fakeBrowser('?gclid=abc')
    const consent = createConsent(IDS, '1', browser.env)
    expect(browser.global['ga-disable-G-TEST123']).toBe(true)
    consent.decide(acceptAll())
    expect(browser.global['ga-disable-G-TEST123']).toBe(false)
    browser.jar.set('_ga', 'GA1')
    browser.jar.set('li_fat_id', 'x')
    consent.optOut('googleanalytics', { silent: true })
    expect(browser.global['ga-disable-G-TEST123']).toBe(true)
    expect(browser.jar.has('_ga')).toBe(false)
    expect(browser.jar.has('li_fat_id')).toBe(true)
    expect(browser.jar.get('gclid')).toBe('abc')
    consent.optOut('adwords', { silent: true })
    expect(browser.jar.has('gclid')).toBe(false)
  })

  it('never stores gclid while the Ads tracker is opted out', () => {
    const browser = fakeBrowser('?gclid=abc')
    const consent = createConsent(IDS, '1', browser.env)
    consent.optOut('adwords', { silent: true })
    consent.decide(everyCategory(true, choiceOf(consent.current())))
    expect(browser.jar.get('cookieconsent_adwords')).toBe('deny')
    expect(browser.jar.has('gclid')).toBe(false)
  })

  it('withdrawal silences LinkedIn and X at once and makes later navigations full page loads', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.pageView(page, 'Services')
    consent.decide(acceptAll())
    expect(browser.fullLoads).toEqual([])
    const twqBefore = browser.global.twq
    consent.decide(rejectAll())
    expect(browser.global.twq).not.toBe(twqBefore)
    expect(() => (browser.global.lintrk as () => void)()).not.toThrow()
    expect(browser.global._linkedin_data_partner_ids).toEqual([])
    expect(browser.fullLoads.length).toBeGreaterThan(0)
  })

  it('a withdrawal that stops nothing loaded keeps client navigation', () => {
    const browser = fakeBrowser()
    const consent = createConsent(IDS, '1', browser.env)
    consent.decide(acceptAll())
    consent.decide(rejectAll())
    expect(browser.fullLoads).toEqual([])
  })

  it('under a new revision, settings start with nothing allowed, and Reject all removes old cookies', () => {
    const browser = fakeBrowser()
    for (const [name, value] of [
      ['cookieconsent_analytics', 'allow'],
      ['cookieconsent_conversion', 'allow'],
      ['cookieconsent_revision', '1'],
      ['cookieconsent_twitter', 'deny'],
      ['_ga', 'GA1.1.1'],
      ['_gcl_au', '1.1.1'],
    ])
      browser.jar.set(name as string, value as string)
    const consent = createConsent(IDS, '2', browser.env)
    expect(consent.needsDecision()).toBe(true)
    expect(consent.choice().categories).toEqual({ analytics: false, conversion: false })
    // A single opt-out is no consent: it stays, under any revision.
    expect(consent.choice().trackers.twitter).toBe(false)
    consent.decide(everyCategory(false, consent.choice()))
    expect(browser.jar.has('_ga')).toBe(false)
    expect(browser.jar.has('_gcl_au')).toBe(false)
    expect(browser.jar.get('cookieconsent_twitter')).toBe('deny')
  })
})
