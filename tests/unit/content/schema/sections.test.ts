/**
 * The sections editors combine into pages, each checked on its own and in a list: every type
 * the site has a component for is accepted in its smallest form, and each refusal names the
 * section and the field it is about.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { ContentProblem } from '../../../../src/content/errors'
import { ICONS, SECTION_TYPES, section, sections } from '../../../../src/content/schema/sections'
import { validateDocument } from '../../../../src/content/validate-document'

function problems(schema: z.ZodType, data: unknown): string[] {
  const found: ContentProblem[] = []
  validateDocument(schema, { file: 'x.yaml', data }, found)
  return found.map((problem) => `${problem.field}: ${problem.message}`)
}

const link = { label: 'Open an account', href: '/en/services/accounts/' }

/** The smallest valid section of each type. */
const SMALLEST: Record<(typeof SECTION_TYPES)[number], Record<string, unknown>> = {
  hero: { type: 'hero', heading: 'Banking for platforms' },
  richText: { type: 'richText', body: 'Some *text*.' },
  featureGrid: {
    type: 'featureGrid',
    heading: 'Why us',
    features: [
      { title: 'Fast', text: 'Live in weeks.' },
      { title: 'Licensed', text: 'A full banking licence.' },
    ],
  },
  cards: { type: 'cards', heading: 'Products', cards: [{ title: 'Cards', text: 'Debit cards.' }] },
  faq: { type: 'faq', heading: 'FAQ', items: [{ question: 'Why?', answer: 'Because.' }] },
  callToAction: { type: 'callToAction', heading: 'Talk to us', action: link },
  quote: { type: 'quote', quote: 'We build for partners.', author: 'Ada Example' },
  logoWall: { type: 'logoWall', heading: 'Partners', logos: [{ name: 'A' }, { name: 'B' }] },
  table: { type: 'table', caption: 'Fees', columns: ['Item'], rows: [['Card']] },
  downloadList: {
    type: 'downloadList',
    heading: 'Documents',
    items: [{ label: 'Terms', href: '/documents/terms.pdf' }],
  },
  form: { type: 'form', form: 'newsletter' },
  ecbRates: { type: 'ecbRates' },
  cardRates: { type: 'cardRates', network: 'mastercard' },
}

describe('the section types', () => {
  it('are exactly those SECTION_TYPES names (the CMS offers these)', () => {
    const inUnion = section.options.map((option) => option.shape.type.value)
    expect(inUnion).toEqual([...SECTION_TYPES])
  })

  it.each(SECTION_TYPES)('accept the smallest %s section', (type) => {
    expect(problems(section, SMALLEST[type])).toEqual([])
  })

  it('refuse an unknown or missing type, listing the types there are', () => {
    const expected = `expected a section with type ${SECTION_TYPES.join(', ')}`
    expect(problems(section, { type: 'video', src: '/x.mp4' })).toEqual([`type: ${expected}`])
    expect(problems(section, { heading: 'Untyped' })).toEqual([`type: ${expected}`])
  })

  it('refuse a field the section type does not have', () => {
    expect(problems(section, { ...SMALLEST.quote, image: '/images/x.png' })).toEqual([
      ': unknown field "image": expected only the fields of this content type',
    ])
  })
})

describe('a list of sections', () => {
  it('names the position of the section a problem is in', () => {
    expect(
      problems(sections, [SMALLEST.hero, { type: 'richText', body: ' ' }, SMALLEST.ecbRates]),
    ).toEqual(['1.body: expected the section text, found an empty text'])
  })

  it('may be empty', () => {
    expect(sections.parse([])).toEqual([])
  })
})

describe('hero', () => {
  it('offers at most two actions, primary unless said otherwise', () => {
    const hero = section.parse({
      ...SMALLEST.hero,
      actions: [link, { ...link, style: 'secondary' }],
    })
    expect(hero).toMatchObject({ actions: [{ style: 'primary' }, { style: 'secondary' }] })
    // These two refusals carry zod's own words; the field is named all the same.
    const fields = (data: unknown) => problems(section, data).map((p) => p.split(':')[0])
    expect(fields({ ...SMALLEST.hero, actions: [link, link, link] })).toEqual(['actions'])
    expect(fields({ ...SMALLEST.hero, actions: [{ ...link, style: 'ghost' }] })).toEqual([
      'actions.0.style',
    ])
  })

  it('limits the heading to 120 characters', () => {
    expect(problems(section, { ...SMALLEST.hero, heading: 'x'.repeat(121) })).toEqual([
      'heading: expected the hero heading of at most 120 characters',
    ])
  })
})

