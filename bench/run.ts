/**
 * `npm run bench`: build scaling on generated content (120, 1,000 and 10,000 pages, half
 * English, half German), the real site's build, first-load JavaScript of a content page and
 * the bytes one client navigation fetches. Figures go to stdout and bench/out/results.json.
 *
 * Then Lighthouse (mobile) on four pages of the real site: targets performance ≥ 98, the other
 * categories 100, layout shift 0.
 *
 * Then the forms service under load (`bench/forms.ts`): sign-ups per second and latency at 50
 * connections, on PGlite and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) PostgreSQL.
 *
 * Then static serving (`bench/serving.ts`): `npm start` beside nginx on the real site at 100
 * connections.
 *
 * BENCH_SIZES=120,1000 limits the sizes; BENCH_RUNS sets the runs per size (median reported);
 * BENCH_LIGHTHOUSE=0 leaves Lighthouse out, BENCH_FORMS=0 the forms load; BENCH_ONLY=lighthouse
 * builds the real site and runs only Lighthouse; BENCH_ONLY=forms runs only the forms load;
 * BENCH_ONLY=serving builds the real site and runs only the serving load (BENCH_SERVING=0 skips it);
 * BENCH_ONLY=rates builds the real site with 28 and 90 days of rates and weighs the rate pages.
 */
import { spawn } from 'node:child_process'
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import { createApp } from '../src/server/app'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/support/env'
import { formatFormsLoad, formsLoad } from './forms'
import { generateContent } from './generate-content'
import { belowTarget, formatLighthouse, lighthouseAudit } from './lighthouse'
import { buildRatesSite, formatRatesFigures, ratesFigures } from './rates'
import { formatServing, servingLoad } from './serving'

const ROOT = resolve(import.meta.dirname, '..')
const OUT = join(ROOT, 'bench', 'out')
const sizes = (process.env.BENCH_SIZES ?? '120,1000,10000').split(',').map(Number)
const runs = Number(process.env.BENCH_RUNS ?? 3)

interface BuildRun {
  seconds: number
  peakMb: number
}

function buildOnce(contentDir: string, outDir: string, cacheDir: string): Promise<BuildRun> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['scripts/run.mjs', 'build'], {
      cwd: ROOT,
      env: {
        ...process.env,
        CONTENT_DIR: contentDir,
        OUT_DIR: outDir,
        BUILD_CACHE_DIR: cacheDir,
        BUILD_REPORT_MEMORY: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.on('exit', (code) => {
      const seconds = (performance.now() - started) / 1000
      if (code !== 0) return reject(new Error(`build of ${contentDir} failed:\n${output}`))
      const kb = Number(/peak-rss-kb (\d+)/.exec(output)?.[1] ?? 0)
      resolvePromise({ seconds, peakMb: kb / 1024 })
    })
  })
}

async function directorySize(dir: string): Promise<{ bytes: number; files: number }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  let bytes = 0
  let files = 0
  for (const entry of entries) {
    if (!entry.isFile()) continue
    bytes += (await stat(join(entry.parentPath, entry.name))).size
    files += 1
  }
  return { bytes, files }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10

/**
 * A first build with an empty build cache (as after a code change), then builds after an
 * editor's change to one page (the everyday case: bundles, renderings and PDFs of unchanged
 * code and texts are reused).
 */
async function coldAndWarm(contentDir: string, outDir: string, warmRuns: number) {
  const cacheDir = `${outDir}-cache`
  await rm(cacheDir, { recursive: true, force: true })
  const cold = await buildOnce(contentDir, outDir, cacheDir)
  const page = join(contentDir, 'en', 'pages', 'about.yaml')
  const original = await readFile(page, 'utf8')
  const warm: BuildRun[] = []
  try {
    for (let run = 0; run < warmRuns; run += 1) {
      await writeFile(page, original.replace(/^title: (.*)$/m, `title: $1 (edit ${run + 1})`))
      warm.push(await buildOnce(contentDir, outDir, cacheDir))
    }
  } finally {
    await writeFile(page, original)
  }
  return { cold, warm }
}

const seconds = (value: number) => Math.round(value * 100) / 100

async function scaling() {
  const results = []
  for (const size of sizes) {
    const contentDir = join(OUT, `content-${size}`)
    const outDir = join(OUT, `dist-${size}`)
    const pages = await generateContent(contentDir, size)
    const { cold, warm } = await coldAndWarm(contentDir, outDir, size >= 10000 ? 1 : runs)
    const output = await directorySize(outDir)
    const warmSeconds = median(warm.map((t) => t.seconds))
    const row = {
      pages,
      seconds: seconds(warmSeconds),
      coldSeconds: seconds(cold.seconds),
      msPerPage: Math.round((warmSeconds * 1000 * 100) / pages) / 100,
      peakMemoryMb: Math.round(Math.max(cold.peakMb, ...warm.map((t) => t.peakMb))),
      outputMb: mb(output.bytes),
      files: output.files,
    }
    console.log(
      `build ${pages} pages: ${row.seconds} s after a content edit (${row.msPerPage} ms/page), ${row.coldSeconds} s from an empty cache; peak ${row.peakMemoryMb} MB, output ${row.outputMb} MB in ${row.files} files`,
    )
    results.push(row)
  }
  // Linear growth means a constant cost per added page once the fixed cost (bundling) is paid.
  for (let i = 1; i < results.length; i += 1) {
    const [a, b] = [results[i - 1], results[i]]
    if (!a || !b) continue
    const marginal = ((b.seconds - a.seconds) * 1000) / (b.pages - a.pages)
    console.log(
      `marginal cost ${a.pages} → ${b.pages} pages: ${marginal.toFixed(2)} ms per added page`,
    )
  }
  return results
}

