/**
 * The card network's daily rates, dropped into the content store by the bank's operations
 * team as CSV (`date,currency,rate`, one rate per line, a header line first) or JSON (an array
 * of `{ "date", "currency", "rate" }`). Rates are units of the currency per 1 euro, like the
 * ECB's. Checked against the ECB reference rates: every problem names the file and its line.
 */

import { parseDecimal, percentChange } from '../../shared/rates/decimal'
import type { ContentProblem } from '../errors'
import { checkRate, type DayRates, isCalendarDate, lineAt, type RateDays, ratesOn } from './ecb'

/** One rate as read, with the line it came from. */
interface CardRateRecord {
  line: number
  date: string
  currency: string
  rate: string
}

/** How far a card rate may be from the ECB rate of its day before it is taken for a typo. */
export const PLAUSIBLE_DEVIATION_PERCENT = 10

const CURRENCY = /^[A-Z]{3}$/

/** Reads CSV: a header naming date, currency and rate (in any order), then one rate a line. */
function readCsv(text: string, file: string, problems: ContentProblem[]): CardRateRecord[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const header = (lines[0] ?? '').split(/[,;]/).map((cell) => cell.trim().toLowerCase())
  const column = (name: string) => header.indexOf(name)
  const [date, currency, rate] = [column('date'), column('currency'), column('rate')]
  if (date < 0 || currency < 0 || rate < 0) {
    problems.push({
      file,
      field: 'line 1',
      message: `expected a header line naming the columns date, currency and rate; found "${lines[0] ?? ''}"`,
    })
    return []
  }
  const separator = (lines[0] ?? '').includes(';') ? ';' : ','
  const records: CardRateRecord[] = []
  lines.forEach((raw, index) => {
    if (index === 0 || raw.trim() === '' || raw.trimStart().startsWith('#')) return
    const cells = raw.split(separator).map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'))
    if (cells.length !== header.length) {
      problems.push({
        file,
        field: `line ${index + 1}`,
        message: `expected ${header.length} values (${header.join(', ')}), found ${cells.length}: "${raw}"`,
      })
      return
    }
    records.push({
      line: index + 1,
      date: cells[date] ?? '',
      currency: cells[currency] ?? '',
      rate: cells[rate] ?? '',
    })
  })
  return records
}

/** The lines where the top-level array's elements start. */
function elementLines(text: string): number[] {
  const lines: number[] = []
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (inString) {
      if (char === '\\') index++
      else if (char === '"') inString = false
      continue
    }
    if (char === '"') inString = true
    else if (char === '[' || char === '{') {
      if (depth === 1 && char === '{') lines.push(lineAt(text, index))
      depth++
    } else if (char === ']' || char === '}') depth--
  }
  return lines
}

/** Reads JSON: an array of `{ "date": "2020-01-28", "currency": "USD", "rate": 1.0987 }`. */
function readJson(text: string, file: string, problems: ContentProblem[]): CardRateRecord[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    problems.push({ file, field: '', message: `expected valid JSON: ${reason}` })
    return []
  }
  if (!Array.isArray(data)) {
    problems.push({
      file,
      field: '',
      message:
        'expected an array of rates: [{ "date": "2020-01-28", "currency": "USD", "rate": 1.0987 }, …]',
    })
    return []
  }
  const lines = elementLines(text)
  const records: CardRateRecord[] = []
  data.forEach((item: unknown, index) => {
    const line = lines[index] ?? 1
    const record = item as Record<string, unknown> | null
    const value = (name: string) => {
      const field = record?.[name]
      return typeof field === 'string' || typeof field === 'number' ? String(field) : undefined
    }
    const [date, currency, rate] = [value('date'), value('currency'), value('rate')]
    if (typeof item !== 'object' || !date || !currency || !rate) {
      problems.push({
        file,
        field: `line ${line}`,
        message: `expected a rate with "date", "currency" and "rate"; found ${JSON.stringify(item)}`,
      })
      return
    }
    records.push({ line, date, currency, rate })
  })
  return records
}

export interface CardRates extends RateDays {
  /** The currencies the network quotes. */
  currencies: string[]
}

