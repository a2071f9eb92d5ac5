/**
 * The search dialog's access to the index: loads a language's index once, its chunks and pages'
 * text as a query needs them (each file once), and keeps a visitor working across a deploy
 * and offline.
 *
 * - A deploy replaces the index's version folder: a file of the old version answers 404, and
 *   the search then loads the new index and runs the query again, once.
 * - Offline, the service worker answers with what it holds: the files of searches done before
 *   and those `warm` put there. Results are then the pages the worker holds itself.
 * - Offline is what the search sees, not only what `navigator.onLine` says (true on a network
 *   without internet, and in some browsers after a reload the worker answered): a request that
 *   fails, or an index the worker answered from its cache because the network failed (it marks
 *   it), means offline; `navigator.onLine === false` too.
 */
import { connectionAllowsPrefetch, currentConnection } from '../../../shared/connection'
import { OFFLINE_COPY_HEADER } from '../../../shared/constants'
import type { Language } from '../../../shared/languages'
import {
  type SearchChunk,
  type SearchIndex,
  type SearchPage,
  searchChunkUrl,
  searchIndexUrl,
  searchPageUrl,
} from '../../../shared/search/format'
import { createSearcher, type Hit, type SearchResult } from '../../../shared/search/query'

/** A failed load: `offline` when there is no connection, `gone` when a deploy removed it. */
export class SearchLoadError extends Error {
  constructor(
    readonly reason: 'offline' | 'gone' | 'failed',
    url: string,
  ) {
    super(`The search could not load ${url} (${reason})`)
  }
}

interface Fetched<T> {
  data: T
  /** The service worker's copy, given because the network failed. */
  offline: boolean
}

async function fetchJson<T>(url: string, init?: RequestInit): Promise<Fetched<T>> {
  let response: Response
  try {
    response = await fetch(url, init)
  } catch {
    // Same-origin: a request that throws found no network (or a worker without a copy).
    throw new SearchLoadError('offline', url)
  }
  if (response.status === 404) throw new SearchLoadError('gone', url)
  if (!response.ok) throw new SearchLoadError('failed', url)
  const data = (await response.json()) as T
  return { data, offline: response.headers.get(OFFLINE_COPY_HEADER) !== null }
}

const dataOf = <T>(fetched: Promise<Fetched<T>>) => fetched.then(({ data }) => data)

interface Loaded {
  index: SearchIndex
  /** The index came from the worker's cache because the network failed. */
  offline: boolean
  search(query: string): Promise<SearchResult>
  page(n: number): Promise<SearchPage>
}

const loaded = new Map<Language, Promise<Loaded>>()

function load(language: Language, revalidate = false): Promise<Loaded> {
  let entry = loaded.get(language)
  if (!entry || revalidate) {
    entry = fetchJson<SearchIndex>(
      searchIndexUrl(language),
      revalidate ? { cache: 'no-cache' } : undefined,
    ).then(({ data: index, offline }) => {
      const chunks = new Map<number, Promise<SearchChunk>>()
      const pages = new Map<number, Promise<SearchPage>>()
      const once = <T>(cache: Map<number, Promise<T>>, n: number, url: string) => {
        let file = cache.get(n)
        if (!file) {
          file = dataOf(fetchJson<T>(url))
          // A failure is not kept: the next query tries again (a connection may be back).
          file.catch(() => cache.delete(n))
          cache.set(n, file)
        }
        return file
      }
      const searcher = createSearcher({
        index,
        chunk: (n) => once(chunks, n, searchChunkUrl(language, index.version, n)),
      })
      return {
        index,
        offline,
        search: searcher.search,
        page: (n) => once(pages, n, searchPageUrl(language, index.version, n)),
      }
    })
    entry.catch(() => loaded.delete(language))
    loaded.set(language, entry)
  }
  return entry
}

/**
 * A language's index as the network has it now: one loaded from the worker's copy while the
 * network failed is asked for again (the connection may be back, with a newer index).
 */
async function current(language: Language): Promise<Loaded> {
  const source = await load(language)
  return source.offline ? load(language, true) : source
}

