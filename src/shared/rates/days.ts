/**
 * A list of days in little room: the latest, then the steps back to each earlier one in days.
 * The converter's choice of day travels in the page data this way: 90 dates written out take
 * about 250 bytes gzip, their steps (mostly 1, a 3 over each weekend) about 40.
 */

/** `{ latest: '2020-01-28', gaps: [1, 3] }` is 28, 27 and 24 January 2020. */
export interface DayList {
  latest: string
  gaps: number[]
}

const DAY_MS = 86_400_000
const toTime = (date: string) => Date.parse(`${date}T00:00:00Z`)
const toDate = (time: number) => new Date(time).toISOString().slice(0, 10)

/** Dates (YYYY-MM-DD, latest first, each earlier than the one before) as a `DayList`. */
export function compactDays(dates: readonly string[]): DayList {
  const [latest = ''] = dates
  const gaps = dates.slice(1).map((date, index) => {
    const gap = Math.round((toTime(dates[index] as string) - toTime(date)) / DAY_MS)
    if (!(gap >= 1)) throw new Error(`expected days latest first, each once; ${date} is not`)
    return gap
  })
  return { latest, gaps }
}

/** The dates of a `DayList`, latest first. */
export function expandDays(list: DayList): string[] {
  if (!list.latest) return []
  const dates = [list.latest]
  let time = toTime(list.latest)
  for (const gap of list.gaps) {
    time -= gap * DAY_MS
    dates.push(toDate(time))
  }
  return dates
}
