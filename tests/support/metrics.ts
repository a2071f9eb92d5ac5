/** Reading what a service's `/metrics` answers, for the tests of its metrics. */

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
