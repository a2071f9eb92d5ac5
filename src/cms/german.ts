/**
 * Decap's fields in German, for an editor whose language is German: the fields are generated
 * once, in English, from the schemas (./fields.ts), and this puts each of their words into
 * German — labels (./field-labels.ts, which the review screen uses too), hints
 * (./german-hints.ts), the items of lists, the types of sections, the choices of selects and
 * the message of a length limit. Names, values and patterns stay as they are: the content
 * saved is the same whatever language the editor speaks.
 */
import {
  fieldLabel,
  GERMAN_ITEM_LABELS,
  type LabelLanguage,
  sectionTypeLabel,
} from './field-labels'
import type { CmsField } from './fields'
import { GERMAN_HINTS } from './german-hints'

export type { LabelLanguage }

/** The German names of the choices of select fields that are words, by their value. */
export const GERMAN_OPTION_LABELS: Readonly<Record<string, string>> = Object.freeze({
  // Languages (a page's or a contract's): named, with the code the content keeps.
  en: 'Englisch (en)',
  de: 'Deutsch (de)',
  fr: 'Französisch (fr)',
  it: 'Italienisch (it)',
  es: 'Spanisch (es)',
  // The style of a button
  primary: 'Hervorgehoben (primär)',
  secondary: 'Zurückhaltend (sekundär)',
  // The icons of features and cards
  account: 'Konto',
  card: 'Karte',
  loan: 'Kredit',
  identity: 'Identität',
  shield: 'Schutzschild',
  api: 'API',
  globe: 'Globus',
  chart: 'Diagramm',
  clock: 'Uhr',
  document: 'Dokument',
  support: 'Support',
  wallet: 'Geldbörse',
  // A job posting's employment type and the unit of its salary (schema.org's values)
  FULL_TIME: 'Vollzeit',
  PART_TIME: 'Teilzeit',
  CONTRACTOR: 'Freie Mitarbeit',
  TEMPORARY: 'Befristet',
  INTERN: 'Praktikum',
  YEAR: 'pro Jahr',
  MONTH: 'pro Monat',
  HOUR: 'pro Stunde',
})

/** The forms a generated hint takes (./fields.ts, the schemas' `text`, `markdown`, dates). */
const LENGTH_HINT = /^(.*); at most (\d+) characters\.$/s
const MARKDOWN_HINT =
  /^(.*), in Markdown; words in another language as \[mots\]\{lang=fr\}, a link as \[Accueil\]\(\/fr\/\)\{lang=fr\}\.$/s
const SENTENCE_HINT = /^(.*)\.$/s
/** A form's text is asked for in each language: "… in English", "… in German". */
const IN_LANGUAGE = /^(.*) in (English|German)$/s
/** Hints written in both languages by the schema: "English · Deutsch". */
const BILINGUAL = ' · '

const germanOf = (what: string): string | undefined =>
  Object.hasOwn(GERMAN_HINTS, what) ? GERMAN_HINTS[what] : undefined

/** The German of a field's description, or undefined while it has none. */
export function germanDescription(what: string): string | undefined {
  const own = germanOf(what)
  if (own !== undefined) return own
  const inLanguage = IN_LANGUAGE.exec(what)
  const base = inLanguage ? germanOf(inLanguage[1] ?? '') : undefined
  if (!inLanguage || base === undefined) return undefined
  return `${base} auf ${inLanguage[2] === 'English' ? 'Englisch' : 'Deutsch'}`
}

/**
 * A hint in German: a schema's own German where it wrote both languages, else the same
 * sentence with the German description. A hint of no known form, or one whose description
 * has no German yet, stays English (the unit tests name every such hint).
 */
export function germanHint(hint: string): string {
  const at = hint.lastIndexOf(BILINGUAL)
  if (at >= 0) return hint.slice(at + BILINGUAL.length)
  const length = LENGTH_HINT.exec(hint)
  if (length) {
    const what = germanDescription(length[1] ?? '')
    return what ? `${what}; höchstens ${length[2]} Zeichen.` : hint
  }
  const markdown = MARKDOWN_HINT.exec(hint)
  if (markdown) {
    const what = germanDescription(markdown[1] ?? '')
    return what
      ? `${what}, in Markdown; Wörter in einer anderen Sprache als [mots]{lang=fr}, ein Link als [Accueil](/fr/){lang=fr}.`
      : hint
  }
  const sentence = SENTENCE_HINT.exec(hint)
  const what = sentence && germanDescription(sentence[1] ?? '')
  return what ? `${what}.` : hint
}

/** The message of a length limit (`At most 120 characters`) in German. */
const germanPatternMessage = (message: string) =>
  message.replace(/^At most (\d+) characters$/, 'Höchstens $1 Zeichen')

const optionIn = (option: NonNullable<CmsField['options']>[number]) =>
  typeof option === 'string' && Object.hasOwn(GERMAN_OPTION_LABELS, option)
    ? { label: GERMAN_OPTION_LABELS[option] as string, value: option }
    : option

/** One item of a list, as Decap names it when it adds one or counts one. */
function itemLabel(list: CmsField): string | undefined {
  if (list.field) return fieldLabel(list.field.name, 'de')
  return Object.hasOwn(GERMAN_ITEM_LABELS, list.name) ? GERMAN_ITEM_LABELS[list.name] : undefined
}

function germanField(field: CmsField): CmsField {
  const german: CmsField = { ...field, label: fieldLabel(field.name, 'de') }
  if (field.hint) german.hint = germanHint(field.hint)
  if (field.pattern) german.pattern = [field.pattern[0], germanPatternMessage(field.pattern[1])]
  if (field.options) german.options = field.options.map(optionIn)
  if (field.fields) german.fields = germanFields(field.fields)
  if (field.field) german.field = germanField(field.field)
  if (field.types) {
    german.types = field.types.map((type) => ({
      ...germanField(type),
      label: sectionTypeLabel(type.name, 'de'),
    }))
  }
  if (field.widget === 'list') {
    const item = itemLabel(field)
    if (item) german.label_singular = item
  }
  return german
}

/** Generated fields with every word in German (names, values and patterns kept). */
export function germanFields(fields: readonly CmsField[]): CmsField[] {
  return fields.map(germanField)
}
