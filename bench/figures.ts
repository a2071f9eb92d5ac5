/**
 * The benchmark's figures: each measured value with its unit and, where the project has one,
 * its target. The bench prints them as one table with the misses marked, writes them as JSON
 * (`npm run bench -- --json`), and sets a run beside an earlier one (`--baseline file.json`).
 */

export interface Target {
  /** `max`: the value must not exceed `value`; `below`: it must stay under it; `min`: reach it. */
  kind: 'max' | 'below' | 'min'
  value: number
}

export interface Figure {
  /** Stable across commits, so runs can be compared: `build.cold.120`. */
  id: string
  label: string
  value: number
  unit: string
  target?: Target
  /** What else a reader needs: the peers' figure, the run count, why a target is missed. */
  note?: string
}

export interface Report {
  date: string
  commit: string
  machine: { cpus: number; node: string }
  figures: Figure[]
  /** The detail behind the figures (profiles, per-chunk sizes, per-page scores). */
  details: Record<string, unknown>
}

export const atMost = (value: number): Target => ({ kind: 'max', value })
export const atLeast = (value: number): Target => ({ kind: 'min', value })
export const below = (value: number): Target => ({ kind: 'below', value })

/** True or false against the target; undefined without one. A missing value (NaN) misses. */
export function meets(figure: Figure): boolean | undefined {
  if (!figure.target) return undefined
  const { kind, value } = figure.target
  if (kind === 'max') return figure.value <= value
  return kind === 'below' ? figure.value < value : figure.value >= value
}

function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return 'n/a'
  const rounded = Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100
  return `${rounded.toLocaleString('en')}${unit ? ` ${unit}` : ''}`
}

function formatTarget(target: Target | undefined, unit: string): string {
  if (!target) return ''
  const sign = { max: '≤', below: '<', min: '≥' }[target.kind]
  return `${sign} ${formatValue(target.value, unit)}`
}

const pad = (cells: string[], widths: number[]) =>
  cells
    .map((cell, index) => cell.padEnd(widths[index] ?? 0))
    .join('  ')
    .trimEnd()

/**
 * One line a figure: label, value, target, whether it is met, and the earlier run's value when
 * a baseline is given. A missed target is marked `MISSED` so it stands out in a log.
 */
export function formatFigures(figures: Figure[], baseline?: Figure[]): string {
  const before = new Map((baseline ?? []).map((figure) => [figure.id, figure]))
  const header = ['figure', 'value', 'target', 'met', ...(baseline ? ['before'] : []), 'note']
  const rows = figures.map((figure) => {
    const met = meets(figure)
    const earlier = before.get(figure.id)
    return [
      figure.label,
      formatValue(figure.value, figure.unit),
      formatTarget(figure.target, figure.unit),
      met === undefined ? '' : met ? 'yes' : 'MISSED',
      ...(baseline ? [earlier ? formatValue(earlier.value, earlier.unit) : ''] : []),
      figure.note ?? '',
    ]
  })
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] ?? '').length)),
  )
  const missed = figures.filter((figure) => meets(figure) === false)
  const withTarget = figures.filter((figure) => figure.target)
  return [
    pad(header, widths),
    ...rows.map((row) => pad(row, widths)),
    '',
    missed.length === 0
      ? `all ${withTarget.length} targets met`
      : `${missed.length} of ${withTarget.length} targets missed: ${missed.map((figure) => figure.label).join('; ')}`,
  ].join('\n')
}
