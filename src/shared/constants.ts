/**
 * Every number and name the site's contract fixes, in one place (docs/runtime.md, "Numbers").
 * Build code and browser code both read them from here.
 */

/** Brand orange: the web manifest's theme colour and the design's `--color-brand` token. */
export const THEME_COLOR = '#e4650f'
/** The brand mark: a rounded square in the brand colour with a white "L" and dot (512 units). */
export const BRAND_MARK = {
  size: 512,
  radius: 96,
  letter: 'M176 128h56v200h120v56H176z',
  dot: { cx: 352, cy: 176, r: 40 },
} as const
/** The brand mark's file, named by the web manifest, every page's head and the structured data. */
export const ICON_PATH = '/icon.svg'
/** Background of the web manifest's splash screen. */
export const BACKGROUND_COLOR = '#ffffff'

/** A navigation slower than this emits `route-update-delayed` (docs/runtime.md, "Numbers"). */
export const NAVIGATION_DELAYED_MS = 1000
/** Page-data requests are retried at most this many times after the first try (docs/runtime.md). */
export const PAGE_DATA_RETRIES = 3
/** Hovering a link this long prefetches its page. */
export const PREFETCH_HOVER_DELAY_MS = 80
/** Page views wait two animation frames, or this long where frames do not run (docs/consent.md). */
export const PAGE_VIEW_DELAY_MS = 32
/** Images fade from their placeholder over this long (docs/design.md, "Images"). */
export const IMAGE_FADE_MS = 500
/** Delay before the screen-reader announcement, so the new title is in place. */
export const ANNOUNCE_DELAY_MS = 50

/** Browser events of the runtime contract (docs/runtime.md, "Runtime contract"). */
export const ROUTE_UPDATE_EVENT = 'route-update'
export const ROUTE_UPDATE_DELAYED_EVENT = 'route-update-delayed'

/** Storage keys. Every storage call is guarded: storage may be full or forbidden. */
export const LANGUAGE_STORAGE_KEY = 'site-language'
export const SCROLL_STORAGE_KEY = 'site-scroll-positions'

/** Where the service worker lives; the kill switch replaces it with one that removes itself. */
export const SERVICE_WORKER_URL = '/sw.js'
export const SERVICE_WORKER_INSECURE_MESSAGE =
  'Service workers can only be used over HTTPS, or on localhost for development'
/**
 * A header the service worker adds to a network-first answer it gave from its cache because the
 * network failed: the page then knows it is offline, whatever `navigator.onLine` says.
 */
export const OFFLINE_COPY_HEADER = 'x-offline-copy'

/** Element ids shared by the HTML the build writes and the runtime that reads it. */
export const ROOT_ELEMENT_ID = 'root'
export const BOOT_DATA_ELEMENT_ID = '__SITE_DATA__'
export const ANNOUNCER_ELEMENT_ID = 'route-announcer'

/** `npm run dev`: the event the dev server sends when the content store changed. */
export const CONTENT_CHANGED_EVENT = 'site:content-changed'
