/// <reference lib="webworker" />
/**
 * The service worker. Precaches the app shell (hashed scripts and styles, manifests, icon);
 * pages and page data go network-first, so a deploy is never hidden behind stale content,
 * and the cache only answers when the network does not. A currency's exchange rates by day
 * (`/rates/…`) come from the cache first: their names change with their content, so a cached
 * one is never stale, and a currency seen once works offline. The search's files likewise; its
 * index (`/search/{language}/index.json`, which names the current files) network-first.
 */
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { CacheFirst, NetworkFirst, NetworkOnly, type StrategyOptions } from 'workbox-strategies'
import { OFFLINE_COPY_HEADER } from '../shared/constants'
import { isHistoryPath } from '../shared/rates/history'
import { isSearchFilePath, SEARCH_ROOT } from '../shared/search/format'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> }

self.skipWaiting()
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()))

cleanupOutdatedCaches()
precacheAndRoute(self.__WB_MANIFEST)

registerRoute(
  ({ request }) => request.mode === 'navigate',
  new NetworkFirst({
    cacheName: 'pages',
    plugins: [new ExpirationPlugin({ maxEntries: 50 })],
  }),
)

registerRoute(({ url }) => url.pathname === '/page-data/app-data.json', new NetworkOnly())

registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/page-data/'),
  new NetworkFirst({
    cacheName: 'page-data',
    plugins: [new ExpirationPlugin({ maxEntries: 200 })],
  }),
)

registerRoute(
  ({ url }) => url.origin === self.location.origin && isHistoryPath(url.pathname),
  new CacheFirst({
    cacheName: 'rates',
    // Each build with new rates names a new set: the oldest files leave first. Not precached:
    // a visitor loads the currencies they look at, not every one.
    plugins: [new ExpirationPlugin({ maxEntries: 100 })],
  }),
)

// The search: each language's index from the network when there is one; the files of a version
// (postings, pages' text) from the cache, where the search dialog also puts them ahead of need.
registerRoute(
  ({ url }) => url.origin === self.location.origin && isSearchFilePath(url.pathname),
  new CacheFirst({
    cacheName: 'search',
    plugins: [new ExpirationPlugin({ maxEntries: 600 })],
  }),
)

// Network first reads its cache only when the network failed: such an answer says so, since
// `navigator.onLine` may read true all the same (a network without internet; some browsers
// after a reload the worker answered).
type Plugin = NonNullable<StrategyOptions['plugins']>[number]
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
  new NetworkFirst({ cacheName: 'search-index', plugins: [markOfflineCopy] }),
)
