/**
 * The preview beside the CMS's editor (`npm run dev`, `/admin/`): the entry as the site shows it,
 * rendered by the site's own app, templates and styles, updated while the editor types, in
 * either language; and, before a save, the problems the entry would bring (a broken link, a
 * missing field), named with file and field as the build names them.
 *
 * Decap renders its preview with its own React; each preview is therefore a small Decap
 * component whose element holds a root of the site's React. The dev server turns the entry into
 * page data with the build's code (`POST /admin/preview`); this module starts the CMS once the
 * previews are registered.
 */
import { type ReactNode, useEffect, useState } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { IMAGE_FADE_MS, THEME_COLOR } from '../../../shared/constants'
import { type Language, LOCALE_DATA } from '../../../shared/languages'
import type { LayoutData, PageData } from '../../../shared/types'
import { App } from '../../../site/app'
import { loadTemplate } from '../../../site/templates/registry'
import type { TemplateComponent } from '../../../site/templates/types'

/** The few parts of Decap's Immutable.js values the preview reads. */
interface Immutable {
  get(key: string): unknown
  getIn(path: string[]): unknown
  toJS(): unknown
}

interface DecapProps {
  entry: Immutable
  collection: Immutable
  document: Document
}

interface Decap {
  registerPreviewTemplate(name: string, component: unknown): void
  registerPreviewStyle(url: string): void
  registerBackend(name: string, backend: unknown): void
  getBackend(name: string): { init(config: unknown, options: unknown): object }
  init(options: { config: unknown }): void
}

export type DecapWindow = Window & {
  CMS: Decap
  h: (type: string, props: Record<string, unknown>, ...children: unknown[]) => unknown
  createClass: (spec: Record<string, unknown>) => unknown
}

export interface CmsConfig {
  i18n: { locales: string[]; default_locale: string }
  collections: { name: string; folder?: string }[]
}

export interface PreviewFile {
  path: string
  data: unknown
}

interface PreviewPage {
  file: string
  page: PageData
  staticQueries: Record<string, LayoutData>
}

/**
 * The preview's own words, in the editor's language (the page's: the person's in the
 * publishing service, English in `npm run dev`'s editor).
 */
const PREVIEW_TEXTS = {
  en: {
    loading: 'Preview loading …',
    notAPage: 'Not a page',
    cannotSave: 'This entry cannot be saved as it is:',
    notLoaded: (reason: string) => `The preview could not be loaded: ${reason}`,
  },
  de: {
    loading: 'Vorschau wird geladen …',
    notAPage: 'Keine Seite',
    cannotSave: 'So kann dieser Eintrag nicht gespeichert werden:',
    notLoaded: (reason: string) => `Die Vorschau konnte nicht geladen werden: ${reason}`,
  },
}
const previewTexts = () => PREVIEW_TEXTS[document.documentElement.lang === 'de' ? 'de' : 'en']

/** Waits this long after the last key before asking the server again. */
const TYPING_PAUSE_MS = 250
const PREVIEW_URL = '/admin/preview'

/** The store files an entry is made of, as the CMS names them, with the fields as edited. */
export function filesOf(entry: Immutable, collection: Immutable, config: CmsConfig): PreviewFile[] {
  const slug = entry.get('slug')
  const folder = collection.get('folder')
  if (typeof slug !== 'string' || !slug || typeof folder !== 'string') return []
  const extension = String(collection.get('extension') ?? 'yaml')
  const data = (path: string[]) => (entry.getIn(path) as Immutable | undefined)?.toJS()
  if (!collection.get('i18n')) {
    return [{ path: `${folder}/${slug}.${extension}`, data: data(['data']) }]
  }
  const { locales, default_locale: first } = config.i18n
  return locales.flatMap((locale) => {
    const fields = locale === first ? data(['data']) : data(['i18n', locale, 'data'])
    return fields ? [{ path: `${folder}/${locale}/${slug}.${extension}`, data: fields }] : []
  })
}

const BAR_STYLE = {
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '0.5rem',
  padding: '0.5rem 1rem',
  background: '#1f1a17',
  color: '#ffffff',
  font: '600 0.875rem/1.4 Inter, system-ui, sans-serif',
} as const

function Bar({ children }: { children: ReactNode }) {
  return (
    <div style={BAR_STYLE} data-cms-preview-bar="">
      {children}
    </div>
  )
}

