/**
 * The consent rules (docs/consent.md), as pure functions over the visitor's cookies:
 * which categories and trackers are on, what opting out writes, which pages are never tracked.
 * The browser runtime applies them; every rule has its unit test.
 */

export const CATEGORIES = ['analytics', 'conversion'] as const
export type Category = (typeof CATEGORIES)[number]

export const TRACKERS = ['googleanalytics', 'adwords', 'twitter', 'linkedin'] as const
export type Tracker = (typeof TRACKERS)[number]

/** The category whose consent a tracker needs. */
export const TRACKER_CATEGORY: Record<Tracker, Category> = {
  googleanalytics: 'analytics',
  adwords: 'conversion',
  twitter: 'conversion',
  linkedin: 'conversion',
}

export const consentCookie = (name: Category | Tracker) => `cookieconsent_${name}`
/** The banner revision a choice was made under; another revision asks again. */
export const REVISION_COOKIE = 'cookieconsent_revision'
/** A random id naming this browser's consent records on the server (no IP is stored). */
export const CONSENT_ID_COOKIE = 'cookieconsent_id'
/** Google Analytics stops collecting for the property while this cookie is `true`. */
export const gaDisableCookie = (measurementId: string) => `ga-disable-${measurementId}`
export const CLICK_ID_PARAMETERS = ['gclid', 'gclsrc'] as const

export const ALLOW = 'allow'
export const DENY = 'deny'

/** Opt-outs are kept until 2099 (docs/consent.md, "Cookies"). */
export const OPT_OUT_EXPIRES = new Date(Date.UTC(2099, 11, 31, 23, 59, 59))
/** A choice in the banner is kept a year, then asked again. */
export const CHOICE_MAX_AGE_DAYS = 365
/** The ad click identifiers are kept 90 days (docs/consent.md, "Trackers"). */
export const CLICK_ID_MAX_AGE_DAYS = 90

/** The opt-out alerts (docs/consent.md, "Opt-outs"); LinkedIn has none. */
export const OPT_OUT_ALERTS: Partial<Record<Tracker, string>> = {
  googleanalytics: 'Google Analytics deactivated',
  adwords: 'Google AdWords Conversion Tracking has been deactivated.',
  twitter:
    'Twitter Conversion Tracking has been deactivated. Please refresh the page for this to take effect.',
}

export type Cookies = Readonly<Record<string, string>>

/** A category is on only when its cookie says `allow`. */
export const categoryEnabled = (cookies: Cookies, category: Category) =>
  cookies[consentCookie(category)] === ALLOW

/** A tracker is on while no `deny` is stored for it. */
export const trackerEnabled = (cookies: Cookies, tracker: Tracker) =>
  cookies[consentCookie(tracker)] !== DENY

/** A category's or a tracker's name in the banner, and what it is for. */
export interface ConsentPurpose {
  label: string
  description: string
}

/**
 * The cookie banner's words (content/{language}/layout.yaml, under `consent`): the first layer
 * names purposes, providers and lifetimes; the settings have a switch per category and tracker.
 */
export interface ConsentTexts {
  title: string
  intro: string
  acceptAll: string
  rejectAll: string
  settings: string
  settingsTitle: string
  settingsIntro: string
  save: string
  close: string
  necessary: ConsentPurpose
  categories: Record<Category, ConsentPurpose>
  trackers: Record<Tracker, ConsentPurpose>
  alwaysOn: string
  /** Shown beside a privacy-policy opt-out link once it took effect; `{service}` is its name. */
  optedOut: string
  privacyLink: { label: string; href: string }
}

/** The identifiers from the build's environment; a tracker without one stays off. */
export interface TrackingIds {
  gtmId?: string
  gaMeasurementId?: string
  adsIds: string[]
  linkedinPartnerId?: string
  twitterPixelId?: string
}

