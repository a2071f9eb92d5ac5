/**
 * Prefetches the page data and template of internal links on hover (after a short debounce)
 * and when they scroll into view. Best effort with explicit guards: never with data saver
 * or on 2g, never the current page, each address once, errors swallowed.
 */
import {
  type ConnectionFacts,
  connectionAllowsPrefetch,
  currentConnection,
} from '../../shared/connection'
import { PREFETCH_HOVER_DELAY_MS } from '../../shared/constants'
import { classifyLink } from '../../shared/links'
import { normalizePath } from '../../shared/paths'

export { type ConnectionFacts, connectionAllowsPrefetch }

/**
 * The path to prefetch for a link, or null when the guards say no: not internal, the current
 * page, already prefetched or a connection that saves data.
 */
export function prefetchTarget(
  href: string,
  location: { href: string; pathname: string },
  done: ReadonlySet<string>,
  connection: ConnectionFacts | undefined,
): string | null {
  if (!connectionAllowsPrefetch(connection)) return null
  if (classifyLink(href, location.href) !== 'internal') return null
  const path = normalizePath(new URL(href, location.href).pathname)
  if (path === normalizePath(location.pathname) || done.has(path)) return null
  return path
}

export interface Prefetcher {
  /** Watches the links inside `root` until they become visible. */
  observe(root: ParentNode): void
  /** Prefetches a link's page now (the guards still apply). */
  prefetchNow(href: string): void
  stop(): void
}

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number
}

export function startPrefetching(prefetch: (path: string) => Promise<void>): Prefetcher {
  const done = new Set<string>()
  const connection = currentConnection
  const run = (href: string) => {
    const path = prefetchTarget(href, window.location, done, connection())
    if (!path) return
    done.add(path)
    prefetch(path).catch(() => {})
  }
  const whenIdle = (callback: () => void) => {
    const idle = (window as IdleWindow).requestIdleCallback
    if (idle) idle(callback, { timeout: 2000 })
    else window.setTimeout(callback, 1)
  }

  let hoverTimer: number | undefined
  const anchorOf = (target: EventTarget | null) =>
    target instanceof Element ? target.closest<HTMLAnchorElement>('a[href]') : null
  const onOver = (event: Event) => {
    const anchor = anchorOf(event.target)
    if (!anchor) return
    window.clearTimeout(hoverTimer)
    hoverTimer = window.setTimeout(() => run(anchor.href), PREFETCH_HOVER_DELAY_MS)
  }
  const onOut = (event: Event) => {
    if (anchorOf(event.target)) window.clearTimeout(hoverTimer)
  }
  const onTouch = (event: Event) => {
    const anchor = anchorOf(event.target)
    if (anchor) run(anchor.href)
  }
  document.addEventListener('mouseover', onOver, { passive: true })
  document.addEventListener('mouseout', onOut, { passive: true })
  document.addEventListener('touchstart', onTouch, { passive: true })

  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue
            observer?.unobserve(entry.target)
            const { href } = entry.target as HTMLAnchorElement
            whenIdle(() => run(href))
          }
        })
      : undefined

  return {
    observe(root) {
      if (!observer) return
      for (const anchor of root.querySelectorAll<HTMLAnchorElement>('a[href]')) {
        if (prefetchTarget(anchor.href, window.location, done, connection()))
          observer.observe(anchor)
      }
    },
    prefetchNow: run,
    stop() {
      observer?.disconnect()
      document.removeEventListener('mouseover', onOver)
      document.removeEventListener('mouseout', onOut)
      document.removeEventListener('touchstart', onTouch)
    },
  }
}
