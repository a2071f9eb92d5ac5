/**
 * `npm run bench`: every figure the project has a target for, measured on this machine and
 * printed beside its target, with the misses marked.
 *
 * - Builds: generated content (120, 1,000 and 10,000 pages, half English, half German) and the
 *   real site, each from an empty build cache (cold) and after an editor's change (warm), with
 *   the cold build's profile per phase.
 * - Browser code: first-load JavaScript of a content page and a form page, chunk by chunk with
 *   the modules in each; the consent code beside the page; the bytes of one client navigation.
 * - Search: the bytes from pressing `/` to the first result, in each language, and the index's
 *   size (`bench/search.ts`).
 * - Exchange rates: the rate pages' page data and the history files loaded on demand, with the
 *   stored 28 days and with a generated 90-day file (`bench/rates.ts`).
 * - Lighthouse (mobile) on six pages of the real site, built without tracker IDs and with them
 *   (so that a first visit shows the consent banner).
 * - Static serving (`bench/serving.ts`): `npm start` beside nginx; the forms service under
 *   load (`bench/forms.ts`) on PGlite and PostgreSQL.
 *
 * `npm run bench -- --json` prints the figures as JSON on stdout (the rest goes to stderr), to
 * keep for a comparison; `--baseline file.json` prints an earlier run's values beside today's.
 * Every run also writes bench/out/results.json.
 *
 * BENCH_SIZES=120,1000 limits the sizes; BENCH_RUNS sets the warm runs per size (median);
 * BENCH_LIGHTHOUSE_RUNS the Lighthouse runs per page (3; the median run counts);
 * BENCH_LIGHTHOUSE=0, BENCH_SERVING=0, BENCH_FORMS=0 and BENCH_PUBLISH=0 leave those parts out;
 * BENCH_ONLY=pairs|builds|javascript|search|rates|lighthouse|serving|metrics|forms|publish|anchor|memory runs one part (the
 * parts after the builds build the real site first).
 * - Publishing (`bench/publish.ts`): Publish pressed in the editor → the changed page served.
 * - Metrics (`bench/metrics-cost.ts`): serving and sign-ups with the operators' metrics on
 *   against off (`BENCH_METRICS=0` leaves it out).
 * - Memory (`bench/memory.ts`): each role alone as production runs it, the site with the forms
 *   service idle, under load and after, the publishing service idle and after each of 20
 *   publications (`BENCH_MEMORY=0` leaves it out, `BENCH_MEMORY_PUBLICATIONS` sets the count).
 * - Pairs (first): the build of 120 pages against Astro's from the same content, with the code
 *   compiled and on a fresh clone (`bench/peers.ts`); the real site's cold build against an
 *   earlier commit's (`bench/pairs.ts`). `BENCH_PAIRS=0` leaves them out.
 */
import { execFileSync } from 'node:child_process'
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { cpus } from 'node:os'
import { join, resolve } from 'node:path'
import { formatProfile } from '../src/engine/timeline'
import { createApp } from '../src/server/app'
import { anchorCost, formatAnchorCost, quantile } from './anchor'
import { buildOnce, coldAndWarm, directorySize, median } from './builds'
import { atLeast, atMost, below, type Figure, formatFigures, type Report } from './figures'
import { FORMS_TARGETS, formatFormsLoad, formsLoad } from './forms'
import { generateContent } from './generate-content'
import {
  consentJs,
  firstLoadJs,
  formatFirstLoad,
  kb,
  navigationBytes,
  readChunkReport,
} from './javascript'
import { formatLighthouse, LIGHTHOUSE_TARGETS, lighthouseAudit, lighthouseRuns } from './lighthouse'
import {
  formatPublishingMemory,
  formatSiteMemory,
  MEMORY_TARGETS,
  publishingMemory,
  siteMemory,
} from './memory'
import { formatCost, servingCost, signUpCost } from './metrics-cost'
import { formatNginxPair, nginxAgainstCommit } from './nginx-pair'
import { againstCommit, type Pair } from './pairs'
import { againstAstro } from './peers'
import { formatPublish, publishTimes } from './publish'
import { buildRatesSite, formatRatesFigures, type RatesFigures, ratesFigures } from './rates'
import { indexSizes, searchBytes } from './search'
import { formatServing, servingLoad } from './serving'