/** Starts loading a language's index (the visitor reaches for the search). */
export function prefetchIndex(language: Language): void {
  if (!connectionAllowsPrefetch(currentConnection())) return
  load(language).catch(() => {})
}

export interface FoundPage {
  hit: Hit
  page: SearchPage
}

export interface Found {
  result: SearchResult
  /** Only the pages this device holds (offline). */
  offline: boolean
  /** The pages of the first `count` hits with their text; more with `more`. */
  pages: FoundPage[]
  more(count: number): Promise<FoundPage[]>
}

/** Whether the service worker holds a page (offline, only those open). */
async function heldOffline(url: string): Promise<boolean> {
  if (!('caches' in window)) return false
  return Boolean(await caches.match(url, { ignoreSearch: true }).catch(() => undefined))
}

async function pagesOf(
  source: Loaded,
  hits: readonly Hit[],
  offline: boolean,
): Promise<FoundPage[]> {
  const found = await Promise.all(
    hits.map(async (hit) => {
      const url = source.index.urls[hit.page] ?? ''
      if (offline && !(await heldOffline(url))) return undefined
      try {
        return { hit, page: await source.page(hit.page) }
      } catch (error) {
        if (offline) return undefined
        throw error
      }
    }),
  )
  return found.filter((page): page is FoundPage => page !== undefined)
}

async function found(
  source: Loaded,
  result: SearchResult,
  count: number,
  offline: boolean,
): Promise<Found> {
  // Offline, the pages the worker holds: searched for among all hits, not the first only.
  const candidates = offline ? result.hits : result.hits.slice(0, count)
  const pages = (await pagesOf(source, candidates, offline)).slice(0, count)
  const shown = new Set(pages.map((page) => page.hit.page))
  const rest = offline ? [] : result.hits.filter((hit) => !shown.has(hit.page))
  return {
    result: offline ? { ...result, hits: pages.map((page) => page.hit) } : result,
    offline,
    pages,
    more: (next) => pagesOf(source, rest.splice(0, next), false),
  }
}

/** Searches a language's pages; the pages of the first `count` hits come with their text. */
export async function search(
  language: Language,
  query: string,
  count: number,
  retried = false,
): Promise<Found> {
  try {
    const source = await current(language)
    const result = await source.search(query)
    if (navigator.onLine === false || source.offline)
      return await found(source, result, count, true)
    try {
      return await found(source, result, count, false)
    } catch (error) {
      // The network went while the pages' text loaded: what this device holds.
      if (error instanceof SearchLoadError && error.reason === 'offline') {
        return await found(source, result, count, true)
      }
      throw error
    }
  } catch (error) {
    // A deploy since the index was loaded: the new one, once.
    if (error instanceof SearchLoadError && error.reason === 'gone' && !retried) {
      await load(language, true)
      return search(language, query, count, true)
    }
    throw error
  }
}

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number
}

const warmed = new Set<string>()

/**
 * Puts a language's search files into the service worker's cache while the browser is idle, so
 * that it works offline: every chunk of postings, and the text of the pages the worker holds.
 * Not with data saver or on 2g, nor without a worker to keep them.
 */
export function warm(language: Language): void {
  if (!navigator.serviceWorker?.controller || !('caches' in window)) return
  if (!connectionAllowsPrefetch(currentConnection())) return
  void load(language).then(
    async ({ index }) => {
      if (warmed.has(index.version)) return
      warmed.add(index.version)
      const urls = index.chunks.map((_, n) => searchChunkUrl(language, index.version, n))
      const held = await Promise.all(index.urls.map((url) => heldOffline(url)))
      held.forEach((isHeld, n) => {
        if (isHeld) urls.push(searchPageUrl(language, index.version, n))
      })
      const next = () => {
        const url = urls.shift()
        if (!url) return
        fetch(url).then(idle, idle)
      }
      const idle = () => {
        const request = (window as IdleWindow).requestIdleCallback
        if (request) request(next, { timeout: 1000 })
        else window.setTimeout(next, 50)
      }
      idle()
    },
    () => {},
  )
}
