import { describe, expect, it } from 'vitest'
import { atLeast, atMost, type Figure, formatFigures, meets } from '../../../bench/figures'

const cold: Figure = {
  id: 'build.cold.120',
  label: 'build, 120 pages, empty cache',
  value: 1.62,
  unit: 's',
  target: atMost(1.5),
}
const score: Figure = {
  id: 'lighthouse.en',
  label: 'Lighthouse performance, /en/',
  value: 100,
  unit: '',
  target: atLeast(100),
}
const untargeted: Figure = { id: 'build.marginal', label: 'cost per page', value: 1.25, unit: 'ms' }

describe('bench figures', () => {
  it('judges a value against an upper or a lower target, and a missing value as a miss', () => {
    expect(meets(cold)).toBe(false)
    expect(meets({ ...cold, value: 1.5 })).toBe(true)
    expect(meets(score)).toBe(true)
    expect(meets({ ...score, value: 99 })).toBe(false)
    expect(meets({ ...score, value: Number.NaN })).toBe(false)
    expect(meets(untargeted)).toBeUndefined()
  })

  it('prints each figure beside its target, marks the misses and counts them', () => {
    const table = formatFigures([cold, score, untargeted])
    const lines = table.split('\n')
    expect(lines.find((line) => line.startsWith('build, 120'))).toMatch(
      /1\.62 s\s+≤ 1\.5 s\s+MISSED/,
    )
    expect(lines.find((line) => line.startsWith('Lighthouse'))).toMatch(/100\s+≥ 100\s+yes/)
    expect(lines.at(-1)).toBe('1 of 2 targets missed: build, 120 pages, empty cache')
  })

  it('sets an earlier run beside today’s, by figure id', () => {
    const table = formatFigures([cold], [{ ...cold, value: 3.42 }])
    expect(table.split('\n')[0]).toMatch(/before/)
    expect(table).toMatch(/1\.62 s\s+≤ 1\.5 s\s+MISSED\s+3\.42 s/)
  })
})