const ROOT = resolve(import.meta.dirname, '..')
const OUT = join(ROOT, 'bench', 'out')
/** Build caches must be inside the project: the cached server bundle resolves React there. */
const CACHES = join(ROOT, '.cache', 'bench')
const sizes = (process.env.BENCH_SIZES ?? '120,1000,10000').split(',').map(Number)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const only = process.env.BENCH_ONLY
const json = process.argv.includes('--json')
const baselineAt = process.argv.indexOf('--baseline')
const baselineFile = baselineAt > 0 ? process.argv[baselineAt + 1] : undefined
/** With --json, stdout carries the JSON alone. */
const log = json ? console.error : console.log

const figures: Figure[] = []
const details: Record<string, unknown> = {}
const add = (figure: Figure) => {
  figures.push(figure)
  return figure
}
const wanted = (part: string) => !only || only === part
const skipped = (variable: string) => process.env[variable] === '0'
const round2 = (value: number) => Math.round(value * 100) / 100

/**
 * Cold-build targets by page count (the project's build-time targets, docs/benchmarks.md); the
 * 1,000-page build is measured for scaling.
 */
const COLD_TARGETS: Record<number, number> = { 120: 1.5, 10000: 12 }
const WARM_TARGETS: Record<number, number> = { 120: 2, 10000: 8 }
const PEAK_MEMORY_MB = 1024

