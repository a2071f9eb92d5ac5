/**
 * The converter's list of days as it travels in the page data: the latest date and the steps
 * back in days. Calendar edges (month and year ends, leap days, daylight-saving changes) and
 * the machine's time zone must not move a date; lists in the wrong order are refused.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { compactDays, expandDays } from '../../../../src/shared/rates/days'

/** Every date from `latest` back `count` days, skipping Saturdays and Sundays, latest first. */
function workingDays(latest: string, count: number): string[] {
  const dates: string[] = []
  for (let time = Date.parse(`${latest}T00:00:00Z`); dates.length < count; time -= 86_400_000) {
    const day = new Date(time).getUTCDay()
    if (day !== 0 && day !== 6) dates.push(new Date(time).toISOString().slice(0, 10))
  }
  return dates
}

describe('compactDays', () => {
  it('keeps a single day as the latest with no steps, and no day as an empty latest', () => {
    expect(compactDays(['2020-01-28'])).toEqual({ latest: '2020-01-28', gaps: [] })
    expect(compactDays([])).toEqual({ latest: '', gaps: [] })
  })

  it('counts a weekend as a step of 3 and a working day as 1', () => {
    // Tuesday 28, Monday 27, Friday 24 January 2020.
    expect(compactDays(['2020-01-28', '2020-01-27', '2020-01-24'])).toEqual({
      latest: '2020-01-28',
      gaps: [1, 3],
    })
  })

  it('steps over the end of a year and of February, leap year or not', () => {
    expect(compactDays(['2021-01-01', '2020-12-31']).gaps).toEqual([1])
    expect(compactDays(['2020-03-01', '2020-02-29', '2020-02-28']).gaps).toEqual([1, 1])
    expect(compactDays(['2019-03-01', '2019-02-28']).gaps).toEqual([1])
    // A whole year back: 366 days over a leap day, 365 without.
    expect(compactDays(['2020-03-01', '2019-03-01']).gaps).toEqual([366])
    expect(compactDays(['2021-03-01', '2020-03-01']).gaps).toEqual([365])
  })

  it('counts whole days across the daylight-saving changes (Europe: 29 March, 25 October 2020)', () => {
    expect(compactDays(['2020-03-30', '2020-03-29', '2020-03-28']).gaps).toEqual([1, 1])
    expect(compactDays(['2020-10-26', '2020-10-25', '2020-10-24']).gaps).toEqual([1, 1])
  })

  it('refuses a day given twice or in rising order, naming it', () => {
    expect(() => compactDays(['2020-01-28', '2020-01-28'])).toThrow(
      'expected days latest first, each once; 2020-01-28 is not',
    )
    expect(() => compactDays(['2020-01-27', '2020-01-24', '2020-01-28'])).toThrow(
      /2020-01-28 is not$/,
    )
  })

  it('refuses a text that is no date rather than writing a step of NaN', () => {
    expect(() => compactDays(['2020-01-28', 'yesterday'])).toThrow(/yesterday is not/)
    expect(() => compactDays(['2020-01-28', '2020-13-01'])).toThrow(/2020-13-01 is not/)
  })
})

describe('expandDays', () => {
  it('lists nothing for an empty latest day, whatever steps it names', () => {
    expect(expandDays({ latest: '', gaps: [] })).toEqual([])
    expect(expandDays({ latest: '', gaps: [1, 3] })).toEqual([])
  })

  it('walks back over months, years and leap days', () => {
    expect(expandDays({ latest: '2020-03-02', gaps: [2, 1, 1, 29, 31] })).toEqual([
      '2020-03-02',
      '2020-02-29',
      '2020-02-28',
      '2020-02-27',
      '2020-01-29',
      '2019-12-29',
    ])
  })

  it('gives back 90 working days unchanged, with the steps of 1 and 3 the page data carries', () => {
    const dates = workingDays('2020-11-02', 90)
    const list = compactDays(dates)
    expect(new Set(list.gaps)).toEqual(new Set([1, 3]))
    expect(expandDays(list)).toEqual(dates)
  })

  it('gives back any list of days latest first, in any order of gaps (property)', () => {
    const day = fc.integer({ min: 0, max: 80_000 }) // 1970 to about 2189
    fc.assert(
      fc.property(fc.uniqueArray(day, { maxLength: 40 }), (numbers) => {
        const dates = [...numbers]
          .sort((a, b) => b - a)
          .map((n) => new Date(n * 86_400_000).toISOString().slice(0, 10))
        expect(expandDays(compactDays(dates))).toEqual(dates)
      }),
    )
  })
})

describe('in any time zone of the machine', () => {
  const original = process.env.TZ
  afterEach(() => {
    if (original === undefined) delete process.env.TZ
    else process.env.TZ = original
  })

  it.each([
    'Europe/Berlin',
    'America/Los_Angeles',
    'Pacific/Kiritimati',
    'Pacific/Pago_Pago',
    'Australia/Lord_Howe',
  ])('keeps every date across the daylight-saving changes in %s', (zone) => {
    process.env.TZ = zone
    // The days around both changes of 2020 in Europe, North America and Lord Howe Island.
    const dates = [
      '2020-11-02',
      '2020-11-01',
      '2020-10-31',
      '2020-10-26',
      '2020-10-25',
      '2020-10-04',
      '2020-10-03',
      '2020-04-05',
      '2020-04-04',
      '2020-03-30',
      '2020-03-29',
      '2020-03-28',
      '2020-03-09',
      '2020-03-08',
      '2020-03-07',
    ]
    const list = compactDays(dates)
    expect(list.gaps).toEqual([1, 1, 5, 1, 21, 1, 181, 1, 5, 1, 1, 19, 1, 1])
    expect(expandDays(list)).toEqual(dates)
  })
})
