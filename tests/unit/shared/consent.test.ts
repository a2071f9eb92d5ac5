import { describe, expect, it } from 'vitest'
import {
  categoryEnabled,
  choiceOf,
  choiceWrites,
  clickIdsOf,
  clickIdWrites,
  consentSignals,
  DENIED_SIGNALS,
  everyCategory,
  isTrackedPath,
  needsDecision,
  OPT_OUT_ALERTS,
  optOutWrites,
  parseCookies,
  serializeCookie,
  TRACKER_COOKIES,
  type TrackingIds,
  trackerAllowed,
  trackerEnabled,
} from '../../../src/shared/consent'
import { acceptAll, rejectAll } from '../../fixtures/consent'

const IDS: TrackingIds = {
  gtmId: 'GTM-TEST',
  gaMeasurementId: 'G-TEST123',
  adsIds: ['AW-1', 'AW-2'],
  linkedinPartnerId: '12345',
  twitterPixelId: 'tw-1',
}
const NOW = new Date('2026-11-21T12:00:00Z')

describe('consent categories', () => {
  it.each([
    [{ cookieconsent_analytics: 'allow' }, true],
    [{ cookieconsent_analytics: 'deny' }, false],
    [{ cookieconsent_analytics: 'yes' }, false],
    [{ cookieconsent_analytics: '' }, false],
    [{}, false],
  ])('analytics with %j is %s: only "allow" enables a category', (cookies, enabled) => {
    expect(categoryEnabled(cookies, 'analytics')).toBe(enabled)
  })

  it('conversion has its own cookie', () => {
    expect(categoryEnabled({ cookieconsent_analytics: 'allow' }, 'conversion')).toBe(false)
    expect(categoryEnabled({ cookieconsent_conversion: 'allow' }, 'conversion')).toBe(true)
  })
})

describe('trackers', () => {
  it.each([
    [{}, true],
    [{ cookieconsent_twitter: 'allow' }, true],
    [{ cookieconsent_twitter: 'anything' }, true],
    [{ cookieconsent_twitter: 'deny' }, false],
  ])('twitter with %j is enabled: %s (on while no deny is stored)', (cookies, enabled) => {
    expect(trackerEnabled(cookies, 'twitter')).toBe(enabled)
  })

  it('loads only when its category allows it, it is enabled and it has an ID', () => {
    const allowed = { cookieconsent_analytics: 'allow', cookieconsent_conversion: 'allow' }
    expect(trackerAllowed(allowed, IDS, 'googleanalytics')).toBe(true)
    expect(trackerAllowed({ cookieconsent_conversion: 'allow' }, IDS, 'googleanalytics')).toBe(
      false,
    )
    expect(
      trackerAllowed({ ...allowed, cookieconsent_googleanalytics: 'deny' }, IDS, 'googleanalytics'),
    ).toBe(false)
    expect(trackerAllowed(allowed, { ...IDS, gaMeasurementId: undefined }, 'googleanalytics')).toBe(
      false,
    )
    expect(trackerAllowed(allowed, { ...IDS, adsIds: [] }, 'adwords')).toBe(false)
    expect(trackerAllowed({ cookieconsent_analytics: 'allow' }, IDS, 'linkedin')).toBe(false)
    expect(trackerAllowed(allowed, IDS, 'linkedin')).toBe(true)
  })
})

describe('asking again', () => {
  const decided = {
    cookieconsent_analytics: 'deny',
    cookieconsent_conversion: 'allow',
    cookieconsent_revision: '2',
  }
  it('asks when no choice is stored, when a category is missing, or under another revision', () => {
    expect(needsDecision({}, '2')).toBe(true)
    expect(needsDecision({ ...decided, cookieconsent_conversion: '' }, '2')).toBe(true)
    expect(needsDecision(decided, '3')).toBe(true)
    expect(needsDecision(decided, '2')).toBe(false)
  })
})

describe('opting out', () => {
  it('stores deny until 2099; for analytics also the property’s opt-out flag', () => {
    expect(optOutWrites('googleanalytics', IDS)).toEqual([
      {
        name: 'cookieconsent_googleanalytics',
        value: 'deny',
        expires: new Date('2099-12-31T23:59:59Z'),
      },
      { name: 'ga-disable-G-TEST123', value: 'true', expires: new Date('2099-12-31T23:59:59Z') },
    ])
    expect(optOutWrites('twitter', IDS)).toEqual([
      { name: 'cookieconsent_twitter', value: 'deny', expires: new Date('2099-12-31T23:59:59Z') },
    ])
  })

  it('has the three alerts of the specification, word for word', () => {
    expect(OPT_OUT_ALERTS).toEqual({
      googleanalytics: 'Google Analytics deactivated',
      adwords: 'Google AdWords Conversion Tracking has been deactivated.',
      twitter:
        'Twitter Conversion Tracking has been deactivated. Please refresh the page for this to take effect.',
    })
  })
})

