/**
 * A build cache for another output folder, started from the browser suite's own (its web
 * server builds the site before any test runs). What the cache holds is keyed by content
 * (compressed files, images, bundles by code version, documents, the search index's parts),
 * and a site's pages are reused only from the folder whose id the cache names, which a new
 * folder is not: a copy saves the work of a cold build and changes nothing it writes. The
 * publishing walk calls it before its `npm start` builds into a folder of its own.
 */
import { existsSync } from 'node:fs'
import { cp } from 'node:fs/promises'
import { readBuildConfig } from '../../src/engine/config'

export async function seedBuildCache(env: { OUT_DIR: string; BUILD_CACHE_DIR?: string }) {
  const from = readBuildConfig({ OUT_DIR: process.env.OUT_DIR }).cacheDir
  const to = readBuildConfig(env).cacheDir
  if (from === to || !existsSync(from) || existsSync(to)) return
  await cp(from, to, { recursive: true })
}
