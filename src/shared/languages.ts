/** The site's languages as data, with the helpers every other module derives from them. */

export const LANGUAGES = ['en', 'de'] as const
export type Language = (typeof LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en'

/**
 * Locale data registered without routes (docs/routes.md, "Languages"): known to formatting code,
 * never a URL prefix. `kde` is Makonde (Chimakonde), which Intl's CLDR data covers.
 */
export const EXTRA_LOCALES = ['kde'] as const

export type Locale = Language | (typeof EXTRA_LOCALES)[number]

export interface LocaleData {
  /** BCP 47 tag for Intl. */
  intl: string
  /** The locale's name in itself. */
  nativeName: string
  direction: 'ltr' | 'rtl'
  /** True where the site has pages under `/{locale}/`. */
  routed: boolean
}

/** Every registered locale: the routed languages and the extra locales. */
export const LOCALE_DATA: Record<Locale, LocaleData> = {
  en: { intl: 'en-GB', nativeName: 'English', direction: 'ltr', routed: true },
  de: { intl: 'de-DE', nativeName: 'Deutsch', direction: 'ltr', routed: true },
  kde: { intl: 'kde', nativeName: 'Chimakonde', direction: 'ltr', routed: false },
}

/**
 * Languages a text on this site may be written in: the site's own and those of its customers
 * abroad (customer information, pages for customers in France, Italy and Spain).
 */
export const TEXT_LANGUAGES = ['en', 'de', 'fr', 'it', 'es'] as const

/** Paths the language plugin leaves alone: pages there carry no language prefix. */
export const IGNORED_PATHS = ['/blog/**'] as const

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/** The language prefix of a path (`/de/about/` gives `de`), or undefined when it has none. */
export function languageOfPath(path: string): Language | undefined {
  const first = path.split('/')[1]
  return isLanguage(first) ? first : undefined
}

/** The path without its language prefix: `/de/about/` gives `/about/`. */
export function stripLanguage(path: string): string {
  const language = languageOfPath(path)
  if (!language) return path
  const rest = path.slice(language.length + 1)
  return rest === '' ? '/' : rest
}

/** The path under a language prefix: (`/about/`, `de`) gives `/de/about/`. */
export function localizePath(originalPath: string, language: Language): string {
  return `/${language}${originalPath.startsWith('/') ? originalPath : `/${originalPath}`}`
}

/** True where the language plugin ignores the path (`/blog/**`). */
export function isIgnoredPath(path: string): boolean {
  return IGNORED_PATHS.some((pattern) => {
    const base = pattern.replace(/\*\*$/, '')
    return path === base.replace(/\/$/, '') || path.startsWith(base)
  })
}

/**
 * A language from the visitor's browser: the first of `navigator.languages` we offer,
 * matched by primary subtag (`de-AT` gives `de`), else the default.
 */
export function languageFromBrowser(preferences: readonly string[]): Language {
  for (const preference of preferences) {
    const primary = preference.toLowerCase().split('-')[0]
    if (isLanguage(primary)) return primary
  }
  return DEFAULT_LANGUAGE
}

/** The interface language of a page without its own: the stored choice, else the browser's. */
export function detectLanguage(
  stored: string | null | undefined,
  preferences: readonly string[],
): Language {
  return isLanguage(stored) ? stored : languageFromBrowser(preferences)
}

/**
 * The language an entry's text is written in where it may differ from the page's interface:
 * a page for customers abroad (`contentLanguage`), customer information in the contract's
 * language. Undefined where the text is in the interface's language.
 */
export function textLanguageOf(
  content: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const language = content?.contentLanguage ?? content?.contractLanguage
  return typeof language === 'string' ? language : undefined
}

/** `lang` for text in `text` language on a page in `page` language: only where they differ. */
export function langWhereDifferent(text: string | undefined, page: string): string | undefined {
  return text && text !== page ? text : undefined
}
