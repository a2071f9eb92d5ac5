/**
 * The site search: a modal dialog with a search field and its results, in a React root of its
 * own, loaded when the visitor opens it (`src/runtime/search/trigger.ts`).
 *
 * By keyboard: the field has focus; ArrowDown moves to the first result and on through them,
 * ArrowUp back to the field; Enter opens the result in focus (or in the field, the first);
 * typing on a result goes on in the field; Escape closes and returns focus to what opened it.
 * The number of results is announced once typing pauses. Results are the pages of the
 * dialog's language, with a button to search the other language's pages.
 */
import {
  type KeyboardEvent,
  type MouseEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { LANGUAGES, type Language } from '../../../shared/languages'
import { excerpt, highlight, type Segment } from '../../../shared/search/query'
import type { SearchTexts } from '../../../shared/types'
import { type Found, type FoundPage, SearchLoadError, search, warm } from './engine'
import styles from './styles.module.css'

export { prefetchIndex } from './engine'

/** Results shown at first, and added by "show more". */
const PAGE_SIZE = 10
/** Typing pauses this long before the search runs. */
const TYPING_PAUSE_MS = 120
/** …and this long before the number of results is announced. */
const ANNOUNCE_PAUSE_MS = 600

export interface SearchDialogProps {
  /** The interface language: its pages are searched first, and its words shown. */
  language: Language
  texts: SearchTexts
  /** The query of the last time, selected: typing replaces it. */
  initialQuery?: string
  onQuery?(query: string): void
  /** Called once the dialog has closed; `returnFocus` is false after following a result. */
  onClose(returnFocus: boolean): void
}

type Status =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'done'; found: Found; pages: FoundPage[] }
  | { kind: 'error'; offline: boolean }

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole))

function Marked({ segments }: { segments: Segment[] }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.mark ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments have no identity but their place
          <mark key={index}>{segment.text}</mark>
        ) : (
          segment.text
        ),
      )}
    </>
  )
}

function Result({
  found,
  terms,
  id,
  onFollow,
}: {
  found: FoundPage
  terms: ReadonlySet<string>
  id: string
  onFollow: (event: MouseEvent<HTMLAnchorElement>) => void
}) {
  const { page, hit } = found
  const block = hit.block > 0 ? page.blocks[hit.block - 1] : page.blocks[0]
  const href = block?.anchor && hit.block > 0 ? `${page.url}#${block.anchor}` : page.url
  const heading = block?.heading && block.heading !== page.title ? block.heading : ''
  // The section is named in the interface's language; the page's title and headings are in
  // the page's (a page for customers in Spain is Spanish on an English site).
  const textLang = block?.lang ?? page.lang
  const text = block?.text ?? ''
  return (
    <li className={styles.result}>
      <a
        className={styles.resultLink}
        href={href}
        data-search-result=""
        aria-describedby={`${id}-where ${id}-text`}
        lang={page.lang}
        onClick={onFollow}
      >
        <Marked segments={highlight(page.title, terms)} />
      </a>
      {page.section || heading ? (
        <span id={`${id}-where`} className={styles.where}>
          {page.section}
          {page.section && heading ? ' › ' : null}
          {heading ? <span lang={textLang}>{heading}</span> : null}
        </span>
      ) : null}
      {text ? (
        <span id={`${id}-text`} className={styles.excerpt} lang={textLang}>
          <Marked segments={excerpt(text, terms)} />
        </span>
      ) : null}
    </li>
  )
}

