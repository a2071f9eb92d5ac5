/**
 * The app-like part of the runtime: router, loader, prefetching, scroll restoration, head
 * updates, announcements and the service worker. None of it is needed to show the first page
 * or to make it interactive, so it is a chunk of its own that the entry loads after hydration,
 * when the browser is idle or at the visitor's first interaction, whichever comes first
 * (`../entry.tsx`): the first load carries React, the shell and the page's template only.
 */
import { fullLoadsRequired, setNavigator } from '../../shared/navigation'
import type { BootData } from '../../shared/types'
import { type AppState, layoutsOf } from '../../site/app'
import { loadTemplate } from '../../site/templates/registry'
import type { TemplateComponent } from '../../site/templates/types'
import { startCopyLinks } from '../page/copy-link'
import { startSearchTrigger } from '../search/trigger'
import { registerServiceWorker, serviceWorkerUpdated } from '../service-worker'
import type { Store } from '../store'
import { applyHead } from './head'
import { createLoader, type LoadedPage } from './loader'
import { startPrefetching } from './prefetch'
import { createRouter, notFoundPageFor, type Router } from './router'
import { createScrollStore } from './scroll'

export interface Navigation {
  router: Router
  /** Prefetches a link's page at once: the visitor pointed at it before this code arrived. */
  prefetch(href: string): void
}

export function startNavigation(
  boot: BootData,
  store: Store<AppState>,
  render: (page: LoadedPage<TemplateComponent>) => void,
): Navigation {
  registerServiceWorker(boot.serviceWorker)
  const loader = createLoader<TemplateComponent>({ fetch: window.fetch.bind(window), loadTemplate })
  loader.seed(boot.page, boot.staticQueries)
  const prefetcher = startPrefetching((path) => loader.prefetch(path))
  const router = createRouter<TemplateComponent>({
    loader,
    buildHash: boot.buildHash,
    render,
    announcePrefix: () => {
      const state = store.get()
      return layoutsOf(state)[state.language]?.strings.navigatedTo ?? ''
    },
    scrollStore: createScrollStore(() => window.sessionStorage),
    prefetcher,
    forceFullLoad: () =>
      fullLoadsRequired() || (serviceWorkerUpdated() && loader.hasFailedResources()),
  })
  router.start()
  setNavigator((href) => router.navigate(href))
  startCopyLinks(() => {
    const state = store.get()
    return layoutsOf(state)[state.language]?.strings.linkCopied ?? ''
  })
  startSearchTrigger({
    language: () => store.get().language,
    texts: () => {
      const state = store.get()
      return layoutsOf(state)[state.language]?.search
    },
  })

  // A static host's generic 404 page: show the one for the address's language.
  const wanted = notFoundPageFor(boot.page.path, boot.page.matchPath, window.location.pathname)
  if (wanted) {
    void loader.loadPage(wanted).then((outcome) => {
      if (outcome.kind !== 'success') return
      render(outcome)
      applyHead(outcome.page.result.head)
    })
  }
  return { router, prefetch: (href) => prefetcher.prefetchNow(href) }
}
