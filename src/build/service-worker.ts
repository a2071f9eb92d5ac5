/**
 * Writes `/sw.js`: the Workbox worker with its precache manifest injected, or, with the kill
 * switch (`SERVICE_WORKER=off`), a worker that empties every cache and unregisters itself.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BuildConfig } from './config'

/** The app shell: hashed bundles, the manifests and the icon. Pages are cached as visited. */
export const PRECACHE_PATTERNS = [
  'assets/**/*.{js,css,svg,woff2}',
  'manifest-*.webmanifest',
  'icon.svg',
]

/**
 * Replaces any earlier worker: takes over at once, deletes every cache, unregisters and
 * reloads the pages it controlled so they come straight from the network.
 */
export const KILL_SWITCH_WORKER = `// Kill switch: this worker removes itself and every cache it left behind.
self.addEventListener('install', () => self.skipWaiting())
self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) await caches.delete(key)
    await self.registration.unregister()
    for (const client of await self.clients.matchAll({ type: 'window' })) client.navigate(client.url)
  })())
})
`

/**
 * Only the injector: the package's index also loads its bundler toolchain, five times slower
 * to import, which `generateSW` needs and we do not.
 */
export function loadWorkbox(): Promise<typeof import('workbox-build/build/inject-manifest.js')> {
  return import('workbox-build/build/inject-manifest.js')
}

export async function writeServiceWorker(config: BuildConfig, source: string): Promise<number> {
  const destination = join(config.outDir, 'sw.js')
  if (!config.serviceWorker) {
    await writeFile(destination, KILL_SWITCH_WORKER)
    return 0
  }
  const { injectManifest } = await loadWorkbox()
  const { count, warnings } = await injectManifest({
    swSrc: source,
    swDest: destination,
    globDirectory: config.outDir,
    globPatterns: PRECACHE_PATTERNS,
    dontCacheBustURLsMatching: /^assets\//,
  })
  if (warnings.length > 0) throw new Error(`Service worker: ${warnings.join('; ')}`)
  return count
}
