/**
 * Consent on the real page: the controller (`controller.ts`) bound to the document,
 * the banner, the footer's "Cookie settings" link, the opt-out links, `window.cookieConsent`
 * and the record of each choice. This module is its own chunk, loaded after hydration.
 */

import type { ConsentTexts } from '../../shared/consent'
import {
  CONSENT_ID_COOKIE,
  choiceOf,
  serializeCookie,
  TRACKERS,
  type Tracker,
  type TrackingIds,
  trackerConfigured,
} from '../../shared/consent'
import { requireFullLoads } from '../../shared/navigation'
import { onRouteUpdate } from '../events'
import { type ConsentController, createConsent } from './controller'
import { startOptOutLinks } from './opt-out-links'

/** The controller on the real page. */
export function browserConsent(ids: TrackingIds, revision: string): ConsentController {
  return createConsent(ids, revision, {
    readCookies: () => document.cookie,
    writeCookie: (text) => {
      // biome-ignore lint/suspicious/noDocumentCookie: Cookie Store is missing in Firefox; the text comes from serializeCookie.
      document.cookie = text
    },
    hostname: location.hostname,
    secure: location.protocol === 'https:',
    search: location.search,
    loadScript(src) {
      const script = document.createElement('script')
      script.async = true
      script.src = src
      document.head.append(script)
    },
    global: window as unknown as Record<string, unknown>,
    afterFrames(work) {
      if (typeof requestAnimationFrame === 'function') {
        requestAnimationFrame(() => requestAnimationFrame(work))
      } else setTimeout(work, 32)
    },
    alert: (message) => window.alert(message),
    now: () => new Date(),
    requireFullLoads,
  })
}

/** `window.cookieConsent`: what other scripts may ask of consent. */
export interface CookieConsentApi {
  optOut(tracker: Tracker, options?: { silent?: boolean }): void
  openSettings(): void
}

/** What the banner needs of the page: its words and language as shown now. */
export interface ConsentUi {
  texts(): ConsentTexts | undefined
  language(): string
  /** The path of the page shown (`/en/404/` at an unknown address). */
  pagePath(): string
  /** Calls `listener` after the page or its language changed. */
  subscribe(listener: () => void): () => void
}

/** Stores a choice on the server as proof (no address, a random id per browser). */
function recordChoice(consent: ConsentController, revision: string, language: string): void {
  let id = consent.current()[CONSENT_ID_COOKIE]
  if (!id || !/^[0-9a-f-]{36}$/.test(id)) {
    id = crypto.randomUUID()
    // biome-ignore lint/suspicious/noDocumentCookie: see browserConsent.
    document.cookie = serializeCookie(
      { name: CONSENT_ID_COOKIE, value: id, expires: new Date(Date.now() + 365 * 86_400_000) },
      location.protocol === 'https:',
    )
  }
  const choice = choiceOf(consent.current())
  fetch('/api/consent', {
    method: 'POST',
    keepalive: true,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, ...choice, revision, language }),
  }).catch(() => {})
}

/**
 * Consent on the real page: the controller, the banner when a choice is due, the footer's
 * "Cookie settings" link, the opt-out links and a page view on every route change (`shown`:
 * the page shown before this module arrived). Returns the controller.
 */
export function startConsent(
  ids: TrackingIds,
  revision: string,
  shown: { pathname: string; href: string } | undefined,
  ui: ConsentUi,
): ConsentController {
  const consent = browserConsent(ids, revision)
  const offered = TRACKERS.filter((tracker) => trackerConfigured(ids, tracker))
  /** The banner shown now, with the language it speaks. */
  let banner:
    | { remove(): void; language: string; relabel(texts: ConsentTexts, language: string): void }
    | undefined

  /** Counts the requests to show the banner: only the newest mounts. */
  let requests = 0

  const show = (layer: 'first' | 'settings', opener: Element | null) => {
    if (!ui.texts() || offered.length === 0) return false
    const request = ++requests
    // Back to where the visitor was; from nowhere in particular, to the page's main content.
    const returnFocus =
      opener instanceof HTMLElement && opener !== document.body
        ? opener
        : document.getElementById('main')
    import('../../site/components/consent-banner/mount').then(
      ({ mountBanner }) => {
        const texts = ui.texts()
        if (request !== requests || !texts) return
        banner?.remove()
        const props: Parameters<typeof mountBanner>[0] = {
          texts,
          language: ui.language(),
          initial: consent.choice(),
          trackers: offered,
          layer,
          // Not from a visitor who is busy elsewhere (typing) when the banner arrives.
          takeFocus:
            layer === 'settings' ||
            !document.activeElement ||
            document.activeElement === document.body,
          decide(choice) {
            consent.decide(choice)
            recordChoice(consent, revision, ui.language())
            close()
          },
          close,
        }
        const mounted = mountBanner(props)
        const shown = {
          language: props.language,
          remove: mounted.remove,
          relabel(texts: ConsentTexts, language: string) {
            shown.language = language
            mounted.render({ ...props, texts, language })
          },
        }
        function close() {
          mounted.remove()
          if (banner === shown) banner = undefined
          returnFocus?.focus()
        }
        banner = shown
      },
      (error: unknown) => console.error(error),
    )
    return true
  }

  /** The banner speaks the page's language, also after a switch while it is open. */
  const relabel = () => {
    const language = ui.language()
    const texts = ui.texts()
    if (banner && texts && banner.language !== language) banner.relabel(texts, language)
  }
  ui.subscribe(relabel)

  startOptOutLinks(consent, ui)
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.('[data-cookie-settings]')
      if (!link || event.defaultPrevented || event.button !== 0) return
      // Without words or trackers there is nothing to set: the link leads to the policy.
      if (show('settings', link)) event.preventDefault()
    },
    true,
  )
  if (consent.needsDecision())
    show('first', document.activeElement)
    // For other scripts on the page (a tag manager, a support widget): opt out, silently if they
    // ask, or open the settings.
  ;(window as unknown as { cookieConsent: CookieConsentApi }).cookieConsent = {
    optOut: (tracker, options) => {
      if ((TRACKERS as readonly string[]).includes(tracker)) consent.optOut(tracker, options)
    },
    openSettings: () => {
      show('settings', document.activeElement)
    },
  }
  if (shown) consent.pageView(shown, document.title, ui.pagePath())
  onRouteUpdate(({ location }) => consent.pageView(location, document.title, ui.pagePath()))
  return consent
}
