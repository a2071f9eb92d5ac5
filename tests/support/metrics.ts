/** Reading what a service's `/metrics` answers, for the tests of its metrics. */
import { expect } from 'vitest'

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/** The samples of a Prometheus text exposition: name, labels, value. */
export function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
      if (!match) throw new Error(`not a sample: ${line}`)
      const labels: Record<string, string> = {}
      for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
        labels[pair[1] as string] = pair[2] as string
      }
      return { name: match[1] as string, labels, value: Number(match[3]) }
    })
}

/** The sum of the samples named `name` whose labels include `labels`. */
export function sumOf(all: Sample[], name: string, labels: Record<string, string> = {}) {
  return all
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
    )
    .reduce((sum, sample) => sum + sample.value, 0)
}

/** The labels every service's series may carry: its own, and those of Node's process metrics. */
const COMMON_LABELS = [
  'service',
  'method',
  'route',
  'status',
  'check',
  'le',
  'quantile',
  // Node's own process metrics.
  'version',
  'major',
  'minor',
  'patch',
  'space',
  'kind',
  'type',
]

/**
 * Checks that every label of a scrape is a name of a fixed set (`own` besides the common ones),
 * that no value matches `forbidden` (what the test sent that must not show: addresses, names,
 * paths), that routes are templates, and that every series is `service`'s.
 */
export function expectBoundedLabels(
  all: Sample[],
  { service, own, forbidden }: { service: string; own: string[]; forbidden: RegExp },
) {
  const allowed = new Set([...COMMON_LABELS, ...own])
  for (const sample of all) {
    for (const [name, text] of Object.entries(sample.labels)) {
      expect(allowed, `${sample.name} label ${name}`).toContain(name)
      expect(text, `${sample.name} ${name}`).not.toMatch(forbidden)
    }
    if (sample.labels.route) {
      expect(sample.labels.route).toMatch(/^(\/[\w:/*.-]*|site:[a-z]+|unmatched)$/)
    }
    expect(sample.labels.service).toBe(service)
  }
}
