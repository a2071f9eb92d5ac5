/**
 * The visitor's choice of the blog posts' language, kept in `localStorage` for every list and
 * later visits, and shared by every list on the page (and other tabs).
 */
import { useSyncExternalStore } from 'react'
import { isLanguage } from '../../../shared/languages'
import type { PostLanguageChoice } from './shown'

const STORAGE_KEY = 'blog-post-language'
const listeners = new Set<() => void>()
/** The choice made on this page: it holds even where storage refuses it (private modes). */
let chosen: PostLanguageChoice | undefined

function storedChoice(): PostLanguageChoice {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY)
    return isLanguage(stored) ? stored : 'all'
  } catch {
    return 'all'
  }
}

export function storeChoice(choice: PostLanguageChoice): void {
  chosen = choice
  try {
    if (choice === 'all') window.localStorage.removeItem(STORAGE_KEY)
    else window.localStorage.setItem(STORAGE_KEY, choice)
  } catch {
    // Not kept for the next visit; this page still follows the choice.
  }
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  // A choice made in another tab.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_KEY) return
    chosen = undefined
    listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

/** The choice; "every language" while the build renders and while the page hydrates. */
export function usePostLanguageChoice(): PostLanguageChoice {
  return useSyncExternalStore(
    subscribe,
    () => chosen ?? storedChoice(),
    () => 'all',
  )
}
