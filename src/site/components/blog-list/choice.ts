/**
 * The visitor's choice of the blog posts' language, kept in `localStorage` for every list and
 * later visits, and shared by every list on the page (and other tabs).
 */
import { useSyncExternalStore } from 'react'
import { isLanguage } from '../../../shared/languages'
import type { PostLanguageChoice } from './shown'

const STORAGE_KEY = 'blog-post-language'
const listeners = new Set<() => void>()
/** The choice where storage is refused (private modes): kept until the page is left. */
let fallback: PostLanguageChoice | undefined

function readChoice(): PostLanguageChoice {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY)
    return isLanguage(stored) ? stored : 'all'
  } catch {
    return 'all'
  }
}

export function storeChoice(choice: PostLanguageChoice): void {
  try {
    if (choice === 'all') window.localStorage.removeItem(STORAGE_KEY)
    else window.localStorage.setItem(STORAGE_KEY, choice)
  } catch {
    fallback = choice
  }
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener()
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
    () => fallback ?? readChoice(),
    () => 'all',
  )
}
