/**
 * The client router: intercepts internal links, loads the target through the loader, keeps
 * history and scroll positions, announces the new page and emits the route events.
 * Anything that goes wrong ends in one full browser load of the target.
 */
import { NAVIGATION_DELAYED_MS } from '../../shared/constants'
import { shouldIntercept } from '../../shared/links'
import { normalizePath, notFoundPathFor } from '../../shared/paths'
import type { PageHead } from '../../shared/types'
import { emitRouteUpdate, emitRouteUpdateDelayed, type RouteUpdateDetail } from '../events'
import { announce } from './announcer'
import { applyHead } from './head'
import type { LoadedPage, Loader } from './loader'
import type { Prefetcher } from './prefetch'
import { type ScrollStore, scrollToHash } from './scroll'

export interface RouterOptions<Template> {
  loader: Loader<Template>
  /** Build hash of the code running now. */
  buildHash: string
  /** Renders a loaded page synchronously: the DOM is updated when it returns. */
  render(page: LoadedPage<Template>): void
  /** Prefix of the screen-reader announcement in the language now shown. */
  announcePrefix(): string
  scrollStore: ScrollStore
  prefetcher?: Prefetcher
  /** True when the next navigation must be a full load (service-worker update after failures). */
  forceFullLoad?: () => boolean
}

export interface NavigateOptions {
  replace?: boolean
}

export interface Router {
  /** Installs the listeners and finishes the first page (scroll, route-update). */
  start(): void
  navigate(href: string, options?: NavigateOptions): Promise<void>
  stop(): void
}

interface HistoryState {
  key?: string
}

const newKey = () => Math.random().toString(36).slice(2, 10)

function focusHeading(): void {
  const heading = document.querySelector<HTMLElement>('main h1')
  if (!heading) return
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1')
  heading.focus({ preventScroll: true })
}

export function createRouter<Template>(options: RouterOptions<Template>): Router {
  const { loader, scrollStore } = options
  let navigationId = 0
  let currentKey = ''
  let shownLocation: RouteUpdateDetail['location'] | null = null
  /** Path and query of what is rendered now; popstate compares against it. */
  let renderedPath = ''

  const pathOf = (url: URL | Location) => `${url.pathname}${url.search}`
  const saveScroll = () => scrollStore.save(currentKey, { x: window.scrollX, y: window.scrollY })

  function fullLoad(url: URL, mode: 'assign' | 'replace' | 'reload'): void {
    if (mode === 'reload') window.location.reload()
    else window.location[mode](url.href)
  }

  function finish(url: URL, head: PageHead, restore: boolean): void {
    applyHead(head)
    const saved = restore ? scrollStore.get(currentKey) : undefined
    if (saved) {
      window.scrollTo(saved.x, saved.y)
      focusHeading()
    } else if (!scrollToHash(url.hash)) {
      window.scrollTo(0, 0)
      focusHeading()
    }
    announce(options.announcePrefix())
    shownLocation = emitRouteUpdate(window.location, shownLocation)
    options.prefetcher?.observe(document)
  }

  async function go(url: URL, mode: 'push' | 'replace' | 'pop'): Promise<void> {
    const id = ++navigationId
    const failMode = mode === 'pop' ? 'reload' : mode === 'replace' ? 'replace' : 'assign'
    const delayed = window.setTimeout(() => {
      if (id === navigationId) emitRouteUpdateDelayed(url.href)
    }, NAVIGATION_DELAYED_MS)
    try {
      if (options.forceFullLoad?.()) return fullLoad(url, failMode)
      const [outcome, serverHash] = await Promise.all([
        loader.loadPage(url.pathname),
        loader.fetchBuildHash(),
      ])
      if (id !== navigationId) return
      if (outcome.kind === 'failed') return fullLoad(url, failMode)
      if (serverHash !== null && serverHash !== options.buildHash) return fullLoad(url, failMode)
      // A moved page: its old address's data redirected to the page's, whose address is shown.
      const movedTo = outcome.notFound ? null : movedPath(url.pathname, outcome.page.path)
      if (movedTo) {
        url.pathname = movedTo
        if (mode === 'pop') window.history.replaceState(window.history.state, '', url.href)
      }
      if (mode !== 'pop') {
        saveScroll()
        currentKey = newKey()
        const state: HistoryState = { key: currentKey }
        if (mode === 'push') window.history.pushState(state, '', url.href)
        else window.history.replaceState(state, '', url.href)
      }
      options.render(outcome)
      renderedPath = pathOf(url)
      finish(url, outcome.page.result.head, mode === 'pop')
    } finally {
      window.clearTimeout(delayed)
    }
  }

  const onClick = (event: MouseEvent) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null
    if (!(anchor instanceof HTMLAnchorElement)) return
    const facts = {
      href: anchor.href,
      target: anchor.target,
      hasDownload: anchor.hasAttribute('download'),
    }
    if (!shouldIntercept(event, facts, window.location.href)) return
    event.preventDefault()
    const url = new URL(anchor.href)
    const samePage = pathOf(url) === pathOf(window.location)
    if (samePage && url.hash) {
      window.history.replaceState(window.history.state, '', url.href)
      scrollToHash(url.hash)
      return
    }
    void go(url, samePage ? 'replace' : 'push')
  }

  const onPopState = (event: PopStateEvent) => {
    saveScroll()
    currentKey = (event.state as HistoryState | null)?.key ?? newKey()
    const url = new URL(window.location.href)
    if (pathOf(url) === renderedPath) {
      // Only the hash changed: no page to load.
      const saved = scrollStore.get(currentKey)
      if (saved) window.scrollTo(saved.x, saved.y)
      else scrollToHash(url.hash)
      return
    }
    void go(url, 'pop')
  }

  const onPageHide = () => saveScroll()

  return {
    start() {
      window.history.scrollRestoration = 'manual'
      const state = (window.history.state ?? {}) as HistoryState
      currentKey = state.key ?? newKey()
      if (!state.key) window.history.replaceState({ ...state, key: currentKey }, '')
      renderedPath = pathOf(window.location)
      document.addEventListener('click', onClick)
      window.addEventListener('popstate', onPopState)
      window.addEventListener('pagehide', onPageHide)
      const saved = scrollStore.get(currentKey)
      if (saved) window.scrollTo(saved.x, saved.y)
      else scrollToHash(window.location.hash)
      shownLocation = emitRouteUpdate(window.location, null)
      options.prefetcher?.observe(document)
    },
    navigate(href, navigateOptions = {}) {
      const url = new URL(href, window.location.href)
      return go(url, navigateOptions.replace ? 'replace' : 'push')
    },
    stop() {
      document.removeEventListener('click', onClick)
      window.removeEventListener('popstate', onPopState)
      window.removeEventListener('pagehide', onPageHide)
      options.prefetcher?.stop()
    },
  }
}

/**
 * The address to show for a page whose data answered for another (the server redirected an
 * address the page moved from), or null when it is the address asked for.
 */
export function movedPath(requested: string, pagePath: string): string | null {
  return normalizePath(requested) === normalizePath(pagePath) ? null : normalizePath(pagePath)
}

/**
 * On a static host, an unknown address gets the default 404 page; this is the 404 page whose
 * match path fits the address instead (the German one under `/de/`), or null when it fits.
 */
export function notFoundPageFor(
  shownPath: string,
  matchPath: string | undefined,
  pathname: string,
): string | null {
  if (!matchPath) return null
  const wanted = notFoundPathFor(normalizePath(pathname))
  return wanted === normalizePath(shownPath) ? null : wanted
}
