/**
 * The response headers of every kind of file the site serves, from one place: `npm start`
 * sends them, and the build writes them for static hosts (`_headers`) and nginx
 * (`npm run nginx-config`), so every way of serving the site answers alike.
 *
 * What a page may load is a Content-Security-Policy without `'unsafe-inline'` or `'unsafe-eval'`
 * for scripts: the site's own files, the hashes of the document's inline blocks (computed at
 * build time, see `SitePolicy`), and a tracker's hosts only when its identifier is configured.
 * Violations are reported to `/api/csp-report`.
 */
import type { TrackingIds } from './consent'
import { HASHED_IMAGES_DIR } from './images'
import { isHistoryPath } from './rates/history'
import { isSearchFilePath, SEARCH_ROOT } from './search/format'

/**
 * Where browsers send reports of what the policy blocked (`report-uri`: every browser sends
 * these at once; with the Reporting API's `report-to` beside it, Chromium would send only
 * batches, up to a minute later, and Firefox still only this).
 */
export const CSP_REPORT_PATH = '/api/csp-report'

/**
 * What the build knows and the headers depend on. The build writes it beside the site
 * (`SITE_POLICY_FILE`), so a server of that folder sends the headers it was built for.
 */
export interface SitePolicy {
  /** The trackers' identifiers the site was built with: their hosts are allowed, no others. */
  tracking: TrackingIds
  /** `sha256-…` of each inline script the pages carry (none today: the runtime is a file). */
  scriptHashes: string[]
  /** `sha256-…` of each inline `<style>` element of the pages. */
  styleHashes: string[]
}

export const SITE_POLICY_FILE = '_headers.json'
/** The static hosts' header file (Netlify, Cloudflare Pages). */
export const HOST_HEADERS_FILE = '_headers'

export const EMPTY_POLICY: SitePolicy = {
  tracking: { adsIds: [] },
  scriptHashes: [],
  styleHashes: [],
}

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
}

/** Below this size compression saves less than the headers it costs: such files go as they are. */
export const MIN_COMPRESS_BYTES = 1024

/** Text files: sent compressed, from the twins the build writes beside them or on the fly. */
export const TEXT_EXTENSIONS = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.xml',
  '.txt',
  '.svg',
])

/**
 * The kinds of response, each with its own cache policy or content policy:
 * - `page`: HTML of a page (also the 404 pages, sent with status 404);
 * - `data`: page data, shared data and `app-data.json`, read by the runtime on navigation, and
 *   each language's search index (`/search/{language}/index.json`);
 * - `worker`: `/sw.js`, which browsers must check on every navigation;
 * - `hashed`: bundles, image variants and the search's files, whose names (or folders) hash
 *   their content: never change;
 * - `rates`: a currency's exchange rates by day (`/rates/…`), fetched by the rate pages when a
 *   visitor asks for them; their folder hashes the rates, so they never change either;
 * - `drawing`: an SVG that is not hashed (editors' drawings are hashed, the icon is not);
 * - `file`: anything else: manifests, feeds, sitemap, documents, original images;
 * - `api`: the forms service's answers and pages.
 */
export type ResponseKind =
  | 'page'
  | 'data'
  | 'worker'
  | 'hashed'
  | 'rates'
  | 'drawing'
  | 'file'
  | 'api'

const extensionOf = (path: string) => {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot).toLowerCase() : ''
}

export function responseKind(path: string): ResponseKind {
  if (path.startsWith('/api/')) return 'api'
  if (path.startsWith('/assets/') || path.startsWith(`${HASHED_IMAGES_DIR}/`)) return 'hashed'
  if (isHistoryPath(path)) return 'rates'
  // The search's files are named by their folder's hash; its index, read first, is not.
  if (isSearchFilePath(path)) return 'hashed'
  if (path === '/sw.js') return 'worker'
  if (path.startsWith('/page-data/') || path.startsWith(SEARCH_ROOT)) return 'data'
  const extension = extensionOf(path)
  if (path.endsWith('/') || extension === '.html') return 'page'
  if (extension === '.svg') return 'drawing'
  return 'file'
}

const YEAR_SECONDS = 31_536_000

/** Hashed files for a year without asking again; everything else revalidated (ETag). */
export const CACHE_CONTROL: Record<Exclude<ResponseKind, 'api'>, string> & { api: string } = {
  page: 'no-cache',
  data: 'no-cache',
  worker: 'no-cache',
  hashed: `public, max-age=${YEAR_SECONDS}, immutable`,
  rates: `public, max-age=${YEAR_SECONDS}, immutable`,
  drawing: 'no-cache',
  file: 'no-cache',
  api: 'no-store',
}

/** A tracker's hosts, by what the browser does with them (Google's, LinkedIn's and X's lists). */
interface Hosts {
  script?: string[]
  connect?: string[]
  img?: string[]
  frame?: string[]
}

const GOOGLE_TAG: Hosts = {
  script: ['https://www.googletagmanager.com'],
  connect: [
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
    'https://www.googletagmanager.com',
  ],
  img: ['https://*.google-analytics.com', 'https://www.googletagmanager.com'],
}

const TRACKER_HOSTS = {
  analytics: GOOGLE_TAG,
  // The container loads with analytics; it may load Google's own tags, nothing of its own.
  container: GOOGLE_TAG,
  ads: {
    script: [
      'https://www.googletagmanager.com',
      'https://www.googleadservices.com',
      'https://googleads.g.doubleclick.net',
    ],
    connect: [
      'https://www.google.com',
      'https://www.googleadservices.com',
      'https://googleads.g.doubleclick.net',
      'https://pagead2.googlesyndication.com',
    ],
    img: ['https://www.google.com', 'https://www.google.de', 'https://googleads.g.doubleclick.net'],
    frame: ['https://bid.g.doubleclick.net', 'https://td.doubleclick.net'],
  },
  linkedin: {
    script: ['https://snap.licdn.com'],
    connect: ['https://px.ads.linkedin.com'],
    img: ['https://px.ads.linkedin.com'],
  },
  twitter: {
    script: ['https://static.ads-twitter.com'],
    connect: ['https://analytics.twitter.com', 'https://static.ads-twitter.com'],
    img: ['https://analytics.twitter.com', 'https://t.co'],
  },
} satisfies Record<string, Hosts>