describe('cookies', () => {
  it('are written for the whole site, SameSite=Lax, Secure on https only', () => {
    const write = {
      name: 'cookieconsent_analytics',
      value: 'allow',
      expires: new Date('2027-11-21T12:00:00Z'),
    }
    expect(serializeCookie(write, true)).toBe(
      'cookieconsent_analytics=allow; Path=/; Expires=Sun, 21 Nov 2027 12:00:00 GMT; SameSite=Lax; Secure',
    )
    expect(serializeCookie(write, false)).not.toContain('Secure')
    expect(serializeCookie({ ...write, expires: undefined }, false)).toContain(
      'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
    )
  })

  it('are read from document.cookie, the first of a name winning', () => {
    expect(parseCookies('a=1; b=x%20y; a=2; broken; c=%E0%A4%A')).toEqual({
      a: '1',
      b: 'x y',
      c: '%E0%A4%A',
    })
  })
})

describe('a choice', () => {
  it('accept all: both categories allowed for a year, no opt-out left, the revision stored', () => {
    const writes = choiceWrites(acceptAll(), '2', IDS, NOW)
    const byName = Object.fromEntries(writes.map((write) => [write.name, write]))
    expect(byName.cookieconsent_analytics).toEqual({
      name: 'cookieconsent_analytics',
      value: 'allow',
      expires: new Date('2027-11-21T12:00:00Z'),
    })
    expect(byName.cookieconsent_conversion?.value).toBe('allow')
    expect(byName.cookieconsent_revision?.value).toBe('2')
    for (const tracker of ['googleanalytics', 'adwords', 'twitter', 'linkedin']) {
      expect(byName[`cookieconsent_${tracker}`]?.expires, tracker).toBeUndefined()
    }
    expect(byName['ga-disable-G-TEST123']?.expires).toBeUndefined()
  })

  it('reject all: both categories denied, no tracker opted out', () => {
    const writes = choiceWrites(rejectAll(), '2', IDS, NOW)
    expect(writes.filter((write) => write.value === 'deny').map((write) => write.name)).toEqual([
      'cookieconsent_analytics',
      'cookieconsent_conversion',
    ])
  })

  it('accept all and reject all keep an earlier opt-out of a single tracker', () => {
    const stored = parseCookies('cookieconsent_linkedin=deny; cookieconsent_analytics=deny')
    for (const allowed of [true, false]) {
      const writes = choiceWrites(everyCategory(allowed, choiceOf(stored)), '2', IDS, NOW)
      expect(writes).toContainEqual({
        name: 'cookieconsent_linkedin',
        value: 'deny',
        expires: new Date('2099-12-31T23:59:59Z'),
      })
      expect(writes.find((write) => write.name === 'cookieconsent_adwords')?.value).toBe('')
    }
  })

  it('settings: a tracker switched off is opted out until 2099', () => {
    const choice = acceptAll()
    choice.trackers.linkedin = false
    const writes = choiceWrites(choice, '2', IDS, NOW)
    expect(writes).toContainEqual({
      name: 'cookieconsent_linkedin',
      value: 'deny',
      expires: new Date('2099-12-31T23:59:59Z'),
    })
    const cookies = Object.fromEntries(
      writes.filter((w) => w.expires).map((w) => [w.name, w.value]),
    )
    expect(choiceOf(cookies)).toEqual(choice)
  })
})

describe('Consent Mode v2', () => {
  it('denies every signal by default', () => {
    expect(DENIED_SIGNALS).toEqual({
      ad_storage: 'denied',
      analytics_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
    })
  })

  it('grants what the choice allows', () => {
    expect(consentSignals({ cookieconsent_analytics: 'allow' })).toEqual({
      ...DENIED_SIGNALS,
      analytics_storage: 'granted',
    })
    expect(consentSignals({ cookieconsent_conversion: 'allow' })).toEqual({
      analytics_storage: 'denied',
      ad_storage: 'granted',
      ad_user_data: 'granted',
      // Measurement only: ads are never personalised.
      ad_personalization: 'denied',
    })
    expect(
      consentSignals({ cookieconsent_analytics: 'allow', cookieconsent_googleanalytics: 'deny' }),
    ).toEqual(DENIED_SIGNALS)
  })
})

