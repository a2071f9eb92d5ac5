/**
 * Writes `/sw.js`: the Workbox worker with its precache manifest injected, or, with the kill
 * switch (`SERVICE_WORKER=off`), a worker that empties every cache and unregisters itself.
 * The injection is a few lines of our own: workbox-build took longer to load than the rest of a
 * content-only build.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join, sep } from 'node:path'
import type { BuildConfig } from '../config'

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
 * The app shell is precached: the hashed bundles under assets/ (scripts, styles, SVG, fonts),
 * the web manifests and the icon. Pages are cached as they are visited.
 */
const PRECACHED = /^(assets\/.+\.(js|css|svg|woff2)|manifest-[^/]+\.webmanifest|icon\.svg)$/
/** Hashed file names change with their content: they need no revision. */
const HASHED = /^assets\//
const MANIFEST_PLACEHOLDER = 'self.__WB_MANIFEST'

export interface PrecacheEntry {
  url: string
  revision: string | null
}

/** The precache manifest Workbox's `precacheAndRoute` expects, for the files in `outDir`. */
export async function precacheManifest(outDir: string): Promise<PrecacheEntry[]> {
  const assets = await readdir(join(outDir, 'assets'), { recursive: true }).catch(() => [])
  const files = [...(await readdir(outDir)), ...assets.map((file) => `assets/${file}`)]
    .map((file) => file.split(sep).join('/'))
    .filter((file) => PRECACHED.test(file))
    .sort()
  return Promise.all(
    files.map(async (url) => ({
      url,
      revision: HASHED.test(url)
        ? null
        : createHash('md5')
            .update(await readFile(join(outDir, url)))
            .digest('hex'),
    })),
  )
}

/** Writes the worker with its precache manifest in place of `self.__WB_MANIFEST`. */
export async function writeServiceWorker(config: BuildConfig, source: string): Promise<number> {
  const destination = join(config.outDir, 'sw.js')
  if (!config.serviceWorker) {
    await writeFile(destination, KILL_SWITCH_WORKER)
    return 0
  }
  const code = await readFile(source, 'utf8')
  const parts = code.split(MANIFEST_PLACEHOLDER)
  if (parts.length !== 2)
    throw new Error(
      `Service worker: expected ${MANIFEST_PLACEHOLDER} once in ${source}, found it ${parts.length - 1} times`,
    )
  const manifest = await precacheManifest(config.outDir)
  await writeFile(destination, parts.join(JSON.stringify(manifest)))
  return manifest.length
}
