import { describe, expect, it, vi } from 'vitest'
import { type SearchEntry, writeSearchIndex } from '../../../../src/engine/search/write-index'
import type { Language } from '../../../../src/shared/languages'
import type { SearchChunk, SearchPage } from '../../../../src/shared/search/format'
import {
  chunkOf,
  createSearcher,
  excerpt,
  highlight,
  matchQuality,
  parseQuery,
} from '../../../../src/shared/search/query'

/** An index written as the build writes it, and a searcher reading its files. */
function searchOver(language: Language, entries: SearchEntry[]) {
  const { index, files } = writeSearchIndex(language, entries)
  const byPath = new Map(files)
  const loaded: number[] = []
  const searcher = createSearcher({
    index,
    chunk: async (n) => {
      loaded.push(n)
      const json = byPath.get(`/search/${language}/${index.version}/c${n}.json`)
      if (!json) throw new Error(`no chunk ${n}`)
      return JSON.parse(json) as SearchChunk
    },
  })
  const page = (n: number) =>
    JSON.parse(byPath.get(`/search/${language}/${index.version}/p${n}.json`) ?? '') as SearchPage
  return { index, files, searcher, page, loaded }
}

const GERMAN: SearchEntry[] = [
  {
    url: '/de/support/faq/',
    title: 'Support-FAQ',
    section: 'Hilfe',
    blocks: [
      { heading: '', text: 'Antworten auf häufige Fragen.' },
      {
        heading: 'Meine Karte ist verloren. Was muss ich tun?',
        anchor: 'karte-verloren',
        text: 'Sperren Sie Ihre Karte sofort in der App oder unter 116 116.',
      },
      { heading: 'Wo finde ich Kontoauszüge?', text: 'Ihre Kontoauszüge finden Sie in der App.' },
    ],
  },
  {
    url: '/de/services/cards/',
    title: 'Karten',
    section: 'Leistungen',
    blocks: [{ heading: '', text: 'Wir geben Kreditkarten und Debitkarten für Ihre Marke aus.' }],
  },
  {
    url: '/de/services/consumer-lending/',
    title: 'Verbraucherkredit',
    blocks: [{ heading: 'Widerruf', text: 'Der Kredit kann binnen 14 Tagen widerrufen werden.' }],
  },
  {
    url: '/de/about/',
    title: 'Über uns',
    blocks: [{ heading: '', text: 'Eine Bank für Plattformen, gegründet in Berlin.' }],
  },
]

