import { dateFormat } from '../shared/intl-formats'
import { LOCALE_DATA, type Locale } from '../shared/languages'

/** Formatting of interface strings and dates, per language, with Intl only. */

/** Fills `{name}` placeholders: fill('Page {page} of {pages}', { page: 2, pages: 3 }). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => String(values[name] ?? match))
}

/** A calendar date (YYYY-MM-DD) in the locale's long form; the same on server and browser. */
export function formatDate(iso: string, locale: string): string {
  const intl = LOCALE_DATA[locale as Locale]?.intl ?? LOCALE_DATA.en.intl
  return dateFormat(intl, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`))
}

const LANGUAGE_NAMES: Record<string, Record<string, string>> = {
  en: { en: 'English', de: 'German', fr: 'French', it: 'Italian', es: 'Spanish' },
  de: { en: 'Englisch', de: 'Deutsch', fr: 'Französisch', it: 'Italienisch', es: 'Spanisch' },
}

/** The name of a language code in the interface language. */
export function languageName(code: string, language: string): string {
  return LANGUAGE_NAMES[language]?.[code] ?? code
}
