/**
 * Lighthouse scores of a few built pages, for `npm run bench`: Lighthouse's default mobile run
 * (Moto G-class viewport, simulated slow 4G and 4x CPU slowdown) in Debian's Chromium.
 */
import type { Flags, Result } from 'lighthouse'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/support/env'

export interface FailedAudit {
  id: string
  title: string
}

export interface LighthouseResult {
  path: string
  /** Category scores, 0–100. */
  performance: number
  accessibility: number
  bestPractices: number
  seo: number
  /** Cumulative layout shift (unitless). */
  cls: number
  lcpMs: number
  /** What the largest paint was (Lighthouse's label of the element): never the cookie banner. */
  lcpElement: string
  tbtMs: number
  /** Why a category is below 100. */
  failedAudits: FailedAudit[]
  /**
   * Lighthouse's benchmark of the machine it ran on (`environment.benchmarkIndex`): its mobile
   * CPU slowdown (4×) is calibrated for about 1,000 and above; below, it warns that the host is
   * slower than it expects, and the blocking time and the performance score suffer for it.
   */
  benchmarkIndex?: number
}

/** Below this benchmark index Lighthouse warns that the host's CPU is slower than it expects. */
export const SLOW_HOST_INDEX = 1000

export const LIGHTHOUSE_TARGETS = {
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  cls: 0,
} as const

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const

/**
 * Audits behind a score below 100. Performance diagnostics carry no weight but say where the
 * time goes, so they count from below 0.9 (Lighthouse's own "pass" mark); in the other
 * categories only weighted audits move the score. Hidden audits duplicate visible ones.
 */
export function failedAudits(lhr: Result): FailedAudit[] {
  const failed = new Map<string, FailedAudit>()
  for (const key of CATEGORIES) {
    for (const ref of lhr.categories[key]?.auditRefs ?? []) {
      if (ref.group === 'hidden' || failed.has(ref.id)) continue
      const audit = lhr.audits[ref.id]
      if (!audit) continue
      if (audit.scoreDisplayMode === 'error') {
        failed.set(ref.id, { id: ref.id, title: `${audit.title} (error: ${audit.errorMessage})` })
        continue
      }
      if (audit.score === null) continue
      const failing = key === 'performance' ? audit.score < 0.9 : ref.weight > 0 && audit.score < 1
      if (failing) failed.set(ref.id, { id: ref.id, title: audit.title })
    }
  }
  return [...failed.values()]
}

/** The label Lighthouse gives the largest-contentful-paint element, or '' without one. */
export function lcpElementOf(lhr: Result): string {
  const details = lhr.audits['largest-contentful-paint-element']?.details as
    | { items?: { items?: { node?: { nodeLabel?: string; selector?: string } }[] }[] }
    | undefined
  const node = details?.items?.[0]?.items?.[0]?.node
  return node?.nodeLabel ?? node?.selector ?? ''
}

/** The figures of one Lighthouse report. */
export function summarise(path: string, lhr: Result): LighthouseResult {
  const score = (key: (typeof CATEGORIES)[number]) =>
    Math.round((lhr.categories[key]?.score ?? 0) * 100)
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
  return {
    path,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    cls: metric('cumulative-layout-shift'),
    lcpMs: Math.round(metric('largest-contentful-paint')),
    lcpElement: lcpElementOf(lhr),
    tbtMs: Math.round(metric('total-blocking-time')),
    failedAudits: failedAudits(lhr),
    benchmarkIndex: Math.round(lhr.environment?.benchmarkIndex ?? Number.NaN),
  }
}

/**
 * Audits `paths` under `origin` one after another in one Chromium. Lighthouse and
 * chrome-launcher are loaded here, not at the top, so that importing the formatting helpers
 * (unit tests, the bench summary) stays cheap and browser-free.
 */
