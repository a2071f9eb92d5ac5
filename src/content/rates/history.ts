/**
 * A card network's rates by day beside the ECB's, and the history files made of them: one per
 * currency, so a page ships only the latest day and a visitor loads the days of the currency
 * they look at (see `src/shared/rates/history.ts` for the paths and why they are hashed).
 */
import { createHash } from 'node:crypto'
import { historyFolder, historyUrl } from '../../shared/rates/history'
import type { CardDay, RateHistory } from '../../shared/rates/types'
import type { CardRates } from './card'
import { type RateDays, ratesOn } from './ecb'

/** A network's history files of one build: their folder and each currency's file. */
export interface NetworkHistory {
  folder: string
  files: { url: string; history: RateHistory }[]
}

/**
 * Every day of the card file with the ECB rates in force that day, latest first; the arrays
 * follow `card.currencies`. Days before the first ECB day are left out (the card file's check
 * has refused them already).
 */
export function cardDays(card: CardRates, ecb: RateDays): CardDay[] {
  return card.days.flatMap((day) => {
    const reference = ratesOn(ecb, day.date)
    if (!reference) return []
    return [
      {
        date: day.date,
        ecbDate: reference.date,
        card: card.currencies.map((code) => day.rates[code] ?? ''),
        ecb: card.currencies.map((code) => reference.rates[code] ?? ''),
      },
    ]
  })
}

/** Short: the name only has to change with the content, and it is shipped in every page. */
const VERSION_LENGTH = 10

/** The history files of `network`: one per currency, named by a hash of all of them. */
export function networkHistory(
  network: string,
  days: readonly CardDay[],
  currencies: readonly string[],
): NetworkHistory {
  const histories: RateHistory[] = currencies.map((currency, index) => ({
    currency,
    days: days.map((day) => ({
      date: day.date,
      ecbDate: day.ecbDate,
      card: day.card[index] ?? '',
      ecb: day.ecb[index] ?? '',
    })),
  }))
  const version = createHash('sha256')
    .update(JSON.stringify(histories))
    .digest('hex')
    .slice(0, VERSION_LENGTH)
  const folder = historyFolder(network, version)
  return {
    folder,
    files: histories.map((history) => ({ url: historyUrl(folder, history.currency), history })),
  }
}