async function builds() {
  const rows: { pages: number; warm: number }[] = []
  for (const size of sizes) {
    const contentDir = join(OUT, `content-${size}`)
    const outDir = join(OUT, `dist-${size}`)
    const pages = await generateContent(contentDir, size)
    const { cold, warm } = await coldAndWarm(
      contentDir,
      outDir,
      join(CACHES, `cache-${size}`),
      size >= 10000 ? 1 : runs,
    )
    const output = await directorySize(outDir)
    const warmSeconds = median(warm.map((run) => run.seconds))
    const peak = Math.max(cold.peakMb, ...warm.map((run) => run.peakMb))
    add({
      id: `build.cold.${pages}`,
      label: `build, ${pages} pages, empty cache`,
      value: round2(cold.seconds),
      unit: 's',
      ...(COLD_TARGETS[pages] ? { target: atMost(COLD_TARGETS[pages]) } : {}),
    })
    add({
      id: `build.warm.${pages}`,
      label: `build, ${pages} pages, after a content edit`,
      value: round2(warmSeconds),
      unit: 's',
      ...(WARM_TARGETS[pages] ? { target: atMost(WARM_TARGETS[pages]) } : {}),
      note: `median of ${warm.length}; ${round2((warmSeconds * 1000) / pages)} ms/page`,
    })
    add({
      id: `build.peak.${pages}`,
      label: `build, ${pages} pages, peak memory`,
      value: Math.round(peak),
      unit: 'MB',
      ...(pages >= 10000 ? { target: atMost(PEAK_MEMORY_MB) } : {}),
      note: `output ${Math.round(output.bytes / 1024 / 102.4) / 10} MB in ${output.files} files`,
    })
    log(`build ${pages} pages: cold ${round2(cold.seconds)} s, warm ${round2(warmSeconds)} s`)
    log(indent(formatProfile(cold.profile)))
    details[`build.${pages}`] = { cold, warm }
    rows.push({ pages, warm: warmSeconds })
  }
  // A constant cost per added page once the fixed cost (bundling) is paid.
  for (let i = 1; i < rows.length; i += 1) {
    const [a, b] = [rows[i - 1], rows[i]]
    if (!a || !b) continue
    add({
      id: `build.marginal.${a.pages}-${b.pages}`,
      label: `build, cost per added page ${a.pages} → ${b.pages}`,
      value: round2(((b.warm - a.warm) * 1000) / (b.pages - a.pages)),
      unit: 'ms',
    })
  }
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')

/** The real site, from an empty cache and after an edit; returns its output and cache. */
async function realSite(measure: boolean) {
  const dist = join(OUT, 'dist-site')
  const cache = join(CACHES, 'cache-site')
  if (!measure) {
    await buildOnce(join(ROOT, 'content'), dist, cache)
    return { dist, cache }
  }
  const content = join(OUT, 'content-site')
  await rm(content, { recursive: true, force: true })
  await cp(join(ROOT, 'content'), content, { recursive: true })
  // As `npm run build` writes it for static hosts: with its compressed twins, timed apart.
  const { cold, warm } = await coldAndWarm(content, dist, cache, runs, { twins: true })
  const output = await directorySize(dist)
  // The site's generation, the twins' pass after it left out (its own figure below).
  const warmSeconds = median(warm.map((run) => run.seconds - (run.twinsSeconds ?? 0)))
  add({
    id: 'build.cold.site',
    label: 'build, the real site, empty cache (before its twins)',
    value: round2(cold.seconds - (cold.twinsSeconds ?? 0)),
    unit: 's',
    target: atMost(3.5),
    note: `${Math.round(cold.profile.cpuMs)} ms CPU`,
  })
  add({
    id: 'build.warm.site',
    label: 'build, the real site, after a content edit (before its twins)',
    value: round2(warmSeconds),
    unit: 's',
    note: `median of ${warm.length}; peak ${Math.round(Math.max(cold.peakMb, ...warm.map((run) => run.peakMb)))} MB; output ${Math.round(output.bytes / 1024 / 102.4) / 10} MB`,
  })
  const warmTwins = median(warm.map((run) => run.twinsSeconds ?? Number.NaN))
  add({
    id: 'build.twins.site',
    label: 'build, the real site, its compressed twins (Brotli 11, gzip 9), empty store',
    value: round2(cold.twinsSeconds ?? Number.NaN),
    unit: 's',
    note: `part of the cold build; after an edit ${round2(warmTwins)} s (the rest from the store)`,
  })
  log(`real site: cold ${round2(cold.seconds)} s, warm ${round2(warmSeconds)} s`)
  log(indent(formatProfile(cold.profile)))
  details['build.site'] = { cold, warm }
  return { dist, cache }
}

async function javascript(dist: string, cache: string) {
  const report = await readChunkReport(cache)
  const pages = [
    { id: 'content', path: 'en/about', target: 70, label: 'a content page' },
    { id: 'form', path: 'en/newsletter', target: 74, label: 'a form page' },
  ]
  let contentPageScripts: string[] = []
  for (const page of pages) {
    const load = await firstLoadJs(dist, page.path, report)
    if (page.id === 'content') contentPageScripts = load.chunks.map((chunk) => chunk.file)
    add({
      id: `js.first-load.${page.id}`,
      label: `first-load JavaScript, ${page.label} (/${page.path}/)`,
      value: load.gzipKb,
      unit: 'KB gzip',
      target: atMost(page.target),
      note: `${load.brotliKb} KB Brotli, ${load.chunks.length} files`,
    })
    log(formatFirstLoad(load))
    details[`js.first-load.${page.id}`] = load
  }
  const consent = await consentJs(dist, contentPageScripts)
  add({
    id: 'js.consent.first-visit',
    label: 'consent code beside the page, first visit with the banner',
    value: consent.firstVisitGzipKb,
    unit: 'KB gzip',
    target: atMost(5.5),
    note: `${consent.runtimeGzipKb} KB on later visits`,
  })
  const navigation = await navigationBytes(dist, '/en/', '/en/about/')
  add({
    id: 'js.navigation',
    label: 'one client navigation /en/ → /en/about/',
    value: navigation.totalKb,
    unit: 'KB',
    target: atMost(5.6),
    note: `${navigation.requests.length} requests`,
  })
  for (const request of navigation.requests) log(`  ${request.url} ${kb(request.bytes)} KB`)
  details['js.navigation'] = navigation
}

/** The site search: the bytes from the key to the first result, per language. */
async function search(dist: string) {
  const measured = await searchBytes(dist, [
    { path: '/en/', query: 'block card' },
    { path: '/de/', query: 'Karte sperren' },
  ])
  for (const run of measured) {
    add({
      id: `search.first-result.${run.language}`,
      label: `search, bytes to the first result, "${run.query}" on /${run.language}/`,
      value: run.totalKb,
      unit: 'KB',
      note: `${run.requests.length} requests, ${run.milliseconds} ms here; Pagefind 1.6 on this site: 110+ KB`,
    })
    for (const request of run.requests) log(`  ${request.url} ${kb(request.bytes)} KB`)
    details[`search.first-result.${run.language}`] = run
  }
  for (const size of await indexSizes(dist)) {
    log(
      `search index ${size.language}: ${size.pages} pages, ${size.terms} words, ${size.chunks} chunks; index ${size.indexKb} KB, files ${size.filesKb} KB (Brotli)`,
    )
    details[`search.index.${size.language}`] = size
  }
}

/** The target for the Mastercard page's page data in either language: it holds the latest day only. */
const RATES_PAGE_DATA_KB = 4

async function rates(dist: string) {
  const measured: [number, RatesFigures][] = [
    [28, await ratesFigures(dist)],
    [90, await ratesFigures(await buildRatesSite(CACHES, 90))],
  ]
  for (const [days, figures] of measured) {
    log(formatRatesFigures(figures))
    details[`rates.${days}`] = figures
    for (const language of ['en', 'de']) {
      add({
        id: `rates.page-data.${days}.${language}`,
        label: `Mastercard page data, ${days} days of rates, /${language}/`,
        value: figures.pageDataGzipKb[`${language}/exchange-rates/mastercard`] ?? Number.NaN,
        unit: 'KB gzip',
        target: atMost(RATES_PAGE_DATA_KB),
        note: `ECB page ${figures.pageDataGzipKb[`${language}/exchange-rates`]} KB (charts drawn at build time)`,
      })
    }
    add({
      id: `rates.history.${days}`,
      label: `one currency's history on demand, ${days} days`,
      value: figures.history.oneCurrencyGzipKb,
      unit: 'KB gzip',
      note: `${figures.history.files} files, largest ${figures.history.maxGzipKb} KB (${figures.history.largest})`,
    })
  }
}

/** The pages Lighthouse audits. */
const LIGHTHOUSE_PAGES = [
  '/en/',
  '/de/',
  '/en/services/cards/',
  '/blog/designing-idempotent-payment-apis/',
  '/en/customer-information/germany/de-iban/english/',
  '/en/exchange-rates/mastercard/',
]
/** Stand-in IDs: the trackers are configured, so the banner shows, but never load (no consent). */
const TRACKER_IDS = {
  GTM_ID: 'GTM-BENCH01',
  GA_MEASUREMENT_ID: 'G-BENCH00001',
  ADS_IDS: 'AW-1234567890',
  LINKEDIN_PARTNER_ID: '123456',
  TWITTER_PIXEL_ID: 'obench',
}

async function lighthouse(dist: string) {
  const tracked = join(OUT, 'dist-site-tracked')
  // The same site built with tracker IDs: every first visit shows the consent banner.
  const saved = { ...process.env }
  Object.assign(process.env, TRACKER_IDS)
  try {
    await buildOnce(join(ROOT, 'content'), tracked, join(CACHES, 'cache-site-tracked'))
  } finally {
    for (const name of Object.keys(TRACKER_IDS)) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
  }
  for (const [variant, root] of [
    ['without trackers', dist],
    ['with trackers (banner shown)', tracked],
  ] as const) {
    const app = await createApp({ root, logLevel: 'silent' })
    const origin = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const audits = await lighthouseAudit(
        origin,
        LIGHTHOUSE_PAGES,
        lighthouseRuns(process.env.BENCH_LIGHTHOUSE_RUNS),
      )
      log(`Lighthouse, mobile, ${variant}:\n${formatLighthouse(audits)}`)
      details[`lighthouse.${variant}`] = audits
      for (const audit of audits) {
        const scores = `${audit.performance} / ${audit.accessibility} / ${audit.bestPractices} / ${audit.seo}`
        add({
          id: `lighthouse.${variant.split(' ')[0]}.${audit.path}.performance`,
          label: `Lighthouse performance, ${audit.path}, ${variant}`,
          value: audit.performance,
          unit: '',
          target: atLeast(LIGHTHOUSE_TARGETS.performance),
          note: `all four ${scores}; LCP ${audit.lcpMs} ms (${audit.lcpElement.slice(0, 40)}), TBT ${audit.tbtMs} ms, CLS ${Number(audit.cls.toPrecision(2))}; host benchmark index ${audit.benchmarkIndex}`,
        })
        const others = Math.min(audit.accessibility, audit.bestPractices, audit.seo)
        add({
          id: `lighthouse.${variant.split(' ')[0]}.${audit.path}.others`,
          label: `Lighthouse accessibility, best practices, SEO (lowest), ${audit.path}, ${variant}`,
          value: others,
          unit: '',
          target: atLeast(100),
        })
        add({
          id: `lighthouse.${variant.split(' ')[0]}.${audit.path}.cls`,
          label: `layout shift, ${audit.path}, ${variant}`,
          value: audit.cls,
          unit: '',
          target: atMost(LIGHTHOUSE_TARGETS.cls),
        })
      }
    } finally {
      await app.close()
    }
  }
}

