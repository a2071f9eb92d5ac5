/**
 * Browser entry: hydrates the pre-rendered page with the data embedded in it (no request),
 * then starts the router, prefetching and the service worker.
 */
import { useSyncExternalStore } from 'react'
import { flushSync } from 'react-dom'
import { hydrateRoot } from 'react-dom/client'
import { BOOT_DATA_ELEMENT_ID, ROOT_ELEMENT_ID } from '../shared/constants'
import type { Language } from '../shared/languages'
import { fullLoadsRequired, setNavigator } from '../shared/navigation'
import type { BootData } from '../shared/types'
import { App, type AppState, layoutsOf } from '../site/app'
import { loadTemplate } from '../site/templates/registry'
import type { TemplateComponent } from '../site/templates/types'
import { onRouteUpdate, type RouteUpdateDetail } from './events'
import { applyHead } from './head'
import { startImageFade } from './image-fade'
import { interfaceLanguage, rememberLanguageSwitches, storeLanguage } from './language'
import { createLoader, type LoadedPage } from './loader'
import { startPrefetching } from './prefetch'
import { createRouter, notFoundPageFor } from './router'
import { createScrollStore } from './scroll'
import { registerServiceWorker, serviceWorkerUpdated } from './service-worker'
import { createStore, type Store } from './store'

function Root({
  store,
  onLanguageSwitch,
}: {
  store: Store<AppState>
  onLanguageSwitch: (language: Language) => void
}) {
  const state = useSyncExternalStore(store.subscribe, store.get, store.get)
  return <App state={state} onLanguageSwitch={onLanguageSwitch} />
}

function languageFor(page: AppState['page']): Language {
  return page.result.languageNeutral ? interfaceLanguage() : page.result.language.language
}

async function start(): Promise<void> {
  const element = document.getElementById(BOOT_DATA_ELEMENT_ID)
  const root = document.getElementById(ROOT_ELEMENT_ID)
  if (!element?.textContent || !root) return
  const boot = JSON.parse(element.textContent) as BootData
  registerServiceWorker(boot.serviceWorker)
  rememberLanguageSwitches()
  startImageFade()

  const loader = createLoader<TemplateComponent>({ fetch: window.fetch.bind(window), loadTemplate })
  loader.seed(boot.page, boot.staticQueries)
  let Template: TemplateComponent
  try {
    Template = await loadTemplate(boot.page.componentChunkName)
  } catch (error) {
    // Without its template the page stays as served: readable, with plain links.
    console.error(error)
    return
  }
  const builtLanguage = boot.page.result.language.language
  const store = createStore<AppState>({
    page: boot.page,
    staticQueries: boot.staticQueries,
    Template,
    language: builtLanguage,
  })
  const setLanguage = (language: Language) => {
    store.set({ ...store.get(), language })
    document.documentElement.lang = language
  }
  const onLanguageSwitch = (language: Language) => {
    storeLanguage(language)
    setLanguage(language)
  }
  hydrateRoot(root, <Root store={store} onLanguageSwitch={onLanguageSwitch} />, {
    onRecoverableError: (error) => console.error('Hydration error:', error),
  })

  const render = (loaded: LoadedPage<TemplateComponent>) => {
    flushSync(() => {
      store.set({
        page: loaded.page,
        staticQueries: loaded.staticQueries,
        Template: loaded.Template,
        language: languageFor(loaded.page),
      })
    })
  }
  const router = createRouter<TemplateComponent>({
    loader,
    buildHash: boot.buildHash,
    render,
    announcePrefix: () => {
      const state = store.get()
      return layoutsOf(state)[state.language]?.strings.navigatedTo ?? ''
    },
    scrollStore: createScrollStore(() => window.sessionStorage),
    prefetcher: startPrefetching((path) => loader.prefetch(path)),
    forceFullLoad: () =>
      fullLoadsRequired() || (serviceWorkerUpdated() && loader.hasFailedResources()),
  })
  // Consent loads beside the page, not before it: no tag exists until it runs (so Consent
  // Mode's default still comes first), and the page it missed meanwhile is counted then.
  const revision = Object.values(boot.staticQueries)[0]?.company.consentRevision ?? '1'
  let shown: RouteUpdateDetail['location'] | undefined
  const stopBuffering = onRouteUpdate(({ location }) => {
    shown = location
  })
  // An opt-out link clicked before consent's code arrived is held, then clicked again for it.
  const heldOptOuts: HTMLElement[] = []
  const holdOptOut = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a[href^="#opt-out-"]')
    if (!(link instanceof HTMLElement)) return
    event.preventDefault()
    heldOptOuts.push(link)
  }
  document.addEventListener('click', holdOptOut, true)
  import('./consent').then(
    ({ startConsent }) => {
      stopBuffering()
      document.removeEventListener('click', holdOptOut, true)
      startConsent(boot.tracking, revision, shown, {
        texts: () => {
          const state = store.get()
          return layoutsOf(state)[state.language]?.consent
        },
        language: () => store.get().language,
        pagePath: () => store.get().page.path,
        subscribe: store.subscribe,
      })
      for (const link of heldOptOuts.splice(0)) link.click()
    },
    (error: unknown) => {
      document.removeEventListener('click', holdOptOut, true)
      console.error(error)
    },
  )
  router.start()
  setNavigator((href) => router.navigate(href))

  // A language-neutral page shows the visitor's language once hydrated, without a redirect.
  if (boot.page.result.languageNeutral) {
    const detected = interfaceLanguage()
    if (detected !== builtLanguage) setLanguage(detected)
  }
  // A static host's generic 404 page: show the one for the address's language.
  const wanted = notFoundPageFor(boot.page.path, boot.page.matchPath, window.location.pathname)
  if (wanted) {
    const outcome = await loader.loadPage(wanted)
    if (outcome.kind === 'success') {
      render(outcome)
      applyHead(outcome.page.result.head)
    }
  }
}

void start()
