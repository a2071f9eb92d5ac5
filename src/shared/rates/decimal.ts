/**
 * Exact decimal arithmetic for rates and amounts. Rates are kept as the decimal texts they
 * were published as ("1.1005"); every result is computed on integers and rounded once, half
 * away from zero, so a mark-up of 0.125 % shows as 0.13 %, never as 0.12 % because a binary
 * float held 0.12499999.
 */

/** A decimal number as an integer and a power of ten: 1.1005 is { units: 11005n, scale: 4 }. */
export interface Decimal {
  units: bigint
  scale: number
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/

/** The decimal a text stands for ("1.1005", "-0.5", "120"), or undefined if it is none. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL.exec(text.trim())
  if (!match) return undefined
  const [, sign, whole, fraction = ''] = match
  const units = BigInt(`${whole}${fraction}`)
  return { units: sign ? -units : units, scale: fraction.length }
}

/** The number of decimal places of a rate text as published ("0.84603" → 5). */
export const decimalPlaces = (text: string): number => parseDecimal(text)?.scale ?? 0

const TEN = 10n
const pow10 = (exponent: number): bigint => TEN ** BigInt(exponent)

/** `numerator / denominator` rounded half away from zero to an integer. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('division by zero')
  const negative = numerator < 0n !== denominator < 0n
  const n = numerator < 0n ? -numerator : numerator
  const d = denominator < 0n ? -denominator : denominator
  const quotient = (n * 2n + d) / (d * 2n)
  return negative ? -quotient : quotient
}

/**
 * `a / b - 1` in percent, in hundredths of a percent, rounded once: the mark-up of a card
 * rate over a reference rate is `percentChange(reference, card)`, the change of a rate over
 * time `percentChange(later, earlier)`.
 */
export function percentChange(a: Decimal, b: Decimal): bigint {
  // a/b = (a.units / 10^a.scale) / (b.units / 10^b.scale); in hundredths of a percent × 10^4.
  const numerator = (a.units * pow10(b.scale) - b.units * pow10(a.scale)) * 10_000n
  return divideRounded(numerator, b.units * pow10(a.scale))
}

/**
 * Converts `amount` of a foreign currency into euros at `rate` (units of the currency per
 * euro), in cents, rounded once.
 */
export function toEuroCents(amount: Decimal, rate: Decimal): bigint {
  // (amount.units / 10^amount.scale) / (rate.units / 10^rate.scale) × 100
  return divideRounded(amount.units * pow10(rate.scale) * 100n, rate.units * pow10(amount.scale))
}

/** A whole number of hundredths as a number with two decimals (1234n → 12.34). */
export const fromHundredths = (hundredths: bigint): number => Number(hundredths) / 100

/**
 * The mark-up of a card rate over the ECB reference rate in percent, two decimals (both as
 * published, units per euro): ECB rate / card rate − 1. What a payment costs more in euros at
 * the card rate than at the reference rate. Undefined where a rate is missing or no number.
 */
export function markupPercent(ecbRate: string, cardRate: string): number | undefined {
  const ecb = parseDecimal(ecbRate)
  const card = parseDecimal(cardRate)
  if (!ecb || !card || ecb.units <= 0n || card.units <= 0n) return undefined
  return fromHundredths(percentChange(ecb, card))
}
