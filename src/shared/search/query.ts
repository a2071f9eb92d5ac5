/**
 * The site search in the browser: finds a query's words among the index's words, loads the
 * postings it needs and ranks the pages. Pure, given a way to load files, so the build's
 * tests run it on the index they wrote.
 *
 * A query word matches an indexed word that is the same word, begins with its stem (`card`
 * finds `cards`, `blocked`), or contains its stem (German compounds: `karte` finds
 * `kreditkarte`; the participle: `sperren` finds `gesperrt`), in that order of weight. The
 * last word while typing also matches as the beginning of a word. Pages that have all words
 * come first; when none has, the pages with the most of them.
 */
import type { Language } from '../languages'
import type { SearchChunk, SearchIndex } from './format'
import { isStopWord, stem, words } from './text'

/** The most indexed words of each kind one query word may stand for, the best first. */
const MAX_EXPANSIONS = 30
/** How much a word containing the query word's stem counts (a compound's last part). */
const INFIX_QUALITY = 0.5
/** Shorter stems only match as the beginning of a word: `pin` must not find `shopping`. */
const MIN_INFIX = 4

export interface QueryWord {
  term: string
  stem: string
  /** The word being typed: it also matches as the beginning of longer words. */
  prefix: boolean
}

/** Letters a stem may lose of its word: beyond that, the stemmer took a word it did not know. */
const MAX_STRIPPED = 3

/**
 * The stem a query word is found by, at most three letters shorter than the word: the German
 * stemmer takes "statement" down to "stat", which would find "Status" and "Statistik".
 */
function boundedStem(term: string, language: Language): string {
  const stemmed = stem(term, language)
  return stemmed.length >= term.length - MAX_STRIPPED
    ? stemmed
    : term.slice(0, term.length - MAX_STRIPPED)
}

/** The words of a query worth searching for, the last one marked while it is being typed. */
export function parseQuery(query: string, language: Language): QueryWord[] {
  const found = words(query)
  const typing = query.length > 0 && !/\s$/.test(query)
  const parsed = found.map((word, index) => ({
    term: word.term,
    stem: boundedStem(word.term, language),
    prefix: typing && index === found.length - 1,
  }))
  const meaningful = parsed.filter((word) => !isStopWord(word.term, language))
  // Only stop words ("how to"): nothing to look for.
  return meaningful.filter(
    (word, index) => meaningful.findIndex((other) => other.term === word.term) === index,
  )
}

/** How well an indexed word matches a query word: 0 for not at all, 1 for the word itself. */
export function matchQuality(word: QueryWord, indexed: string): number {
  if (indexed === word.term) return 1
  const { stem } = word
  if (indexed.startsWith(stem)) return indexed.length - stem.length <= 3 ? 0.9 : 0.6
  if (word.prefix && indexed.startsWith(word.term)) return 0.6
  if (stem.length >= MIN_INFIX && indexed.includes(stem)) return INFIX_QUALITY
  return 0
}

export interface Match {
  /** Index of the word in the index's `terms`. */
  index: number
  term: string
  quality: number
}

/** The indexed words a query word stands for, best first, at most `MAX_EXPANSIONS` a kind. */
export function expand(word: QueryWord, vocabulary: readonly string[]): Match[] {
  const matches: Match[] = []
  vocabulary.forEach((term, index) => {
    const quality = matchQuality(word, term)
    if (quality > 0) matches.push({ index, term, quality })
  })
  matches.sort((a, b) => b.quality - a.quality || a.term.length - b.term.length)
  // The word's own forms and the compounds that begin with it, then those that end with it
  // (`Kreditkarte`): each kind gets its share, so many of one kind do not crowd out the other.
  const starting = matches.filter((match) => match.quality > INFIX_QUALITY)
  const inside = matches.filter((match) => match.quality <= INFIX_QUALITY)
  return [...starting.slice(0, MAX_EXPANSIONS), ...inside.slice(0, MAX_EXPANSIONS)]
}

export interface Hit {
  /** The page's number in the index. */
  page: number
  /** The block that matches best: 0 for the title alone, `k` for the page's `blocks[k - 1]`. */
  block: number
  score: number
  /** How many of the query's words the page has. */
  matched: number
}

export interface SearchResult {
  words: QueryWord[]
  hits: Hit[]
  /** Every indexed word that matched: the words to highlight. */
  terms: ReadonlySet<string>
}

export interface SearchSource {
  index: SearchIndex
  chunk(n: number): Promise<SearchChunk>
}

/** The chunk holding the word at `index` of the index's terms. */
export function chunkOf(chunks: readonly number[], index: number): number {
  let low = 0
  let high = chunks.length - 1
  while (low < high) {
    const middle = (low + high + 1) >> 1
    if ((chunks[middle] ?? 0) <= index) low = middle
    else high = middle - 1
  }
  return low
}

