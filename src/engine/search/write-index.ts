/**
 * The search index of one language, from the pages' extracted text: the files of
 * `src/shared/search/format.ts`. Deterministic: the same pages give the same files and so the
 * same version.
 */
import { createHash } from 'node:crypto'
import type { Language } from '../../shared/languages'
import {
  type SearchBlock,
  type SearchChunk,
  type SearchIndex,
  type SearchPage,
  searchChunkUrl,
  searchIndexUrl,
  searchPageUrl,
} from '../../shared/search/format'
import { terms as termsOf } from '../../shared/search/text'

export interface SearchEntry {
  /** The page's path. */
  url: string
  title: string
  section?: string
  /** Where the page's text is in another language than the index. */
  lang?: string
  blocks: SearchBlock[]
}

/** Postings of a chunk add up to about this many characters of JSON. */
const CHUNK_SIZE = 6000
// BM25's constants: how fast repeats stop counting, how much a long block weighs them down.
const K1 = 1.2
const B = 0.75
/** A word in the title counts three times, in a heading twice, in the text once. */
const TITLE_WEIGHT = 3
const HEADING_WEIGHT = 2
const WEIGHT_SCALE = 40

interface Counted {
  counts: Map<string, number>
  length: number
}

/**
 * Each language's blocks counted by the last index written and by this one, by heading and
 * text: a publication changes a page or two, and the others' blocks need not be split into
 * words again (most of an index's time). Only the last index's are kept; shared, never changed.
 */
const countedBefore: Record<string, Map<string, Map<string, Counted>>> = {}

/** `count`, from the blocks the last index of the language counted when it has this one. */
function countKept(
  block: SearchBlock,
  language: Language,
  before: Map<string, Map<string, Counted>> | undefined,
  now: Map<string, Map<string, Counted>>,
): Counted {
  const counted = before?.get(block.heading)?.get(block.text) ?? count(block, language)
  let byText = now.get(block.heading)
  if (!byText) {
    byText = new Map()
    now.set(block.heading, byText)
  }
  byText.set(block.text, counted)
  return counted
}

/** The words of a block with their counts (headings counting double) and its length. */
function count(block: SearchBlock, language: Language): Counted {
  const counts = new Map<string, number>()
  let length = 0
  for (const term of termsOf(block.heading, language)) {
    counts.set(term, (counts.get(term) ?? 0) + HEADING_WEIGHT)
    length++
  }
  for (const term of termsOf(block.text, language)) {
    counts.set(term, (counts.get(term) ?? 0) + 1)
    length++
  }
  return { counts, length }
}

export interface SearchFiles {
  index: SearchIndex
  /** Site paths and their JSON, the index's own file last. */
  files: [string, string][]
}

export function writeSearchIndex(language: Language, entries: readonly SearchEntry[]): SearchFiles {
  const pages = [...entries].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
  // term → flat [page, block, weight] in page order (pages are visited in order).
  const postings = new Map<string, number[]>()
  const before = countedBefore[language]
  const now = new Map<string, Map<string, Counted>>()
  const counted = pages.map((page) => [
    countKept({ heading: page.title, text: '' }, language, before, now),
    ...page.blocks.map((block) => countKept(block, language, before, now)),
  ])
  countedBefore[language] = now
  const blockLengths = counted.flatMap((blocks) => blocks.slice(1).map((block) => block.length))
  const average = Math.max(
    1,
    blockLengths.reduce((sum, n) => sum + n, 0) / Math.max(1, blockLengths.length),
  )
  counted.forEach((blocks, page) => {
    blocks.forEach(({ counts, length }, block) => {
      // The title is short by nature: weighed as a block of average length.
      const norm = block === 0 ? 1 : 1 - B + (B * length) / average
      for (const [term, tf] of counts) {
        const kind = block === 0 ? TITLE_WEIGHT : 1
        const weight = Math.min(
          255,
          Math.max(1, Math.round((WEIGHT_SCALE * kind * tf * (K1 + 1)) / (tf + K1 * norm))),
        )
        const list = postings.get(term)
        if (list) list.push(page, block, weight)
        else postings.set(term, [page, block, weight])
      }
    })
  })

  const vocabulary = [...postings.keys()].sort()
  const chunks: SearchChunk[] = []
  const starts: number[] = []
  let size = Number.POSITIVE_INFINITY
  vocabulary.forEach((term, index) => {
    const list = postings.get(term) ?? []
    // Pages as differences to the previous triple's: small numbers, shorter JSON.
    const encoded: number[] = []
    for (let i = 0, previous = 0; i < list.length; i += 3) {
      const page = list[i] ?? 0
      encoded.push(page - previous, list[i + 1] ?? 0, list[i + 2] ?? 0)
      previous = page
    }
    const cost = term.length + encoded.join(',').length + 6
    if (size + cost > CHUNK_SIZE) {
      chunks.push({})
      starts.push(index)
      size = 0
    }
    const chunk = chunks.at(-1)
    if (chunk) chunk[term] = encoded
    size += cost
  })

  const pageFiles = pages.map((entry) => {
    const page: SearchPage = { url: entry.url, title: entry.title, blocks: entry.blocks }
    if (entry.section) page.section = entry.section
    if (entry.lang) page.lang = entry.lang
    return JSON.stringify(page)
  })
  const chunkFiles = chunks.map((chunk) => JSON.stringify(chunk))
  const hash = createHash('sha256')
  for (const file of [...chunkFiles, ...pageFiles]) hash.update(file).update('\0')
  const version = hash.digest('base64url').slice(0, 12).replace(/[-_]/g, 'x')
  const index: SearchIndex = {
    version,
    language,
    pages: pages.length,
    urls: pages.map((page) => page.url),
    terms: vocabulary.join('\n'),
    chunks: starts,
  }
  return {
    index,
    files: [
      ...chunkFiles.map((json, n): [string, string] => [
        searchChunkUrl(language, version, n),
        json,
      ]),
      ...pageFiles.map((json, n): [string, string] => [searchPageUrl(language, version, n), json]),
      [searchIndexUrl(language), JSON.stringify(index)],
    ],
  }
}