async function serving(dist: string) {
  const results = await servingLoad(dist)
  log(formatServing(results))
  details.serving = results
  for (const result of results) {
    add({
      id: `serving.${result.server}.${result.path}`,
      label: `static serving at 100 connections, ${result.path}, ${result.server}`,
      value: result.requestsPerSecond,
      unit: 'requests/s',
      note: `p99 ${result.p99Ms} ms`,
    })
  }
  const baseline = process.env.BENCH_BASELINE ?? '4a801f7'
  const pair = await nginxAgainstCommit(baseline)
  if (typeof pair === 'string') {
    log(`nginx against ${baseline} skipped: ${pair}`)
    return
  }
  log(formatNginxPair(pair))
  details['serving.nginx.pair'] = pair
  for (const coding of ['br', 'gzip'] as const) {
    add({
      id: `serving.nginx.pair.${coding}`,
      label: `nginx, /en/ as ${coding}, against ${baseline} (paired, wrk)`,
      value: Number((pair.ours[coding] / pair.theirs[coding]).toFixed(2)),
      unit: '×',
      target: atLeast(0.9),
      note: `${pair.ours[coding]} requests/s against ${pair.theirs[coding]}`,
    })
  }
}

async function forms() {
  const results = await formsLoad()
  details.forms = results
  for (const result of results) {
    log(formatFormsLoad(result))
    const target = FORMS_TARGETS[result.database]
    add({
      id: `forms.${result.database}.rate`,
      label: `forms service on ${result.database}, sign-ups at 50 connections`,
      value: result.signUpsPerSecond,
      unit: '/s',
      target: atLeast(target.perSecond),
      note: `sender ${result.mailsPerSecond} mails/s`,
    })
    add({
      id: `forms.${result.database}.p99`,
      label: `forms service on ${result.database}, p99 latency`,
      value: result.latencyMs.p99,
      unit: 'ms',
      target: atMost(target.p99Ms),
    })
  }
}

