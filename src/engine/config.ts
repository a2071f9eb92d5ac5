/** Build settings, each from the environment variable named beside it. */

import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { ensureWritableFolder } from '../database/folder'
import type { TrackingIds } from '../shared/consent'
import { choiceSetting, switchSetting, urlSetting } from '../shared/setting-values'
import { SettingError } from '../shared/settings-error'
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
   * programs (`.cache/bin/{version}/bundles`, next to `SITE_PROGRAMS_DIR`) when
   * `scripts/run.mjs` runs the build, so every build of the same code shares them; otherwise
   * (tests, tools) in `cacheDir`.
   */
  bundlesDir?: string
  /**
   * The site the last build wrote, whose unchanged pages are linked instead of written again:
   * `outDir` itself (the default), or the live release when a release is built beside it.
   */
  previousSite?: string
  /**
   * The build returns once the site is in place, before its caches are written
   * (`BuildReport.cacheSaved`): for a caller that serves the site at once and waits for them
   * before its next build (the publishing service). Not an environment setting.
   */
  deferCacheSaves?: boolean
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
  const siteUrl = (env.SITE_URL || 'http://localhost:8080').replace(/\/+$/, '')
  urlSetting({ SITE_URL: siteUrl }, 'SITE_URL', siteUrl, { example: 'https://www.example.com' })
  const outDir = resolve(ROOT, env.OUT_DIR || 'dist')
  const ratesFetch = choiceSetting(env, 'RATES_FETCH', ['0', '1'], '0') === '1'
  return {
    root: ROOT,
    contentDir: resolve(ROOT, env.CONTENT_DIR || 'content'),
    outDir,
    cacheDir: resolve(ROOT, env.BUILD_CACHE_DIR || '.cache', slugOf(outDir)),
    // Beside the compiled programs of this version of the code, shared by all of them.
    ...(env.SITE_PROGRAMS_DIR
      ? { bundlesDir: join(dirname(env.SITE_PROGRAMS_DIR), 'bundles') }
      : {}),
    siteUrl,
    serviceWorker: switchSetting(env, 'SERVICE_WORKER', 'on'),
    tracking: readTrackingIds(env),
    ratesFetch: ratesFetch
      ? {
          url: urlSetting(env, 'RATES_URL', ECB_HISTORY_URL, { example: ECB_HISTORY_URL }).href,
        }
      : undefined,
  }
}

/**
 * The folders a build reads and writes, checked before it starts: `CONTENT_DIR` must be a
 * folder; `OUT_DIR` (and the folder it is in, where the next site is staged beside it) and
 * `BUILD_CACHE_DIR` must be writable (each made if missing).
 */
export async function checkBuildFolders(config: BuildConfig): Promise<void> {
  await checkContentDir(config)
  await ensureWritableFolder(dirname(config.outDir), {
    what: "the site's parent folder",
    setting: 'OUT_DIR',
  })
  await ensureWritableFolder(config.outDir, { what: "the site's folder", setting: 'OUT_DIR' })
  await ensureWritableFolder(config.cacheDir, {
    what: 'the build cache',
    setting: 'BUILD_CACHE_DIR',
  })
}

/** `CONTENT_DIR` must be a folder (the content store). */
export async function checkContentDir(config: Pick<BuildConfig, 'contentDir'>): Promise<void> {
  const found = await stat(config.contentDir).catch(() => undefined)
  if (!found?.isDirectory()) {
    throw new SettingError(
      'CONTENT_DIR',
      `${config.contentDir} is ${found ? 'not a folder' : 'not there'}`,
      'set it to the content store (a folder with en/ and de/), or unset it for content/',
    )
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
      if (!format.test(value)) {
        throw new SettingError(
          name,
          `must be ${expected}; got "${value}"`,
          'set it to the identifier the tracker gave, or unset it to leave the tracker off',
        )
      }
    }
    if (name !== 'ADS_IDS' && values.length > 1) {
      throw new SettingError(
        name,
        `must be one identifier; got ${values.length}`,
        'set it to one, the first the tracker gave',
      )
    }
    return values
  }
  const [gtmId] = read('GTM_ID')
  const [gaMeasurementId] = read('GA_MEASUREMENT_ID')
  const [linkedinPartnerId] = read('LINKEDIN_PARTNER_ID')
  const [twitterPixelId] = read('TWITTER_PIXEL_ID')
  // The container belongs to analytics: it loads with the analytics property, never alone.
  if (gtmId && !gaMeasurementId) {
    throw new SettingError(
      'GTM_ID',
      'needs GA_MEASUREMENT_ID: the tag manager container loads with analytics consent, beside the analytics property',
      'set both or neither',
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
