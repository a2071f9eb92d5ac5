/**
 * A currency's name in a language, from the Intl data of whoever renders: the build and the
 * browser name currencies alike, as they format numbers and dates alike, so the page data
 * carries the codes only (32 names are about 0.5 KB gzip of every rate page's data).
 */
import { type Language, LOCALE_DATA } from '../languages'

const namers = new Map<Language, Intl.DisplayNames | null>()

/** "US Dollar" / "US-Dollar" for USD; the code itself where Intl has no name for it. */
export function currencyName(code: string, language: Language): string {
  let namer = namers.get(language)
  if (namer === undefined) {
    try {
      namer = new Intl.DisplayNames(LOCALE_DATA[language].intl, { type: 'currency' })
    } catch {
      namer = null
    }
    namers.set(language, namer)
  }
  try {
    return namer?.of(code) ?? code
  } catch {
    return code
  }
}