/** What the operators' metrics cost: throughput with them on against off (target: at least 0.95×). */
async function metricsCosts(dist: string) {
  const serving = await servingCost(dist)
  const signUps = await signUpCost()
  details.metrics = { serving, signUps }
  log(formatCost('static serving with metrics', serving))
  log(formatCost('sign-ups with metrics', signUps))
  add({
    id: 'metrics.serving',
    label: 'static serving of /en/ with the metrics on, against off (npm start)',
    value: serving.ratio,
    unit: '×',
    target: atLeast(0.95),
    note: `${Math.round(serving.on.reduce((a, b) => a + b, 0) / serving.on.length)} against ${Math.round(serving.off.reduce((a, b) => a + b, 0) / serving.off.length)} requests/s, in turn`,
  })
  add({
    id: 'metrics.signUps',
    label: 'sign-ups with the metrics on, against off (PGlite)',
    value: signUps.ratio,
    unit: '×',
    target: atLeast(0.95),
    note: `${Math.round(signUps.on.reduce((a, b) => a + b, 0) / signUps.on.length)} against ${Math.round(signUps.off.reduce((a, b) => a + b, 0) / signUps.off.length)} /s, in turn`,
  })
}

async function publishing() {
  const figures = await publishTimes(Number(process.env.BENCH_PUBLISH_RUNS ?? 7))
  details.publish = figures
  log(formatPublish(figures))
  add({
    id: 'publish.median',
    label: 'Publish pressed → changed page served (real site), median',
    value: figures.medianMs / 1000,
    unit: 's',
    target: atMost(0.5),
    note: `${figures.runsMs.length} runs, ${(Math.min(...figures.runsMs) / 1000).toFixed(2)}–${(figures.maxMs / 1000).toFixed(2)} s, the release built ahead at the approval; the request ${(figures.requestMedianMs / 1000).toFixed(2)} s`,
  })
  add({
    id: 'publish.at-once',
    label: 'the same, pressed the moment the approval answered, median',
    value: figures.atOnceMedianMs / 1000,
    unit: 's',
    target: atMost(0.5),
    note: `${figures.atOnceMs.length} runs, ${(Math.min(...figures.atOnceMs) / 1000).toFixed(2)}–${(Math.max(...figures.atOnceMs) / 1000).toFixed(2)} s: the publication waits for the release built ahead`,
  })
  add({
    id: 'publish.first',
    label: 'Publish pressed → changed page served, first after the service started',
    value: figures.firstMs / 1000,
    unit: 's',
    target: atMost(3),
    note: 'after npm start’s own build, as in production',
  })
  add({
    id: 'publish.twins',
    label: 'changed page served → its compressed twins written (background), slowest run',
    value: Math.max(...figures.twinsMs) / 1000,
    unit: 's',
    target: atMost(2),
    note: `median ${(median(figures.twinsMs) / 1000).toFixed(2)} s`,
  })
}

