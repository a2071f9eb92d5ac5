/// <reference lib="webworker" />
/**
 * The service worker. Precaches the app shell (hashed scripts and styles, manifests, icon);
 * pages and page data go network-first, so a deploy is never hidden behind stale content,
 * and the cache only answers when the network does not. A currency's exchange rates by day
 * (`/rates/…`) come from the cache first: their names change with their content, so a cached
 * one is never stale, and a currency seen once works offline. The search's files likewise; its
 * index (`/search/{language}/index.json`, which names the current files) network-first.
 *
 * Nothing answered `no-store` is kept, and no page of the forms service (`/api/`: the e-mails'
 * confirm and unsubscribe pages, tokens in their addresses) is ever taken from or put in a
 * cache: those go to the network as if there were no worker.
 */
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst, NetworkOnly, type StrategyOptions } from 'workbox-strategies'
import { OFFLINE_COPY_HEADER } from '../shared/constants'
import { isHistoryPath } from '../shared/rates/history'
import { isSearchFilePath, SEARCH_ROOT } from '../shared/search/format'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> }

type Plugin = NonNullable<StrategyOptions['plugins']>[number]

/** What `Cache-Control: no-store` asks of every cache, this one included. */
const noStore = (response: Response) =>
  /(^|,)\s*no-store\s*(,|$)/i.test(response.headers.get('cache-control') ?? '')

/**
 * Keeps only whole, storable answers: a 200 not marked `no-store`. (Given a plugin of its own,
 * Workbox no longer keeps its default, 200s only: this one says both.)
 */
const storableOnly: Plugin = {
  cacheWillUpdate: async ({ response }) =>
    response.status === 200 && !noStore(response) ? response : null,
}

/** The forms service's pages: never cached, never answered from a cache. */
const isServicePath = (pathname: string) => pathname === '/api' || pathname.startsWith('/api/')

self.skipWaiting()
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

cleanupOutdatedCaches()
precacheAndRoute(self.__WB_MANIFEST)

registerRoute(
  ({ request, url }) => request.mode === 'navigate' && !isServicePath(url.pathname),
  new NetworkFirst({
    cacheName: 'pages',
    plugins: [storableOnly, new ExpirationPlugin({ maxEntries: 50 })],
  }),
)

registerRoute(({ url }) => url.pathname === '/page-data/app-data.json', new NetworkOnly())

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/page-data/'),
  new NetworkFirst({
    cacheName: 'page-data',
    plugins: [storableOnly, new ExpirationPlugin({ maxEntries: 200 })],
  }),
)

registerRoute(
  ({ url }) => url.origin === self.location.origin && isHistoryPath(url.pathname),
  new CacheFirst({
    cacheName: 'rates',
    // Each build with new rates names a new set: the oldest files leave first. Not precached:
    // a visitor loads the currencies they look at, not every one.
    plugins: [storableOnly, new ExpirationPlugin({ maxEntries: 100 })],
  }),
)

// The search: each language's index from the network when there is one; the files of a version
// (postings, pages' text) from the cache, where the search dialog also puts them ahead of need.
registerRoute(
  ({ url }) => url.origin === self.location.origin && isSearchFilePath(url.pathname),
  new CacheFirst({
    cacheName: 'search',
    plugins: [storableOnly, new ExpirationPlugin({ maxEntries: 600 })],
  }),
)

// Network first reads its cache only when the network failed: such an answer says so, since
// `navigator.onLine` may read true all the same (a network without internet; some browsers
// after a reload the worker answered).
const markOfflineCopy: Plugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return cachedResponse
    const headers = new Headers(cachedResponse.headers)
    headers.set(OFFLINE_COPY_HEADER, '1')
    return new Response(cachedResponse.body, {
      status: cachedResponse.status,
      statusText: cachedResponse.statusText,
      headers,
    })
  },
}

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith(SEARCH_ROOT),
  new NetworkFirst({ cacheName: 'search-index', plugins: [storableOnly, markOfflineCopy] }),
)
