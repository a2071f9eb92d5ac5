/**
 * A content store whose rates reach further back than the stored sample (28 ECB working days):
 * the ECB snapshot and the Mastercard file of `contentDir` are extended to `days` days with
 * rates by inventing the earlier ones, in the store's own formats (the ECB's XML, the card
 * network's `date,currency,rate` CSV), so the build checks and uses them as it would real ones.
 *
 * The invented rates are a seeded random walk back from the sample's first day (at most 0.4 %
 * a day, with each rate's published decimals), and the card rates lie 0.2–0.8 % below the ECB
 * rate of their day, as the sample's do: the same digits and spread as real files, so sizes
 * and compression come out as they would with the 90-day file the ECB publishes.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ContentProblem } from '../src/content/errors'
import { parseCardRates } from '../src/content/rates/card'
import { type DayRates, parseEcbXml } from '../src/content/rates/ecb'
import { decimalPlaces } from '../src/shared/rates/decimal'

const DAY_MS = 86_400_000
const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10)

/** Easter Sunday of `year` (the Gregorian computus), for the TARGET holidays around it. */
function easter(year: number): number {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return Date.UTC(year, month - 1, day)
}

/** True on the days the ECB publishes rates: weekdays that are no TARGET holiday. */
export function isEcbWorkingDay(time: number): boolean {
  const date = new Date(time)
  const weekday = date.getUTCDay()
  if (weekday === 0 || weekday === 6) return false
  const monthDay = isoDate(time).slice(5)
  if (['01-01', '05-01', '12-25', '12-26'].includes(monthDay)) return false
  const sunday = easter(date.getUTCFullYear())
  return time !== sunday - 2 * DAY_MS && time !== sunday + DAY_MS
}

/** A small seeded generator (mulberry32): the same rates on every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

const withPlaces = (value: number, places: number) => value.toFixed(places)

function ecbXml(days: { date: string; rates: DayRates }[]): string {
  const cubes = days.map(
    (day) =>
      `    <Cube time="${day.date}">\n${Object.entries(day.rates)
        .map(([currency, rate]) => `      <Cube currency="${currency}" rate="${rate}"/>`)
        .join('\n')}\n    </Cube>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
  <gesmes:subject>Reference rates</gesmes:subject>
  <gesmes:Sender>
    <gesmes:name>European Central Bank</gesmes:name>
  </gesmes:Sender>
  <Cube>
${cubes.join('\n')}
  </Cube>
</gesmes:Envelope>
`
}

/**
 * Extends `exchange-rates/ecb.xml` and `exchange-rates/mastercard.csv` of `contentDir` to
 * `days` days with rates (ECB working days, latest first), returning the dates written.
 */
export async function extendRates(contentDir: string, days: number): Promise<string[]> {
  const folder = join(contentDir, 'exchange-rates')
  const problems: ContentProblem[] = []
  const ecb = parseEcbXml(await readFile(join(folder, 'ecb.xml'), 'utf8'), 'ecb.xml', problems)
  const cardFile = join(folder, 'mastercard.csv')
  const card = parseCardRates(await readFile(cardFile, 'utf8'), 'mastercard.csv', ecb, problems)
  if (problems.length > 0)
    throw new Error(`the stored rates have problems: ${problems[0]?.message}`)
  const ecbDays = [...ecb.days]
  const cardDays = [...card.days]
  const next = random(20200128)
  let time = Date.parse(`${ecbDays.at(-1)?.date}T00:00:00Z`)
  while (ecbDays.length < days) {
    time -= DAY_MS
    if (!isEcbWorkingDay(time)) continue
    const later = ecbDays.at(-1) as { rates: DayRates }
    const rates: DayRates = {}
    for (const [currency, rate] of Object.entries(later.rates)) {
      const step = 1 + (next() - 0.5) * 0.008
      rates[currency] = withPlaces(Number(rate) * step, decimalPlaces(rate))
    }
    const date = isoDate(time)
    ecbDays.push({ date, rates })
    const cardRates: DayRates = {}
    for (const currency of card.currencies) {
      const reference = Number(rates[currency])
      cardRates[currency] = withPlaces(reference * (1 - 0.002 - next() * 0.006), 6)
    }
    cardDays.push({ date, rates: cardRates })
  }
  await writeFile(join(folder, 'ecb.xml'), ecbXml(ecbDays))
  const lines = [...cardDays]
    .reverse()
    .flatMap((day) => card.currencies.map((code) => `${day.date},${code},${day.rates[code]}`))
  await writeFile(cardFile, `date,currency,rate\n${lines.join('\n')}\n`)
  return cardDays.map((day) => day.date)
}