/** The JavaScript a visitor's first load of a content page fetches: entry, its imports and the template. */
async function firstLoadJs(distDir: string, path: string) {
  const html = await readFile(join(distDir, path, 'index.html'), 'utf8')
  const scripts = [
    ...html.matchAll(/<script type="module" src="([^"]+)"/g),
    ...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g),
  ].map((match) => match[1] as string)
  let raw = 0
  let gzip = 0
  let brotli = 0
  for (const script of new Set(scripts)) {
    const data = await readFile(join(distDir, script))
    raw += data.length
    gzip += gzipSync(data, { level: 9 }).length
    brotli += brotliCompressSync(data).length
  }
  return {
    path,
    files: new Set(scripts).size,
    rawKb: kb(raw),
    gzipKb: kb(gzip),
    brotliKb: kb(brotli),
  }
}

/**
 * The JavaScript consent adds beside the page (loaded after hydration, not on the first-load
 * path): its runtime on every visit, and the banner's chunks on a first visit (when it shows).
 */
async function consentJs(distDir: string) {
  const assets = join(distDir, 'assets')
  const names = await readdir(assets)
  const runtime = names.find((name) => /^consent-[\w-]+\.js$/.test(name))
  if (!runtime) throw new Error(`no consent chunk in ${assets}`)
  const code = await readFile(join(assets, runtime), 'utf8')
  // The banner's chunks are the runtime's lazy dependencies, less what the page has (entry).
  const lazy = [
    ...(code.match(/__vite__mapDeps=[^\n]*?\[([^\]]*)\]/)?.[1] ?? '').matchAll(
      /"assets\/([^"]+)"/g,
    ),
  ]
    .map((match) => match[1] as string)
    .filter((name) => !name.startsWith('entry-'))
  const gzip = async (name: string) =>
    gzipSync(await readFile(join(assets, name)), { level: 9 }).length
  const runtimeBytes = await gzip(runtime)
  let bannerBytes = 0
  for (const name of lazy) bannerBytes += await gzip(name)
  return {
    runtimeGzipKb: kb(runtimeBytes),
    bannerGzipKb: kb(bannerBytes),
    firstVisitGzipKb: kb(runtimeBytes + bannerBytes),
    files: [runtime, ...lazy],
  }
}

/** What an exchange-rate page weighs: its HTML, its page data and its template's code. */
async function ratesPageWeight(distDir: string, path: string) {
  const gzip = async (file: string) =>
    gzipSync(await readFile(join(distDir, file)), { level: 9 }).length
  const names = await readdir(join(distDir, 'assets'))
  const template = names.find((name) => /^rates-[\w-]+\.js$/.test(name))
  return {
    path,
    htmlGzipKb: kb(await gzip(join(path, 'index.html'))),
    pageDataGzipKb: kb(await gzip(join('page-data', path, 'page-data.json'))),
    templateGzipKb: template ? kb(await gzip(join('assets', template))) : 0,
  }
}

/** Bytes on the wire for one client navigation from the home page to another page. */
async function navigationBytes(distDir: string, from: string, to: string) {
  const app = await createApp({ root: distDir, logLevel: 'silent' })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' })
    const page = await context.newPage()
    // Data saver keeps prefetching out, so the navigation fetches everything it needs itself.
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: true } }),
    )
    await page.goto(`${address}${from}`)
    await page.waitForLoadState('networkidle')
    const fetched: { url: string; bytes: number }[] = []
    page.on('requestfinished', async (request) => {
      const sizes = await request.sizes()
      fetched.push({
        url: new URL(request.url()).pathname,
        bytes: sizes.responseBodySize + sizes.responseHeadersSize,
      })
    })
    await page.evaluate((target) => {
      const link = document.createElement('a')
      link.href = target
      link.id = 'bench-link'
      link.textContent = 'bench'
      document.body.append(link)
    }, to)
    await page.click('#bench-link')
    await page.waitForURL(`${address}${to}`)
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(200)
    return {
      from,
      to,
      requests: fetched,
      totalKb: kb(fetched.reduce((sum, r) => sum + r.bytes, 0)),
    }
  } finally {
    await browser.close()
    await app.close()
  }
}