export const trackerConfigured = (ids: TrackingIds, tracker: Tracker) =>
  tracker === 'googleanalytics'
    ? Boolean(ids.gaMeasurementId)
    : tracker === 'adwords'
      ? ids.adsIds.length > 0
      : tracker === 'twitter'
        ? Boolean(ids.twitterPixelId)
        : Boolean(ids.linkedinPartnerId)

/** A tracker loads only when its category allows it, it is enabled and it has an ID. */
export const trackerAllowed = (cookies: Cookies, ids: TrackingIds, tracker: Tracker) =>
  categoryEnabled(cookies, TRACKER_CATEGORY[tracker]) &&
  trackerEnabled(cookies, tracker) &&
  trackerConfigured(ids, tracker)

/** True when the banner must ask: no choice yet, or one made under another revision. */
export const needsDecision = (cookies: Cookies, revision: string) =>
  cookies[REVISION_COOKIE] !== revision ||
  CATEGORIES.some((category) => {
    const value = cookies[consentCookie(category)]
    return value !== ALLOW && value !== DENY
  })

/**
 * The cookies as consent reads them under `revision`: a choice made under another revision
 * (or none) allows no category until the visitor answers again. Opt-outs stay.
 */
export function effectiveCookies(cookies: Cookies, revision: string): Cookies {
  if (!needsDecision(cookies, revision)) return cookies
  const effective: Record<string, string> = { ...cookies }
  for (const category of CATEGORIES) delete effective[consentCookie(category)]
  return effective
}

/** Google Consent Mode v2 signals for the cookies as they are. */
export function consentSignals(
  cookies: Cookies,
): Record<'ad_storage' | 'analytics_storage' | 'ad_user_data' | 'ad_personalization', string> {
  const state = (on: boolean) => (on ? 'granted' : 'denied')
  const analytics =
    categoryEnabled(cookies, 'analytics') && trackerEnabled(cookies, 'googleanalytics')
  const ads = categoryEnabled(cookies, 'conversion') && trackerEnabled(cookies, 'adwords')
  return {
    ad_storage: state(ads),
    analytics_storage: state(analytics),
    ad_user_data: state(ads),
    // Conversion tracking measures; it never personalises ads (the banner asks for no more).
    ad_personalization: state(false),
  }
}

/** Everything denied: what runs before any Google tag. */
export const DENIED_SIGNALS = consentSignals({})

/** Paths never tracked, even with consent (docs/consent.md, "Trackers"). */
const UNTRACKED =
  /(^|\/)(404|customer-information|imprint|informaciones-clientes|informations-clients|informazioni-clienti|privacy-policy|terms-of-use)(\/|$)/

export const isTrackedPath = (path: string) => !UNTRACKED.test(path)

/** One cookie to write: name, value and when it ends (undefined removes it). */
export interface CookieWrite {
  name: string
  value: string
  expires: Date | undefined
}

/** The `Set-Cookie`-style text for `document.cookie`: path /, SameSite=Lax, Secure on https. */
export function serializeCookie(write: CookieWrite, secure: boolean): string {
  const expires = write.expires ?? new Date(0)
  return `${write.name}=${encodeURIComponent(write.value)}; Path=/; Expires=${expires.toUTCString()}; SameSite=Lax${secure ? '; Secure' : ''}`
}

export function parseCookies(header: string): Record<string, string> {
  const cookies: Record<string, string> = {}
  for (const part of header.split(';')) {
    const index = part.indexOf('=')
    if (index < 0) continue
    const name = part.slice(0, index).trim()
    if (!name || name in cookies) continue
    try {
      cookies[name] = decodeURIComponent(part.slice(index + 1).trim())
    } catch {
      cookies[name] = part.slice(index + 1).trim()
    }
  }
  return cookies
}

const days = (now: Date, count: number) => new Date(now.getTime() + count * 86_400_000)

/** What opting out of a tracker writes: its `deny` until 2099, and for analytics GA's own flag. */
export function optOutWrites(tracker: Tracker, ids: TrackingIds): CookieWrite[] {
  const writes: CookieWrite[] = [
    { name: consentCookie(tracker), value: DENY, expires: OPT_OUT_EXPIRES },
  ]
  if (tracker === 'googleanalytics' && ids.gaMeasurementId) {
    writes.push({
      name: gaDisableCookie(ids.gaMeasurementId),
      value: 'true',
      expires: OPT_OUT_EXPIRES,
    })
  }
  return writes
}

