/**
 * Exchange rates: the ECB's XML (the real sample of the content store, holidays included), the
 * card network's file and every error it can have (file and line), the mark-up against
 * hand-computed values, and the figures as the pages show them.
 */
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ContentProblem } from '../../../../src/content/errors'
import { createFileStore } from '../../../../src/content/file-store'
import { loadContent } from '../../../../src/content/load'
import {
  cardRatesData,
  ecbRatesData,
  readRates,
  sparklinePath,
} from '../../../../src/content/rates'
import { parseCardRates } from '../../../../src/content/rates/card'
import { parseEcbXml, ratesOn } from '../../../../src/content/rates/ecb'
import { fetchEcbRates } from '../../../../src/engine/fetch-rates'
import { currencyName } from '../../../../src/shared/display-names'
import { expandDays } from '../../../../src/shared/rates/days'
import {
  markupPercent,
  parseDecimal,
  percentChange,
  toEuroCents,
} from '../../../../src/shared/rates/decimal'
import {
  formatAmount,
  formatEuros,
  formatPercent,
  formatRate,
  parseAmount,
} from '../../../../src/site/components/rates/format'
import { pageFile, problemsOf, validDocuments } from '../../../fixtures/content'

const ROOT = join(import.meta.dirname, '../../../..')
const ecbXml = await readFile(join(ROOT, 'content/exchange-rates/ecb.xml'), 'utf8')
const cardCsv = await readFile(join(ROOT, 'content/exchange-rates/mastercard.csv'), 'utf8')
const d = (text: string) => parseDecimal(text) ?? { units: 0n, scale: 0 }
/** Spaces as Intl writes them (narrow and no-break) made plain, for readable expectations. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ')

const ecbSample = (() => {
  const problems: ContentProblem[] = []
  const history = parseEcbXml(ecbXml, 'exchange-rates/ecb.xml', problems)
  return { history, problems }
})()

/** An ECB file of the given days (`{ '2020-01-28': { USD: '1.1005' } }`). */
const ecbFile = (days: Record<string, Record<string, string>>) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject>
<Cube>
${Object.entries(days)
  .map(
    ([date, rates]) =>
      `<Cube time="${date}">\n${Object.entries(rates)
        .map(([currency, rate]) => `<Cube currency="${currency}" rate="${rate}"/>`)
        .join('\n')}\n</Cube>`,
  )
  .join('\n')}
