/**
 * Exchange rates on demand, as the build writes them: the Mastercard page's data holds the
 * latest day only (under 4 KB gzip with the stored 28 days and with 90), one history file per
 * currency holds that currency's days (the card file's and the ECB's rate in force), and the
 * files' folder changes exactly when the rates do (they are cached for good).
 */
import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { extendRates } from '../../../../bench/rates-content'
import type { ContentProblem } from '../../../../src/content/errors'
import { createFileStore } from '../../../../src/content/file-store'
import { loadContent } from '../../../../src/content/load'
import { cardRatesData, rateHistoryFiles, readRates } from '../../../../src/content/rates'
import type { SiteContent } from '../../../../src/content/site-content'
import { createPageData, createStaticQueries } from '../../../../src/engine/pages/page-data'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import { compactDays, expandDays } from '../../../../src/shared/rates/days'
import type { CardRatesData } from '../../../../src/shared/rates/types'
import type { PageData } from '../../../../src/shared/types'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ROOT = join(import.meta.dirname, '../../../..')
const MAX_PAGE_DATA_GZIP = 4 * 1024

/** The page data of `path` exactly as the build writes it. */
function pageData(content: SiteContent, path: string): { json: string; page: PageData } {
  const route = createRouteTable(content).find((page) => page.route.path === path)
  if (!route) throw new Error(`no page ${path}`)
  const page = createPageData(route, createStaticQueries(content), content, 'https://bank.example')
  return { json: JSON.stringify(page), page }
}

const cardSection = (page: PageData) => {
  const content = Object.values(page.result.content)[0] as unknown as {
    sections: { type: string; data?: unknown }[]
  }
  return content.sections.find((section) => section.type === 'cardRates')?.data as CardRatesData
}

const gzipBytes = (text: string) => gzipSync(text, { level: 9 }).length

let stored: SiteContent
let dir: string
let ninety: SiteContent

beforeAll(async () => {
  stored = await loadContent(createFileStore(join(ROOT, 'content')))
  dir = await temporaryFolder('rates-90-')
  await cp(join(ROOT, 'content'), dir, { recursive: true })
  await extendRates(dir, 90)
  ninety = await loadContent(createFileStore(dir))
}, 60_000)

afterAll(async () => {
  await removeFolder(dir)
})

describe('the Mastercard page’s data', () => {
  it('holds the latest day’s rates and no other day’s', () => {
    const { json, page } = pageData(stored, '/en/exchange-rates/mastercard/')
    const data = cardSection(page)
    expect(data.latest.date).toBe('2020-01-28')
    const usd = data.currencies.indexOf('USD')
    expect(data.latest.card[usd]).toBe('1.094505')
    expect(data.latest.ecb[usd]).toBe('1.1005')
    // The other days are named (the converter offers them), their rates are not there: USD of
    // 27 January 2020 and 27 December 2019, from the card file and the ECB's.
    expect(expandDays(data.days)).toHaveLength(28)
    for (const rate of ['1.098731', '1.1025', '1.085885']) expect(json).not.toContain(rate)
    expect(json).not.toContain('2020-01-27')
    expect(data.history).toMatch(/^\/rates\/mastercard\/[0-9a-f]{10}\/$/)
  })

  it('is at most 4 KB gzip in both languages, with 28 days and with 90', () => {
    for (const [content, days] of [
      [stored, 28],
      [ninety, 90],
    ] as const) {
      for (const language of ['en', 'de']) {
        const { json, page } = pageData(content, `/${language}/exchange-rates/mastercard/`)
        expect(expandDays(cardSection(page).days)).toHaveLength(days)
        expect(gzipBytes(json), `${language}, ${days} days`).toBeLessThanOrEqual(MAX_PAGE_DATA_GZIP)
      }
    }
  })
})

describe('the history files', () => {
  it('are one per currency, in the folder the page names, each with its days', async () => {
    const files = rateHistoryFiles(stored.rates)
    const data = cardRatesData(stored.rates, 'mastercard', 'en') as CardRatesData
    expect(files.map((file) => file.history.currency)).toEqual(data.currencies)
    expect(data.currencies).toHaveLength(32)
    for (const file of files) {
      expect(file.url).toBe(`${data.history}${file.history.currency}.json`)
      expect(file.history.days).toHaveLength(28)
    }
    const usd = files.find((file) => file.history.currency === 'USD')?.history
    expect(usd?.days[0]).toEqual({
      date: '2020-01-28',
      ecbDate: '2020-01-28',
      card: '1.094505',
      ecb: '1.1005',
    })
    // Every line of the card file for USD, and the ECB's rate of its day.
    const csv = await readFile(join(ROOT, 'content/exchange-rates/mastercard.csv'), 'utf8')
    const lines = csv.split('\n').filter((line) => line.includes(',USD,'))
    expect(usd?.days.map((day) => `${day.date},USD,${day.card}`)).toEqual(lines.reverse())
    expect(usd?.days.find((day) => day.date === '2019-12-27')?.ecb).toBe('1.1153')
  })

  it('are small: under 1 KB gzip with 28 days, under 2 KB with 90', () => {
    for (const [content, limit] of [
      [stored, 1024],
      [ninety, 2048],
    ] as const) {
      for (const file of rateHistoryFiles(content.rates)) {
        expect(gzipBytes(JSON.stringify(file.history)), file.url).toBeLessThan(limit)
      }
    }
  })

  it('name the ECB rate in force on a day without one (a weekend): the latest before', () => {
    const ecb = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<Cube>
<Cube time="2020-01-27"><Cube currency="USD" rate="1.1025"/></Cube>
<Cube time="2020-01-24"><Cube currency="USD" rate="1.1035"/></Cube>
</Cube>
</gesmes:Envelope>
`
    const card =
      'date,currency,rate\n2020-01-24,USD,1.0980\n2020-01-25,USD,1.0975\n2020-01-27,USD,1.0970\n'
    const problems: ContentProblem[] = []
    const rates = readRates(
      [
        { file: 'exchange-rates/ecb.xml', data: { text: ecb } },
        { file: 'exchange-rates/mastercard.csv', data: { text: card } },
      ],
      problems,
    )
    expect(problems).toEqual([])
    const [usd] = rateHistoryFiles(rates)
    expect(usd?.history.days).toEqual([
      { date: '2020-01-27', ecbDate: '2020-01-27', card: '1.0970', ecb: '1.1025' },
      { date: '2020-01-25', ecbDate: '2020-01-24', card: '1.0975', ecb: '1.1035' },
      { date: '2020-01-24', ecbDate: '2020-01-24', card: '1.0980', ecb: '1.1035' },
    ])
  })

  it('move to a new folder when the rates change, and only then', async () => {
    const again = await loadContent(createFileStore(join(ROOT, 'content')))
    const folder = (content: SiteContent) => rateHistoryFiles(content.rates)[0]?.url.slice(0, -8)
    expect(folder(again)).toBe(folder(stored))
    expect(folder(ninety)).not.toBe(folder(stored))
  })
})

describe('the list of days in the page data', () => {
  it('keeps the dates, latest first, across weekends, holidays and months', () => {
    const dates = ['2020-01-02', '2019-12-31', '2019-12-27', '2019-12-24', '2019-11-29']
    const list = compactDays(dates)
    expect(list).toEqual({ latest: '2020-01-02', gaps: [2, 4, 3, 25] })
    expect(expandDays(list)).toEqual(dates)
    expect(expandDays(compactDays([]))).toEqual([])
    expect(() => compactDays(['2020-01-02', '2020-01-03'])).toThrow(/latest first/)
  })
})
