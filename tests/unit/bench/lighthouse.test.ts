import type { Result } from 'lighthouse'
import { describe, expect, it } from 'vitest'
import {
  belowTarget,
  failedAudits,
  formatLighthouse,
  type LighthouseResult,
  lighthouseRuns,
  medianRun,
} from '../../../bench/lighthouse'

const perfect: LighthouseResult = {
  path: '/en/',
  performance: 100,
  accessibility: 100,
  bestPractices: 100,
  seo: 100,
  cls: 0,
  lcpMs: 1200,
  lcpElement: 'p.lead',
  tbtMs: 0,
  failedAudits: [],
}

const flawed: LighthouseResult = {
  path: '/en/services/cards/',
  performance: 95,
  accessibility: 92,
  bestPractices: 100,
  seo: 91,
  cls: 0.0002,
  lcpMs: 2804,
  lcpElement: 'h1',
  tbtMs: 40,
  failedAudits: [
    { id: 'color-contrast', title: 'Background and foreground colors do not have enough contrast' },
    { id: 'canonical', title: 'Document does not have a valid `rel=canonical`' },
  ],
}

describe('medianRun', () => {
  it('takes the run in the middle by score, then by LCP, so one slow or fast run decides nothing', () => {
    const slow = { ...perfect, performance: 98, lcpMs: 1900 }
    const middle = { ...perfect, performance: 100, lcpMs: 1500 }
    const fast = { ...perfect, performance: 100, lcpMs: 1300 }
    expect(medianRun([fast, slow, middle])).toBe(middle)
    expect(medianRun([slow, slow, fast])).toBe(slow)
    expect(medianRun([perfect])).toBe(perfect)
    expect(() => medianRun([])).toThrow()
  })
})

describe('lighthouseRuns', () => {
  it('is 3 unless set, and refuses what is not a whole number of at least 1, saying which setting', () => {
    expect(lighthouseRuns(undefined)).toBe(3)
    expect(lighthouseRuns('')).toBe(3)
    expect(lighthouseRuns('5')).toBe(5)
    for (const bad of ['0', '-1', '2.5', 'three']) {
      expect(() => lighthouseRuns(bad)).toThrow(
        `BENCH_LIGHTHOUSE_RUNS must be a whole number of at least 1, not "${bad}"`,
      )
    }
  })
})

describe('belowTarget', () => {
  it('is empty for a page meeting every target', () => {
    expect(belowTarget(perfect)).toEqual([])
    expect(belowTarget({ ...perfect, performance: 99 })).toEqual(['performance 99 < 100'])
  })

  it('names each missed target with the measured value', () => {
    expect(belowTarget(flawed)).toEqual([
      'performance 95 < 100',
      'accessibility 92 < 100',
      'seo 91 < 100',
      'cls 0.0002 > 0',
    ])
    expect(belowTarget({ ...perfect, bestPractices: 96, cls: 0.12345 })).toEqual([
      'bestPractices 96 < 100',
      'cls 0.12 > 0',
    ])
  })

  it('counts an unmeasured layout shift as a miss', () => {
    expect(belowTarget({ ...perfect, cls: Number.NaN })).toEqual(['cls NaN > 0'])
  })
})

describe('formatLighthouse', () => {
  it('prints a table row per page, then misses and failed audits of imperfect pages', () => {
    expect(formatLighthouse([perfect, flawed]).split('\n')).toEqual([
      '| Page | Performance | Accessibility | Best practices | SEO | CLS | LCP | TBT | LCP element |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      '| `/en/` | 100 | 100 | 100 | 100 | 0 | 1200 ms | 0 ms | p.lead |',
      '| `/en/services/cards/` | 95 | 92 | 100 | 91 | 0.0002 | 2804 ms | 40 ms | h1 |',
      '',
      '`/en/services/cards/` misses performance 95 < 100, accessibility 92 < 100, seo 91 < 100, cls 0.0002 > 0',
      '- `color-contrast`: Background and foreground colors do not have enough contrast',
      '- `canonical`: Document does not have a valid `rel=canonical`',
    ])
  })

  it('lists failed audits of a page that still meets its targets', () => {
    const text = formatLighthouse([
      { ...perfect, performance: 100, failedAudits: [{ id: 'unused-javascript', title: 'x' }] },
    ])
    expect(text.split('\n').slice(3)).toEqual(['', '`/en/`', '- `unused-javascript`: x'])
  })

  it('names the machine’s benchmark index, and says when Lighthouse finds it slower than it expects', () => {
    const fast = formatLighthouse([
      { ...perfect, benchmarkIndex: 1800 },
      { ...flawed, benchmarkIndex: 1500 },
    ])
    expect(fast).toContain(
      "This machine's benchmark index (Lighthouse's): 1500–1800, median 1500\n",
    )
    expect(fast).not.toContain('calibrated')
    const slow = formatLighthouse([{ ...perfect, benchmarkIndex: 640 }])
    expect(slow).toContain('median 640, below the 1000 its mobile CPU slowdown is calibrated for')
    expect(formatLighthouse([perfect])).not.toContain('benchmark index')
  })

  it('keeps a pipe in a path from breaking the table', () => {
    expect(formatLighthouse([{ ...perfect, path: '/a|b/' }])).toContain('| `/a\\|b/` |')
  })
})

describe('failedAudits', () => {
  const audit = (id: string, score: number | null, scoreDisplayMode = 'binary') => ({
    id,
    title: `title of ${id}`,
    score,
    scoreDisplayMode,
  })
  // Only the parts of a Lighthouse report that failedAudits reads.
  const lhr = {
    categories: {
      performance: {
        auditRefs: [
          { id: 'largest-contentful-paint', weight: 25, group: 'metrics' },
          { id: 'speed-index', weight: 10, group: 'metrics' },
          { id: 'unused-javascript', weight: 0, group: 'diagnostics' },
          { id: 'lcp-breakdown-insight', weight: 0, group: 'hidden' },
        ],
      },
      accessibility: {
        auditRefs: [
          { id: 'color-contrast', weight: 7 },
          { id: 'tabindex', weight: 0 },
        ],
      },
      'best-practices': { auditRefs: [{ id: 'errors-in-console', weight: 1 }] },
      seo: {
        auditRefs: [
          { id: 'canonical', weight: 1 },
          { id: 'structured-data', weight: 0 },
        ],
      },
    },
    audits: {
      'largest-contentful-paint': audit('largest-contentful-paint', 0.85, 'numeric'),
      'speed-index': audit('speed-index', 0.95, 'numeric'),
      'unused-javascript': audit('unused-javascript', 0.5, 'metricSavings'),
      'lcp-breakdown-insight': audit('lcp-breakdown-insight', 0),
      'color-contrast': audit('color-contrast', 0),
      tabindex: audit('tabindex', 0),
      'errors-in-console': { ...audit('errors-in-console', null, 'error'), errorMessage: 'boom' },
      canonical: audit('canonical', 1),
      'structured-data': audit('structured-data', null, 'manual'),
    },
  } as unknown as Result

  it('keeps weak performance audits and failing weighted audits of the other categories', () => {
    expect(failedAudits(lhr)).toEqual([
      { id: 'largest-contentful-paint', title: 'title of largest-contentful-paint' },
      { id: 'unused-javascript', title: 'title of unused-javascript' },
      { id: 'color-contrast', title: 'title of color-contrast' },
      { id: 'errors-in-console', title: 'title of errors-in-console (error: boom)' },
    ])
  })
})
