/**
 * The exchange rates of the content store (`exchange-rates/`): the ECB reference rates
 * (`ecb.xml`, the snapshot, merged with a fresh download when the build fetched one), each
 * card network's rates (`{network}.csv` or `{network}.json`) checked against them, and the
 * pages' words (`texts.yaml`). Turned into the data of the `ecbRates` and `cardRates` sections.
 */
import type { Language } from '../../shared/languages'
import { compactDays } from '../../shared/rates/days'
import { fromHundredths, parseDecimal, percentChange } from '../../shared/rates/decimal'
import {
  CARD_TEXT_KEYS,
  type CardDay,
  type CardRatesData,
  ECB_RATES_PAGE,
  ECB_TEXT_KEYS,
  type EcbRatesData,
  type RatesTexts,
} from '../../shared/rates/types'
import type { ContentProblem } from '../errors'
import { ratesTexts } from '../schema/rates'
import type { ContentDocument } from '../source'
import { validateDocument } from '../validate-document'
import { type CardRates, parseCardRates } from './card'
import { mergeDays, parseEcbXml, type RateDays } from './ecb'
import { cardDays, type NetworkHistory, networkHistory } from './history'

export type { NetworkHistory }

export const RATES_FOLDER = 'exchange-rates/'
export const ECB_FILE = `${RATES_FOLDER}ecb.xml`
export const RATES_TEXTS_FILE = `${RATES_FOLDER}texts.yaml`
const CARD_FILE = /^exchange-rates\/(?<network>[a-z0-9-]+)\.(csv|json)$/

export const isRatesFile = (file: string) => file.startsWith(RATES_FOLDER)

export interface RatesContent {
  ecb: RateDays & { fromSnapshot: boolean }
  /** Card networks' rates by file name (`mastercard`). */
  cards: Record<string, CardRates>
  texts: ReturnType<typeof ratesTexts.parse> | undefined
}

/** The raw text of a data file the store does not parse itself (XML, CSV, JSON). */
const rawText = (document: ContentDocument) =>
  typeof (document.data as { text?: unknown })?.text === 'string'
    ? (document.data as { text: string }).text
    : ''

/**
 * Reads `exchange-rates/`. `fetched` is the ECB history downloaded at build time (see
 * `src/engine/fetch-rates.ts`): its days win over the snapshot's.
 */
export function readRates(
  documents: readonly ContentDocument[],
  problems: ContentProblem[],
  fetched?: { text: string; url: string },
): RatesContent {
  const files = documents.filter((document) => isRatesFile(document.file))
  const snapshotDocument = files.find((document) => document.file === ECB_FILE)
  let ecb: RatesContent['ecb'] = { days: [], fromSnapshot: true }
  if (snapshotDocument)
    ecb = { ...parseEcbXml(rawText(snapshotDocument), ECB_FILE, problems), fromSnapshot: true }
  if (fetched) {
    const fetchedProblems: ContentProblem[] = []
    const fresh = parseEcbXml(fetched.text, fetched.url, fetchedProblems)
    // A broken download is no reason to fail the build: the snapshot stays, with a warning.
    if (fetchedProblems.length === 0 && fresh.days.length > 0) {
      ecb = { ...mergeDays(ecb, fresh), fromSnapshot: false }
    } else {
      console.warn(
        `The ECB rates downloaded from ${fetched.url} are unusable; the snapshot ${ECB_FILE} is used:\n${fetchedProblems.map((problem) => `  ${problem.field}: ${problem.message}`).join('\n')}`,
      )
    }
  }
  const textsDocument = files.find((document) => document.file === RATES_TEXTS_FILE)
  const texts = textsDocument ? validateDocument(ratesTexts, textsDocument, problems) : undefined
  const cards: Record<string, CardRates> = Object.create(null)
  for (const document of files) {
    if (document.file === ECB_FILE || document.file === RATES_TEXTS_FILE) continue
    const network = CARD_FILE.exec(document.file)?.groups?.network
    if (!network) {
      problems.push({
        file: document.file,
        field: '',
        message: `unknown file: expected ${ECB_FILE}, ${RATES_TEXTS_FILE} or a card network's rates as exchange-rates/{network}.csv or .json`,
      })
      continue
    }
    if (network in cards) {
      problems.push({
        file: document.file,
        field: '',
        message: `expected one rate file per network; exchange-rates/${network} has a .csv and a .json`,
      })
      continue
    }
    // Without the ECB's rates there is nothing to check a card rate against: one problem, not
    // one per line.
    if (ecb.days.length === 0) {
      problems.push({
        file: document.file,
        field: '',
        message: `expected the ECB reference rates in ${ECB_FILE} to check these rates against; there are none`,
      })
      continue
    }
    cards[network] = parseCardRates(rawText(document), document.file, ecb, problems)
  }
  return { ecb, cards, texts }
}