describe('pages never tracked', () => {
  it.each([
    ['/en/404/', false],
    ['/de/customer-information/germany/de-iban/german/', false],
    ['/en/imprint/', false],
    ['/en/informaciones-clientes/', false],
    ['/de/informations-clients/', false],
    ['/en/informazioni-clienti/', false],
    ['/de/privacy-policy/', false],
    ['/en/terms-of-use/', false],
    ['/en/', true],
    ['/en/services/cards/', true],
    ['/blog/privacy-policy-explained/', true],
    ['/en/imprints/', true],
  ])('%s is tracked: %s', (path, tracked) => {
    expect(isTrackedPath(path)).toBe(tracked)
  })
})

describe('ad click identifiers', () => {
  it('reads gclid and gclsrc from the query, ignoring anything that is no identifier', () => {
    expect(clickIdsOf('?gclid=Cj0KCQ-abc_1&gclsrc=aw.ds&utm_source=x')).toEqual({
      gclid: 'Cj0KCQ-abc_1',
      gclsrc: 'aw.ds',
    })
    expect(clickIdsOf('?gclid=%3Cscript%3E')).toEqual({})
    expect(clickIdsOf('')).toEqual({})
  })

  it('keeps them for 90 days', () => {
    expect(clickIdWrites({ gclid: 'abc' }, NOW)).toEqual([
      { name: 'gclid', value: 'abc', expires: new Date('2027-02-19T12:00:00Z') },
    ])
  })

  it('names the first-party tracker cookies withdrawal removes', () => {
    expect(
      ['_ga', '_ga_TEST123', '_gid', '_gat_UA'].every((name) =>
        TRACKER_COOKIES.googleanalytics.test(name),
      ),
    ).toBe(true)
    expect(['_gcl_au', 'gclid', 'gclsrc'].every((name) => TRACKER_COOKIES.adwords.test(name))).toBe(
      true,
    )
    expect(TRACKER_COOKIES.googleanalytics.test('cookieconsent_analytics')).toBe(false)
  })
})

describe('tracking identifiers from the environment', () => {
  it('reads every variable, Ads IDs as a list; a tracker without one stays off', async () => {
    const { readTrackingIds } = await import('../../../src/engine/config')
    expect(
      readTrackingIds({
        GTM_ID: 'GTM-ABC1234',
        GA_MEASUREMENT_ID: 'G-ABC123DEF4',
        ADS_IDS: 'AW-123456789, AW-987654321',
        LINKEDIN_PARTNER_ID: '123456',
        TWITTER_PIXEL_ID: 'o1abc',
      }),
    ).toEqual({
      gtmId: 'GTM-ABC1234',
      gaMeasurementId: 'G-ABC123DEF4',
      adsIds: ['AW-123456789', 'AW-987654321'],
      linkedinPartnerId: '123456',
      twitterPixelId: 'o1abc',
    })
    expect(readTrackingIds({})).toEqual({ adsIds: [] })
  })

  it.each([
    [
      'GTM_ID',
      'UA-1234',
      'GTM_ID: must be a tag manager container such as GTM-ABC1234; got "UA-1234"',
    ],
    ['GA_MEASUREMENT_ID', 'G-1,G-2', 'GA_MEASUREMENT_ID: must be'],
    ['ADS_IDS', 'AW-1', 'ADS_IDS: must be Ads site tags such as AW-123456789'],
    ['LINKEDIN_PARTNER_ID', '<script>', 'LINKEDIN_PARTNER_ID: must be a LinkedIn partner ID'],
  ])('refuses %s=%s with a clear error', async (name, value, message) => {
    const { readTrackingIds } = await import('../../../src/engine/config')
    expect(() => readTrackingIds({ [name]: value })).toThrow(message)
  })

  it('refuses a tag manager container without the analytics property it loads with', async () => {
    const { readTrackingIds } = await import('../../../src/engine/config')
    expect(() => readTrackingIds({ GTM_ID: 'GTM-ABC1234' })).toThrow(
      'GTM_ID: needs GA_MEASUREMENT_ID',
    )
  })
})
