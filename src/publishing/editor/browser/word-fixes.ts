/**
 * Words Decap writes outside its locale, put right on the page as they appear:
 * - a failed upload or deletion of an image begins "Failed to persist media:" or "Failed to
 *   delete media:" in every language (Decap writes those two messages itself); the service's
 *   sentence after it stays;
 * - a list's name is written in lower case before "hinzufügen" and after its number of items
 *   ("3 abschnitte"): right in English, wrong for German nouns, so in German the names of the
 *   configuration's lists get their own spelling back ("3 Abschnitte", "Abschnitt hinzufügen").
 * Only whole texts that begin so, or that are such a name, are changed; React writes a text
 * anew when its value changes, and the observer puts it right again.
 */

type Language = 'en' | 'de'

/** Decap's own English beginnings of a failed image's message, and ours. */
const MEDIA_PREFIXES: Record<Language, [string, string][]> = {
  en: [
    ['Failed to persist media: ', 'Image not uploaded: '],
    ['Failed to delete media: ', 'Image not deleted: '],
  ],
  de: [
    ['Failed to persist media: ', 'Bild nicht hochgeladen: '],
    ['Failed to delete media: ', 'Bild nicht gelöscht: '],
  ],
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The names of the configuration's lists and their items, by how Decap writes them. */
export function listNames(config: unknown): Map<string, string> {
  const names = new Map<string, string>()
  const walk = (fields: unknown) => {
    if (!Array.isArray(fields)) return
    for (const field of fields.filter(isRecord)) {
      if (field.widget === 'list') {
        for (const name of [field.label, field.label_singular]) {
          if (typeof name === 'string' && name.toLowerCase() !== name) {
            names.set(name.toLowerCase(), name)
          }
        }
      }
      walk(field.fields)
      walk(field.types)
      if (isRecord(field.field)) walk([field.field])
    }
  }
  const collections =
    isRecord(config) && Array.isArray(config.collections) ? config.collections : []
  for (const collection of collections.filter(isRecord)) {
    walk(collection.fields)
    if (Array.isArray(collection.files)) {
      for (const file of collection.files.filter(isRecord)) walk(file.fields)
    }
  }
  return names
}

/** A text as it should read, or undefined if it reads right already. */
export function fixedText(
  text: string,
  language: Language,
  names: ReadonlyMap<string, string>,
): string | undefined {
  for (const [decap, ours] of MEDIA_PREFIXES[language]) {
    if (text.startsWith(decap)) return ours + text.slice(decap.length)
  }
  if (language !== 'de') return undefined
  const counted = /^(\d+) (.+)$/.exec(text)
  const countedName = counted && names.get(counted[2] ?? '')
  if (counted && countedName) return `${counted[1]} ${countedName}`
  const added = /^(.+) hinzufügen$/.exec(text)
  const addedName = added && names.get(added[1] ?? '')
  return addedName ? `${addedName} hinzufügen` : undefined
}

/** Puts right every text below `doc`'s root now and whenever Decap writes one. */
export function startWordFixes(doc: Document, config: unknown, language: Language) {
  const names = listNames(config)
  const fix = (node: Node) => {
    if (node.nodeType !== Node.TEXT_NODE) return
    const fixed = fixedText(node.nodeValue ?? '', language, names)
    if (fixed !== undefined) node.nodeValue = fixed
  }
  const fixAll = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      fix(node)
      return
    }
    const walker = doc.createTreeWalker(node, NodeFilter.SHOW_TEXT)
    for (let text = walker.nextNode(); text; text = walker.nextNode()) fix(text)
  }
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'characterData') fix(record.target)
      else for (const added of record.addedNodes) fixAll(added)
    }
  })
  observer.observe(doc.documentElement, { childList: true, subtree: true, characterData: true })
  fixAll(doc.documentElement)
  return observer
}
