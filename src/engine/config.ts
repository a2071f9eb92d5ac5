/** Build settings, each from the environment variable named beside it. */

import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { TrackingIds } from '../shared/consent'
import { ECB_HISTORY_URL } from './fetch-rates'

export interface BuildConfig {
  /** Project root: where `src/`, `public/` and `package.json` live. */
  root: string
  /** `CONTENT_DIR`: the content store to build (default `content/`). */
  contentDir: string
  /** `OUT_DIR`: where the static site is written (default `dist/`). */
  outDir: string
  /** The build's caches (Markdown, PDFs, images, page records) and its stamp. */
  cacheDir: string
  /**
   * Where the bundles of each version of the code are kept (`bundle.ts`): beside the compiled
   * programs (`SITE_PROGRAMS_DIR/bundles`) when `scripts/run.mjs` runs the build, so every build
   * of the same code shares them; otherwise (tests, tools) in `cacheDir`.
   */
  bundlesDir?: string
  /**
   * The site the last build wrote, whose unchanged pages are linked instead of written again:
   * `outDir` itself (the default), or the live release when a release is built beside it.
   */
  previousSite?: string
  /** `SITE_URL`: the public origin, for canonical and alternate links. */
  siteUrl: string
  /** `SERVICE_WORKER=off`: the kill switch; ships a worker that removes itself. */
  serviceWorker: boolean
  /**
   * The trackers' identifiers (`GTM_ID`, `GA_MEASUREMENT_ID`, `ADS_IDS`, `LINKEDIN_PARTNER_ID`,
   * `TWITTER_PIXEL_ID`); a tracker without one stays off. They load only with consent.
   */
  tracking: TrackingIds
  /** `RATES_FETCH=1`: fetch the ECB's reference rates at build time (from `RATES_URL`). */
  ratesFetch: { url: string } | undefined
}

/** The folder of package.json above this module, compiled (`.cache/bin/…`) or not (`src/engine`). */
function findRoot(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, 'package.json'))) return current
    if (dirname(current) === current) throw new Error(`no package.json above ${dir}`)
  }
}

export const ROOT = findRoot(import.meta.dirname)

export function readBuildConfig(env: NodeJS.ProcessEnv = process.env): BuildConfig {
  const siteUrl = (env.SITE_URL ?? 'http://localhost:8080').replace(/\/+$/, '')
  try {
    new URL(siteUrl)
  } catch {
    throw new Error(
      `SITE_URL must be an absolute URL such as https://www.example.com; got "${siteUrl}"`,
    )
  }
  const outDir = resolve(ROOT, env.OUT_DIR ?? 'dist')
  return {
    root: ROOT,
    contentDir: resolve(ROOT, env.CONTENT_DIR ?? 'content'),
    outDir,
    cacheDir: resolve(ROOT, env.BUILD_CACHE_DIR ?? '.cache', slugOf(outDir)),
    ...(env.SITE_PROGRAMS_DIR ? { bundlesDir: join(env.SITE_PROGRAMS_DIR, 'bundles') } : {}),
    siteUrl,
    serviceWorker: (env.SERVICE_WORKER ?? 'on') !== 'off',
    tracking: readTrackingIds(env),
    ratesFetch: env.RATES_FETCH === '1' ? { url: env.RATES_URL ?? ECB_HISTORY_URL } : undefined,
  }
}

/** Each identifier's shape, for a clear error when a variable holds something else. */
const ID_FORMATS = {
  GTM_ID: [/^GTM-[A-Z0-9]{4,12}$/, 'a tag manager container such as GTM-ABC1234'],
  GA_MEASUREMENT_ID: [/^G-[A-Z0-9]{4,16}$/, 'an analytics measurement ID such as G-ABC123DEF4'],
  ADS_IDS: [/^AW-\d{6,14}$/, 'Ads site tags such as AW-123456789, separated by commas'],
  LINKEDIN_PARTNER_ID: [/^\d{3,12}$/, 'a LinkedIn partner ID (digits)'],
  TWITTER_PIXEL_ID: [/^[a-z0-9]{3,12}$/i, 'an X (Twitter) pixel ID such as o1abc'],
} as const

export function readTrackingIds(env: NodeJS.ProcessEnv): TrackingIds {
  const read = (name: keyof typeof ID_FORMATS): string[] => {
    const values = (env[name] ?? '')
      .split(',')
      .map((value) => value.trim())
      .filter(Boolean)
    const [format, expected] = ID_FORMATS[name]
    for (const value of values) {
      if (!format.test(value)) throw new Error(`${name} must be ${expected}; got "${value}"`)
    }
    if (name !== 'ADS_IDS' && values.length > 1) {
      throw new Error(`${name} must be one identifier; got ${values.length}`)
    }
    return values
  }
  const [gtmId] = read('GTM_ID')
  const [gaMeasurementId] = read('GA_MEASUREMENT_ID')
  const [linkedinPartnerId] = read('LINKEDIN_PARTNER_ID')
  const [twitterPixelId] = read('TWITTER_PIXEL_ID')
  // The container belongs to analytics: it loads with the analytics property, never alone.
  if (gtmId && !gaMeasurementId) {
    throw new Error(
      'GTM_ID needs GA_MEASUREMENT_ID: the tag manager container loads with analytics consent, beside the analytics property; set both or neither',
    )
  }
  return {
    ...(gtmId ? { gtmId } : {}),
    ...(gaMeasurementId ? { gaMeasurementId } : {}),
    adsIds: read('ADS_IDS'),
    ...(linkedinPartnerId ? { linkedinPartnerId } : {}),
    ...(twitterPixelId ? { twitterPixelId } : {}),
  }
}

/** A folder name for per-output caches, so parallel builds to different outputs never collide. */
function slugOf(path: string): string {
  return path
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .slice(-60)
}
