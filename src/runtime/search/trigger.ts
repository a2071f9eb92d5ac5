/**
 * Opens the site search: the header's button, `/` and Ctrl+K (⌘K) anywhere but in a text
 * field. The dialog's code and the language's index load when the visitor reaches for the
 * button (pointer or focus), or at the latest when it opens: nothing before.
 */
import type { Language } from '../../shared/languages'
import type { SearchTexts } from '../../shared/types'
import { isSearchShortcut, isTyping } from './keys'

export { isSearchShortcut }

export interface SearchContext {
  /** The interface language now. */
  language(): Language
  texts(): SearchTexts | undefined
}

const BUTTON = '[data-search-open]'

export function startSearchTrigger(context: SearchContext): void {
  let dialog: Promise<typeof import('../../site/components/search/dialog')> | undefined
  const load = () => {
    dialog ??= import('../../site/components/search/dialog')
    dialog.catch(() => {
      dialog = undefined
    })
    return dialog
  }
  const prefetch = () => {
    load().then(
      (module) => module.prefetchIndex(context.language()),
      () => {},
    )
  }
  const open = (opener: HTMLElement | null) => {
    const texts = context.texts()
    if (!texts) return
    load().then(
      (module) => module.openSearch({ language: context.language(), texts, opener }),
      (error: unknown) => console.error(error),
    )
  }

  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.(BUTTON)
    if (!(button instanceof HTMLElement)) return
    event.preventDefault()
    open(button)
  })
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || isTyping(event.target) || !isSearchShortcut(event)) return
    if (document.querySelector('dialog[open]')) return
    event.preventDefault()
    // Focus returns where it was; from nowhere in particular, to the button.
    const active = document.activeElement
    const from = active instanceof HTMLElement && active !== document.body ? active : null
    open(from ?? document.querySelector<HTMLElement>(BUTTON))
  })
  const reach = (event: Event) => {
    if ((event.target as Element | null)?.closest?.(BUTTON)) prefetch()
  }
  document.addEventListener('pointerover', reach, { passive: true })
  document.addEventListener('focusin', reach)
}