</Cube>
</gesmes:Envelope>
`

const ECB = parseEcbXml(
  ecbFile({
    '2020-01-28': { USD: '1.1005', JPY: '120.02' },
    '2020-01-27': { USD: '1.1025', JPY: '120.11' },
    '2020-01-24': { USD: '1.1035', JPY: '120.52' },
  }),
  'ecb.xml',
  [],
)

const cardProblems = (text: string, file = 'exchange-rates/mastercard.csv') => {
  const problems: ContentProblem[] = []
  const rates = parseCardRates(text, file, ECB, problems)
  return { rates, problems: problems.map((p) => `${p.file} › ${p.field}: ${p.message}`) }
}

describe('the ECB reference rates (XML)', () => {
  it('reads the real sample: 28 working days of 32 currencies, latest first, as published', () => {
    const { history, problems } = ecbSample
    expect(problems).toEqual([])
    expect(history.days).toHaveLength(28)
    expect(history.days[0]?.date).toBe('2020-01-28')
    expect(history.days.at(-1)?.date).toBe('2019-12-17')
    expect(Object.keys(history.days[0]?.rates ?? {})).toHaveLength(32)
    expect(history.days[0]?.rates.USD).toBe('1.1005')
    expect(history.days[0]?.rates.GBP).toBe('0.84603')
    expect(history.days[0]?.rates.IDR).toBe('15008.07')
  })

  it('has no rates on TARGET holidays: the latest published rates are in force then', () => {
    const dates = ecbSample.history.days.map((day) => day.date)
    for (const holiday of ['2019-12-25', '2019-12-26', '2020-01-01']) {
      expect(dates).not.toContain(holiday)
    }
    expect(ratesOn(ecbSample.history, '2019-12-25')?.date).toBe('2019-12-24')
    expect(ratesOn(ecbSample.history, '2019-12-26')?.date).toBe('2019-12-24')
    expect(ratesOn(ecbSample.history, '2020-01-01')?.date).toBe('2019-12-31')
    // A weekend too.
    expect(ratesOn(ecbSample.history, '2020-01-26')?.date).toBe('2020-01-24')
    expect(ratesOn(ecbSample.history, '2019-12-16')).toBeUndefined()
  })

  it('names the line of every problem', () => {
    const problems: ContentProblem[] = []
    const text = ecbFile({
      '2020-01-28': { USD: '1.1005', JPY: 'abc', GBP: '0' },
      '2020-02-30': { USD: '1.1' },
    }).replace(
      '<Cube currency="USD" rate="1.1005"/>',
      '<Cube currency="USD" rate="1.1005"/>\n<Cube currency="USD" rate="1.2"/>',
    )
    parseEcbXml(text, 'exchange-rates/ecb.xml', problems)
    expect(problems.map((p) => `${p.field}: ${p.message}`)).toEqual([
      'line 7: expected USD once on 2020-01-28; it appears twice',
      'line 8: JPY on 2020-01-28: expected the rate as a decimal number such as 1.1005, found "abc"',
      'line 9: GBP on 2020-01-28: expected a rate above zero, found "0"',
      'line 11: expected the day as a date (YYYY-MM-DD), found time="2020-02-30"',
      'line 12: expected the rate of USD inside a day (<Cube time="…">)',
    ])
    expect(problems.every((p) => p.file === 'exchange-rates/ecb.xml')).toBe(true)
  })

  it('says plainly when a file is no ECB rate file', () => {
    const problems: ContentProblem[] = []
    parseEcbXml('date,currency,rate\n', 'exchange-rates/ecb.xml', problems)
    expect(problems[0]?.message).toContain('expected the ECB reference rates in the ECB XML format')
  })
})

describe('the card network’s rates (CSV or JSON)', () => {
  it('reads the content store’s file against the ECB sample without a problem', () => {
    const problems: ContentProblem[] = []
    const card = parseCardRates(
      cardCsv,
      'exchange-rates/mastercard.csv',
      ecbSample.history,
      problems,
    )
    expect(problems).toEqual([])
    expect(card.days).toHaveLength(28)
    expect(card.currencies).toHaveLength(32)
    expect(card.days[0]?.rates.USD).toBe('1.094505')
  })

  it('reads JSON, naming the line of each rate', () => {
    const json = `[
  { "date": "2020-01-28", "currency": "USD", "rate": 1.0950 },
  { "date": "2020-01-28", "currency": "XYZ", "rate": "1.2" }
]`
    const { problems } = cardProblems(json, 'exchange-rates/mastercard.json')
    expect(problems).toEqual([
      'exchange-rates/mastercard.json › line 3: unknown currency XYZ: expected one the ECB publishes reference rates for (JPY, USD)',
    ])
    const { rates } = cardProblems(
      json.replace(',\n  { "date": "2020-01-28", "currency": "XYZ", "rate": "1.2" }', ''),
      'x.json',
    )
    expect(rates.days[0]?.rates.USD).toBe('1.095')
  })

  it('refuses unknown currencies, bad dates, non-positive and implausible rates, with file and line', () => {
    const { problems } = cardProblems(
      [
        'date,currency,rate',
        '2020-01-28,USD,1.0950',
        '2020-01-28,JPY,119.40',
        '2020-01-28,XAU,0.0007',
        '2020-01-32,USD,1.09',
        '2020-01-27,USD,-1.09',
        '2020-01-27,JPY,0',
        '2020-01-24,USD,1.2200',
        '2020-01-24,JPY,99.0',
        '2020-01-24,USD,1.1',
      ].join('\n'),
    )
    expect(problems).toEqual([
      'exchange-rates/mastercard.csv › line 4: unknown currency XAU: expected one the ECB publishes reference rates for (JPY, USD)',
      'exchange-rates/mastercard.csv › line 5: expected the date as YYYY-MM-DD, found "2020-01-32"',
      'exchange-rates/mastercard.csv › line 6: USD on 2020-01-27: expected a rate above zero, found "-1.09"',
      'exchange-rates/mastercard.csv › line 7: JPY on 2020-01-27: expected a rate above zero, found "0"',
      'exchange-rates/mastercard.csv › line 8: USD on 2020-01-24: the rate 1.2200 is 10.56 % away from the ECB rate 1.1035 of 2020-01-24; expected at most 10 % (a typo?)',
      'exchange-rates/mastercard.csv › line 9: JPY on 2020-01-24: the rate 99.0 is -17.86 % away from the ECB rate 120.52 of 2020-01-24; expected at most 10 % (a typo?)',
      'exchange-rates/mastercard.csv › line 10: expected a rate for every currency on 2020-01-24; missing: JPY',
      // Both rates of 27 January were refused, so the day is missing as well.
      'exchange-rates/mastercard.csv › : expected the rates of every ECB working day from 2020-01-24 to 2020-01-28; 2020-01-27 is missing',
    ])
  })

  it('refuses a rate given twice, a missing header and a short line', () => {
    expect(
      cardProblems(
        'date,currency,rate\n2020-01-28,USD,1.095\n2020-01-28,JPY,119.4\n2020-01-28,USD,1.096\n',
      ).problems,
    ).toEqual([
      'exchange-rates/mastercard.csv › line 4: expected USD once on 2020-01-28; it appears again',
    ])
    expect(cardProblems('day;code;value\n').problems[0]).toContain(
      'line 1: expected a header line naming the columns date, currency and rate',
    )
    expect(cardProblems('date,currency,rate\n2020-01-28,USD\n').problems[0]).toContain(
      'line 2: expected 3 values (date, currency, rate), found 2',
    )
  })

  it('compares a rate of a holiday with the latest ECB rates before it', () => {
    const { problems } = cardProblems(
      'date,currency,rate\n2020-01-25,USD,1.0940\n2020-01-25,JPY,119.9\n',
    )
    expect(problems).toEqual([])
  })
})

describe('the mark-up over the ECB reference rate', () => {
  it('matches hand-computed values, to two decimals', () => {
    // 1.1005 / 1.0950 − 1 = 0.502283… %
    expect(percentChange(d('1.1005'), d('1.0950'))).toBe(50n)
    // 120.02 / 119.42 − 1 = 0.502428… %
    expect(percentChange(d('120.02'), d('119.42'))).toBe(50n)
    // The sample's USD of 28 January 2020: 1.1005 / 1.094505 − 1 = 0.547736… %
    expect(percentChange(d('1.1005'), d('1.094505'))).toBe(55n)
    // A card rate better than the ECB's is a negative mark-up: 1.1005 / 1.1100 − 1 = −0.855856… %
    expect(percentChange(d('1.1005'), d('1.1100'))).toBe(-86n)
  })

  it('is what the pages show: percent with two decimals, nothing for a missing rate', () => {
    expect(markupPercent('1.1005', '1.094505')).toBe(0.55)
    expect(markupPercent('1.1005', '1.1100')).toBe(-0.86)
    expect(markupPercent('', '1.0950')).toBeUndefined()
    expect(markupPercent('1.1005', '0')).toBeUndefined()
  })

  it('rounds exact halves away from zero, where binary floats would not', () => {
    // 1.00125 / 1 − 1 = 0.125 % exactly → 0.13 % (0.00125 * 100 in floats is 0.12499…)
    expect(percentChange(d('1.00125'), d('1'))).toBe(13n)
    expect(percentChange(d('0.99875'), d('1'))).toBe(-13n)
    expect(percentChange(d('1.00124'), d('1'))).toBe(12n)
  })

  it('converts foreign amounts into euro cents, rounded once', () => {
    // 100 / 1.1005 = 90.8678 €, 100 / 1.0950 = 91.3242 €
    expect(toEuroCents(d('100'), d('1.1005'))).toBe(9087n)
    expect(toEuroCents(d('100.00'), d('1.0950'))).toBe(9132n)
    // 2.01 / 2 = 1.005 € exactly → 1.01 € (toFixed(2) on the float says 1.00)
    expect(toEuroCents(d('2.01'), d('2'))).toBe(101n)
    // 15,008.07 rupiah at 15008.07 per euro is one euro.
    expect(toEuroCents(d('15008.07'), d('15008.07'))).toBe(100n)
  })
})

describe('figures as the pages show them', () => {
  it('keeps a rate’s published decimals, per language', () => {
    expect(formatRate('0.84603', 'en')).toBe('0.84603')
    expect(formatRate('0.84603', 'de')).toBe('0,84603')
    expect(formatRate('15008.07', 'en')).toBe('15,008.07')
    expect(formatRate('15008.07', 'de')).toBe('15.008,07')
    expect(formatRate('1.094500', 'de')).toBe('1,094500')
    expect(formatRate('137.2', 'en')).toBe('137.2')
  })

  it('writes percentages with two decimals and euros in cents, per language', () => {
    expect(plain(formatPercent(0.55, 'en'))).toBe('0.55%')
    expect(plain(formatPercent(0.55, 'de'))).toBe('0,55 %')
    expect(plain(formatPercent(-1.41, 'de', true))).toBe('-1,41 %')
    expect(plain(formatPercent(1.73, 'en', true))).toBe('+1.73%')
    expect(plain(formatEuros(9087n, 'en'))).toBe('€90.87')
    expect(plain(formatEuros(123456n, 'de'))).toBe('1.234,56 €')
    expect(plain(formatAmount(d('100'), 'USD', 'en'))).toBe('US$100.00')
    expect(plain(formatAmount(d('1000'), 'JPY', 'de'))).toBe('1.000 ¥')
  })

  it('reads amounts as visitors type them in either language', () => {
    const value = (text: string, language: 'en' | 'de') => {
      const amount = parseAmount(text, language)
      return amount && Number(amount.units) / 10 ** amount.scale
    }
    expect(value('1,234.56', 'en')).toBe(1234.56)
    expect(value('1.234,56', 'de')).toBe(1234.56)
    expect(value('12,5', 'de')).toBe(12.5)
    expect(value('12.50', 'de')).toBe(12.5)
    expect(value('1.000', 'de')).toBe(1000)
    expect(value('1,000', 'en')).toBe(1000)
    expect(value('1 000', 'en')).toBe(1000)
    expect(value('100', 'en')).toBe(100)
    for (const wrong of ['', '0', '-5', 'abc', '1.2.3', '12,', '1,23,4', '1e5']) {
      expect(parseAmount(wrong, 'en'), wrong).toBeUndefined()
    }
  })

  it('draws the small chart at build time: highest at the top, a flat course in the middle', () => {
    expect(sparklinePath([1, 2, 3])).toBe('M0 22L50 12L100 2')
    expect(sparklinePath([3, 1])).toBe('M0 2L100 22')
    expect(sparklinePath([7, 7, 7])).toBe('M0 12L50 12L100 12')
  })
})

describe('the rates in the content store', () => {
  it('gives both pages their data: the ECB table and the card network’s rates by day', async () => {
    const content = await loadContent(createFileStore(join(ROOT, 'content')))
    const ecb = ecbRatesData(content.rates, 'de')
    expect(ecb?.date).toBe('2020-01-28')
    expect(ecb?.firstDate).toBe('2019-12-17')
    expect(ecb?.fromSnapshot).toBe(true)
    const usd = ecb?.rows.find((row) => row.code === 'USD')
    // 1.1005 / 1.1162 − 1 = −1.406557… %
    expect(usd).toMatchObject({ rate: '1.1005', first: '1.1162', change: -1.41 })
    const card = cardRatesData(content.rates, 'mastercard', 'en')
    expect(card?.network).toBe('Mastercard')
    // The latest day's rates; the other days are only named (their rates are in history files).
    expect(expandDays(card?.days ?? { latest: '', gaps: [] })).toHaveLength(28)
    const index = card?.currencies.indexOf('USD') ?? -1
    const latest = card?.latest
    expect(latest?.date).toBe('2020-01-28')
    expect(markupPercent(latest?.ecb[index] ?? '', latest?.card[index] ?? '')).toBe(0.55)
    // Named where the page is drawn, in its language: codes only in the page data.
    expect(card?.currencies[index]).toBe('USD')
    expect(currencyName('USD', 'en')).toBe('US Dollar')
    expect(currencyName('USD', 'de')).toBe('US-Dollar')
    expect(currencyName('CHF', 'de')).toBe('Schweizer Franken')
  })

  it('stops the build at a broken card file, naming file and line', async () => {
    const { history } = ecbSample
    const problems: ContentProblem[] = []
    readRates(
      [
        { file: 'exchange-rates/ecb.xml', data: { text: ecbXml } },
        { file: 'exchange-rates/mastercard.csv', data: { text: `${cardCsv}2020-01-28,XXX,1.5\n` } },
      ],
      problems,
    )
    expect(history.days).toHaveLength(28)
    expect(problems).toEqual([
      {
        file: 'exchange-rates/mastercard.csv',
        field: 'line 898',
        message: expect.stringContaining('unknown currency XXX'),
      },
    ])
  })

  it('refuses exchange rates on a page with a form (its template has no rate tables)', async () => {
    const documents = validDocuments()
    const about = pageFile('en', '/about/')
    documents.set(about, {
      ...(documents.get(about) as object),
      sections: [{ type: 'form', form: 'newsletter' }, { type: 'ecbRates' }],
    })
    expect(await problemsOf(documents)).toContainEqual({
      file: about,
      field: 'sections.1',
      message: 'expected exchange rates and a form on different pages',
    })
  })

  it('without the ECB snapshot, says so once instead of at every card rate', () => {
    const problems: ContentProblem[] = []
    readRates([{ file: 'exchange-rates/mastercard.csv', data: { text: cardCsv } }], problems)
    expect(problems).toEqual([
      {
        file: 'exchange-rates/mastercard.csv',
        field: '',
        message:
          'expected the ECB reference rates in exchange-rates/ecb.xml to check these rates against; there are none',
      },
    ])
  })

  it('lays fetched rates over the snapshot; a broken download leaves the snapshot', () => {
    const fresh = ecbFile({ '2020-01-29': { USD: '1.1016' } })
    const merged = readRates([{ file: 'exchange-rates/ecb.xml', data: { text: ecbXml } }], [], {
      text: fresh,
      url: 'https://ecb.example/90d.xml',
    })
    expect(merged.ecb.fromSnapshot).toBe(false)
    expect(merged.ecb.days[0]?.date).toBe('2020-01-29')
    expect(merged.ecb.days).toHaveLength(29)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const broken = readRates([{ file: 'exchange-rates/ecb.xml', data: { text: ecbXml } }], [], {
      text: '<html>maintenance</html>',
      url: 'https://ecb.example/90d.xml',
    })
    expect(broken.ecb.fromSnapshot).toBe(true)
    expect(broken.ecb.days[0]?.date).toBe('2020-01-28')
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })
})

describe('fetching the ECB rates at build time', () => {
  let url = ''
  const server = createServer((request, response) => {
    if (request.url === '/90d.xml') {
      response.writeHead(200, { 'content-type': 'text/xml' }).end(ecbXml)
    } else response.writeHead(503).end('down')
  })
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('returns the file when the ECB answers, nothing (and a warning) when it does not', async () => {
    expect((await fetchEcbRates(`${url}/90d.xml`))?.text).toBe(ecbXml)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(await fetchEcbRates(`${url}/down.xml`)).toBeUndefined()
    expect(await fetchEcbRates('http://127.0.0.1:9/none.xml', 2000)).toBeUndefined()
    expect(warn.mock.calls[0]?.[0]).toContain('HTTP 503')
    warn.mockRestore()
  })
})