/** A choice made in the banner: categories allowed or not, trackers kept on or switched off. */
export interface Choice {
  categories: Record<Category, boolean>
  trackers: Record<Tracker, boolean>
}

/**
 * "Accept all" (`allowed`) or "Reject all": every category allowed or not; the trackers keep
 * what `current` holds, so an earlier opt-out of a single tracker survives both.
 */
export const everyCategory = (allowed: boolean, current: Choice): Choice => ({
  categories: { analytics: allowed, conversion: allowed },
  trackers: { ...current.trackers },
})

/** The choice the cookies hold now (what the settings layer starts from). */
export const choiceOf = (cookies: Cookies): Choice => ({
  categories: {
    analytics: categoryEnabled(cookies, 'analytics'),
    conversion: categoryEnabled(cookies, 'conversion'),
  },
  trackers: {
    googleanalytics: trackerEnabled(cookies, 'googleanalytics'),
    adwords: trackerEnabled(cookies, 'adwords'),
    twitter: trackerEnabled(cookies, 'twitter'),
    linkedin: trackerEnabled(cookies, 'linkedin'),
  },
})

/**
 * What a choice writes: each category's `allow` or `deny` for a year, each switched-off
 * tracker's opt-out (until 2099), a switched-on tracker's opt-out removed, and the revision.
 */
export function choiceWrites(
  choice: Choice,
  revision: string,
  ids: TrackingIds,
  now: Date,
): CookieWrite[] {
  const writes: CookieWrite[] = CATEGORIES.map((category) => ({
    name: consentCookie(category),
    value: choice.categories[category] ? ALLOW : DENY,
    expires: days(now, CHOICE_MAX_AGE_DAYS),
  }))
  for (const tracker of TRACKERS) {
    if (!choice.trackers[tracker]) writes.push(...optOutWrites(tracker, ids))
    else {
      writes.push({ name: consentCookie(tracker), value: '', expires: undefined })
      if (tracker === 'googleanalytics' && ids.gaMeasurementId) {
        writes.push({ name: gaDisableCookie(ids.gaMeasurementId), value: '', expires: undefined })
      }
    }
  }
  writes.push({ name: REVISION_COOKIE, value: revision, expires: days(now, CHOICE_MAX_AGE_DAYS) })
  return writes
}

/** The ad click identifiers of an address's query, when present. */
export function clickIdsOf(
  search: string,
): Partial<Record<(typeof CLICK_ID_PARAMETERS)[number], string>> {
  const params = new URLSearchParams(search)
  const found: Partial<Record<(typeof CLICK_ID_PARAMETERS)[number], string>> = {}
  for (const name of CLICK_ID_PARAMETERS) {
    const value = params.get(name)
    if (value && /^[\w.-]{1,200}$/.test(value)) found[name] = value
  }
  return found
}

/** The click identifiers as cookies for 90 days: written only once conversion is allowed. */
export const clickIdWrites = (
  ids: Partial<Record<(typeof CLICK_ID_PARAMETERS)[number], string>>,
  now: Date,
): CookieWrite[] =>
  Object.entries(ids).map(([name, value]) => ({
    name,
    value: value ?? '',
    expires: days(now, CLICK_ID_MAX_AGE_DAYS),
  }))

/** First-party cookies each tracker sets (or we set for it), removed when it is switched off. */
export const TRACKER_COOKIES: Record<Tracker, RegExp> = {
  googleanalytics: /^(_ga|_ga_.+|_gid|_gat.*)$/,
  adwords: /^(_gcl_.+|gclid|gclsrc)$/,
  linkedin: /^(li_fat_id)$/,
  twitter: /^(_twclid|muc_ads|personalization_id)$/,
}