export async function lighthouseAudit(
  origin: string,
  paths: string[],
  runs = 3,
): Promise<LighthouseResult[]> {
  const [{ default: lighthouse }, { launch }] = await Promise.all([
    import('lighthouse'),
    import('chrome-launcher'),
  ])
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    // chrome-launcher's defaults (no extensions, no background throttling, …) stay on:
    // Lighthouse's scores are calibrated against them.
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    logLevel: 'silent',
  })
  try {
    const results: LighthouseResult[] = []
    for (const path of paths) {
      const flags: Flags = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        // Lighthouse's default plus IndexedDB and localStorage: the service worker's cache
        // bookkeeping from one page would otherwise carry over to the next, and every page
        // is meant to be measured as a first visit.
        clearStorageTypes: [
          'file_systems',
          'shader_cache',
          'service_workers',
          'cache_storage',
          'indexeddb',
          'local_storage',
        ],
      }
      // Lighthouse's own advice: its simulated timings follow the machine's, so the median of
      // several runs is the figure, not any one run.
      const measured: LighthouseResult[] = []
      for (let attempt = 0; attempt < runs; attempt++) {
        // A failed load (404, no paint) still yields a report, with meaningless scores. Now
        // and then Chromium's protocol fails on a good page too: one more try tells them apart.
        let run = await lighthouse(new URL(path, origin).href, flags)
        if (run?.lhr.runtimeError) run = await lighthouse(new URL(path, origin).href, flags)
        if (!run) throw new Error(`Lighthouse returned no result for ${path}`)
        const error = run.lhr.runtimeError
        if (error)
          throw new Error(`Lighthouse could not audit ${path}: ${error.code} ${error.message}`)
        measured.push(summarise(path, run.lhr))
      }
      results.push(medianRun(measured))
    }
    return results
  } finally {
    chrome.kill()
  }
}

/** Runs a page from `BENCH_LIGHTHOUSE_RUNS`: 3 unless set, and a whole number of at least 1. */
export function lighthouseRuns(setting: string | undefined): number {
  if (setting === undefined || setting === '') return 3
  const runs = Number(setting)
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`BENCH_LIGHTHOUSE_RUNS must be a whole number of at least 1, not "${setting}"`)
  }
  return runs
}

/** The run in the middle by performance score, then by LCP (the lower middle of an even count). */
export function medianRun(runs: LighthouseResult[]): LighthouseResult {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance || b.lcpMs - a.lcpMs)
  const middle = sorted[Math.floor((sorted.length - 1) / 2)]
  if (!middle) throw new Error('no Lighthouse run to choose from')
  return middle
}

/** Small enough to print unrounded when tiny, so "0.0002 > 0" does not read as "0 > 0". */
const formatCls = (cls: number) => String(Number(cls.toPrecision(2)))

/** The targets a page misses, e.g. "performance 95 < 100". */
export function belowTarget(result: LighthouseResult): string[] {
  const missed: string[] = []
  for (const key of ['performance', 'accessibility', 'bestPractices', 'seo'] as const) {
    if (result[key] < LIGHTHOUSE_TARGETS[key]) {
      missed.push(`${key} ${result[key]} < ${LIGHTHOUSE_TARGETS[key]}`)
    }
  }
  // Negated so that a missing measurement (NaN) counts as a miss.
  if (!(result.cls <= LIGHTHOUSE_TARGETS.cls)) {
    missed.push(`cls ${formatCls(result.cls)} > ${LIGHTHOUSE_TARGETS.cls}`)
  }
  return missed
}

const row = (cells: (string | number)[]) =>
  `| ${cells.map((c) => String(c).replaceAll('|', '\\|')).join(' | ')} |`

/** A Markdown table of the scores, then each page's missed targets and failed audits. */
export function formatLighthouse(results: LighthouseResult[]): string {
  const lines = [
    row([
      'Page',
      'Performance',
      'Accessibility',
      'Best practices',
      'SEO',
      'CLS',
      'LCP',
      'TBT',
      'LCP element',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
    ...results.map((r) =>
      row([
        `\`${r.path}\``,
        r.performance,
        r.accessibility,
        r.bestPractices,
        r.seo,
        formatCls(r.cls),
        `${r.lcpMs} ms`,
        `${r.tbtMs} ms`,
        r.lcpElement.slice(0, 60),
      ]),
    ),
  ]
  const indexes = results
    .map((result) => result.benchmarkIndex)
    .filter((index): index is number => index !== undefined && Number.isFinite(index))
    .sort((a, b) => a - b)
  if (indexes.length > 0) {
    const middle = indexes[Math.floor((indexes.length - 1) / 2)] as number
    lines.push(
      '',
      `This machine's benchmark index (Lighthouse's): ${indexes[0]}–${indexes.at(-1)}, median ${middle}${middle < SLOW_HOST_INDEX ? `, below the ${SLOW_HOST_INDEX} its mobile CPU slowdown is calibrated for: blocking time and performance read worse than on the machines it expects` : ''}`,
    )
  }
  for (const result of results) {
    const missed = belowTarget(result)
    if (missed.length === 0 && result.failedAudits.length === 0) continue
    lines.push('', `\`${result.path}\`${missed.length > 0 ? ` misses ${missed.join(', ')}` : ''}`)
    for (const audit of result.failedAudits) lines.push(`- \`${audit.id}\`: ${audit.title}`)
  }
  return lines.join('\n')
}
