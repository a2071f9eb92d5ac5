/**
 * Loads what a page needs: its page data, its shared data and its template, following the
 * failure policy of the runtime contract (docs/runtime.md, "Runtime contract"):
 * 200 with `path` is success; 200 without `path` or 404 shows the 404 page's data once a HEAD
 * request confirms the address is a genuine 404 (anything else asks for a full load); 500 is
 * an error; network failures and other statuses retry PAGE_DATA_RETRIES times, then error.
 * Requests in flight are shared by every caller.
 */
import { PAGE_DATA_RETRIES } from '../../shared/constants'
import {
  APP_DATA_URL,
  isNotFoundPath,
  normalizePath,
  notFoundPathFor,
  pageDataUrl,
  staticQueryUrl,
} from '../../shared/paths'
import type { AppData, LayoutData, PageData, TemplateName } from '../../shared/types'

/** What one response means for a page-data request: the status policy as a table. */
export type Verdict = 'success' | 'not-found' | 'error' | 'retry'

/** `status` is null when the request failed without a response (network error). */
export function pageDataVerdict(status: number | null, hasPath: boolean, attempt: number): Verdict {
  if (status === 200) return hasPath ? 'success' : 'not-found'
  if (status === 404) return 'not-found'
  if (status === 500) return 'error'
  return attempt < PAGE_DATA_RETRIES ? 'retry' : 'error'
}

export type PageDataOutcome =
  | { kind: 'success'; page: PageData }
  | { kind: 'not-found' }
  | { kind: 'error'; reason: string }

export interface LoadedPage<Template> {
  kind: 'success'
  page: PageData
  staticQueries: Record<string, LayoutData>
  Template: Template
  /** True when the address is unknown and the 404 page's data stands in. */
  notFound: boolean
}

/** Anything but success ends in one full browser load of the address. */
export type LoadOutcome<Template> = LoadedPage<Template> | { kind: 'failed'; reason: string }

export interface LoaderOptions<Template> {
  fetch: typeof fetch
  loadTemplate: (name: TemplateName) => Promise<Template>
  /** Wait before retry number `attempt` (1-based). */
  retryDelay?: (attempt: number) => number
}

