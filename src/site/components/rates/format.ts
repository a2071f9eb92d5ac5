/**
 * Numbers of the rate pages in the page's language (Intl only): rates with the decimals they
 * were published with, percentages with two, euros in cents. The same on server and browser.
 */
import { numberFormat } from '../../../shared/intl-formats'
import { type Language, LOCALE_DATA } from '../../../shared/languages'
import {
  type Decimal,
  decimalPlaces,
  markupPercent,
  parseDecimal,
} from '../../../shared/rates/decimal'

const intl = (language: Language) => LOCALE_DATA[language].intl

/** A rate as published ("0.84603" → "0.84603" / "0,84603"; "120.02" → "120.02"). */
export function formatRate(rate: string, language: Language): string {
  const places = decimalPlaces(rate)
  return numberFormat(intl(language), {
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  }).format(Number(rate))
}

/** A percentage with two decimals; `signed` shows + and − (a change), else only −. */
export function formatPercent(value: number, language: Language, signed = false): string {
  return numberFormat(intl(language), {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(value / 100)
}

/** A day's mark-up of one currency, computed from the two rates (not shipped beside them). */
export function formatMarkup(ecb: string, card: string, language: Language): string {
  const markup = markupPercent(ecb, card)
  return markup === undefined ? '' : formatPercent(markup, language)
}

/** Euros from cents ("90.87 €" / "€90.87"). */
export function formatEuros(cents: bigint, language: Language): string {
  return numberFormat(intl(language), { style: 'currency', currency: 'EUR' }).format(
    Number(cents) / 100,
  )
}

/** An amount of `currency` with the decimals it was entered with, at least the currency's. */
export function formatAmount(amount: Decimal, currency: string, language: Language): string {
  const format = numberFormat(intl(language), { style: 'currency', currency })
  const minimum = format.resolvedOptions().minimumFractionDigits ?? 2
  const places = Math.max(minimum, amount.scale)
  return numberFormat(intl(language), {
    style: 'currency',
    currency,
    minimumFractionDigits: places,
    maximumFractionDigits: places,
  }).format(Number(amount.units) / 10 ** amount.scale)
}

/**
 * An amount as a visitor types it, in either convention: "1.234,56", "1,234.56", "1234.5",
 * "12,50", "1 000". With one kind of separator, a group of exactly three digits after it is a
 * thousands group where the language groups with it (German "1.000", English "1,000").
 * Undefined for anything else, for zero, negatives and more than a billion.
 */
export function parseAmount(input: string, language: Language): Decimal | undefined {
  const text = input.replace(/[\s\u00a0\u202f']/g, '')
  if (!/^\d[\d.,]*$/.test(text) || /[.,]$/.test(text)) return undefined
  const lastDot = text.lastIndexOf('.')
  const lastComma = text.lastIndexOf(',')
  let decimalSeparator: string | undefined
  if (lastDot >= 0 && lastComma >= 0) decimalSeparator = lastDot > lastComma ? '.' : ','
  else if (lastDot >= 0 || lastComma >= 0) {
    const separator = lastDot >= 0 ? '.' : ','
    const parts = text.split(separator)
    const grouping = language === 'de' ? '.' : ','
    const looksGrouped = parts.length > 1 && parts.slice(1).every((part) => part.length === 3)
    decimalSeparator =
      parts.length > 2 || (looksGrouped && separator === grouping) ? undefined : separator
    if (parts.length > 2 && !looksGrouped) return undefined
  }
  const [whole = '', fraction, extra] = decimalSeparator ? text.split(decimalSeparator) : [text]
  if (extra !== undefined) return undefined
  const digits = whole.replace(/[.,]/g, '')
  // Groups must be of three digits: "1.2.3" is no amount.
  if (/[.,]/.test(whole) && !/^\d{1,3}([.,]\d{3})+$/.test(whole)) return undefined
  if (fraction !== undefined && !/^\d{1,6}$/.test(fraction)) return undefined
  const amount = parseDecimal(fraction === undefined ? digits : `${digits}.${fraction}`)
  if (!amount || amount.units <= 0n) return undefined
  if (amount.units > 10n ** BigInt(9 + amount.scale)) return undefined
  return amount
}
