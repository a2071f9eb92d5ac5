/**
 * The site search's files, written by the build (`src/engine/search/`) and read in the browser
 * (`./query.ts`). Per language:
 *
 * - `/search/{language}/index.json` (`SearchIndex`): the version, the number of pages, every
 *   indexed word in order and where each chunk of their postings begins. Its address never
 *   changes, so it is revalidated like page data.
 * - `/search/{language}/{version}/c{n}.json` (`SearchChunk`): the postings of a run of words,
 *   loaded for the words a query finds.
 * - `/search/{language}/{version}/p{n}.json` (`SearchPage`): one page's address, title,
 *   section and text by block, loaded for the results shown.
 *
 * The folder of a version hashes its files, which are therefore cached for good (also by the
 * service worker), and replaced as a whole by the next build that changes them.
 */
import type { Language } from '../languages'

export const SEARCH_ROOT = '/search/'

export interface SearchIndex {
  version: string
  language: Language
  /** Pages indexed: postings name them `0 … pages - 1`. */
  pages: number
  /** Each page's path, in that order: offline, the pages the service worker holds. */
  urls: string[]
  /** Every indexed word (a term, see `./text.ts`), in code-point order, joined by `\n`. */
  terms: string
  /** The index in `terms` of each chunk's first word, ascending; the first is 0. */
  chunks: number[]
}

/**
 * A word's postings: `[page, block, weight]` triples, flat, each page the difference to the
 * previous triple's. Block 0 is the page's title, block `k` its `blocks[k - 1]`. The weight
 * (1-255) grows with the word's frequency in the block against the block's length (BM25's
 * term part) and the block's kind (title, heading, text); the browser adds its rarity.
 */
export type Postings = number[]

export interface SearchChunk {
  [term: string]: Postings
}

/** A block of a page's text: what stands under one heading. */
export interface SearchBlock {
  /** The heading; empty for the text before the first one. */
  heading: string
  /** Where it is on the page (an element id): results link there. */
  anchor?: string
  text: string
  /** Set where the block is in another language than the index (a Spanish document). */
  lang?: string
}

export interface SearchPage {
  /** The page's path. */
  url: string
  title: string
  /** The part of the site it belongs to (the breadcrumb above it), if any. */
  section?: string
  /** Set where the page is in another language than the index. */
  lang?: string
  blocks: SearchBlock[]
}

export const searchIndexUrl = (language: Language) => `${SEARCH_ROOT}${language}/index.json`

export const searchChunkUrl = (language: Language, version: string, chunk: number) =>
  `${SEARCH_ROOT}${language}/${version}/c${chunk}.json`

export const searchPageUrl = (language: Language, version: string, page: number) =>
  `${SEARCH_ROOT}${language}/${version}/p${page}.json`

/** True for a versioned file of the search (named by its content: cached for good). */
export function isSearchFilePath(path: string): boolean {
  return /^\/search\/[a-z]{2}\/[\w-]+\/[cp]\d+\.json$/.test(path)
}