/** Each role alone, as production runs it: the site with the forms service, the publishing service. */
async function memory(dist: string) {
  const site = await siteMemory(dist)
  details['memory.site'] = site
  log(formatSiteMemory(site))
  const how = `NODE_OPTIONS of site.yaml (${site.nodeOptions || 'none'})${site.database === 'pglite' ? '; PGlite: no PostgreSQL given' : ''}`
  add({
    id: 'memory.site.idle',
    label: 'site role with the forms service, RSS idle after its start',
    value: site.idleMb,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.siteMb),
    note: `start with PUBLISHING=off on a release of the real site, ${how}`,
  })
  add({
    id: 'memory.site.load',
    label: 'site role with the forms service, RSS under load (median)',
    value: site.loadMb,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.siteMb),
    note: `${site.pages} pages and page data at 50 connections, ${site.requestsPerSecond}/s; sign-ups at 10, ${site.signUpsPerSecond}/s`,
  })
  add({
    id: 'memory.site.peak',
    label: 'site role with the forms service, RSS peak under load',
    value: site.peakMb,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.siteMb),
  })
  add({
    id: 'memory.site.after',
    label: 'site role with the forms service, RSS after the load',
    value: site.afterMb,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.siteMb),
  })
  add({
    id: 'memory.site.build-start',
    label: 'site role started without a release, RSS peak of its start-up build',
    value: site.buildStartPeakMb,
    unit: 'MiB',
    note: `the build in a process of its own; idle after it ${site.buildStartIdleMb} MiB`,
  })
  const publishing = await publishingMemory(Number(process.env.BENCH_MEMORY_PUBLICATIONS ?? 20))
  if (typeof publishing === 'string') {
    log(`publishing service's memory skipped: ${publishing}`)
    return
  }
  details['memory.publishing'] = publishing
  log(formatPublishingMemory(publishing))
  const runs = publishing.afterMb.length
  add({
    id: 'memory.publishing.idle',
    label: 'publishing service, RSS idle after its start',
    value: publishing.idleMb,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.publishingMb),
    note: `serve-cms, NODE_OPTIONS of publishing.yaml (${publishing.nodeOptions || 'none'}); its start, the first release built and its twins written, peaks at ${publishing.startPeakMb} MiB`,
  })
  add({
    id: 'memory.publishing.first',
    label: 'publishing service, RSS after 1 publication',
    value: publishing.afterMb[0] ?? Number.NaN,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.publishingMb),
  })
  add({
    id: 'memory.publishing.last',
    label: `publishing service, RSS after ${runs} publications`,
    value: publishing.afterMb.at(-1) ?? Number.NaN,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.publishingMb),
    note: `after each: ${publishing.afterMb.join(', ')}`,
  })
  add({
    id: 'memory.publishing.peak',
    label: 'publishing service, RSS peak over the publications',
    value: publishing.peakMb,
    unit: 'MiB',
    target: atMost(MEMORY_TARGETS.publishingMb),
    note: 'the service, a build, git',
  })
  add({
    id: 'memory.publishing.growth',
    label: `publishing service, RSS after ${runs} publications over the highest after 2–5`,
    value: publishing.growth,
    unit: '×',
    target: atMost(MEMORY_TARGETS.growth),
    note: 'flat: no growth after the first beyond a noise margin of 10 %',
  })
  add({
    id: 'memory.publishing.publish',
    label: 'publishing service, Publish pressed to its answer (median)',
    value: median(publishing.publicationMs) / 1000,
    unit: 's',
    note: `serve-cms as in production; ${publishing.publicationMs.length} publications, ${(Math.min(...publishing.publicationMs) / 1000).toFixed(2)}–${(Math.max(...publishing.publicationMs) / 1000).toFixed(2)} s`,
  })
}

