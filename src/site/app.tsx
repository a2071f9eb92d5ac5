import type { Language } from '../shared/languages'
import type { BuildResources, LayoutData, PageData } from '../shared/types'
import { Breadcrumbs } from './components/breadcrumbs'
import { Footer } from './components/footer'
import { Header } from './components/header'
import { InterfaceContext } from './interface-context'
import type { TemplateComponent } from './templates/types'
import './styles/global.css'

/** Everything one rendered page needs; the build renders it, the runtime swaps it on navigation. */
export interface AppState {
  page: PageData
  staticQueries: Record<string, LayoutData>
  Template: TemplateComponent
  /** Interface language: the page's own, or on language-neutral pages the detected one. */
  language: Language
  /** Set by the build's render only (`BuildResources`); the browser fetches what it needs. */
  resources?: BuildResources
}

export interface AppProps {
  state: AppState
  onLanguageSwitch?: (language: Language) => void
}

/** The layouts of a page by language, from its static queries. */
export function layoutsOf(state: Pick<AppState, 'page' | 'staticQueries'>) {
  const layouts: Partial<Record<Language, LayoutData>> = {}
  for (const hash of state.page.staticQueryHashes) {
    const layout = state.staticQueries[hash]
    if (layout) layouts[layout.language] = layout
  }
  return layouts
}

/**
 * Where the language switcher leads: the same page in the other language; the other
 * language's home for pages without a twin (blog posts, written in one language); undefined
 * on language-neutral pages, which switch in place.
 */
export function switchPath(page: PageData): string | undefined {
  const { result } = page
  if (result.languageNeutral) return undefined
  return result.language.routed || page.path === '/' ? result.language.originalPath : '/'
}

/** The same app renders at build time and hydrates in the browser. */
export function App({ state, onLanguageSwitch }: AppProps) {
  const { page, Template } = state
  const { result } = page
  const layouts = layoutsOf(state)
  const language = layouts[state.language] ? state.language : result.language.language
  const layout = layouts[language]
  const content = result.content[language] ?? result.content[result.language.language]
  if (!layout || !content) throw new Error(`Page ${page.path} has no ${language} data`)
  return (
    <>
      <a className="skip-link" href="#main">
        {layout.strings.skipToContent}
      </a>
      <Header
        layout={layout}
        language={language}
        currentPath={page.path}
        current={language}
        layouts={layouts}
        originalPath={switchPath(state.page)}
        onSwitch={onLanguageSwitch}
        label={layout.strings.languageSwitcherLabel}
      />
      <main id="main" tabIndex={-1}>
        <Breadcrumbs trail={result.breadcrumbs?.[language]} label={layout.strings.breadcrumbs} />
        <InterfaceContext.Provider value={layout}>
          <Template
            result={result}
            content={content}
            language={language}
            layout={layout}
            resources={state.resources}
          />
        </InterfaceContext.Provider>
      </main>
      <Footer layout={layout} />
    </>
  )
}
