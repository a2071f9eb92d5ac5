/**
 * The interface language of pages without their own (`/blog/`): the visitor's stored choice,
 * else the browser's (docs/routes.md, "Languages"), applied in the browser without any redirect.
 */
import { LANGUAGE_STORAGE_KEY } from '../../shared/constants'
import { detectLanguage, isLanguage, type Language } from '../../shared/languages'

export function storedLanguage(): string | null {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY)
  } catch {
    return null
  }
}

export function storeLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language)
  } catch {
    // Without storage the choice holds for this page only.
  }
}

export function browserLanguages(): readonly string[] {
  return navigator.languages?.length ? navigator.languages : [navigator.language]
}

export function interfaceLanguage(): Language {
  return detectLanguage(storedLanguage(), browserLanguages())
}

/** Stores the language whenever the visitor follows the language switcher. */
export function rememberLanguageSwitches(): void {
  document.addEventListener('click', (event) => {
    const target =
      event.target instanceof Element ? event.target.closest('[data-language-switch]') : null
    const language = target?.getAttribute('data-language-switch')
    if (isLanguage(language)) storeLanguage(language)
  })
}