async function anchoring() {
  const cost = await anchorCost(Number(process.env.BENCH_ANCHOR_RUNS ?? 100))
  details.anchor = cost
  log(formatAnchorCost(cost))
  add({
    id: 'audit.anchor',
    label: 'audit trail anchored before an approval’s answer (a checkpoint), median',
    value: round2(quantile(cost.checkpointMs, 0.5)),
    unit: 'ms',
    target: atMost(100),
    note: `p90 ${quantile(cost.checkpointMs, 0.9).toFixed(1)} ms; the entry's own append ${quantile(cost.appendMs, 0.5).toFixed(1)} ms`,
  })
}

/** The paired figures: the build against Astro's (two pairs), the real site against a baseline. */
async function pairs() {
  const runs = Number(process.env.BENCH_PAIR_RUNS ?? 5)
  const astro = await againstAstro(runs)
  if (typeof astro === 'string') log(`builds against Astro skipped: ${astro}`)
  else {
    details['pair.astro'] = astro
    const { codeCompiled, freshClone, outputs } = astro
    log(`120 pages against Astro 7's, on Node ${astro.node}:`)
    log(`  ${formatPair('code compiled', 'Astro', codeCompiled)}`)
    log(`  ${formatPair('fresh clone', 'Astro', freshClone)}`)
    log(
      `  output: ours ${outputs.ours.pages} HTML pages, ${outputs.ours.files} files, ${outputs.ours.megabytes} MB; Astro ${outputs.astro.pages}, ${outputs.astro.files}, ${outputs.astro.megabytes} MB`,
    )
    add({
      id: 'pair.astro.wall',
      label: 'build, 120 pages, code compiled, wall time against Astro’s (paired)',
      value: codeCompiled.ratio.wall,
      unit: '×',
      target: atMost(1),
      note: `${codeCompiled.a.wall} s against ${codeCompiled.b.wall} s, median of ${codeCompiled.runs}`,
    })
    add({
      id: 'pair.astro.cpu',
      label: 'build, 120 pages, code compiled, CPU time against Astro’s (paired)',
      value: codeCompiled.ratio.cpu,
      unit: '×',
      target: atMost(1),
      note: `${codeCompiled.a.cpu} s against ${codeCompiled.b.cpu} s`,
    })
    add({
      id: 'pair.astro.peak',
      label: 'build, 120 pages, code compiled, peak memory (Astro’s the target)',
      value: codeCompiled.a.peakMib,
      unit: 'MiB',
      target: atMost(codeCompiled.b.peakMib),
    })
    add({
      id: 'pair.astro.fresh.wall',
      label: 'build, 120 pages, fresh clone, wall time against Astro’s (paired)',
      value: freshClone.ratio.wall,
      unit: '×',
      target: below(1),
      note: `${freshClone.a.wall} s against ${freshClone.b.wall} s, median of ${freshClone.runs}`,
    })
    add({
      id: 'pair.astro.fresh.cpu',
      label: 'build, 120 pages, fresh clone, CPU time against Astro’s (paired)',
      value: freshClone.ratio.cpu,
      unit: '×',
      target: atMost(1.2),
      note: `${freshClone.a.cpu} s against ${freshClone.b.cpu} s; peak ${freshClone.a.peakMib} MiB against ${freshClone.b.peakMib}`,
    })
  }
  const baseline = process.env.BENCH_BASELINE ?? '4a801f7'
  const site = await againstCommit(baseline, runs)
  if (typeof site === 'string') log(`real site against ${baseline} skipped: ${site}`)
  else {
    details['pair.baseline'] = site
    log(formatPair('the real site, cold', baseline, site))
    add({
      id: 'pair.baseline.wall',
      label: `build, the real site, empty cache, against ${baseline} (paired)`,
      value: site.ratio.wall,
      unit: '×',
      target: atMost(0.7),
      note: `${site.a.wall} s against ${site.b.wall} s; CPU ${site.ratio.cpu}×`,
    })
    add({
      id: 'pair.baseline.peak',
      label: 'build, the real site, empty cache, peak memory',
      value: site.a.peakMib,
      unit: 'MiB',
      target: atMost(600),
      note: `${baseline}: ${site.b.peakMib} MiB`,
    })
  }
}

