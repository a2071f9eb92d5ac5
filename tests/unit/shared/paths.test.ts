import { describe, expect, it } from 'vitest'
import {
  detectLanguage,
  isIgnoredPath,
  languageFromBrowser,
  languageOfPath,
  localizePath,
  stripLanguage,
} from '../../../src/shared/languages'
import {
  isNotFoundPath,
  matchesPattern,
  normalizePath,
  notFoundPathFor,
  pageDataUrl,
  staticQueryUrl,
} from '../../../src/shared/paths'

describe('page-data paths', () => {
  it.each([
    ['/', '/page-data/index/page-data.json'],
    ['/en/', '/page-data/en/page-data.json'],
    ['/en/about/', '/page-data/en/about/page-data.json'],
    ['/en/about', '/page-data/en/about/page-data.json'],
    [
      '/de/services/splitpay/survey/?x=1#top',
      '/page-data/de/services/splitpay/survey/page-data.json',
    ],
    ['/blog/', '/page-data/blog/page-data.json'],
  ])('%s loads %s', (path, url) => {
    expect(pageDataUrl(path)).toBe(url)
  })

  it('names shared data by hash', () => {
    expect(staticQueryUrl('abc123')).toBe('/page-data/sq/d/abc123.json')
  })

  it('normalizes paths to leading and trailing slashes', () => {
    expect(normalizePath('en/about')).toBe('/en/about/')
    expect(normalizePath('//en//about/')).toBe('/en/about/')
    expect(normalizePath('/404.html')).toBe('/404.html')
  })
})

describe('404 pages', () => {
  it('picks the German 404 page under /de/ and the English one elsewhere', () => {
    expect(notFoundPathFor('/de/nothing/here/')).toBe('/de/404/')
    expect(notFoundPathFor('/en/nothing/')).toBe('/en/404/')
    expect(notFoundPathFor('/fr/nothing/')).toBe('/en/404/')
    expect(notFoundPathFor('/nothing/')).toBe('/en/404/')
  })

  it('knows the 404 pages and their match patterns', () => {
    expect(isNotFoundPath('/de/404/')).toBe(true)
    expect(isNotFoundPath('/404.html')).toBe(true)
    expect(isNotFoundPath('/de/about/')).toBe(false)
    expect(matchesPattern('/de/*', '/de/anything/at/all/')).toBe(true)
    expect(matchesPattern('/de/*', '/en/anything/')).toBe(false)
  })
})

describe('languages', () => {
  it('reads, strips and adds the language prefix', () => {
    expect(languageOfPath('/de/about/')).toBe('de')
    expect(languageOfPath('/blog/')).toBeUndefined()
    expect(stripLanguage('/de/about/')).toBe('/about/')
    expect(stripLanguage('/de/')).toBe('/')
    expect(localizePath('/about/', 'de')).toBe('/de/about/')
    expect(localizePath('/', 'en')).toBe('/en/')
  })

  it('ignores /blog/** only', () => {
    expect(isIgnoredPath('/blog/')).toBe(true)
    expect(isIgnoredPath('/blog/some-post/')).toBe(true)
    expect(isIgnoredPath('/blog')).toBe(true)
    expect(isIgnoredPath('/en/blog/')).toBe(false)
    expect(isIgnoredPath('/blogger/')).toBe(false)
  })

  it.each([
    [null, ['de-DE', 'en'], 'de'],
    [null, ['de-AT'], 'de'],
    [null, ['fr-FR', 'de'], 'de'],
    [null, ['fr-FR', 'it'], 'en'],
    [null, [], 'en'],
    ['en', ['de-DE'], 'en'],
    ['de', ['en-US'], 'de'],
    ['xx', ['de'], 'de'],
  ])('stored %j with browser %j gives %s', (stored, browser, expected) => {
    expect(detectLanguage(stored, browser)).toBe(expected)
  })

  it('falls back to English for browsers in other languages', () => {
    expect(languageFromBrowser(['es-ES'])).toBe('en')
  })
})

describe('locales', () => {
  it('registers kde (Makonde) as locale data without routes', async () => {
    const { LOCALE_DATA, LANGUAGES, languageOfPath } = await import('../../../src/shared/languages')
    expect(LOCALE_DATA.kde).toEqual({
      intl: 'kde',
      nativeName: 'Chimakonde',
      direction: 'ltr',
      routed: false,
    })
    expect(LANGUAGES).not.toContain('kde')
    expect(languageOfPath('/kde/about/')).toBeUndefined()
    expect(Intl.DateTimeFormat.supportedLocalesOf([LOCALE_DATA.kde.intl])).toEqual(['kde'])
    expect(Object.values(LOCALE_DATA).filter((locale) => locale.routed)).toHaveLength(
      LANGUAGES.length,
    )
  })
})