/** A searcher over one language's index; the vocabulary is split once. */
export function createSearcher(source: SearchSource) {
  const { index } = source
  const vocabulary = index.terms.split('\n')
  const language = index.language

  async function search(query: string): Promise<SearchResult> {
    const queryWords = parseQuery(query, language)
    const expansions = queryWords.map((word) => expand(word, vocabulary))
    const needed = new Set(expansions.flat().map((match) => chunkOf(index.chunks, match.index)))
    const loaded = new Map(
      await Promise.all([...needed].map(async (n) => [n, await source.chunk(n)] as const)),
    )
    // Per query word: page → block → the best score of the words it stands for, and a quarter
    // of the others' (a block with "block", "blocked" and "blocking" is about blocking more
    // than one with one of them, but a word itself says more than three compounds of it). The
    // rarity is the query word's, over all pages any of its forms stand in: a rare compound
    // (`Kartenart`, on one page) must not outweigh the word itself.
    const scores = expansions.map((matches) => {
      const byPage = new Map<number, Map<number, [best: number, sum: number]>>()
      for (const match of matches) {
        const postings = loaded.get(chunkOf(index.chunks, match.index))?.[match.term]
        if (!postings) continue
        for (let i = 0, page = 0; i < postings.length; i += 3) {
          page += postings[i] ?? 0
          const block = postings[i + 1] ?? 0
          const score = match.quality * (postings[i + 2] ?? 0)
          const blocks = byPage.get(page) ?? new Map<number, [number, number]>()
          byPage.set(page, blocks)
          const [best, sum] = blocks.get(block) ?? [0, 0]
          blocks.set(block, [Math.max(best, score), sum + score])
        }
      }
      const rarity = Math.log(1 + (index.pages - byPage.size + 0.5) / (byPage.size + 0.5))
      const combined = new Map<number, Map<number, number>>()
      for (const [page, blocks] of byPage) {
        const values = new Map<number, number>()
        for (const [block, [best, sum]] of blocks) {
          values.set(block, rarity * (best + (sum - best) / 4))
        }
        combined.set(page, values)
      }
      return combined
    })

    const pages = new Set(scores.flatMap((byPage) => [...byPage.keys()]))
    const hits: Hit[] = []
    for (const page of pages) {
      let matched = 0
      let score = 0
      const byBlock = new Map<number, number>()
      const wordsIn = new Map<number, number>()
      for (const byPage of scores) {
        const blocks = byPage.get(page)
        if (!blocks) continue
        matched++
        score += Math.max(...blocks.values())
        for (const [block, value] of blocks) {
          byBlock.set(block, (byBlock.get(block) ?? 0) + value)
          wordsIn.set(block, (wordsIn.get(block) ?? 0) + 1)
        }
      }
      // The excerpt comes from the best block of text, preferring one with every word; the
      // title alone shows the first one.
      let block = 0
      let best = 0
      let together = false
      for (const [candidate, value] of byBlock) {
        if (candidate === 0) continue
        const all = wordsIn.get(candidate) === queryWords.length
        if ((all && !together) || (all === together && value > best)) {
          block = candidate
          best = value
          together = all
        }
      }
      // Words that stand together in one block ("block your card") say more than words
      // anywhere on the page: that block counts once more.
      if (together && queryWords.length > 1) score += best
      hits.push({ page, block, score, matched })
    }
    const most = Math.max(0, ...hits.map((hit) => hit.matched))
    const ranked = hits
      .filter((hit) => hit.matched === most)
      .sort((a, b) => b.score - a.score || a.page - b.page)
    const terms = new Set<string>()
    expansions.forEach((matches) => {
      for (const match of matches) terms.add(match.term)
    })
    return { words: queryWords, hits: ranked, terms }
  }

  return { search, vocabulary }
}

export interface Segment {
  text: string
  /** A matched word: shown highlighted. */
  mark: boolean
}

/** Words an excerpt shows around the matches. */
const EXCERPT_WORDS = 26

/**
 * The part of a text around its densest run of matched words, as segments to highlight;
 * `…` marks text left out before and after.
 */
export function excerpt(
  text: string,
  terms: ReadonlySet<string>,
  length = EXCERPT_WORDS,
): Segment[] {
  const found = words(text)
  if (found.length === 0) return text ? [{ text, mark: false }] : []
  const hit = found.map((word) => terms.has(word.term))
  let bestStart = 0
  let bestCount = -1
  for (let start = 0; start < Math.max(1, found.length - length + 1); start++) {
    let count = 0
    const seen = new Set<string>()
    for (let i = start; i < Math.min(found.length, start + length); i++) {
      const word = found[i]
      if (hit[i] && word) {
        count += seen.has(word.term) ? 0.1 : 1
        seen.add(word.term)
      }
    }
    if (count > bestCount) {
      bestCount = count
      bestStart = start
    }
  }
  // A little context before the first match when the window starts on it.
  const firstHit = hit.indexOf(true, bestStart)
  if (firstHit === bestStart && bestStart > 0) bestStart = Math.max(0, bestStart - 4)
  const last = Math.min(found.length, bestStart + length) - 1
  const from = bestStart === 0 ? 0 : (found[bestStart]?.start ?? 0)
  const to = last === found.length - 1 ? text.length : (found[last]?.end ?? text.length)
  return highlight(text.slice(from, to), terms, from > 0, to < text.length)
}

/** A text as segments, its matched words marked; `…` before and after where asked. */
export function highlight(
  text: string,
  terms: ReadonlySet<string>,
  cutBefore = false,
  cutAfter = false,
): Segment[] {
  const segments: Segment[] = []
  const push = (part: string, mark: boolean) => {
    if (!part) return
    const previous = segments.at(-1)
    if (previous && previous.mark === mark && !mark) previous.text += part
    else segments.push({ text: part, mark })
  }
  if (cutBefore) push('… ', false)
  let at = 0
  for (const word of words(text)) {
    if (!terms.has(word.term)) continue
    push(text.slice(at, word.start), false)
    push(text.slice(word.start, word.end), true)
    at = word.end
  }
  push(text.slice(at), false)
  if (cutAfter) push(' …', false)
  return segments
}