export interface Loader<Template> {
  loadPageData(path: string): Promise<PageDataOutcome>
  loadPage(path: string): Promise<LoadOutcome<Template>>
  /** Warms the caches for a page; never rejects. */
  prefetch(path: string): Promise<void>
  /** The build hash the server has now, or null when it cannot be read. */
  fetchBuildHash(): Promise<string | null>
  /** True once any page resource failed to load (used after a service-worker update). */
  hasFailedResources(): boolean
  /** Seeds the caches with data already in the page (the first load needs no request). */
  seed(page: PageData, staticQueries: Record<string, LayoutData>): void
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function hasPath(body: unknown): body is PageData {
  return typeof body === 'object' && body !== null && typeof (body as PageData).path === 'string'
}

export function createLoader<Template>(options: LoaderOptions<Template>): Loader<Template> {
  const { fetch: fetchImpl, loadTemplate } = options
  const retryDelay = options.retryDelay ?? ((attempt) => 100 * attempt)
  const pages = new Map<string, PageData>()
  const queries = new Map<string, LayoutData>()
  const inFlight = new Map<string, Promise<unknown>>()
  let failedResources = false

  /** One request per key at a time, whoever asks. */
  function shared<T>(key: string, run: () => Promise<T>): Promise<T> {
    const running = inFlight.get(key) as Promise<T> | undefined
    if (running) return running
    const promise = run().finally(() => inFlight.delete(key))
    inFlight.set(key, promise)
    return promise
  }

  async function fetchJson(url: string): Promise<{ status: number | null; body: unknown }> {
    try {
      const response = await fetchImpl(url, { headers: { accept: 'application/json' } })
      if (response.status !== 200) return { status: response.status, body: undefined }
      try {
        return { status: 200, body: await response.json() }
      } catch {
        // A truncated or garbled body counts as a failed request, like a network error.
        return { status: null, body: undefined }
      }
    } catch {
      return { status: null, body: undefined }
    }
  }

  async function requestPageData(path: string): Promise<PageDataOutcome> {
    const url = pageDataUrl(path)
    for (let attempt = 0; ; attempt += 1) {
      const { status, body } = await fetchJson(url)
      const verdict = pageDataVerdict(status, hasPath(body), attempt)
      if (verdict === 'success' && hasPath(body)) {
        // A moved address's data is the page's (the server redirected it): known under both.
        pages.set(path, body)
        pages.set(normalizePath(body.path), body)
        return { kind: 'success', page: body }
      }
      if (verdict === 'not-found') return { kind: 'not-found' }
      if (verdict === 'error') {
        failedResources = true
        return { kind: 'error', reason: `${url} answered ${status ?? 'no response'}` }
      }
      await sleep(retryDelay(attempt + 1))
    }
  }

  function loadPageData(rawPath: string): Promise<PageDataOutcome> {
    const path = normalizePath(rawPath)
    const cached = pages.get(path)
    if (cached) return Promise.resolve({ kind: 'success', page: cached })
    return shared(`page:${path}`, () => requestPageData(path))
  }

  async function requestStaticQuery(hash: string): Promise<LayoutData> {
    const url = staticQueryUrl(hash)
    for (let attempt = 0; ; attempt += 1) {
      const { status, body } = await fetchJson(url)
      if (status === 200 && typeof body === 'object' && body !== null) {
        queries.set(hash, body as LayoutData)
        return body as LayoutData
      }
      if (pageDataVerdict(status, true, attempt) !== 'retry') {
        failedResources = true
        throw new Error(`${url} answered ${status ?? 'no response'}`)
      }
      await sleep(retryDelay(attempt + 1))
    }
  }

  function loadStaticQuery(hash: string): Promise<LayoutData> {
    const cached = queries.get(hash)
    if (cached) return Promise.resolve(cached)
    return shared(`sq:${hash}`, () => requestStaticQuery(hash))
  }

  async function loadTemplateOnce(name: TemplateName): Promise<Template> {
    try {
      return await shared(`template:${name}`, () => loadTemplate(name))
    } catch (error) {
      failedResources = true
      throw error
    }
  }

  async function resources(page: PageData, notFound: boolean): Promise<LoadOutcome<Template>> {
    try {
      const [Template, ...layouts] = await Promise.all([
        loadTemplateOnce(page.componentChunkName),
        ...page.staticQueryHashes.map(loadStaticQuery),
      ])
      const staticQueries: Record<string, LayoutData> = {}
      page.staticQueryHashes.forEach((hash, index) => {
        const layout = layouts[index]
        if (layout) staticQueries[hash] = layout
      })
      return { kind: 'success', page, staticQueries, Template: Template as Template, notFound }
    } catch (error) {
      return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) }
    }
  }

  /** A genuine 404 answers 404 to HEAD; anything else means the page exists outside our data. */
  async function isGenuineNotFound(path: string): Promise<boolean> {
    try {
      const response = await fetchImpl(path, { method: 'HEAD' })
      return response.status === 404
    } catch {
      return false
    }
  }

  async function loadPage(rawPath: string): Promise<LoadOutcome<Template>> {
    const path = normalizePath(rawPath)
    const outcome = await loadPageData(path)
    if (outcome.kind === 'success') return resources(outcome.page, false)
    if (outcome.kind === 'error') return { kind: 'failed', reason: outcome.reason }
    if (isNotFoundPath(path)) return { kind: 'failed', reason: `the 404 page ${path} has no data` }
    const [notFound, genuine] = await Promise.all([
      loadPageData(notFoundPathFor(path)),
      isGenuineNotFound(rawPath),
    ])
    if (!genuine) return { kind: 'failed', reason: `${path} has no page data but is not a 404` }
    if (notFound.kind !== 'success') {
      return { kind: 'failed', reason: `the 404 page for ${path} could not be loaded` }
    }
    return resources(notFound.page, true)
  }

  return {
    loadPageData,
    loadPage,
    async prefetch(rawPath) {
      try {
        const outcome = await loadPageData(rawPath)
        if (outcome.kind === 'success') await resources(outcome.page, false)
      } catch {
        // Prefetching is best effort.
      }
    },
    async fetchBuildHash() {
      try {
        const response = await fetchImpl(APP_DATA_URL, { cache: 'no-cache' })
        if (!response.ok) return null
        const data = (await response.json()) as Partial<AppData>
        return typeof data.webpackCompilationHash === 'string' ? data.webpackCompilationHash : null
      } catch {
        return null
      }
    },
    hasFailedResources: () => failedResources,
    seed(page, staticQueries) {
      pages.set(normalizePath(page.path), page)
      for (const [hash, data] of Object.entries(staticQueries)) queries.set(hash, data)
    },
  }
}