function trackerHosts(ids: TrackingIds): Required<Hosts> {
  const used: Hosts[] = [
    ...(ids.gaMeasurementId ? [TRACKER_HOSTS.analytics] : []),
    ...(ids.gtmId ? [TRACKER_HOSTS.container] : []),
    ...(ids.adsIds.length > 0 ? [TRACKER_HOSTS.ads] : []),
    ...(ids.linkedinPartnerId ? [TRACKER_HOSTS.linkedin] : []),
    ...(ids.twitterPixelId ? [TRACKER_HOSTS.twitter] : []),
  ]
  const merged = (key: keyof Hosts) => [...new Set(used.flatMap((hosts) => hosts[key] ?? []))]
  return {
    script: merged('script'),
    connect: merged('connect'),
    img: merged('img'),
    frame: merged('frame'),
  }
}

const quoted = (hashes: string[]) => hashes.map((hash) => `'${hash}'`)

const policyText = (directives: [string, ...string[]][]) =>
  directives.map((parts) => parts.join(' ')).join('; ')

/**
 * The policy of every page: what the site needs, and the configured trackers' hosts. Only
 * directives every engine knows (the security-headers test holds it to them): an unknown one
 * is an error in the console of each page.
 */
export function pageContentSecurityPolicy(policy: SitePolicy): string {
  const hosts = trackerHosts(policy.tracking)
  return policyText([
    ['default-src', "'self'"],
    ['script-src', "'self'", ...quoted(policy.scriptHashes), ...hosts.script],
    ['style-src', "'self'", ...quoted(policy.styleHashes)],
    // The blurred previews of images are a style attribute (a data: URL); attributes cannot
    // load or run anything, and a style attribute has no selectors to read the page with.
    ['style-src-attr', "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', ...hosts.img],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...hosts.connect],
    ['frame-src', ...(hosts.frame.length > 0 ? hosts.frame : ["'none'"])],
    ['worker-src', "'self'"],
    // No manifest-src: WebKit does not know it and says so on every page; default-src 'self'
    // governs the manifest in every engine.
    ['media-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
    ['report-uri', CSP_REPORT_PATH],
  ])
}

/**
 * Drawings come from editors: opened on their own, an SVG is a document of this origin, so it
 * may neither run script nor load anything (inside `<img>` it never could).
 */
export const DRAWING_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox"

/**
 * The forms service's answers: its pages (a confirmation button, a list of errors) load their
 * stylesheet and Inter from the service (`/api/pages.css`, `/api/fonts/`) and the site's icon,
 * and have no script and no inline style at all; its JSON loads nothing. The same for every
 * answer under `/api/` and from every server (npm start, the service alone, nginx's own
 * answers there), as it depends on nothing the build knows.
 */
export const API_CONTENT_SECURITY_POLICY = policyText([
  ['default-src', "'none'"],
  ['style-src', "'self'"],
  ['font-src', "'self'"],
  ['img-src', "'self'"],
  ['form-action', "'self'"],
  ['base-uri', "'none'"],
  ['frame-ancestors', "'none'"],
])

/**
 * Everything the site never uses, denied to it and to whatever it might embed (only names
 * Chromium knows: it reports each unknown one as an error in the console).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ')

/** Two years, with the subdomains: what browsers' preload lists ask for. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains'

export interface HeaderOptions {
  /** The request came over HTTPS, or through a proxy that says it did: send HSTS. */
  https?: boolean
}

/**
 * The kinds pages fetch as resources, and drawings: opened on their own, a drawing is a
 * sandboxed document that can neither run script nor load anything, which the headers of
 * documents (referrer, permissions, opener, framing) have nothing left to govern.
 */
const FETCHED_KINDS: ReadonlySet<ResponseKind> = new Set(['data', 'hashed', 'rates', 'drawing'])

/**
 * The headers of a response of `kind`, besides those of its file (type, length, encoding,
 * ETag). Header names are lower case.
 */
export function responseHeaders(
  kind: ResponseKind,
  policy: SitePolicy,
  options: HeaderOptions = {},
): Record<string, string> {
  const hsts: Record<string, string> = options.https
    ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY }
    : {}
  if (FETCHED_KINDS.has(kind)) {
    // What pages fetch (code, styles, images, page data, rates) is no document: the headers
    // that govern documents (referrer, permissions, opener, framing) would be a kilobyte on
    // every file of a client navigation. Opened on its own, such a file may load nothing, run
    // nothing and be framed nowhere, and is never sniffed as something else.
    return {
      'cache-control': CACHE_CONTROL[kind],
      'content-security-policy': DRAWING_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      ...hsts,
    }
  }
  return {
    'cache-control': CACHE_CONTROL[kind],
    'content-security-policy':
      kind === 'api' ? API_CONTENT_SECURITY_POLICY : pageContentSecurityPolicy(policy),
    'x-content-type-options': 'nosniff',
    // The service's links carry tokens (a confirmation's, an unsubscription's): the page a
    // redirect of theirs leads to must not find them in its referrer.
    'referrer-policy': kind === 'api' ? 'no-referrer' : 'strict-origin-when-cross-origin',
    'permissions-policy': PERMISSIONS_POLICY,
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
    ...hsts,
  }
}
