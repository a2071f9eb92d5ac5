/**
 * The words of the site search: how text becomes terms, the same at build time (the index)
 * and in the browser (the query, the highlighting), so both sides always agree.
 *
 * Terms are lowercase with accents and umlauts folded (`Kontoauszüge` → `kontoauszuge`, `ß`
 * → `ss`), so a visitor who types without them still finds the words. The index keeps whole
 * words; word forms are matched in the browser (`./query.ts`): a query word is reduced to its
 * stem by the light stemmers below and found inside the index's words, which also finds German
 * compounds (`Karte` finds `Karten` and `Kreditkarte`).
 */
import type { Language } from '../languages'

/** One word of a text, where it stands, and its term. */
export interface Word {
  term: string
  start: number
  end: number
}

/** Letters and digits: everything else separates words. */
const WORD = /[\p{L}\p{N}]+/gu

/** Folds a word to its term: lowercase, without accents, umlauts or `ß`. */
export function normalizeWord(word: string): string {
  const lower = word.toLowerCase()
  // Most words are plain ASCII: nothing to fold, and folding is most of the time spent.
  if (/^[a-z0-9]*$/.test(lower)) return lower
  return lower.replace(/ß/g, 'ss').normalize('NFKD').replace(/\p{M}/gu, '')
}

/** The words of a text with their places in it, for highlighting. */
export function words(text: string): Word[] {
  const found: Word[] = []
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0
    found.push({ term: normalizeWord(match[0]), start, end: start + match[0].length })
  }
  return found
}

/**
 * Words too common to tell pages apart ("how do I block my card" searches for "block" and
 * "card"), as terms; neither indexed nor searched for.
 */
const STOP_WORDS: Record<Language, ReadonlySet<string>> = {
  en: new Set(
    (
      'a about after again all also am an and any are as at be because been before being both ' +
      'but by can could did do does doing down each few for from further had has have having he ' +
      'her here hers him his how i if in into is it its itself just me more most my myself no ' +
      'nor not of off on once only or other our ours out over own same she should so some such ' +
      'than that the their theirs them then there these they this those through to too under ' +
      'until up very was we were what when where which while who whom why will with would you ' +
      'your yours yourself'
    ).split(' '),
  ),
  de: new Set(
    (
      'aber alle allem allen aller alles als also am an andere anderen auch auf aus bei bin bis ' +
      'bist da damit dann das dass dein deine deinem deinen deiner dem den denn der des dessen ' +
      'dich die dies diese diesem diesen dieser dieses dir doch dort du durch ein eine einem ' +
      'einen einer eines er es etwas euch euer eure fur gegen habe haben hat hatte hier ich ihm ' +
      'ihn ihnen ihr ihre ihrem ihren ihrer im in ist ja jede jedem jeden jeder jedes kann ' +
      'kein keine keinem keinen keiner man mein meine meinem meinen meiner mich mir mit muss ' +
      'nach nicht noch nun nur ob oder ohne sehr sein seine seinem seinen seiner sich sie sind ' +
      'so soll sollte um und uns unser unsere unter uber vom von vor war waren warum was weil ' +
      'welche welchem welchen welcher wenn wer werde werden wie wieso wir wird wo wurde zu zum zur'
    ).split(' '),
  ),
}

export function isStopWord(term: string, language: Language): boolean {
  return STOP_WORDS[language].has(term)
}

/** The terms of a text worth indexing or searching for: no stop words. */
export function terms(text: string, language: Language): string[] {
  // Folded as a whole (places in the text do not matter here): faster than word by word.
  const folded = normalizeWord(text)
  const found: string[] = []
  for (const match of folded.matchAll(WORD)) {
    if (!isStopWord(match[0], language)) found.push(match[0])
  }
  return found
}

/**
 * English: the plural and verb endings (`cards` → `card`, `blocking`, `blocked` → `block`,
 * `fees` → `fee`, `companies` → `compani`), nothing a prefix would not find anyway.
 */
function stemEnglish(term: string): string {
  if (term.length <= 3) return term
  let stem = term
  if (/ies$|ied$/.test(stem) && stem.length > 4) return stem.slice(0, -3)
  if (/(ss|us|is)$/.test(stem)) return stem
  if (/ing$/.test(stem) && stem.length > 5) stem = stem.slice(0, -3)
  else if (/ed$/.test(stem) && stem.length > 4) stem = stem.slice(0, -2)
  else if (/(sh|ch|x|z)es$/.test(stem)) stem = stem.slice(0, -2)
  else if (/s$/.test(stem)) stem = stem.slice(0, -1)
  // "transferred" → "transferr" → "transfer"
  if (stem !== term && /([bdfgmnprt])\1$/.test(stem)) stem = stem.slice(0, -1)
  return stem
}

/**
 * German, after CISTEM (Weissweiler and Fraser, 2017) in a light form: the endings of
 * declension and conjugation (`Karten`, `Karte` → `kart`, `gesperrt` → `sperr`); the
 * participle's `ge-` goes too, since the stem is then found inside the longer word.
 */
function stemGerman(term: string): string {
  let stem = term
  if (stem.length > 6 && stem.startsWith('ge')) stem = stem.slice(2)
  // Four letters stay at least: `IBAN` and `Zins` are stems already.
  while (stem.length > 4) {
    if (stem.length > 5 && /(em|er|nd)$/.test(stem)) stem = stem.slice(0, -2)
    else if (/[enst]$/.test(stem)) stem = stem.slice(0, -1)
    else break
  }
  return stem
}

/** The stem of a term, which the query finds in the index's words. */
export function stem(term: string, language: Language): string {
  if (/^\p{N}+$/u.test(term)) return term
  return language === 'de' ? stemGerman(term) : stemEnglish(term)
}
