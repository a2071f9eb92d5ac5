/** What the exchange-rate sections receive from the build (page data). */

import type { Language } from '../languages'
import type { RatesTexts } from './texts'

export type { RatesTexts }

/** Where the ECB publishes the reference rates. */
export const ECB_RATES_PAGE =
  'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html'

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
  rows: {
    code: string
    /** The currency's name in the page's language. */
    name: string
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
  texts: RatesTexts
}

/** A `cardRates` section's data: a card network's rates by day beside the ECB's. */
export interface CardRatesData {
  language: Language
  /** The network's name ("Mastercard"). */
  network: string
  currencies: { code: string; name: string }[]
  /** Latest first; the arrays follow `currencies`. */
  days: {
    date: string
    /** The day of the ECB rates in force on `date` (earlier on weekends and TARGET holidays). */
    ecbDate: string
    card: string[]
    ecb: string[]
  }[]
  texts: RatesTexts
}
