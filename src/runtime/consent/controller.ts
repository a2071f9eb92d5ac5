/**
 * The consent controller: applies the rules of `src/shared/consent.ts` to a browser it is
 * given (`ConsentEnvironment`), so tests drive it against a fake one. Nothing of another host
 * loads, and nothing non-essential is stored, before the visitor allows it.
 *
 * - Google Consent Mode v2: `default` with every signal denied is queued first, before any
 *   Google tag; every choice queues an `update`.
 * - A tracker's script loads once its category is allowed and it is neither opted out nor
 *   without an ID; a page view follows every `route-update` (two animation frames later, or
 *   32 ms where frames do not run), none on untracked paths.
 * - Withdrawing stops page views at once and removes the trackers' cookies it can reach;
 *   allowing starts them at once, with a page view of the current page.
 * - `gclid`/`gclsrc` are kept in memory until conversion tracking is allowed, then stored for
 *   90 days.
 */

import {
  type Choice,
  type Cookies,
  type CookieWrite,
  choiceOf,
  choiceWrites,
  clickIdsOf,
  clickIdWrites,
  consentSignals,
  DENIED_SIGNALS,
  effectiveCookies,
  gaDisableCookie,
  isTrackedPath,
  needsDecision,
  OPT_OUT_ALERTS,
  optOutWrites,
  parseCookies,
  serializeCookie,
  TRACKER_COOKIES,
  TRACKERS,
  type Tracker,
  type TrackingIds,
  trackerAllowed,
} from '../../shared/consent'

/** Where the trackers' scripts come from (their own hosts). */
export const SCRIPT_URLS = {
  gtag: (id: string) => `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`,
  gtm: (id: string) => `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(id)}`,
  linkedin: 'https://snap.licdn.com/li.lms-analytics/insight.min.js',
  twitter: 'https://static.ads-twitter.com/uwt.js',
}

/** What the controller needs of the browser; tests give it a fake. */
export interface ConsentEnvironment {
  readCookies(): string
  writeCookie(text: string): void
  /** The page's host name, for removing cookies set on a parent domain. */
  hostname: string
  secure: boolean
  search: string
  loadScript(src: string): void
  /** The page's global object, where tags find `dataLayer`, `gtag`, `twq`, LinkedIn's ids. */
  global: Record<string, unknown>
  /** Runs `work` after two animation frames, or 32 ms where frames do not run. */
  afterFrames(work: () => void): void
  alert(message: string): void
  now(): Date
  /** Makes every later navigation a full page load (scripts that cannot be stopped go). */
  requireFullLoads(): void
}

export interface ConsentController {
  /** True while the banner must ask (no choice yet, or another revision). */
  needsDecision(): boolean
  /** The cookies stored now. */
  current(): Cookies
  /** The choice in force now (nothing allowed under another revision): where settings start. */
  choice(): Choice
  /** Applies a choice from the banner: stores it, then starts or stops trackers at once. */
  decide(choice: Choice): void
  /** Opts out of one tracker (the privacy policy's links); an alert unless `silent`. */
  optOut(tracker: Tracker, options?: { silent?: boolean }): void
  /**
   * The page shown now: a page view to every allowed tracker after the frames' delay, unless
   * the address or the page (`pagePath`: `/en/404/` for an unknown address) is untracked.
   */
  pageView(location: { pathname: string; href: string }, title: string, pagePath?: string): void
  /** Calls `listener` after each change of the stored choice. */
  subscribe(listener: () => void): () => void
}

type Gtag = (...args: unknown[]) => void

/** The trackers that receive page views (LinkedIn's tag counts its own). */
const PAGE_VIEW_TRACKERS: readonly Tracker[] = ['googleanalytics', 'adwords', 'twitter']

