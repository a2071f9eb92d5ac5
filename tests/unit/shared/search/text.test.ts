import { describe, expect, it } from 'vitest'
import { isStopWord, normalizeWord, stem, terms, words } from '../../../../src/shared/search/text'

describe('search terms', () => {
  it('fold case, accents, umlauts and ß, so a visitor may type without them', () => {
    expect(normalizeWord('Kontoauszüge')).toBe('kontoauszuge')
    expect(normalizeWord('Straße')).toBe('strasse')
    expect(normalizeWord('Información')).toBe('informacion')
    expect(normalizeWord('IBAN')).toBe('iban')
  })

  it('split text at everything but letters and digits, keeping where each word stands', () => {
    const text = 'Call 116 116 – or block your card.'
    expect(words(text).map((word) => word.term)).toEqual([
      'call',
      '116',
      '116',
      'or',
      'block',
      'your',
      'card',
    ])
    const card = words(text).at(-1)
    expect(text.slice(card?.start, card?.end)).toBe('card')
  })

  it('leave out the words of a question that tell no pages apart', () => {
    expect(terms('How do I block my card?', 'en')).toEqual(['block', 'card'])
    expect(terms('Wie sperre ich meine Karte?', 'de')).toEqual(['sperre', 'karte'])
    expect(terms('Was kostet eine Überweisung für mich?', 'de')).toEqual(['kostet', 'uberweisung'])
    expect(isStopWord('für', 'de')).toBe(false) // terms are folded first
    expect(isStopWord('fur', 'de')).toBe(true)
  })

  it.each([
    ['en', 'cards', 'card'],
    ['en', 'blocking', 'block'],
    ['en', 'blocked', 'block'],
    ['en', 'companies', 'compan'],
    ['en', 'transferred', 'transfer'],
    ['en', 'taxes', 'tax'],
    ['en', 'business', 'business'],
    ['en', 'iban', 'iban'],
    ['de', 'karten', 'kart'],
    ['de', 'karte', 'kart'],
    ['de', 'sperren', 'sperr'],
    ['de', 'gesperrt', 'sperr'],
    ['de', 'kontoauszuge', 'kontoauszug'],
    ['de', 'uberweisungen', 'uberweisung'],
    ['de', 'iban', 'iban'],
    ['de', 'zinsen', 'zins'],
    ['de', '116', '116'],
  ] as const)('stem %s "%s" to "%s"', (language, term, expected) => {
    expect(stem(term, language)).toBe(expected)
  })
})
