/**
 * Exact decimals for rates and amounts: texts read as published, integer division rounded
 * once and half away from zero whatever the signs, and the mark-up as the pages show it.
 * (Hand-computed mark-ups and conversions of real rates are in tests/unit/content/rates/.)
 */
import { describe, expect, it } from 'vitest'
import {
  decimalPlaces,
  divideRounded,
  fromHundredths,
  markupPercent,
  parseDecimal,
  percentChange,
  toEuroCents,
} from '../../../../src/shared/rates/decimal'

const d = (text: string) => {
  const decimal = parseDecimal(text)
  if (!decimal) throw new Error(`no decimal: ${text}`)
  return decimal
}

describe('parseDecimal', () => {
  it('reads a decimal text as an integer and its number of decimals, zeros kept', () => {
    expect(parseDecimal('1.1005')).toEqual({ units: 11005n, scale: 4 })
    expect(parseDecimal('120')).toEqual({ units: 120n, scale: 0 })
    expect(parseDecimal('1.094500')).toEqual({ units: 1094500n, scale: 6 })
    expect(parseDecimal('007.10')).toEqual({ units: 710n, scale: 2 })
    expect(parseDecimal('0.00001')).toEqual({ units: 1n, scale: 5 })
  })

  it('reads a minus sign and ignores spaces around the number', () => {
    expect(parseDecimal('-0.5')).toEqual({ units: -5n, scale: 1 })
    expect(parseDecimal('  15008.07\n')).toEqual({ units: 1500807n, scale: 2 })
  })

  it('keeps digits a float would lose', () => {
    expect(parseDecimal('12345678901234567890.123456789')).toEqual({
      units: 12345678901234567890123456789n,
      scale: 9,
    })
  })

  it.each([
    '',
    ' ',
    '-',
    '.5',
    '1.',
    '+1',
    '1,5',
    '1 000',
    '1.2.3',
    '1e5',
    '0x10',
    'abc',
    'NaN',
    'Infinity',
    '١٢',
  ])('is undefined for %j, which is no decimal', (text) => {
    expect(parseDecimal(text)).toBeUndefined()
  })
})

describe('decimalPlaces', () => {
  it('counts the decimals as published, trailing zeros included', () => {
    expect(decimalPlaces('0.84603')).toBe(5)
    expect(decimalPlaces('1.094500')).toBe(6)
    expect(decimalPlaces('137.2')).toBe(1)
    expect(decimalPlaces('120')).toBe(0)
  })

  it('is 0 for a text that is no number', () => {
    expect(decimalPlaces('n/a')).toBe(0)
    expect(decimalPlaces('')).toBe(0)
  })
})

describe('divideRounded', () => {
  it('rounds to the nearest integer, exact halves away from zero, for every sign', () => {
    expect(divideRounded(5n, 2n)).toBe(3n)
    expect(divideRounded(-5n, 2n)).toBe(-3n)
    expect(divideRounded(5n, -2n)).toBe(-3n)
    expect(divideRounded(-5n, -2n)).toBe(3n)
    expect(divideRounded(1n, 2n)).toBe(1n)
    expect(divideRounded(-1n, 2n)).toBe(-1n)
  })

  it('rounds below a half towards zero and above it away from zero', () => {
    expect(divideRounded(4n, 3n)).toBe(1n)
    expect(divideRounded(5n, 3n)).toBe(2n)
    expect(divideRounded(-4n, 3n)).toBe(-1n)
    expect(divideRounded(-5n, 3n)).toBe(-2n)
    expect(divideRounded(-1n, 3n)).toBe(0n)
    expect(divideRounded(0n, 7n)).toBe(0n)
    expect(divideRounded(12n, 4n)).toBe(3n)
  })

  it('refuses to divide by zero', () => {
    expect(() => divideRounded(1n, 0n)).toThrow(RangeError)
    expect(() => divideRounded(0n, 0n)).toThrow('division by zero')
  })
})

describe('percentChange', () => {
  it('compares decimals of different scales exactly', () => {
    expect(percentChange(d('1.10'), d('1.1'))).toBe(0n)
    expect(percentChange(d('2'), d('1.0000'))).toBe(10_000n) // +100 %
    expect(percentChange(d('0.5'), d('1'))).toBe(-5_000n) // −50 %
    expect(percentChange(d('120.02'), d('120.02000'))).toBe(0n)
  })

  it('rounds an exact half of a hundredth away from zero in both directions', () => {
    // 1.000050 / 1 − 1 = 0.005 % → 0.01 %; 0.999950 / 1 − 1 = −0.005 % → −0.01 %.
    expect(percentChange(d('1.000050'), d('1'))).toBe(1n)
    expect(percentChange(d('0.999950'), d('1'))).toBe(-1n)
    expect(percentChange(d('1.000049'), d('1'))).toBe(0n)
  })
})

describe('toEuroCents', () => {
  it('divides by the rate whatever the decimals of amount and rate', () => {
    // 0.001 / 0.0001 = 10 € exactly.
    expect(toEuroCents(d('0.001'), d('0.0001'))).toBe(1_000n)
    // 1 / 3 = 0.3333… € → 33 cents; 2 / 3 = 0.6666… € → 67 cents.
    expect(toEuroCents(d('1'), d('3'))).toBe(33n)
    expect(toEuroCents(d('2'), d('3'))).toBe(67n)
  })

  it('rounds an exact half cent away from zero, also for a negative amount (a refund)', () => {
    // 0.01 / 2 = 0.005 € → 0.01 €.
    expect(toEuroCents(d('0.01'), d('2'))).toBe(1n)
    expect(toEuroCents(d('-2.01'), d('2'))).toBe(-101n)
  })

  it('converts large amounts without losing a cent', () => {
    // 1,000,000,000 yen at 120.02 per euro: 8,331,944.675887… € → 833,194,468 cents.
    expect(toEuroCents(d('1000000000'), d('120.02'))).toBe(833_194_468n)
  })
})

describe('fromHundredths', () => {
  it('writes hundredths as a number with two decimals, with its sign', () => {
    expect(fromHundredths(1234n)).toBe(12.34)
    expect(fromHundredths(55n)).toBe(0.55)
    expect(fromHundredths(-86n)).toBe(-0.86)
    expect(fromHundredths(0n)).toBe(0)
    expect(fromHundredths(10_000n)).toBe(100)
  })
})

describe('markupPercent', () => {
  it('is ECB rate / card rate − 1 in percent, rounded once to two decimals', () => {
    // 1.00125 / 1 − 1 = 0.125 % exactly → 0.13 %, where floats give 0.12.
    expect(markupPercent('1.00125', '1')).toBe(0.13)
    expect(markupPercent('1', '1.00125')).toBe(-0.12) // 1 / 1.00125 − 1 = −0.124843… %
    expect(markupPercent('120.02', '120.02')).toBe(0)
  })

  it('reads rates with spaces around them, as a file may hold them', () => {
    expect(markupPercent(' 1.1005 ', '1.094505\n')).toBe(0.55)
  })

  it.each([
    ['0', '1.0950'],
    ['-1.1005', '1.0950'],
    ['1.1005', '-1.0950'],
    ['1,1005', '1.0950'],
    ['1.1005', 'n/a'],
    ['1.1005', ''],
  ])('is undefined for the ECB rate %j and the card rate %j', (ecb, card) => {
    expect(markupPercent(ecb, card)).toBeUndefined()
  })
})
