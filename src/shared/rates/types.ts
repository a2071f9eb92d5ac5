/** What the exchange-rate sections receive from the build (page data), and the history files. */
import type { Language } from '../languages'
import type { DayList } from './days'
import type { RatesTexts } from './texts'

export type { RatesTexts }

/** Where the ECB publishes the reference rates. */
export const ECB_RATES_PAGE =
  'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html'

/** The words the ECB table uses (the page data carries no others). */
export const ECB_TEXT_KEYS = [
  'source',
  'sourceLink',
  'ratesOf',
  'snapshot',
  'informationOnly',
  'ecbCaption',
  'currency',
  'perEuro',
  'change',
  'trend',
  'trendLabel',
  'sorted',
  'ascending',
  'descending',
] as const satisfies readonly (keyof RatesTexts)[]

/** The words a card network's rates, its converter and its history use. */
export const CARD_TEXT_KEYS = [
  'source',
  'sourceLink',
  'ratesOf',
  'cardSource',
  'currency',
  'cardCaption',
  'cardRate',
  'ecbRate',
  'markup',
  'date',
  'ecbOf',
  'converter',
  'converterIntro',
  'amount',
  'amountHint',
  'amountError',
  'result',
  'resultEcb',
  'resultMarkup',
  'history',
  'historyCaption',
  'historyShow',
  'historyLoading',
  'historyError',
  'historyOutdated',
  'retry',
  'reload',
] as const satisfies readonly (keyof RatesTexts)[]

export type EcbTexts = Pick<RatesTexts, (typeof ECB_TEXT_KEYS)[number]>
export type CardTexts = Pick<RatesTexts, (typeof CARD_TEXT_KEYS)[number]>

/** An `ecbRates` section's data: the latest day's rates, each with its course over the days. */
export interface EcbRatesData {
  /** The page's language: numbers and dates are formatted for it. */
  language: Language
  /** The day the rates are for, and the first day of the data (YYYY-MM-DD). */
  date: string
  firstDate: string
  /** True when the rates come from the stored snapshot, not from a download at build time. */
  fromSnapshot: boolean
  sourceUrl: string
  /** Latest day's rates by currency (named in the page's language by `currencyName`). */
  rows: {
    code: string
    /** Units per 1 euro, as published. */
    rate: string
    /** The first day's rate, the lowest and the highest of the days. */
    first: string
    low: string
    high: string
    /** The change since the first day, in percent with two decimals. */
    change: number
    /** The small chart's SVG path in a 100 × 24 box, drawn at build time. */
    path: string
  }[]
  texts: EcbTexts
}

/** One day of a card network's rates: the network's and the ECB's, per currency or for one. */
export interface CardDay<Rate = string[]> {
  date: string
  /** The day of the ECB rates in force on `date` (earlier on weekends and TARGET holidays). */
  ecbDate: string
  card: Rate
  ecb: Rate
}

/**
 * A `cardRates` section's data: the latest day of every currency, and what the page needs to
 * offer the other days, whose rates load per currency when a visitor asks for them (see
 * `RateHistory`).
 */
export interface CardRatesData {
  language: Language
  /** The network's name ("Mastercard"). */
  network: string
  /** The currencies' codes, named in the page's language by `currencyName`. */
  currencies: string[]
  /** The latest day; the arrays follow `currencies`. */
  latest: CardDay
  /** Every day with rates (`expandDays` lists them): the converter's choice of day. */
  days: DayList
  /** The folder of the currencies' history files: `${history}${code}.json` (`historyUrl`). */
  history: string
  texts: CardTexts
}

/** `/rates/{network}/{version}/{code}.json`: one currency's rates by day, latest first. */
export interface RateHistory {
  currency: string
  days: CardDay<string>[]
}
