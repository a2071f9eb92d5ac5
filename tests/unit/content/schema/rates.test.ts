/**
 * The words of the exchange-rate pages (`exchange-rates/texts.yaml`): every text in English and
 * German, the card networks named by their rate files, and the placeholders each text may
 * hold. The store's own file is checked against the schema's hints here, in both languages.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { z } from 'zod'
import type { ContentProblem } from '../../../../src/content/errors'
import { editorMeta } from '../../../../src/content/schema/editor'
import { ratesTexts } from '../../../../src/content/schema/rates'
import { validateDocument } from '../../../../src/content/validate-document'
import { CARD_TEXT_KEYS, ECB_TEXT_KEYS } from '../../../../src/shared/rates/types'

const ROOT = join(import.meta.dirname, '../../../..')
const stored = parse(
  await readFile(join(ROOT, 'content/exchange-rates/texts.yaml'), 'utf8'),
) as z.input<typeof ratesTexts>

function problems(data: unknown): string[] {
  const found: ContentProblem[] = []
  validateDocument(ratesTexts, { file: 'exchange-rates/texts.yaml', data }, found)
  return found.map((problem) => `${problem.field}: ${problem.message}`)
}

const fields = ratesTexts.shape.en.shape
type Key = keyof typeof fields
const KEYS = Object.keys(fields) as Key[]
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]))].sort()

describe('the words of the exchange-rate pages', () => {
  it('accept the content store’s file', () => {
    expect(problems(stored)).toEqual([])
  })

  it('are what the two sections use, no more and no fewer', () => {
    expect(new Set([...ECB_TEXT_KEYS, ...CARD_TEXT_KEYS])).toEqual(new Set(KEYS))
  })

  it('are each needed in English and in German, a missing one named by language and key', () => {
    for (const language of ['en', 'de'] as const) {
      for (const key of KEYS) {
        const { [key]: _, ...rest } = stored[language]
        const found = problems({ ...stored, [language]: rest })
        expect(found, `${language}.${key}`).toHaveLength(1)
        expect(found[0], `${language}.${key}`).toMatch(
          new RegExp(`^${language}\\.${key}: .+ as text$`),
        )
      }
    }
  })

  it('name the field of a missing or empty text and of a whole language missing', () => {
    const { retry: _, ...german } = stored.de
    expect(problems({ ...stored, de: { ...german, reload: ' ' } })).toEqual([
      'de.retry: expected the button that tries loading again as text',
      'de.reload: expected the button that reloads the page, found an empty text',
    ])
    expect(problems({ networks: stored.networks, en: stored.en })).toHaveLength(1)
    expect(problems({ networks: stored.networks, en: stored.en })[0]).toMatch(/^de: /)
  })

  it('have no third language and no word the pages do not use', () => {
    expect(problems({ ...stored, fr: stored.en })).toEqual([
      ': unknown field "fr": expected only the fields of this content type',
    ])
    expect(problems({ ...stored, en: { ...stored.en, total: 'Total' } })).toEqual([
      'en: unknown field "total": expected only the fields of this content type',
    ])
  })

  it('keep column names short', () => {
    expect(problems({ ...stored, de: { ...stored.de, currency: 'W'.repeat(41) } })).toEqual([
      'de.currency: expected the column "Currency" of at most 40 characters',
    ])
  })
})

describe('the card networks', () => {
  it('are named by their rate file and by their name', () => {
    expect(ratesTexts.parse(stored).networks).toEqual([{ file: 'mastercard', name: 'Mastercard' }])
    expect(
      problems({ ...stored, networks: [{ file: 'MasterCard.csv', name: '' }, { name: 'Visa' }] }),
    ).toEqual([
      "networks.0.file: expected the name of the network's rate file in exchange-rates/ (mastercard) in lowercase letters, digits and hyphens",
      "networks.0.name: expected the card network's name, found an empty text",
      "networks.1.file: expected the name of the network's rate file in exchange-rates/ (mastercard) as text",
    ])
  })

  it('may be none (a site with the ECB table only), but the list must be there', () => {
    expect(problems({ ...stored, networks: [] })).toEqual([])
    const { networks: _, ...withoutNetworks } = stored
    expect(problems(withoutNetworks).map((problem) => problem.split(':')[0])).toEqual(['networks'])
  })
})

describe('the placeholders of the stored texts', () => {
  it.each(KEYS)('of %s are the same in both languages, and named in the field’s hint', (key) => {
    const hint = editorMeta.get(fields[key])?.hint ?? ''
    const english = placeholders(stored.en[key])
    expect(placeholders(stored.de[key])).toEqual(english)
    for (const name of english) expect(placeholders(hint)).toContain(name)
  })
})