describe('featureGrid, cards, faq and logoWall', () => {
  it('need enough items to be worth a section', () => {
    expect(
      problems(section, { ...SMALLEST.featureGrid, features: [{ title: 'A', text: 'a' }] }),
    ).toEqual(['features: expected at least two features'])
    expect(problems(section, { ...SMALLEST.cards, cards: [] })).toEqual([
      'cards: expected at least one card',
    ])
    expect(problems(section, { ...SMALLEST.faq, items: [] })).toEqual([
      'items: expected at least one question',
    ])
    expect(problems(section, { ...SMALLEST.logoWall, logos: [{ name: 'A' }] })).toEqual([
      'logos: expected at least two partners',
    ])
  })

  it('take only the icons the design system draws', () => {
    const features = (icon: string) => [
      { title: 'A', text: 'a', icon },
      { title: 'B', text: 'b', icon: ICONS[0] },
    ]
    expect(problems(section, { ...SMALLEST.featureGrid, features: features('card') })).toEqual([])
    expect(problems(section, { ...SMALLEST.featureGrid, features: features('rocket') })).toEqual([
      `features.0.icon: expected an icon: ${ICONS.join(', ')}`,
    ])
  })

  it('check a card’s and a partner’s link like any link', () => {
    expect(
      problems(section, {
        ...SMALLEST.cards,
        cards: [{ title: 'Cards', text: 'Debit cards.', href: 'http://x.example/' }],
      }),
    ).toEqual(['cards.0.href: expected a link starting with "/", "https://", "mailto:" or "tel:"'])
  })
})

describe('table', () => {
  const table = { type: 'table', caption: 'Fees', columns: ['Item', 'Fee'] }

  it('accepts rows with one cell per column', () => {
    expect(
      problems(section, {
        ...table,
        rows: [
          ['Card', '0 €'],
          ['Transfer', '0 €'],
        ],
      }),
    ).toEqual([])
  })

  it('names each row with too few or too many cells, and how many it needs', () => {
    expect(
      problems(section, {
        ...table,
        rows: [['Card', '0 €'], ['Transfer'], ['ATM', '2 €', 'abroad']],
      }),
    ).toEqual([
      'rows.1: expected 2 cells, one per column; found 1',
      'rows.2: expected 2 cells, one per column; found 3',
    ])
  })

  it('needs a column and a row, and no empty cell', () => {
    expect(problems(section, { ...table, columns: [], rows: [] })).toEqual([
      'columns: expected at least one column',
      'rows: expected at least one row',
    ])
    expect(problems(section, { ...table, rows: [['Card', ' ']] })).toEqual([
      'rows.0.1: expected a table cell, found an empty text',
    ])
  })
})

describe('downloadList', () => {
  it('links documents under /documents/ only', () => {
    const items = (href: string) => [{ label: 'Terms', href }]
    expect(
      problems(section, { ...SMALLEST.downloadList, items: items('/documents/a/b-1.pdf') }),
    ).toEqual([])
    for (const href of ['/en/terms/', 'https://bank.example/documents/terms.pdf', '/documents/']) {
      expect(problems(section, { ...SMALLEST.downloadList, items: items(href) }), href).toEqual([
        'items.0.href: expected a document under /documents/',
      ])
    }
  })
})

describe('form, ecbRates and cardRates', () => {
  it('name a form and a card network by their file name', () => {
    expect(problems(section, { type: 'form', form: 'News Letter' })).toEqual([
      'form: expected the name of the form (its file name in forms/lists/ or forms/surveys/) in lowercase letters, digits and hyphens',
    ])
    expect(problems(section, { type: 'cardRates' })).toEqual([
      'network: expected the card network (its rate file in exchange-rates/, such as mastercard) as text',
    ])
  })

  it('take a heading and an introduction, and nothing else', () => {
    expect(
      problems(section, { type: 'ecbRates', heading: 'ECB rates', intro: 'Daily rates.' }),
    ).toEqual([])
    expect(problems(section, { type: 'ecbRates', network: 'mastercard' })).toEqual([
      ': unknown field "network": expected only the fields of this content type',
    ])
  })
})