/**
 * Reads and checks a card-rate file against the ECB reference rates: dates, currencies the ECB
 * quotes, each (day, currency) once, no currency missing on a day, no ECB working day missing
 * between the first and the last day, positive rates within ±10 % of the ECB rate in force.
 */
export function parseCardRates(
  text: string,
  file: string,
  ecb: RateDays,
  problems: ContentProblem[],
): CardRates {
  const records = file.endsWith('.json')
    ? readJson(text, file, problems)
    : readCsv(text, file, problems)
  const at = (line: number) => `line ${line}`
  const ecbCurrencies = new Set(ecb.days.flatMap((day) => Object.keys(day.rates)))
  const byDate = new Map<string, { rates: DayRates; line: number }>()
  for (const record of records) {
    const { line, date, currency, rate } = record
    const problem = (message: string) => problems.push({ file, field: at(line), message })
    if (!isCalendarDate(date)) {
      problem(`expected the date as YYYY-MM-DD, found "${date}"`)
      continue
    }
    if (!CURRENCY.test(currency)) {
      problem(`expected a currency code of three capital letters, found "${currency}"`)
      continue
    }
    if (!ecbCurrencies.has(currency)) {
      problem(
        `unknown currency ${currency}: expected one the ECB publishes reference rates for (${[...ecbCurrencies].sort().join(', ')})`,
      )
      continue
    }
    const wrong = checkRate(rate)
    if (wrong) {
      problem(`${currency} on ${date}: ${wrong}`)
      continue
    }
    const reference = ratesOn(ecb, date)
    const ecbRate = reference?.rates[currency]
    if (!reference || !ecbRate) {
      problem(
        `${currency} on ${date}: there is no ECB reference rate for that day or before it to compare with; add the ECB rates of that time to the snapshot`,
      )
      continue
    }
    const deviation = percentChange(
      parseDecimal(rate) ?? { units: 1n, scale: 0 },
      parseDecimal(ecbRate) ?? { units: 1n, scale: 0 },
    )
    if (
      deviation > BigInt(PLAUSIBLE_DEVIATION_PERCENT * 100) ||
      deviation < -BigInt(PLAUSIBLE_DEVIATION_PERCENT * 100)
    ) {
      problem(
        `${currency} on ${date}: the rate ${rate} is ${(Number(deviation) / 100).toFixed(2)} % away from the ECB rate ${ecbRate} of ${reference.date}; expected at most ${PLAUSIBLE_DEVIATION_PERCENT} % (a typo?)`,
      )
      continue
    }
    let day = byDate.get(date)
    if (!day) {
      day = { rates: {}, line }
      byDate.set(date, day)
    }
    if (currency in day.rates) {
      problem(`expected ${currency} once on ${date}; it appears again`)
      continue
    }
    day.rates[currency] = rate
  }

  const dates = [...byDate.keys()].sort()
  const currencies = [...new Set(records.map((record) => record.currency))]
    .filter((currency) => ecbCurrencies.has(currency))
    .sort()
  if (dates.length === 0) {
    if (records.length === 0 && !problems.some((problem) => problem.file === file)) {
      problems.push({ file, field: '', message: 'expected at least one rate; the file has none' })
    }
    return { days: [], currencies }
  }
  // No currency may be missing on a day; no ECB working day may be missing in between.
  for (const date of dates) {
    const day = byDate.get(date) as { rates: DayRates; line: number }
    const missing = currencies.filter((currency) => !(currency in day.rates))
    if (missing.length > 0) {
      problems.push({
        file,
        field: at(day.line),
        message: `expected a rate for every currency on ${date}; missing: ${missing.join(', ')}`,
      })
    }
  }
  const [first, last] = [dates[0] as string, dates.at(-1) as string]
  for (const { date } of ecb.days) {
    if (date > first && date < last && !byDate.has(date)) {
      problems.push({
        file,
        field: '',
        message: `expected the rates of every ECB working day from ${first} to ${last}; ${date} is missing`,
      })
    }
  }
  return {
    days: dates
      .reverse()
      .map((date) => ({ date, rates: (byDate.get(date) as { rates: DayRates }).rates })),
    currencies,
  }
}
