/**
 * Text the database cannot store. PostgreSQL refuses a NUL character (U+0000) in `text` and
 * `jsonb`, and a UTF-16 surrogate without its pair in `jsonb` (`JSON.parse` makes one from
 * `"\ud800"`). Sent in a request, such text used to reach a query and fail it: a 500, and no
 * trace in the trail. The service refuses it before any query, naming the field, and the trail
 * keeps whatever it records in a form the database takes.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what the expression is for.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g')

/** The character's code as Unicode writes it: `U+0000`. */
const codeOf = (character: string) =>
  `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`

const kindOf = (character: string): UnstorableText['what'] =>
  character === '\u0000' ? 'nul' : { surrogate: codeOf(character) }

export interface UnstorableText {
  /** Where it is: `params.note.content`, `params.dataFiles.0.path`, `name`. */
  field: string
  /** What it is: a NUL character, or an unpaired surrogate and its code. */
  what: 'nul' | { surrogate: string }
}

/**
 * The first text in `value` (a parsed JSON body, a query, route parameters) that the database
 * cannot store, with where it is; keys count as text too. `undefined` when there is none.
 */
export function findUnstorable(value: unknown, field = ''): UnstorableText | undefined {
  const at = (key: string) => (field ? `${field}.${key}` : key)
  if (typeof value === 'string') {
    const found = UNSTORABLE.exec(value)
    return found ? { field: field || 'the request', what: kindOf(found[0]) } : undefined
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnstorable(value[index], at(String(index)))
      if (found) return found
    }
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  for (const [key, child] of Object.entries(value)) {
    const name = UNSTORABLE.exec(key)
    if (name) return { field: at(storableText(key)), what: kindOf(name[0]) }
    const found = findUnstorable(child, at(key))
    if (found) return found
  }
  return undefined
}

/** The refusal a person reads: what and where, in their language. */
export function unstorableMessage(found: UnstorableText, language: 'en' | 'de' = 'en'): string {
  const { field, what } = found
  if (language === 'de') {
    const character =
      what === 'nul'
        ? 'ein NUL-Zeichen (U+0000)'
        : `ein Ersatzzeichen ohne sein Gegenstück (${what.surrogate})`
    return `${field} enthält ${character}, das nicht gespeichert werden kann: Entfernen Sie es. Nichts wurde geändert.`
  }
  const character =
    what === 'nul' ? 'a NUL character (U+0000)' : `an unpaired surrogate (${what.surrogate})`
  return `${field} holds ${character}, which cannot be stored: remove it. Nothing was changed.`
}

/** `text` with every character the database refuses shown as its code (`\u0000`) instead. */
export function storableText(text: string): string {
  return text.replace(
    UNSTORABLE_ALL,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}

/** `value` with every text in it (keys too) made storable: what the trail writes. */
export function storableValue<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T
  if (Array.isArray(value)) return value.map(storableValue) as T
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [storableText(key), storableValue(child)]),
  ) as T
}
