import { describe, expect, it } from 'vitest'
import { createLoader, pageDataVerdict } from '../../../../src/runtime/navigation/loader'
import type { PageData, TemplateName } from '../../../../src/shared/types'

type Reply = number | 'network-error' | { status: number; body?: unknown; raw?: string }

function pageData(path: string, template: TemplateName = 'page'): PageData {
  return {
    path,
    componentChunkName: template,
    staticQueryHashes: ['layout1'],
    result: {} as PageData['result'],
  }
}

/**
 * A fetch that answers each URL from a script of replies (the last one repeats) and counts
 * every request, so each test can say how many requests the policy made.
 */
function fakeServer(script: Record<string, Reply[]>) {
  const calls: string[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input)
    const method = init?.method ?? 'GET'
    calls.push(`${method} ${url}`)
    const replies = script[`${method} ${url}`] ?? script[url]
    const seen = calls.filter((call) => call === `${method} ${url}`).length
    const reply = replies ? (replies[Math.min(seen, replies.length) - 1] as Reply) : 404
    if (reply === 'network-error') throw new TypeError('Failed to fetch')
    const { status, body, raw } =
      typeof reply === 'number' ? { status: reply, body: undefined, raw: undefined } : reply
    const text = raw ?? (body === undefined ? 'error' : JSON.stringify(body))
    return new Response(method === 'HEAD' ? null : text, { status })
  }
  const count = (url: string, method = 'GET') =>
    calls.filter((call) => call === `${method} ${url}`).length
  return { fetch: fetch as typeof globalThis.fetch, calls, count }
}

const ok = (path: string, template?: TemplateName) => ({
  status: 200,
  body: pageData(path, template),
})
const layout = { status: 200, body: { language: 'en', strings: {} } }
const ABOUT = '/page-data/en/about/page-data.json'
const NOT_FOUND_EN = '/page-data/en/404/page-data.json'
const NOT_FOUND_DE = '/page-data/de/404/page-data.json'
const LAYOUT = '/page-data/sq/d/layout1.json'

function loaderFor(
  script: Record<string, Reply[]>,
  templates: Partial<Record<TemplateName, () => Promise<string>>> = {},
) {
  const server = fakeServer({ [LAYOUT]: [layout], ...script })
  const templateCalls: string[] = []
  const loader = createLoader<string>({
    fetch: server.fetch,
    retryDelay: () => 0,
    loadTemplate: (name) => {
      templateCalls.push(name)
      return (templates[name] ?? (() => Promise.resolve(`Template:${name}`)))()
    },
  })
  return { loader, server, templateCalls }
}

describe('pageDataVerdict: the status policy', () => {
  it.each([
    [200, true, 0, 'success'],
    [200, false, 0, 'not-found'],
    [404, false, 0, 'not-found'],
    [500, false, 0, 'error'],
    [503, false, 0, 'retry'],
    [502, false, 2, 'retry'],
    [503, false, 3, 'error'],
    [null, false, 0, 'retry'],
    [null, false, 3, 'error'],
    [403, false, 1, 'retry'],
  ] as const)('status %s (path %s, attempt %s) is %s', (status, hasPath, attempt, verdict) => {
    expect(pageDataVerdict(status, hasPath, attempt)).toBe(verdict)
  })
})