function PreviewPane({ files }: { files: PreviewFile[] }) {
  const [pages, setPages] = useState<PreviewPage[]>([])
  const [problems, setProblems] = useState<string[]>([])
  const [language, setLanguage] = useState<string>()
  const [template, setTemplate] = useState<{ name: string; Template: TemplateComponent }>()
  const key = JSON.stringify(files)

  // `key` is the files as JSON: a new entry object with the same fields asks nothing again.
  useEffect(() => {
    if (key === '[]') return
    let current = true
    const timer = window.setTimeout(async () => {
      try {
        const response = await fetch(PREVIEW_URL, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"files":${key}}`,
        })
        const answer = (await response.json()) as {
          pages?: PreviewPage[]
          problems?: string[]
          error?: string
        }
        if (!current) return
        setProblems(answer.error ? [answer.error] : (answer.problems ?? []))
        // With problems there is no page to show: the last one stays, under the problems.
        if (answer.pages?.length) setPages(answer.pages)
      } catch (error) {
        if (current) setProblems([previewTexts().notLoaded(String(error))])
      }
    }, TYPING_PAUSE_MS)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [key])

  const shown = pages.find((page) => page.page.result.language.language === language) ?? pages[0]
  const name = shown?.page.componentChunkName
  useEffect(() => {
    if (!name || template?.name === name) return
    loadTemplate(name).then(
      (Template) => setTemplate({ name, Template }),
      (error: unknown) => setProblems([String(error)]),
    )
  }, [name, template?.name])

  const shownLanguage = shown?.page.result.language.language
  const t = previewTexts()
  return (
    <div
      // Links lead nowhere from the preview: the editor stays with the entry.
      onClickCapture={(event) => {
        if ((event.target as Element).closest?.('a')) event.preventDefault()
      }}
    >
      <Bar>
        {pages.length > 1
          ? pages.map(({ page }) => {
              const each = page.result.language.language
              return (
                <button
                  key={each}
                  type="button"
                  aria-pressed={each === shownLanguage}
                  onClick={() => setLanguage(each)}
                  style={{
                    padding: '0.25rem 0.75rem',
                    border: '1px solid #ffffff',
                    borderRadius: '999px',
                    background: each === shownLanguage ? '#ffffff' : 'transparent',
                    color: each === shownLanguage ? '#1f1a17' : '#ffffff',
                    font: 'inherit',
                    cursor: 'pointer',
                  }}
                >
                  {LOCALE_DATA[each as Language]?.nativeName ?? each}
                </button>
              )
            })
          : null}
        <span>{shown ? shown.page.path : files.length ? t.loading : t.notAPage}</span>
      </Bar>
      {problems.length > 0 ? (
        <div
          role="alert"
          data-cms-preview-problems=""
          style={{
            padding: '0.75rem 1rem',
            background: '#fef3f2',
            color: '#7a1a12',
            borderLeft: '4px solid #b42318',
            font: '0.875rem/1.5 Inter, system-ui, sans-serif',
          }}
        >
          <strong>{t.cannotSave}</strong>
          <ul style={{ margin: '0.25rem 0 0', paddingLeft: '1.25rem' }}>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {shown && template?.name === shown.page.componentChunkName ? (
        <div data-cms-preview-page="" style={problems.length ? { opacity: 0.55 } : undefined}>
          <App
            state={{
              page: shown.page,
              staticQueries: shown.staticQueries,
              Template: template.Template,
              language: shown.page.result.language.language,
            }}
          />
        </div>
      ) : null}
    </div>
  )
}

/** Keeps the site's styles (Vite's, as modules load) in the preview's frame, and the brand's. */
function mirrorStyles(into: Document): () => void {
  const copy = () => {
    for (const old of into.head.querySelectorAll('[data-cms-mirrored]')) old.remove()
    const root = into.createElement('style')
    root.setAttribute('data-cms-mirrored', '')
    root.textContent = `:root{--color-brand:${THEME_COLOR};--duration-image-fade:${IMAGE_FADE_MS}ms}`
    into.head.append(root)
    for (const style of document.head.querySelectorAll('style[data-vite-dev-id]')) {
      const clone = style.cloneNode(true) as Element
      clone.setAttribute('data-cms-mirrored', '')
      into.head.append(clone)
    }
  }
  copy()
  const observer = new MutationObserver(copy)
  observer.observe(document.head, { childList: true, subtree: true, characterData: true })
  return () => observer.disconnect()
}

/** One preview as Decap holds it: its props, its element and the site's root inside. */
interface PreviewInstance {
  props: DecapProps
  container?: HTMLElement
  root?: Root
  stop?: () => void
}

/** Registers the site's preview for every folder collection of `config`. */
export function registerPreviews(win: DecapWindow, config: CmsConfig): void {
  const show = (instance: PreviewInstance) =>
    instance.root?.render(
      <PreviewPane files={filesOf(instance.props.entry, instance.props.collection, config)} />,
    )
  const Preview = win.createClass({
    componentDidMount(this: PreviewInstance) {
      if (!this.container) return
      this.stop = mirrorStyles(this.props.document)
      this.root = createRoot(this.container)
      show(this)
    },
    componentDidUpdate(this: PreviewInstance) {
      show(this)
    },
    componentWillUnmount(this: PreviewInstance) {
      this.stop?.()
      // Decap is inside its own render: the site's root goes after it.
      const root = this.root
      window.setTimeout(() => root?.unmount())
    },
    render(this: PreviewInstance) {
      return win.h('div', {
        ref: (node: HTMLElement | null) => {
          if (node) this.container = node
        },
      })
    },
  })
  for (const collection of config.collections) {
    if (collection.folder) win.CMS.registerPreviewTemplate(collection.name, Preview)
  }
}

/** The configuration the page embeds, and Decap's window, once both are there. */
export function editorSetup(): { win: DecapWindow; config: CmsConfig } | undefined {
  const win = window as unknown as DecapWindow
  const element = document.getElementById('cms-config')
  if (!element?.textContent || !win.CMS) return undefined
  return { win, config: JSON.parse(element.textContent) as CmsConfig }
}

// The dev server's editor: this module is its entry. The publishing service's editor imports
// it from `entry.tsx`, which registers its backend first and starts the CMS itself.
if (!(window as { CMS_EDITOR_ENTRY?: boolean }).CMS_EDITOR_ENTRY) {
  const setup = editorSetup()
  if (setup) {
    registerPreviews(setup.win, setup.config)
    setup.win.CMS.init({ config: setup.config })
  }
}
