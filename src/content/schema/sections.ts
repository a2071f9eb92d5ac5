/**
 * The page sections editors combine into pages. Every section names its `type`; the site has
 * one component per type.
 */
import { z } from 'zod'
import { href, image, link, markdown, slug, text } from './fields'

/** Icons drawn as inline SVG by the design system; content names them. */
export const ICONS = [
  'account',
  'card',
  'loan',
  'identity',
  'shield',
  'api',
  'globe',
  'chart',
  'clock',
  'document',
  'support',
  'wallet',
] as const

const hero = z.strictObject({
  type: z.literal('hero'),
  heading: text('the hero heading', 120),
  text: text('the hero text', 600).optional(),
  image: image.optional(),
  actions: z
    .array(link.extend({ style: z.enum(['primary', 'secondary']).default('primary') }))
    .max(2)
    .optional(),
})

const richText = z.strictObject({
  type: z.literal('richText'),
  heading: text('the section heading', 120).optional(),
  body: markdown('the section text'),
})

const featureGrid = z.strictObject({
  type: z.literal('featureGrid'),
  heading: text('the section heading', 120),
  intro: text('the section introduction', 600).optional(),
  features: z
    .array(
      z.strictObject({
        title: text('a feature title', 80),
        text: text('a feature text', 400),
        icon: z.enum(ICONS, { error: `expected an icon: ${ICONS.join(', ')}` }).optional(),
      }),
    )
    .min(2, { error: 'expected at least two features' }),
})

const cards = z.strictObject({
  type: z.literal('cards'),
  heading: text('the section heading', 120),
  intro: text('the section introduction', 600).optional(),
  cards: z
    .array(
      z.strictObject({
        title: text('a card title', 100),
        text: text('a card text', 400),
        href: href.optional(),
        linkLabel: text('the link label', 60).optional(),
      }),
    )
    .min(1, { error: 'expected at least one card' }),
})

const faq = z.strictObject({
  type: z.literal('faq'),
  heading: text('the section heading', 120),
  items: z
    .array(z.strictObject({ question: text('a question', 200), answer: markdown('the answer') }))
    .min(1, { error: 'expected at least one question' }),
})

const callToAction = z.strictObject({
  type: z.literal('callToAction'),
  heading: text('the call-to-action heading', 120),
  text: text('the call-to-action text', 400).optional(),
  action: link,
})

/** Quotes come from the bank's own (fictional) people only: never attribute words to real companies. */
const quote = z.strictObject({
  type: z.literal('quote'),
  quote: text('the quotation', 600),
  author: text('the person quoted', 80),
  role: text("the person's role", 120).optional(),
})

const logoWall = z.strictObject({
  type: z.literal('logoWall'),
  heading: text('the section heading', 120),
  logos: z
    .array(z.strictObject({ name: text('a partner name', 60), href: href.optional() }))
    .min(2, { error: 'expected at least two partners' }),
})

const table = z
  .strictObject({
    type: z.literal('table'),
    heading: text('the section heading', 120).optional(),
    caption: text('the table caption', 200),
    columns: z
      .array(text('a column heading', 80))
      .min(1, { error: 'expected at least one column' }),
    rows: z
      .array(z.array(text('a table cell', 400)))
      .min(1, { error: 'expected at least one row' }),
  })
  .superRefine((value, context) => {
    value.rows.forEach((row, index) => {
      if (row.length !== value.columns.length) {
        context.addIssue({
          code: 'custom',
          path: ['rows', index],
          message: `expected ${value.columns.length} cells, one per column; found ${row.length}`,
        })
      }
    })
  })

const downloadList = z.strictObject({
  type: z.literal('downloadList'),
  heading: text('the section heading', 120),
  items: z
    .array(
      z.strictObject({
        label: text('the document name', 120),
        href: z.string({ error: 'expected a document path' }).regex(/^\/documents\/[\w./-]+$/, {
          error: 'expected a document under /documents/',
        }),
        description: text('the document description', 300).optional(),
      }),
    )
    .min(1, { error: 'expected at least one document' }),
})

/**
 * A form of the content store (`forms/lists/{form}.yaml` or `forms/surveys/{form}.yaml`): a
 * mailing list's sign-up or a survey. The page receives the form in its language.
 */
const form = z.strictObject({
  type: z.literal('form'),
  heading: text('the section heading', 120).optional(),
  intro: text('the section introduction', 600).optional(),
  form: slug('the name of the form (its file name in forms/lists/ or forms/surveys/)'),
})

/**
 * The ECB's euro reference rates of the latest day in `exchange-rates/ecb.xml` (or downloaded
 * at build time): a sortable table with each currency's course as a small chart.
 */
const ecbRates = z.strictObject({
  type: z.literal('ecbRates'),
  heading: text('the section heading', 120).optional(),
  intro: text('the section introduction', 600).optional(),
})

/**
 * A card network's rates (`exchange-rates/{network}.csv`) with the mark-up over the ECB
 * reference rate, a converter and the rates by day.
 */
const cardRates = z.strictObject({
  type: z.literal('cardRates'),
  heading: text('the section heading', 120).optional(),
  intro: text('the section introduction', 600).optional(),
  network: slug('the card network (its rate file in exchange-rates/, such as mastercard)'),
})

export const SECTION_TYPES = [
  'hero',
  'richText',
  'featureGrid',
  'cards',
  'faq',
  'callToAction',
  'quote',
  'logoWall',
  'table',
  'downloadList',
  'form',
  'ecbRates',
  'cardRates',
] as const

export const section = z.discriminatedUnion(
  'type',
  [
    hero,
    richText,
    featureGrid,
    cards,
    faq,
    callToAction,
    quote,
    logoWall,
    table,
    downloadList,
    form,
    ecbRates,
    cardRates,
  ],
  {
    error: `expected a section with type ${SECTION_TYPES.join(', ')}`,
  },
)

export const sections = z.array(section)

export type Section = z.infer<typeof section>
export type SectionOf<T extends Section['type']> = Extract<Section, { type: T }>
