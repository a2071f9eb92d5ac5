/**
 * Browser entry: hydrates the pre-rendered page with the data embedded in it (no request).
 * Everything that only serves the next page (router, loader, prefetching, scroll restoration,
 * the service worker) is loaded after hydration, when the browser is idle or at the first
 * interaction (`./navigation/navigation.ts`); a link clicked before it arrives is held and followed then.
 */
import { startTransition, useEffect, useSyncExternalStore } from 'react'
import { flushSync } from 'react-dom'
import { hydrateRoot } from 'react-dom/client'
import { BOOT_DATA_ELEMENT_ID, CONTENT_CHANGED_EVENT, ROOT_ELEMENT_ID } from '../shared/constants'
import type { Language } from '../shared/languages'
import { shouldIntercept } from '../shared/links'
import { setNavigator } from '../shared/navigation'
import type { BootData } from '../shared/types'
import { App, type AppState, layoutsOf } from '../site/app'
import { loadTemplate } from '../site/templates/registry'
import type { TemplateComponent } from '../site/templates/types'
import { onRouteUpdate, type RouteUpdateDetail } from './events'
import type { LoadedPage } from './navigation/loader'
import type { Navigation } from './navigation/navigation'
import { startImageFade } from './page/image-fade'
import { interfaceLanguage, rememberLanguageSwitches, storeLanguage } from './page/language'
import { isSearchShortcut, isTyping } from './search/keys'
import { createStore, type Store } from './store'

function Root({
  store,
  onLanguageSwitch,
  onHydrated,
}: {
  store: Store<AppState>
  onLanguageSwitch: (language: Language) => void
  /** Runs once the served page is hydrated: changes to the state must wait for it. */
  onHydrated: () => void
}) {
  const state = useSyncExternalStore(store.subscribe, store.get, store.get)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, after hydration
  useEffect(() => onHydrated(), [])
  return <App state={state} onLanguageSwitch={onLanguageSwitch} />
}

function languageFor(page: AppState['page']): Language {
  return page.result.languageNeutral ? interfaceLanguage() : page.result.language.language
}

type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number
}

/** The events that count as the visitor's first interaction: the navigation code is due. */
const INTERACTIONS = ['pointerdown', 'mouseover', 'touchstart', 'keydown', 'focusin'] as const

/**
 * Loads the navigation code once, at the first interaction or when the browser is idle after
 * hydration. Until it runs, a click the router would take is held and replayed for it, and the
 * link the pointer rests on is prefetched when it arrives.
 */
function deferNavigation(start: () => Promise<Navigation>): () => Promise<Navigation> {
  let loading: Promise<Navigation> | undefined
  let pointed: HTMLAnchorElement | null = null
  const held: HTMLElement[] = []
  const anchorOf = (target: EventTarget | null) =>
    target instanceof Element ? target.closest<HTMLAnchorElement>('a[href]') : null
  const onInteraction = (event: Event) => {
    if (event.type === 'mouseover') pointed = anchorOf(event.target)
    void load()
  }
  const holdClick = (event: MouseEvent) => {
    // The search button, which the navigation code opens.
    const search = (event.target as Element).closest?.('[data-search-open]')
    if (search) {
      held.push(search as HTMLElement)
      void load()
      return
    }
    const anchor = anchorOf(event.target)
    if (!anchor) return
    const facts = {
      href: anchor.href,
      target: anchor.target,
      hasDownload: anchor.hasAttribute('download'),
    }
    if (!shouldIntercept(event, facts, window.location.href)) return
    // A link within this page (a hash) is the browser's to follow, as opt-out links are
    // consent's: only a link to another page waits for the router.
    const url = new URL(anchor.href)
    if (url.pathname === window.location.pathname && url.search === window.location.search) return
    event.preventDefault()
    held.push(anchor)
    void load()
  }
  // The search's keys, pressed before its code is there: the button is pressed for them then.
  let searchKey = false
  const holdKey = (event: KeyboardEvent) => {
    if (isTyping(event.target) || !isSearchShortcut(event)) return
    event.preventDefault()
    searchKey = true
    void load()
  }
  const stopHolding = () => {
    for (const type of INTERACTIONS) document.removeEventListener(type, onInteraction, true)
    document.removeEventListener('click', holdClick, true)
    document.removeEventListener('keydown', holdKey, true)
  }
  const load = () => {
    loading ??= start().then(
      (navigation) => {
        stopHolding()
        if (pointed?.matches(':hover')) navigation.prefetch(pointed.href)
        // The router listens now: a click again is a click it takes.
        for (const anchor of held.splice(0)) anchor.click()
        if (searchKey) document.querySelector<HTMLElement>('[data-search-open]')?.click()
        return navigation
      },
      (error: unknown) => {
        // Without the navigation code, links work as plain links.
        stopHolding()
        for (const element of held.splice(0)) {
          if (element instanceof HTMLAnchorElement) window.location.assign(element.href)
        }
        throw error
      },
    )
    return loading
  }
  for (const type of INTERACTIONS) {
    document.addEventListener(type, onInteraction, { capture: true, passive: true })
  }
  document.addEventListener('click', holdClick, true)
  document.addEventListener('keydown', holdKey, true)
  const idle = (window as IdleWindow).requestIdleCallback
  if (idle) idle(() => void load(), { timeout: 2000 })
  else window.setTimeout(() => void load(), 200)
  return load
}

async function start(): Promise<void> {
  const element = document.getElementById(BOOT_DATA_ELEMENT_ID)
  const root = document.getElementById(ROOT_ELEMENT_ID)
  if (!element?.textContent || !root) return
  const boot = JSON.parse(element.textContent) as BootData
  rememberLanguageSwitches()
  startImageFade()

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
  // As a transition, hydration yields to the browser every few milliseconds instead of one long
  // task: a long article or the rate tables took 100-170 ms of blocking time on a slow phone.
  // A language-neutral page shows the visitor's language once hydrated, without a redirect;
  // not before, or hydration would meet another language than the served page's.
  const onHydrated = () => {
    if (!boot.page.result.languageNeutral) return
    const detected = interfaceLanguage()
    if (detected !== builtLanguage) setLanguage(detected)
  }
  startTransition(() => {
    hydrateRoot(
      root,
      <Root store={store} onLanguageSwitch={onLanguageSwitch} onHydrated={onHydrated} />,
      { onRecoverableError: (error) => console.error('Hydration error:', error) },
    )
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
  const navigation = deferNavigation(() =>
    import('./navigation/navigation').then(({ startNavigation }) =>
      startNavigation(boot, store, render),
    ),
  )
  // A form sent before the router is there waits for it rather than loading the page whole.
  setNavigator(async (href) => (await navigation()).router.navigate(href))

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
  import('./consent/consent').then(
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
}

void start()

// `npm run dev` only (Vite leaves this out of the build): a change of content reloads the page.
if (import.meta.hot) import.meta.hot.on(CONTENT_CHANGED_EVENT, () => window.location.reload())
