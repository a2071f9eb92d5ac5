/**
 * Where a card network's rates by day live: `/rates/{network}/{version}/{code}.json`, and which
 * request paths are such files (they get a response kind of their own: cached for good).
 */
import { describe, expect, it } from 'vitest'
import {
  historyFolder,
  historyUrl,
  isHistoryPath,
  RATES_HISTORY_DIR,
} from '../../../../src/shared/rates/history'

describe('historyFolder and historyUrl', () => {
  it('name one folder per network and build, and one file per currency in it', () => {
    const folder = historyFolder('mastercard', '0a1b2c3d4e')
    expect(folder).toBe('/rates/mastercard/0a1b2c3d4e/')
    expect(historyUrl(folder, 'USD')).toBe('/rates/mastercard/0a1b2c3d4e/USD.json')
  })

  it('give each network and each version a folder of its own', () => {
    const folders = new Set([
      historyFolder('mastercard', 'aaaaaaaaaa'),
      historyFolder('mastercard', 'bbbbbbbbbb'),
      historyFolder('visa', 'aaaaaaaaaa'),
    ])
    expect(folders.size).toBe(3)
    for (const folder of folders) expect(folder.startsWith(RATES_HISTORY_DIR)).toBe(true)
  })
})

describe('isHistoryPath', () => {
  it('is true for every file and folder a history URL names', () => {
    const folder = historyFolder('mastercard', '0a1b2c3d4e')
    expect(isHistoryPath(historyUrl(folder, 'JPY'))).toBe(true)
    expect(isHistoryPath(folder)).toBe(true)
    expect(isHistoryPath('/rates/')).toBe(true)
  })

  it.each([
    '/en/exchange-rates/mastercard/',
    '/de/exchange-rates/',
    '/rates',
    '/ratesheet.pdf',
    'rates/mastercard/x/USD.json',
    '/RATES/mastercard/x/USD.json',
    '/documents/rates/usd.json',
    '',
  ])('is false for %j, which is no history file', (path) => {
    expect(isHistoryPath(path)).toBe(false)
  })
})