/** The words one section uses, and no others: they travel in its page data. */
const pick = <Key extends keyof RatesTexts>(texts: RatesTexts, keys: readonly Key[]) =>
  Object.fromEntries(keys.map((key) => [key, texts[key]])) as Pick<RatesTexts, Key>

const decimal = (text: string) => parseDecimal(text) ?? { units: 1n, scale: 0 }
const numeric = (text: string) => Number(text)

/** The small chart of `values` (oldest first) as an SVG path in a 100 × 24 box. */
export function sparklinePath(values: readonly number[]): string {
  if (values.length === 0) return ''
  const low = Math.min(...values)
  const high = Math.max(...values)
  const span = high - low || 1
  const step = values.length > 1 ? 100 / (values.length - 1) : 0
  const round = (value: number) => Math.round(value * 10) / 10
  return values
    .map((value, index) => {
      // Highest at the top (y 2), lowest at the bottom (y 22); a flat course runs in the middle.
      const y = high === low ? 12 : 22 - ((value - low) / span) * 20
      return `${index === 0 ? 'M' : 'L'}${round(index * step)} ${round(y)}`
    })
    .join('')
}

/** The data of an `ecbRates` section in `language`. */
export function ecbRatesData(rates: RatesContent, language: Language): EcbRatesData | undefined {
  const latest = rates.ecb.days[0]
  const first = rates.ecb.days.at(-1)
  const texts = rates.texts?.[language]
  if (!latest || !first || !texts) return undefined
  const oldestFirst = [...rates.ecb.days].reverse()
  const rows = Object.entries(latest.rates).map(([code, rate]) => {
    const course = oldestFirst.flatMap((day) => (day.rates[code] ? [day.rates[code]] : []))
    const firstRate = course[0] ?? rate
    const sorted = [...course].sort((a, b) => numeric(a) - numeric(b))
    return {
      code,
      rate,
      first: firstRate,
      low: sorted[0] ?? rate,
      high: sorted.at(-1) ?? rate,
      change: fromHundredths(percentChange(decimal(rate), decimal(firstRate))),
      path: sparklinePath(course.map(numeric)),
    }
  })
  rows.sort((a, b) => a.code.localeCompare(b.code))
  return {
    language,
    date: latest.date,
    firstDate: first.date,
    fromSnapshot: rates.ecb.fromSnapshot,
    sourceUrl: ECB_RATES_PAGE,
    rows,
    texts: pick(texts, ECB_TEXT_KEYS),
  }
}

/** A network's rates by day and its history files, worked out once for both languages. */
const workedOut = new WeakMap<CardRates, { days: CardDay[]; history: NetworkHistory }>()

function networkRates(rates: RatesContent, network: string) {
  const card = rates.cards[network]
  if (!card) return undefined
  let result = workedOut.get(card)
  if (!result) {
    const days = cardDays(card, rates.ecb)
    result = { days, history: networkHistory(network, days, card.currencies) }
    workedOut.set(card, result)
  }
  return result
}

/** The history files of a card network (one per currency), or undefined for an unknown one. */
export function cardRateHistory(rates: RatesContent, network: string): NetworkHistory | undefined {
  return networkRates(rates, network)?.history
}

/**
 * The data of a `cardRates` section for `network` in `language`: the latest day of every
 * currency and the days there are; each currency's days are in its history file.
 */
export function cardRatesData(
  rates: RatesContent,
  network: string,
  language: Language,
): CardRatesData | undefined {
  const card = rates.cards[network]
  const texts = rates.texts?.[language]
  const name = rates.texts?.networks.find((entry) => entry.file === network)?.name
  const worked = networkRates(rates, network)
  const latest = worked?.days[0]
  if (!card || !texts || !name || !worked || !latest) return undefined
  return {
    language,
    network: name,
    currencies: card.currencies,
    latest,
    days: compactDays(worked.days.map((day) => day.date)),
    history: worked.history.folder,
    texts: pick(texts, CARD_TEXT_KEYS),
  }
}

/** Every card network's history files, for the build to write. */
export function rateHistoryFiles(rates: RatesContent): NetworkHistory['files'] {
  return Object.keys(rates.cards).flatMap((network) => cardRateHistory(rates, network)?.files ?? [])
}
