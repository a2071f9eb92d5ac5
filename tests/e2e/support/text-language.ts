/**
 * Which language a piece of text is in, told by its function words: the short words (articles,
 * prepositions, pronouns) every sentence has and no two of these five languages share. Only
 * words that belong to one language count, so "la" (Spanish, French, Italian) or "die" (German,
 * English) say nothing; proper names and quoted terms rarely reach the threshold.
 */
const FUNCTION_WORDS: Record<string, readonly string[]> = {
  en: (
    'the and of to is are with for your you this that these those from which be by it its we ' +
    'our can have has not at if when what how who they their there any more about after ' +
    'before into than then only must should would could each'
  ).split(' '),
  de: (
    'der das und ist sind mit für ihr ihre ihren ihrem ihrer sie wir nicht auf bei von zu zum ' +
    'zur den dem ein eine einen einem einer oder auch wird werden können kann wenn nach über ' +
    'unter sich im vom als wie noch nur dass haben hat durch uns unser unsere diese dieser ' +
    'dieses'
  ).split(' '),
  es: (
    'el los las y para por sus está están puede usted como más es sobre también cuando pero ' +
    'este esta estos sin muy hay desde nuestro nuestra nuestros ante'
  ).split(' '),
  fr: (
    'les des et est pour avec vous votre vos une au aux sur dans pas ce cette ces sont ou ' +
    'nous leur leurs mais être été par aussi selon chez très dont où'
  ).split(' '),
  it: (
    'gli della delle dei degli è di che sono nel nella nei alla sul sulla suo sua suoi può ' +
    'dal dalla anche questo questa ai agli più essere molto vostro vostra loro hanno cui'
  ).split(' '),
}

const LANGUAGE_OF_WORD = new Map<string, string>()
for (const [language, words] of Object.entries(FUNCTION_WORDS)) {
  for (const word of words) {
    if (LANGUAGE_OF_WORD.has(word)) throw new Error(`"${word}" is listed for two languages`)
    LANGUAGE_OF_WORD.set(word, language)
  }
}

/** At least this many function words of one language… */
const MIN_HITS = 3
/** …and this many times as many as of any other, or the text's language is left open. */
const MIN_LEAD = 3

/** The language `text` is written in, or undefined when it is too short or mixed to tell. */
export function textLanguage(text: string): string | undefined {
  const counts = new Map<string, number>()
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    const language = LANGUAGE_OF_WORD.get(word)
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1)
  }
  const [first, second] = [...counts].sort((a, b) => b[1] - a[1])
  if (!first || first[1] < MIN_HITS) return undefined
  if (second && first[1] < second[1] * MIN_LEAD) return undefined
  return first[0]
}

/** A language's name in itself, as a language switcher or a document list shows it. */
export const ENDONYMS: Record<string, string> = {
  English: 'en',
  Deutsch: 'de',
  Español: 'es',
  Français: 'fr',
  Italiano: 'it',
}