describe('the search', () => {
  it('takes the meaningful words of a query, the last one as being typed', () => {
    expect(parseQuery('How do I block my card', 'en')).toEqual([
      { term: 'block', stem: 'block', prefix: false },
      { term: 'card', stem: 'card', prefix: true },
    ])
    expect(parseQuery('card card ', 'en')).toEqual([{ term: 'card', stem: 'card', prefix: false }])
    expect(parseQuery('how to', 'en')).toEqual([])
  })

  it('rates the word itself over its forms over compounds and words that contain it', () => {
    const [karte] = parseQuery('karte ', 'de')
    if (!karte) throw new Error('no word')
    expect(matchQuality(karte, 'karte')).toBe(1)
    expect(matchQuality(karte, 'karten')).toBe(0.9)
    expect(matchQuality(karte, 'kartenzahlung')).toBe(0.6)
    expect(matchQuality(karte, 'kreditkarte')).toBe(0.5)
    expect(matchQuality(karte, 'konto')).toBe(0)
    // Short stems only as the beginning of a word.
    const [pin] = parseQuery('pin ', 'en')
    if (!pin) throw new Error('no word')
    expect(matchQuality(pin, 'pins')).toBe(0.9)
    expect(matchQuality(pin, 'shopping')).toBe(0)
  })

  it('finds German word forms and compounds: Karte finds Karten and Kreditkarten', async () => {
    const { searcher, page } = searchOver('de', GERMAN)
    const result = await searcher.search('Karte')
    const urls = result.hits.map((hit) => page(hit.page).url)
    expect(urls).toEqual(expect.arrayContaining(['/de/support/faq/', '/de/services/cards/']))
    expect(urls).not.toContain('/de/about/')
    expect(result.terms).toEqual(new Set(['karte', 'karten', 'kreditkarten', 'debitkarten']))
  })

  it('ranks pages with every word first and names the block that matches best', async () => {
    const { searcher, page } = searchOver('de', GERMAN)
    const result = await searcher.search('Wie sperre ich meine Karte')
    expect(result.hits).toHaveLength(1)
    const [hit] = result.hits
    if (!hit) throw new Error('no hit')
    expect(page(hit.page).url).toBe('/de/support/faq/')
    expect(page(hit.page).blocks[hit.block - 1]?.anchor).toBe('karte-verloren')
  })

  it('finds participles from the infinitive and folds umlauts', async () => {
    const { searcher, page } = searchOver('de', GERMAN)
    const widerruf = await searcher.search('widerrufen')
    expect(widerruf.hits.map((hit) => page(hit.page).url)).toEqual([
      '/de/services/consumer-lending/',
    ])
    const statements = await searcher.search('kontoauszuge')
    expect(statements.hits.map((hit) => page(hit.page).url)).toEqual(['/de/support/faq/'])
  })

  it('finds nothing for words no page has, and for stop words alone', async () => {
    const { searcher } = searchOver('de', GERMAN)
    expect((await searcher.search('Hypothek')).hits).toEqual([])
    expect((await searcher.search('wie und oder')).hits).toEqual([])
  })

  it('loads only the chunks that hold the words it found', async () => {
    const many: SearchEntry[] = Array.from({ length: 400 }, (_, n) => ({
      url: `/en/page-${n}/`,
      title: `Page ${n}`,
      blocks: [{ heading: '', text: `word${n} common text of page${n} alpha${n % 7}` }],
    }))
    const { index, searcher, page, loaded } = searchOver('en', many)
    expect(index.chunks.length).toBeGreaterThan(3)
    const result = await searcher.search('page17 ')
    // page17, and its forms page170 … page179 (a prefix of up to three letters more).
    expect(result.hits).toHaveLength(11)
    expect(page(result.hits[0]?.page ?? -1).url).toBe('/en/page-17/')
    expect(loaded).toHaveLength(1)
  })

  it('writes the same files for the same pages, whatever their order', () => {
    const once = writeSearchIndex('de', GERMAN)
    const again = writeSearchIndex('de', [...GERMAN].reverse())
    expect(again.files).toEqual(once.files)
    expect(once.index.version).toMatch(/^[\w]{12}$/)
    expect(once.index.urls).toEqual([
      '/de/about/',
      '/de/services/cards/',
      '/de/services/consumer-lending/',
      '/de/support/faq/',
    ])
  })

  it('writes after a changed page what it writes for those pages from scratch', async () => {
    const changed = GERMAN.map((entry) =>
      entry.url === '/de/about/'
        ? { ...entry, blocks: [{ heading: '', text: 'Eine Bank für Marken, gegründet in Köln.' }] }
        : entry,
    )
    writeSearchIndex('de', GERMAN)
    const after = writeSearchIndex('de', changed)
    // In a fresh module: nothing counted before.
    vi.resetModules()
    const fresh = await import('../../../../src/engine/search/write-index')
    expect(after.files).toEqual(fresh.writeSearchIndex('de', changed).files)
    expect(after.files).not.toEqual(writeSearchIndex('de', GERMAN).files)
    const { searcher, page } = searchOver('de', changed)
    const found = await searcher.search('Köln')
    expect(found.hits.map((hit) => page(hit.page).url)).toEqual(['/de/about/'])
    expect((await searcher.search('Plattformen')).hits).toEqual([])
  })

  it('finds the chunk of a word by the first word of each chunk', () => {
    expect(chunkOf([0, 10, 25], 0)).toBe(0)
    expect(chunkOf([0, 10, 25], 9)).toBe(0)
    expect(chunkOf([0, 10, 25], 10)).toBe(1)
    expect(chunkOf([0, 10, 25], 99)).toBe(2)
  })
})

describe('excerpts', () => {
  const terms = new Set(['card', 'blocked'])

  it('mark the matched words as they are written', () => {
    expect(highlight('Your Card was blocked.', terms)).toEqual([
      { text: 'Your ', mark: false },
      { text: 'Card', mark: true },
      { text: ' was ', mark: false },
      { text: 'blocked', mark: true },
      { text: '.', mark: false },
    ])
  })

  it('show the part of a long text around its matches, with … where text is left out', () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ')
    const text = `${filler(60)} the card was blocked today ${filler(60)}`
    const segments = excerpt(text, terms, 12)
    const shown = segments.map((segment) => segment.text).join('')
    expect(shown.startsWith('… ')).toBe(true)
    expect(shown.endsWith(' …')).toBe(true)
    expect(shown).toContain('card was blocked')
    expect(segments.filter((segment) => segment.mark).map((segment) => segment.text)).toEqual([
      'card',
      'blocked',
    ])
  })

  it('show a short text whole', () => {
    const shown = excerpt('A blocked card.', terms).map((segment) => segment.text)
    expect(shown).toEqual(['A ', 'blocked', ' ', 'card', '.'])
  })
})
