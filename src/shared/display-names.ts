/**
 * Names of currencies and languages in a site language, from the Intl data of whoever renders:
 * the build and the browser name them alike, as they format numbers and dates alike, so page
 * data carries codes only.
 */
import { type Language, LOCALE_DATA } from './languages'

type Kind = 'currency' | 'language'
const namers = new Map<string, Intl.DisplayNames | null>()

function displayName(kind: Kind, code: string, language: Language): string {
  const key = `${kind}|${language}`
  let namer = namers.get(key)
  if (namer === undefined) {
    try {
      namer = new Intl.DisplayNames(LOCALE_DATA[language].intl, { type: kind })
    } catch {
      namer = null
    }
    namers.set(key, namer)
  }
  try {
    return namer?.of(code) ?? code
  } catch {
    return code
  }
}

/** "US Dollar" / "US-Dollar" for USD; the code itself where Intl has no name for it. */
export const currencyName = (code: string, language: Language) =>
  displayName('currency', code, language)

/** "German" / "Deutsch" for de; the code itself where Intl has no name for it. */
export const languageName = (code: string, language: Language) =>
  displayName('language', code, language)
