/**
 * What the exchange-rate pages weigh in a built site: the page data of the Mastercard and ECB
 * pages, and the per-currency history files the Mastercard page loads on demand (sizes gzip,
 * level 9, as the other figures of the benchmark). `buildRatesSite` builds the real site with
 * the rates extended to more days (`rates-content.ts`), e.g. the 90 of the ECB's history file.
 */
import { cp, readdir, readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { buildOnce } from './builds'
import { extendRates } from './rates-content'

const ROOT = resolve(import.meta.dirname, '..')
const kb = (bytes: number) => Math.round((bytes / 1024) * 100) / 100

export interface RatesFigures {
  /** Page data, gzip KB, of each page in each language (`en/exchange-rates/mastercard`). */
  pageDataGzipKb: Record<string, number>
  /** The history files: how many, gzip KB of the smallest, the median and the largest. */
  history: {
    files: number
    minGzipKb: number
    medianGzipKb: number
    maxGzipKb: number
    largest: string
    /** The rates of one currency by day: the one file a visitor fetches (USD, shown first). */
    oneCurrencyGzipKb: number
  }
  /** Days of rates in the history files. */
  days: number
}

const PAGES = ['exchange-rates/mastercard', 'exchange-rates']

/** The figures of the rate pages in the built site at `distDir`. */
export async function ratesFigures(distDir: string): Promise<RatesFigures> {
  const gzip = (data: Buffer) => gzipSync(data, { level: 9 }).length
  const pageDataGzipKb: Record<string, number> = {}
  for (const language of ['en', 'de']) {
    for (const page of PAGES) {
      const file = join(distDir, 'page-data', language, page, 'page-data.json')
      pageDataGzipKb[`${language}/${page}`] = kb(gzip(await readFile(file)))
    }
  }
  const folder = join(distDir, 'rates')
  const names = (await readdir(folder, { recursive: true })).filter((name) =>
    name.endsWith('.json'),
  )
  if (names.length === 0) throw new Error(`no history files under ${folder}`)
  const sized = await Promise.all(
    names.map(async (name) => {
      const data = await readFile(join(folder, name))
      return { url: `/rates/${name}`, bytes: gzip(data), days: JSON.parse(String(data)).days }
    }),
  )
  sized.sort((a, b) => a.bytes - b.bytes)
  const largest = sized.at(-1) as (typeof sized)[number]
  const usd = sized.find((file) => file.url.endsWith('/USD.json')) ?? largest
  return {
    pageDataGzipKb,
    history: {
      files: sized.length,
      minGzipKb: kb(sized[0]?.bytes ?? 0),
      medianGzipKb: kb(sized[Math.floor(sized.length / 2)]?.bytes ?? 0),
      maxGzipKb: kb(largest.bytes),
      largest: largest.url,
      oneCurrencyGzipKb: kb(usd.bytes),
    },
    days: (largest.days as unknown[]).length,
  }
}

/** The figures as lines for the benchmark's output. */
export function formatRatesFigures(figures: RatesFigures): string {
  const pages = Object.entries(figures.pageDataGzipKb)
    .map(([page, size]) => `${page} ${size} KB`)
    .join(', ')
  const { history } = figures
  return [
    `exchange rates, ${figures.days} days: page data gzip ${pages}`,
    `  history files: ${history.files}, gzip ${history.minGzipKb} / ${history.medianGzipKb} / ${history.maxGzipKb} KB (min / median / max; largest ${history.largest}); one currency's history: ${history.oneCurrencyGzipKb} KB`,
  ].join('\n')
}

/**
 * Builds the real site into `cacheRoot/dist-rates-{days}` with its rates extended to `days`
 * days (a copy of the content store; the stored one is left as it is) and returns that folder.
 * `cacheRoot` must lie inside the project: the build's cached server bundle resolves React there.
 */
export async function buildRatesSite(cacheRoot: string, days: number): Promise<string> {
  const contentDir = join(cacheRoot, `content-rates-${days}`)
  const outDir = join(cacheRoot, `dist-rates-${days}`)
  await rm(contentDir, { recursive: true, force: true })
  await cp(join(ROOT, 'content'), contentDir, { recursive: true })
  await extendRates(contentDir, days)
  await buildOnce(contentDir, outDir, join(cacheRoot, 'cache-rates'))
  return outDir
}