const formatPair = (what: string, other: string, pair: Pair) =>
  `${what}: ${pair.a.wall} s wall, ${pair.a.cpu} s CPU, ${pair.a.peakMib} MiB; ${other} ${pair.b.wall} s, ${pair.b.cpu} s, ${pair.b.peakMib} MiB (median of ${pair.runs}; ${pair.ratio.wall}× wall, ${pair.ratio.cpu}× CPU)`

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' })
      .trim()
      .concat(execFileSync('git', ['status', '--porcelain'], { cwd: ROOT }).length ? '+' : '')
  } catch {
    return 'unknown'
  }
}

async function main() {
  await mkdir(OUT, { recursive: true })
  // The paired figures first, on a quiet disk: the other parts create and delete some 100,000
  // files in the project's folder, where both sides of a pair build, and on a file system whose
  // new files cost time for every file deleted there in the last minute (ext4 without a
  // journal, as here) that would weigh on whichever side runs after them.
  if (wanted('pairs') && !skipped('BENCH_PAIRS')) await pairs()
  if (wanted('builds')) await builds()
  const needsSite = [
    'builds',
    'javascript',
    'search',
    'rates',
    'lighthouse',
    'serving',
    'metrics',
  ].some(wanted)
  let site: { dist: string; cache: string } | undefined
  if (needsSite) {
    site = await realSite(wanted('builds'))
    const { dist, cache } = site
    if (wanted('javascript')) await javascript(dist, cache)
    if (wanted('search')) await search(dist)
    if (wanted('rates')) await rates(dist)
    if (wanted('lighthouse') && !skipped('BENCH_LIGHTHOUSE')) await lighthouse(dist)
    if (wanted('serving') && !skipped('BENCH_SERVING')) await serving(dist)
    if (wanted('metrics') && !skipped('BENCH_METRICS')) await metricsCosts(dist)
  }
  if (wanted('forms') && !skipped('BENCH_FORMS')) await forms()
  if (wanted('publish') && !skipped('BENCH_PUBLISH')) await publishing()
  if (wanted('anchor') && !skipped('BENCH_ANCHOR')) await anchoring()
  if (wanted('memory') && !skipped('BENCH_MEMORY')) {
    await memory((site ?? (await realSite(false))).dist)
  }

  const report: Report = {
    date: new Date().toISOString(),
    commit: commit(),
    machine: { cpus: cpus().length, node: process.version },
    figures,
    details,
  }
  const baseline = baselineFile
    ? (JSON.parse(await readFile(baselineFile, 'utf8')) as Report).figures
    : undefined
  log(`\n${formatFigures(figures, baseline)}`)
  await writeFile(join(OUT, 'results.json'), `${JSON.stringify(report, null, 2)}\n`)
  if (json) console.log(JSON.stringify(report, null, 2))
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
