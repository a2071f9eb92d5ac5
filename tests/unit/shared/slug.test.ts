import { describe, expect, it } from 'vitest'
import { slugify, uniqueSlugs } from '../../../src/shared/slug'

describe('slugify', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['Über uns', 'ueber-uns'],
    ['Größe ÄÖÜ', 'groesse-aeoeue'],
    ['Straße & Gebühren', 'strasse-and-gebuehren'],
    ['Q&A', 'q-and-a'],
    ['Crème brûlée', 'creme-brulee'],
    ['Ça va, São Paulo!', 'ca-va-sao-paulo'],
    ['Año nuevo', 'ano-nuevo'],
    ['Łódź', 'lodz'],
    ['  --Leading and trailing--  ', 'leading-and-trailing'],
    ['Multiple   spaces', 'multiple-spaces'],
    ['a -- b', 'a-b'],
    ["What's new?", 'whats-new'],
    ['100% sicher', '100-sicher'],
    ['snake_case stays', 'snake_case-stays'],
    ['Tab\tand\nnewline', 'tab-and-newline'],
    ['ALL CAPS', 'all-caps'],
    ['!!!', ''],
    ['', ''],
  ])('%j becomes %j', (input, expected) => {
    expect(slugify(input)).toBe(expected)
  })
})

describe('unique slugs', () => {
  it('number the repeats of a text, the first left as it is', () => {
    expect(
      uniqueSlugs(['Is my money safe?', 'How long?', 'Is my money safe?', 'Is my money safe!']),
    ).toEqual(['is-my-money-safe', 'how-long', 'is-my-money-safe-2', 'is-my-money-safe-3'])
  })

  it('give a text without letters a name still', () => {
    expect(uniqueSlugs(['?', '!'])).toEqual(['item', 'item-2'])
  })
})