export function SearchDialog({
  language,
  texts,
  initialQuery = '',
  onQuery,
  onClose,
}: SearchDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLOListElement>(null)
  const id = useId()
  const [query, setQuery] = useState(initialQuery)
  const [scope, setScope] = useState<Language>(language)
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const [announcement, setAnnouncement] = useState('')
  const [attempt, setAttempt] = useState(0)
  const other = LANGUAGES.find((candidate) => candidate !== language) ?? language

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    element.showModal()
    input.current?.focus()
    input.current?.select()
  }, [])

  // The search runs once typing pauses; a newer query overtakes an older one. `attempt` runs
  // the same query again after "try again".
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is the trigger of a retry
  useEffect(() => {
    const words = query.trim()
    if (!words) {
      setStatus({ kind: 'idle' })
      return
    }
    let current = true
    const timer = window.setTimeout(() => {
      setStatus((previous) => (previous.kind === 'done' ? previous : { kind: 'loading' }))
      search(scope, query, PAGE_SIZE).then(
        (found) => {
          if (!current) return
          setStatus({ kind: 'done', found, pages: found.pages })
          // Once the visitor has results, the rest of the index is put where it works offline.
          warm(scope)
        },
        (error: unknown) => {
          if (!current) return
          console.error(error)
          setStatus({
            kind: 'error',
            offline: error instanceof SearchLoadError && error.reason === 'offline',
          })
        },
      )
    }, TYPING_PAUSE_MS)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [query, scope, attempt])

  const count = status.kind === 'done' ? status.found.result.hits.length : 0
  const summary =
    status.kind === 'done'
      ? count === 0
        ? fill(texts.noResults, { query: query.trim() })
        : count === 1
          ? texts.oneResult
          : fill(texts.results, { count })
      : status.kind === 'loading'
        ? texts.loading
        : ''

  // Screen readers hear the number of results once, when typing pauses, not at every key.
  useEffect(() => {
    const timer = window.setTimeout(() => setAnnouncement(summary), ANNOUNCE_PAUSE_MS)
    return () => window.clearTimeout(timer)
  }, [summary])

  const close = useCallback(
    (returnFocus: boolean) => {
      dialog.current?.close()
      onClose(returnFocus)
    },
    [onClose],
  )

  const results = () => [
    ...(list.current?.querySelectorAll<HTMLAnchorElement>('a[data-search-result]') ?? []),
  ]

  const onInputKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      results()[0]?.focus()
    } else if (event.key === 'Enter') {
      event.preventDefault()
      results()[0]?.click()
    }
  }

  const onListKey = (event: KeyboardEvent<HTMLOListElement>) => {
    const links = results()
    const at = links.indexOf(document.activeElement as HTMLAnchorElement)
    if (at < 0) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const next = at + (event.key === 'ArrowDown' ? 1 : -1)
      if (next < 0) input.current?.focus()
      else links[Math.min(next, links.length - 1)]?.focus()
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault()
      ;(event.key === 'Home' ? links[0] : links.at(-1))?.focus()
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Typing goes on in the field: the key lands there.
      input.current?.focus()
    }
  }

  const onFollow = (event: MouseEvent<HTMLAnchorElement>) => {
    // A new tab or window leaves the search open; otherwise the page changes under it.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)
      return
    close(false)
  }

  const showMore = async () => {
    if (status.kind !== 'done') return
    const before = status.pages.length
    const more = await status.found.more(PAGE_SIZE)
    setStatus({ ...status, pages: [...status.pages, ...more] })
    // Focus moves to the first new result, so the keyboard goes on where the list grew.
    window.requestAnimationFrame(() => results()[before]?.focus())
  }

  const terms = status.kind === 'done' ? status.found.result.terms : new Set<string>()
  const switchLabel = scope === language ? texts.otherLanguage : texts.ownLanguage

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop; Escape closes by keyboard
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={`${id}-title`}
      data-search-dialog=""
      onCancel={(event) => {
        event.preventDefault()
        close(true)
      }}
      onClick={(event) => {
        // The backdrop is the dialog element itself, outside its box.
        const box = event.currentTarget.getBoundingClientRect()
        const outside =
          event.clientX < box.left ||
          event.clientX > box.right ||
          event.clientY < box.top ||
          event.clientY > box.bottom
        if (event.target === event.currentTarget && outside) close(true)
      }}
    >
      <div className={styles.top}>
        <h2 id={`${id}-title`} className={styles.title}>
          {texts.title}
        </h2>
        <button type="button" className={styles.close} onClick={() => close(true)}>
          <span aria-hidden="true">×</span>
          <span className={styles.closeLabel}>{texts.close}</span>
        </button>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not in React 18's elements */}
      <form role="search" className={styles.form} onSubmit={(event) => event.preventDefault()}>
        <label htmlFor={`${id}-input`} className={styles.label}>
          {texts.label}
        </label>
        <input
          ref={input}
          id={`${id}-input`}
          className={styles.input}
          type="search"
          value={query}
          placeholder={texts.placeholder}
          autoComplete="off"
          spellCheck={false}
          enterKeyHint="search"
          aria-describedby={`${id}-hint`}
          onChange={(event) => {
            setQuery(event.target.value)
            onQuery?.(event.target.value)
          }}
          onKeyDown={onInputKey}
        />
        <p id={`${id}-hint`} className={styles.hint}>
          {texts.hint}
        </p>
      </form>
      <p className={styles.status} role="status">
        {announcement}
      </p>
      {status.kind === 'error' ? (
        <div className={styles.problem}>
          <p>{status.offline ? texts.offline : texts.error}</p>
          <button
            type="button"
            className={styles.secondary}
            onClick={() => setAttempt((n) => n + 1)}
          >
            {texts.retry}
          </button>
        </div>
      ) : null}
      {status.kind === 'done' ? (
        <>
          <p className={styles.summary} aria-hidden="true">
            {summary}
          </p>
          {status.found.offline ? <p className={styles.note}>{texts.offlineResults}</p> : null}
          {scope !== language && count > 0 ? (
            <p className={styles.note}>{texts.otherLanguageResults}</p>
          ) : null}
          {status.pages.length > 0 ? (
            <ol
              ref={list}
              className={styles.results}
              lang={scope === language ? undefined : scope}
              onKeyDown={onListKey}
            >
              {status.pages.map((found, index) => (
                <Result
                  key={`${found.page.url}-${found.hit.block}`}
                  found={found}
                  terms={terms}
                  id={`${id}-r${index}`}
                  onFollow={onFollow}
                />
              ))}
            </ol>
          ) : null}
          {status.pages.length < count ? (
            <button type="button" className={styles.secondary} onClick={showMore}>
              {texts.showMore}
            </button>
          ) : null}
        </>
      ) : null}
      {query.trim() ? (
        <button
          type="button"
          className={styles.switch}
          onClick={() => setScope(scope === language ? other : language)}
        >
          {switchLabel}
        </button>
      ) : null}
    </dialog>
  )
}

let mounted: { root: Root; container: HTMLElement } | undefined
let lastQuery = ''

export interface OpenSearchOptions {
  language: Language
  texts: SearchTexts
  /** Gets focus back when the dialog closes (not after following a result). */
  opener: HTMLElement | null
}

/** Opens the search dialog, with the last query, if any, selected. */
export function openSearch({ language, texts, opener }: OpenSearchOptions): void {
  if (!mounted) {
    const container = document.createElement('div')
    container.setAttribute('data-search-root', '')
    document.body.append(container)
    mounted = { root: createRoot(container), container }
  }
  const { root } = mounted
  const onClose = (returnFocus: boolean) => {
    root.render(null)
    if (returnFocus) opener?.focus()
  }
  root.render(
    <SearchDialog
      key={Date.now()}
      language={language}
      texts={texts}
      initialQuery={lastQuery}
      onQuery={(query) => {
        lastQuery = query
      }}
      onClose={onClose}
    />,
  )
}
