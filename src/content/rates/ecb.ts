/**
 * The ECB's euro foreign exchange reference rates in the ECB's own XML format (the daily file,
 * the 90-day and the full history have the same shape):
 *
 *   <gesmes:Envelope …><Cube><Cube time="2020-01-28"><Cube currency="USD" rate="1.1005"/>…
 *
 * Rates are units of the currency per 1 euro, kept as the decimal texts published. TARGET
 * closing days (25 December, 1 January, …) and weekends have no `Cube time`: the file simply
 * has no such day. Every problem names its line.
 */

import { parseDecimal } from '../../shared/rates/decimal'
import type { ContentProblem } from '../errors'

/** One day's rates: currency code → rate text. */
export type DayRates = Record<string, string>

export interface RateDays {
  /** Days with rates, latest first. */
  days: { date: string; rates: DayRates }[]
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const CURRENCY = /^[A-Z]{3}$/
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

/** True for a real calendar date in YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  if (!ISO_DATE.test(text)) return false
  const date = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text
}

/** A positive decimal rate text, or a description of what is wrong with it. */
export function checkRate(text: string): string | undefined {
  const decimal = parseDecimal(text)
  if (!decimal) return `expected the rate as a decimal number such as 1.1005, found "${text}"`
  if (decimal.units <= 0n) return `expected a rate above zero, found "${text}"`
  return undefined
}

/** The line of `index` in `text` (1-based). */
export function lineAt(text: string, index: number): number {
  let line = 1
  for (let i = 0; i < index && i < text.length; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

const latestFirst = (a: { date: string }, b: { date: string }) =>
  a.date < b.date ? 1 : a.date > b.date ? -1 : 0

/** Parses an ECB reference-rate file; problems (with their line) go to `problems`. */
export function parseEcbXml(text: string, file: string, problems: ContentProblem[]): RateDays {
  const problem = (index: number, message: string) =>
    problems.push({ file, field: `line ${lineAt(text, index)}`, message })
  const days: RateDays['days'] = []
  if (!/<(?:[\w-]+:)?Envelope[\s>]/.test(text) || !/<\/(?:[\w-]+:)?Envelope>\s*$/.test(text)) {
    problems.push({
      file,
      field: '',
      message:
        'expected the ECB reference rates in the ECB XML format (<gesmes:Envelope> with <Cube time="…"> days); is this the right file?',
    })
    return { days }
  }
  const seenDays = new Set<string>()
  /** The open Cube elements; a day's rates are read while its element is open. */
  const open: ({ date: string; rates: DayRates } | undefined)[] = []
  const currentDay = () => open.findLast((entry) => entry !== undefined)
  // The elements that matter are the Cubes; comments and the envelope's header are skipped.
  const withoutComments = text.replace(/<!--[\s\S]*?-->/g, (comment) =>
    comment.replace(/[^\n]/g, ' '),
  )
  for (const match of withoutComments.matchAll(/<(\/?)Cube\b([^>]*?)(\/?)>/g)) {
    const [, closing, attributeText = '', selfClosing] = match
    const index = match.index ?? 0
    if (closing) {
      open.pop()
      continue
    }
    const attributes: Record<string, string> = {}
    for (const attribute of attributeText.matchAll(ATTRIBUTE)) {
      attributes[attribute[1] as string] = attribute[2] ?? attribute[3] ?? ''
    }
    let day: { date: string; rates: DayRates } | undefined
    if ('time' in attributes) {
      const date = attributes.time as string
      if (!isCalendarDate(date)) {
        problem(index, `expected the day as a date (YYYY-MM-DD), found time="${date}"`)
      } else if (seenDays.has(date)) {
        problem(index, `expected each day once; ${date} appears twice`)
      } else {
        seenDays.add(date)
        day = { date, rates: {} }
        days.push(day)
      }
    } else if ('currency' in attributes || 'rate' in attributes) {
      readRate(attributes, index)
    }
    if (!selfClosing) open.push(day)
  }

  function readRate(attributes: Record<string, string>, index: number) {
    const current = currentDay()
    const currency = attributes.currency ?? ''
    const rate = attributes.rate ?? ''
    if (!current) {
      problem(
        index,
        `expected the rate of ${currency || 'a currency'} inside a day (<Cube time="…">)`,
      )
      return
    }
    if (!CURRENCY.test(currency)) {
      problem(
        index,
        `expected a currency code of three capital letters, found currency="${currency}"`,
      )
      return
    }
    const wrong = checkRate(rate)
    if (wrong) problem(index, `${currency} on ${current.date}: ${wrong}`)
    else if (currency in current.rates) {
      problem(index, `expected ${currency} once on ${current.date}; it appears twice`)
    } else current.rates[currency] = rate
  }
  if (days.length === 0 && problems.length === 0) {
    problems.push({
      file,
      field: '',
      message: 'expected at least one day of rates (<Cube time="…">); found none',
    })
  }
  // A day without rates (a TARGET holiday written out empty) is no day of rates.
  return { days: days.filter((day) => Object.keys(day.rates).length > 0).sort(latestFirst) }
}

/**
 * Merges rate histories: the days of `newer` win over those of `older` (a fresh download over
 * the stored snapshot); the result is latest first.
 */
export function mergeDays(older: RateDays, newer: RateDays): RateDays {
  const byDate = new Map(older.days.map((day) => [day.date, day]))
  for (const day of newer.days) byDate.set(day.date, day)
  return { days: [...byDate.values()].sort(latestFirst) }
}

/** The rates in force on `date`: that day's, or the latest published before it (holidays). */
export function ratesOn(
  history: RateDays,
  date: string,
): { date: string; rates: DayRates } | undefined {
  return history.days.find((day) => day.date <= date)
}