describe('loader', () => {
  it('loads page data on success with one request', async () => {
    const { loader, server } = loaderFor({ [ABOUT]: [ok('/en/about/')] })
    const outcome = await loader.loadPageData('/en/about/')
    expect(outcome).toMatchObject({ kind: 'success', page: { path: '/en/about/' } })
    expect(server.count(ABOUT)).toBe(1)
  })

  it('retries after one failure, then succeeds (2 requests)', async () => {
    const { loader, server } = loaderFor({ [ABOUT]: [503, ok('/en/about/')] })
    expect((await loader.loadPageData('/en/about/')).kind).toBe('success')
    expect(server.count(ABOUT)).toBe(2)
  })

  it('retries network errors too', async () => {
    const { loader, server } = loaderFor({
      [ABOUT]: ['network-error', 'network-error', ok('/en/about/')],
    })
    expect((await loader.loadPageData('/en/about/')).kind).toBe('success')
    expect(server.count(ABOUT)).toBe(3)
  })

  it('gives up after 3 retries (4 requests) with an error', async () => {
    const { loader, server } = loaderFor({ [ABOUT]: [503] })
    expect((await loader.loadPageData('/en/about/')).kind).toBe('error')
    expect(server.count(ABOUT)).toBe(4)
    expect(loader.hasFailedResources()).toBe(true)
  })

  it('treats 500 as an error at once (1 request)', async () => {
    const { loader, server } = loaderFor({ [ABOUT]: [500, ok('/en/about/')] })
    expect((await loader.loadPageData('/en/about/')).kind).toBe('error')
    expect(server.count(ABOUT)).toBe(1)
  })

  it('treats a truncated body as a failed request and retries', async () => {
    const { loader, server } = loaderFor({
      [ABOUT]: [{ status: 200, raw: '{"path":"/en/ab' }, ok('/en/about/')],
    })
    expect((await loader.loadPageData('/en/about/')).kind).toBe('success')
    expect(server.count(ABOUT)).toBe(2)
  })

  it('shares one request among many callers', async () => {
    const { loader, server } = loaderFor({ [ABOUT]: [ok('/en/about/')] })
    const outcomes = await Promise.all([
      loader.loadPageData('/en/about/'),
      loader.loadPageData('/en/about'),
      loader.prefetch('/en/about/'),
      loader.loadPage('/en/about/'),
    ])
    expect(outcomes[0]).toMatchObject({ kind: 'success' })
    expect(server.count(ABOUT)).toBe(1)
    expect(server.count(LAYOUT)).toBe(1)
    await loader.loadPage('/en/about/')
    expect(server.count(ABOUT)).toBe(1)
  })

  it('loads the page with its shared data and template', async () => {
    const { loader, templateCalls } = loaderFor({ [ABOUT]: [ok('/en/about/')] })
    const outcome = await loader.loadPage('/en/about/')
    expect(outcome).toMatchObject({
      kind: 'success',
      notFound: false,
      Template: 'Template:page',
      staticQueries: { layout1: { language: 'en' } },
    })
    expect(templateCalls).toEqual(['page'])
  })

  it('shows the 404 page after a 404 when HEAD confirms it', async () => {
    const missing = '/page-data/de/missing/page-data.json'
    const { loader, server } = loaderFor({
      [missing]: [404],
      [NOT_FOUND_DE]: [ok('/de/404/', 'not-found')],
      'HEAD /de/missing/': [404],
    })
    const outcome = await loader.loadPage('/de/missing/')
    expect(outcome).toMatchObject({ kind: 'success', notFound: true, page: { path: '/de/404/' } })
    expect(server.count(missing)).toBe(1)
    expect(server.count(NOT_FOUND_DE)).toBe(1)
    expect(server.count('/de/missing/', 'HEAD')).toBe(1)
    expect(server.count(NOT_FOUND_EN)).toBe(0)
  })

  it('asks for a full load when the page data is 404 but the page itself is not', async () => {
    const { loader } = loaderFor({
      [ABOUT]: [404],
      [NOT_FOUND_EN]: [ok('/en/404/', 'not-found')],
      'HEAD /en/about/': [200],
    })
    expect((await loader.loadPage('/en/about/')).kind).toBe('failed')
  })

  it('treats 200 without path as not found (1 request, then the 404 data)', async () => {
    const { loader, server } = loaderFor({
      [ABOUT]: [{ status: 200, body: { result: {} } }],
      [NOT_FOUND_EN]: [ok('/en/404/', 'not-found')],
      'HEAD /en/about/': [404],
    })
    const outcome = await loader.loadPage('/en/about/')
    expect(outcome).toMatchObject({ kind: 'success', notFound: true, page: { path: '/en/404/' } })
    expect(server.count(ABOUT)).toBe(1)
  })

  it('fails when the 404 page itself has no data, without asking again', async () => {
    const { loader, server } = loaderFor({ [NOT_FOUND_EN]: [404] })
    expect((await loader.loadPage('/en/404/')).kind).toBe('failed')
    expect(server.count(NOT_FOUND_EN)).toBe(1)
  })

  it('fails when the template chunk does not load', async () => {
    const { loader } = loaderFor(
      { [ABOUT]: [ok('/en/about/')] },
      { page: () => Promise.reject(new Error('chunk failed')) },
    )
    expect(await loader.loadPage('/en/about/')).toMatchObject({
      kind: 'failed',
      reason: 'chunk failed',
    })
    expect(loader.hasFailedResources()).toBe(true)
  })

  it('needs no request for data seeded from the page', async () => {
    const { loader, server } = loaderFor({})
    loader.seed(pageData('/en/about/'), { layout1: { language: 'en' } as never })
    expect((await loader.loadPage('/en/about/')).kind).toBe('success')
    expect(server.calls).toEqual([])
  })

  it('swallows prefetch errors', async () => {
    const { loader } = loaderFor({ [ABOUT]: [500] })
    await expect(loader.prefetch('/en/about/')).resolves.toBeUndefined()
  })

  it('reads the build hash from app data, and null when it cannot', async () => {
    const good = loaderFor({
      '/page-data/app-data.json': [{ status: 200, body: { webpackCompilationHash: 'abc' } }],
    })
    expect(await good.loader.fetchBuildHash()).toBe('abc')
    const bad = loaderFor({ '/page-data/app-data.json': ['network-error'] })
    expect(await bad.loader.fetchBuildHash()).toBeNull()
  })
})
