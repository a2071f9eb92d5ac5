/// <reference lib="webworker" />
/**
 * The service worker. Precaches the app shell (hashed scripts and styles, manifests, icon);
 * pages and page data go network-first, so a deploy is never hidden behind stale content,
 * and the cache only answers when the network does not.
 */
import { ExpirationPlugin } from 'workbox-expiration'
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching'
import { registerRoute } from 'workbox-routing'
import { NetworkFirst, NetworkOnly } from 'workbox-strategies'

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
