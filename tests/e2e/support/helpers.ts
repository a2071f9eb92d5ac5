/** Helpers for browser tests: route events, reload markers, request counting. */
import type { Page, Request } from '@playwright/test'

declare global {
  interface Window {
    __routeUpdates: string[]
    __delayed: string[]
    __marker?: number
  }
}

/** Records every `route-update` and `route-update-delayed` from the first script on. */
const recording = new WeakSet<Page>()

export async function recordRouteEvents(page: Page): Promise<void> {
  // Once per page: each call adds a script that every later load would run again.
  if (recording.has(page)) return
  recording.add(page)
  await page.addInitScript(() => {
    window.__routeUpdates = []
    window.__delayed = []
    window.addEventListener('route-update', (event) => {
      window.__routeUpdates.push(
        (event as CustomEvent<{ location: { pathname: string } }>).detail.location.pathname,
      )
    })
    window.addEventListener('route-update-delayed', (event) => {
      window.__delayed.push((event as CustomEvent<{ href: string }>).detail.href)
    })
  })
}

export async function routeUpdates(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__routeUpdates)
}

/** Waits until `count` route updates happened in this document. */
export async function waitForRouteUpdates(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => (window.__routeUpdates?.length ?? 0) >= n, count)
}

/** Opens a page and waits until the runtime has hydrated it and emitted its first route update. */
export async function openPage(page: Page, path: string): Promise<void> {
  await recordRouteEvents(page)
  await page.goto(path)
  await waitForRouteUpdates(page, 1)
}

/** Marks the current document; `isSameDocument` is false after any full load. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__marker = 1
  })
}

export async function isSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => window.__marker === 1)
}

/** Collects the requests whose URL path matches `pattern`. */
export function collectRequests(page: Page, pattern: RegExp): Request[] {
  const requests: Request[] = []
  page.on('request', (request) => {
    if (pattern.test(new URL(request.url()).pathname)) requests.push(request)
  })
  return requests
}

/** Console errors and warnings, page errors included. */
export function collectConsoleProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    // Playwright's own notice when a test context blocks service workers.
    if (message.text() === 'Service Worker registration blocked by Playwright') return
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  return problems
}

export const pageDataPath = (path: string) =>
  `/page-data/${path.replace(/^\/+|\/+$/g, '') || 'index'}/page-data.json`

/** Turns prefetching off (data saver), so only navigations fetch and request counts are exact. */
export async function disablePrefetch(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'connection', {
      value: { saveData: true },
      configurable: true,
    })
  })
}

/**
 * Adds a link to the page's main element, for link rules the content has no example of yet,
 * and returns its locator. The runtime treats every anchor alike, however it got there.
 */
export async function addLink(
  page: Page,
  href: string,
  attributes: { target?: string; download?: boolean; first?: boolean } = {},
) {
  const id = `test-link-${Math.random().toString(36).slice(2, 8)}`
  await page.evaluate(
    ({ href, id, attributes }) => {
      const link = document.createElement('a')
      link.href = href
      link.id = id
      link.textContent = `Test link to ${href}`
      if (attributes.target) link.target = attributes.target
      if (attributes.download) link.setAttribute('download', '')
      const main = document.querySelector('main')
      if (attributes.first) main?.prepend(link)
      else main?.append(link)
    },
    { href, id, attributes },
  )
  return page.locator(`#${id}`)
}

declare global {
  interface Window {
    __cspViolations?: string[]
  }
}

/**
 * Records what the Content-Security-Policy blocks in each document of the page, from its first
 * script on; the returned function reads the current document's list.
 */
export async function recordCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    window.__cspViolations = []
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        window.__cspViolations?.push(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
        )
      },
      true,
    )
  })
  return () => page.evaluate(() => window.__cspViolations ?? [])
}