export function createConsent(
  ids: TrackingIds,
  revision: string,
  env: ConsentEnvironment,
): ConsentController {
  const listeners = new Set<() => void>()
  const loaded = new Set<string>()
  /** Click identifiers of the landing address: memory only until conversion is allowed. */
  const pendingClickIds = clickIdsOf(env.search)
  const stored = () => parseCookies(env.readCookies())
  /** The cookies as consent reads them: a choice under another revision allows nothing. */
  const cookies = () => effectiveCookies(stored(), revision)
  /** True once a tracked page has been shown: no script loads on an untracked page. */
  let trackedPageShown = false

  env.global.dataLayer ??= []
  const dataLayer = env.global.dataLayer as unknown[]
  const gtag: Gtag =
    (env.global.gtag as Gtag | undefined) ??
    // gtag.js reads the arguments object itself, not an array: push it as it is.
    function gtag() {
      // biome-ignore lint/complexity/noArguments: the tag expects the arguments object.
      dataLayer.push(arguments)
    }
  env.global.gtag = gtag
  gtag('consent', 'default', { ...DENIED_SIGNALS, wait_for_update: 500 })
  // Page views carry no full address of the visitor (Ads and analytics alike).
  gtag('set', { anonymize_ip: true })

  const write = (writes: CookieWrite[]) => {
    for (const entry of writes) env.writeCookie(serializeCookie(entry, env.secure))
  }

  /** Removes a tracker's cookies on this host and every parent domain. */
  const removeTrackerCookies = (tracker: Tracker) => {
    const parts = env.hostname.split('.')
    const domains = [
      undefined,
      ...parts.slice(0, -1).map((_, index) => parts.slice(index).join('.')),
    ]
    for (const name of Object.keys(stored())) {
      if (!TRACKER_COOKIES[tracker].test(name)) continue
      for (const domain of domains) {
        env.writeCookie(
          `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT${domain ? `; Domain=${domain}` : ''}`,
        )
      }
    }
  }

  /** gtag.js reads its own flag on the window: set, analytics stops collecting at once. */
  const setAnalyticsDisabled = (disabled: boolean) => {
    if (ids.gaMeasurementId) env.global[gaDisableCookie(ids.gaMeasurementId)] = disabled
  }

  const load = (key: string, src: string, before?: () => void) => {
    if (loaded.has(key)) return
    loaded.add(key)
    before?.()
    env.loadScript(src)
  }

  /**
   * Stops a loaded tracker that lost its consent: Google's tags through Consent Mode and their
   * own flag; LinkedIn's and X's stubs become silent, and since their scripts (and a tag
   * manager's) cannot be unloaded, every later navigation loads its page whole, without them.
   */
  const stopLoaded = (tracker: Tracker) => {
    if (tracker === 'linkedin' && loaded.has('linkedin')) {
      env.global.lintrk = () => {}
      env.global._linkedin_data_partner_ids = []
      env.requireFullLoads()
    }
    if (tracker === 'twitter' && loaded.has('twitter')) {
      env.global.twq = () => {}
      env.requireFullLoads()
    }
    if (tracker === 'googleanalytics' && loaded.has('gtm')) env.requireFullLoads()
  }

  /**
   * Starts what the stored choice allows; after a decision (`decided`) also stops what it does
   * not allow and removes those trackers' cookies (again: removing is harmless when none are).
   */
  const apply = (decided: boolean) => {
    const now = cookies()
    const allowed = (tracker: Tracker) => trackerAllowed(now, ids, tracker)
    gtag('consent', 'update', consentSignals(now))
    setAnalyticsDisabled(!allowed('googleanalytics'))
    if (decided) {
      for (const tracker of TRACKERS) {
        if (allowed(tracker)) continue
        removeTrackerCookies(tracker)
        stopLoaded(tracker)
      }
    }
    if (allowed('adwords') && Object.keys(pendingClickIds).length > 0) {
      write(clickIdWrites(pendingClickIds, env.now()))
    }
    if (!trackedPageShown) return
    const ga = allowed('googleanalytics')
    const ads = allowed('adwords')
    if (ga || ads) {
      const first = (ga ? ids.gaMeasurementId : ids.adsIds[0]) ?? ''
      load('gtag', SCRIPT_URLS.gtag(first), () => gtag('js', env.now()))
      if (ga && !loaded.has(`config:${ids.gaMeasurementId}`)) {
        loaded.add(`config:${ids.gaMeasurementId}`)
        gtag('config', ids.gaMeasurementId, { anonymize_ip: true, send_page_view: false })
      }
      if (ads) {
        for (const id of ids.adsIds) {
          if (loaded.has(`config:${id}`)) continue
          loaded.add(`config:${id}`)
          gtag('config', id, { send_page_view: false })
        }
      }
    }
    // The container belongs to analytics (the privacy policy names it there).
    if (ga && ids.gtmId) {
      load('gtm', SCRIPT_URLS.gtm(ids.gtmId), () =>
        dataLayer.push({ 'gtm.start': env.now().getTime(), event: 'gtm.js' }),
      )
    }
    if (allowed('linkedin') && ids.linkedinPartnerId) {
      load('linkedin', SCRIPT_URLS.linkedin, () => {
        env.global._linkedin_partner_id = ids.linkedinPartnerId
        env.global._linkedin_data_partner_ids = [ids.linkedinPartnerId]
      })
    }
    if (allowed('twitter') && ids.twitterPixelId) {
      load('twitter', SCRIPT_URLS.twitter, () => {
        // The pixel's own stub: calls queue until uwt.js arrives, then go through `exe`.
        if (!env.global.twq) {
          const twq = Object.assign(
            function twq(...args: unknown[]) {
              const self = twq as unknown as { exe?: (...a: unknown[]) => void; queue: unknown[] }
              if (self.exe) self.exe(...args)
              else self.queue.push(args)
            },
            { version: '1.1', queue: [] as unknown[] },
          )
          env.global.twq = twq
        }
        ;(env.global.twq as (...args: unknown[]) => void)('init', ids.twitterPixelId)
      })
    }
  }

  const changed = () => {
    for (const listener of listeners) listener()
  }

  /** A page view of a tracked page to `targets` (each still allowed when it is sent). */
  const sendPageView = (
    location: { pathname: string; href: string },
    title: string,
    targets: readonly Tracker[],
  ) => {
    const now = cookies()
    const to = (tracker: Tracker) => targets.includes(tracker) && trackerAllowed(now, ids, tracker)
    if (to('googleanalytics')) {
      gtag('event', 'page_view', {
        send_to: ids.gaMeasurementId,
        page_location: location.href,
        page_path: location.pathname,
        page_title: title,
      })
    }
    if (to('adwords')) gtag('event', 'page_view', { send_to: ids.adsIds })
    if (to('twitter')) {
      ;(env.global.twq as ((...args: unknown[]) => void) | undefined)?.('track', 'PageView')
    }
  }

  let lastPage:
    | { location: { pathname: string; href: string }; title: string; tracked: boolean }
    | undefined

  setAnalyticsDisabled(true)
  apply(false)

  return {
    needsDecision: () => needsDecision(stored(), revision),
    current: stored,
    choice: () => choiceOf(cookies()),
    decide(choice) {
      const before = cookies()
      write(choiceWrites(choice, revision, ids, env.now()))
      apply(true)
      // Allowing starts at once: the page being read counts as viewed, by the newly allowed.
      const page = lastPage
      const added = PAGE_VIEW_TRACKERS.filter(
        (tracker) =>
          !trackerAllowed(before, ids, tracker) && trackerAllowed(cookies(), ids, tracker),
      )
      if (page?.tracked && added.length > 0) {
        env.afterFrames(() => sendPageView(page.location, page.title, added))
      }
      changed()
    },
    optOut(tracker, options = {}) {
      write(optOutWrites(tracker, ids))
      apply(true)
      const message = OPT_OUT_ALERTS[tracker]
      if (message && !options.silent) env.alert(message)
      changed()
    },
    pageView(location, title, pagePath = location.pathname) {
      const tracked = isTrackedPath(location.pathname) && isTrackedPath(pagePath)
      lastPage = { location, title, tracked }
      if (!tracked) return
      if (!trackedPageShown) {
        trackedPageShown = true
        apply(false)
      }
      env.afterFrames(() => sendPageView(location, title, PAGE_VIEW_TRACKERS))
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
