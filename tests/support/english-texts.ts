/**
 * The English sentences of the publishing service's screens that German has in its own words:
 * a German screen showing one of them shows English (a text left untranslated, or a screen that
 * picked the wrong table). Texts German uses too (Editor, CSV) are not counted, nor words too
 * short to tell a language by.
 */
import { PHRASES, WORKFLOW_WORDS } from '../../src/publishing/editor/browser/locale'
import { REVIEW_TEXTS } from '../../src/publishing/pages/review'
import {
  AUDIT_TEXTS,
  BAR_TEXTS,
  MANAGE_TEXTS,
  OWN_SIGN_IN_TEXTS,
  PAGE_TEXTS,
} from '../../src/publishing/pages/texts'

type Table = { en: unknown; de: unknown }

/** Every table of the publishing service's screens' texts, by language. */
export const SCREEN_TABLES: readonly Table[] = [
  PAGE_TEXTS,
  MANAGE_TEXTS,
  BAR_TEXTS,
  AUDIT_TEXTS,
  OWN_SIGN_IN_TEXTS,
  REVIEW_TEXTS,
]

function pairs(en: unknown, de: unknown, found: string[], german: string[]): void {
  if (typeof en === 'string') {
    const words = en.split('%{')[0] ?? ''
    if (en !== de && words.trim().length >= 6) found.push(words.trim())
    if (typeof de === 'string') german.push(de)
    return
  }
  if (typeof en === 'function' && typeof de === 'function') {
    // A sentence made from values: its English words with sample values.
    const sample = (en as (...args: unknown[]) => unknown)('X', 'Y', 'Z')
    const other = (de as (...args: unknown[]) => unknown)('X', 'Y', 'Z')
    pairs(sample, other, found, german)
    return
  }
  if (en && typeof en === 'object') {
    for (const [key, value] of Object.entries(en)) {
      pairs(value, (de as Record<string, unknown> | undefined)?.[key], found, german)
    }
  }
}

/** The editor's words of our own over Decap's (its locale's phrases, its workflow's names). */
export const EDITOR_TABLES: readonly Table[] = [PHRASES, WORKFLOW_WORDS]

/**
 * The English of `tables` (the screens' by default) that German says otherwise. A phrase with
 * values (`%{details}`) counts by its words before the first value.
 */
export function englishTexts(tables: readonly Table[] = SCREEN_TABLES): string[] {
  const found: string[] = []
  const german: string[] = []
  for (const table of tables) {
    pairs(table.en, table.de, found, german)
  }
  // A word German uses too (Editor) is no sign of English; nor a language's own name.
  const all = german.join('\n')
  return [...new Set(found)].filter((text) => !all.includes(text) && text !== 'Deutsch')
}