/** The pages Lighthouse audits: a home, a service, a blog post, customer information. */
const LIGHTHOUSE_PAGES = [
  '/en/',
  '/en/services/cards/',
  '/blog/designing-idempotent-payment-apis/',
  '/en/customer-information/germany/de-iban/english/',
]

/** Lighthouse (mobile settings) on the built real site, served as `npm start` serves it. */
async function lighthouse(distDir: string) {
  const app = await createApp({ root: distDir, logLevel: 'silent' })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const audits = await lighthouseAudit(address, LIGHTHOUSE_PAGES)
    console.log(`Lighthouse, mobile:\n${formatLighthouse(audits)}`)
    const missed = audits.flatMap((audit) =>
      belowTarget(audit).map((miss) => `${audit.path}: ${miss}`),
    )
    console.log(
      missed.length ? `targets missed:\n  ${missed.join('\n  ')}` : 'all Lighthouse targets met',
    )
    return audits
  } finally {
    await app.close()
  }
}

async function main() {
  await mkdir(OUT, { recursive: true })
  if (process.env.BENCH_ONLY === 'forms') {
    for (const result of await formsLoad()) console.log(formatFormsLoad(result))
    return
  }
  if (process.env.BENCH_ONLY === 'serving') {
    const dist = join(OUT, 'dist-site')
    await buildOnce(join(ROOT, 'content'), dist, join(OUT, 'cache-site'))
    console.log(formatServing(await servingLoad(dist)))
    return
  }
  if (process.env.BENCH_ONLY === 'rates') {
    for (const days of [28, 90]) {
      console.log(formatRatesFigures(await ratesFigures(await buildRatesSite(OUT, days))))
    }
    return
  }
  if (process.env.BENCH_ONLY === 'lighthouse') {
    const dist = join(OUT, 'dist-site')
    await buildOnce(join(ROOT, 'content'), dist, join(OUT, 'cache-site'))
    await lighthouse(dist)
    return
  }
  const scale = await scaling()
  const realDist = join(OUT, 'dist-site')
  const realContent = join(OUT, 'content-site')
  await rm(realContent, { recursive: true, force: true })
  await cp(join(ROOT, 'content'), realContent, { recursive: true })
  const real = await coldAndWarm(realContent, realDist, runs)
  const realWarm = median(real.warm.map((t) => t.seconds))
  const realPeak = Math.max(real.cold.peakMb, ...real.warm.map((t) => t.peakMb))
  const realSize = await directorySize(realDist)
  console.log(
    `real site: ${realWarm.toFixed(2)} s after a content edit, ${real.cold.seconds.toFixed(2)} s from an empty cache; peak ${Math.round(realPeak)} MB, output ${mb(realSize.bytes)} MB`,
  )
  const js = await firstLoadJs(realDist, 'en/about')
  console.log(
    `first-load JavaScript of ${js.path}: ${js.gzipKb} KB gzip (${js.brotliKb} KB brotli, ${js.rawKb} KB raw, ${js.files} files)`,
  )
  const consent = await consentJs(realDist)
  console.log(
    `consent JavaScript beside the page: ${consent.runtimeGzipKb} KB gzip on every visit, ${consent.firstVisitGzipKb} KB on a first visit with the banner (${consent.files.join(', ')})`,
  )
  const ratesPages = [
    await ratesPageWeight(realDist, 'en/exchange-rates'),
    await ratesPageWeight(realDist, 'en/exchange-rates/mastercard'),
  ]
  for (const weight of ratesPages) {
    console.log(
      `${weight.path}: HTML ${weight.htmlGzipKb} KB gzip, page data ${weight.pageDataGzipKb} KB gzip, rates template ${weight.templateGzipKb} KB gzip`,
    )
  }
  console.log(formatRatesFigures(await ratesFigures(realDist)))
  const navigation = await navigationBytes(realDist, '/en/', '/en/about/')
  console.log(
    `one client navigation ${navigation.from} → ${navigation.to}: ${navigation.totalKb} KB in ${navigation.requests.length} requests`,
  )
  for (const request of navigation.requests) console.log(`  ${request.url} ${kb(request.bytes)} KB`)
  const audits = process.env.BENCH_LIGHTHOUSE === '0' ? [] : await lighthouse(realDist)
  const serving = process.env.BENCH_SERVING === '0' ? [] : await servingLoad(realDist)
  if (serving.length) console.log(formatServing(serving))
  const forms = process.env.BENCH_FORMS === '0' ? [] : await formsLoad()
  for (const result of forms) console.log(formatFormsLoad(result))
  const results = {
    date: new Date().toISOString(),
    machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
    scaling: scale,
    realSite: {
      seconds: seconds(realWarm),
      coldSeconds: seconds(real.cold.seconds),
      peakMemoryMb: Math.round(realPeak),
      outputMb: mb(realSize.bytes),
    },
    firstLoadJs: js,
    consentJs: consent,
    ratesPages,
    navigation,
    lighthouse: audits,
    serving,
    formsLoad: forms,
  }
  await writeFile(join(OUT, 'results.json'), `${JSON.stringify(results, null, 2)}\n`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
