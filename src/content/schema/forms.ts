/**
 * The forms visitors send, as content: the mailing lists (newsletter, product updates) and the
 * surveys. One file per form, language-neutral, with its texts in every language, so the
 * forms service and both language versions of a page validate against the same definition.
 *
 * `forms/lists/{id}.yaml` is a mailing list with double opt-in; `forms/surveys/{id}.yaml` a
 * survey. A page shows a form with a section `{ type: form, form: {id} }`.
 */
import { z } from 'zod'
import { slug, text } from './fields'

/** A text in every language of the site. */
const localized = (what: string, max: number) =>
  z.strictObject({ en: text(`${what} in English`, max), de: text(`${what} in German`, max) })

/** A version name: what a stored answer or consent is proven against. */
const version = z
  .string({ error: 'expected the version as text (in quotes: "1", "2026-11-21")' })
  .regex(/^[\w.-]{1,40}$/, {
    error: 'expected the version in letters, digits, dots and hyphens (at most 40)',
  })

const optionList = (what: string) =>
  z
    .array(z.strictObject({ id: slug(`the ${what} id`), label: localized(`the ${what}`, 160) }))
    .min(2, { error: `expected at least two ${what}s` })
    .max(20, { error: `expected at most 20 ${what}s` })
    .superRefine((options, context) => uniqueIds(options, context, what))

function uniqueIds(
  items: { id: string }[],
  context: z.RefinementCtx,
  what: string,
  field = 'id',
): void {
  const seen = new Set<string>()
  items.forEach((item, index) => {
    if (seen.has(item.id)) {
      context.addIssue({
        code: 'custom',
        path: [index, field],
        message: `expected a unique ${what} id; "${item.id}" is used twice`,
      })
    }
    seen.add(item.id)
  })
}

/** Where the visitor lands after sending: a page name (`newsletter-success`) in every language. */
const pageName = (what: string) =>
  z.string({ error: `expected ${what} as a page name` }).regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, {
    error: `expected ${what} as a page name such as "newsletter-success"`,
  })

/** A mailing list with double opt-in: what visitors consent to and what they may choose. */
export const mailingList = z.strictObject({
  name: localized('the list name (in e-mails and pages)', 80),
  /** Proof of consent names this version and stores its text; change it with the text. */
  consentVersion: version,
  consent: localized('the consent text the visitor agrees to', 1000),
  topics: z
    .strictObject({
      legend: localized('the question above the topics', 120),
      options: optionList('topic'),
    })
    .optional(),
  submit: localized('the button label', 40),
  /** Page after sending the form: "please confirm in your inbox". */
  successPage: pageName('the page after signing up'),
  /** Page the confirmation link leads to. */
  confirmedPage: pageName('the page after confirming'),
  /** The confirmation e-mail. */
  mail: z.strictObject({
    subject: localized('the subject of the confirmation e-mail', 120),
    body: localized('the confirmation e-mail text before its link', 1500),
    button: localized('the label of the confirmation link', 60),
  }),
})
export type MailingList = z.output<typeof mailingList>

const questionBase = {
  id: slug('the question id'),
  label: localized('the question', 300),
  hint: localized('the hint under the question', 300).optional(),
  required: z.boolean({ error: 'expected required as true or false' }).default(false),
}

const singleQuestion = z.strictObject({
  type: z.literal('single'),
  ...questionBase,
  options: optionList('answer'),
})

const multipleQuestion = z.strictObject({
  type: z.literal('multiple'),
  ...questionBase,
  options: optionList('answer'),
})

const scaleQuestion = z
  .strictObject({
    type: z.literal('scale'),
    ...questionBase,
    min: z
      .int({ error: 'expected the lowest value as a whole number' })
      .min(0, { error: 'expected the lowest value 0 or 1' })
      .max(1, { error: 'expected the lowest value 0 or 1' })
      .default(1),
    max: z
      .int({ error: 'expected the highest value as a whole number' })
      .min(3, { error: 'expected the highest value between 3 and 10' })
      .max(10, { error: 'expected the highest value between 3 and 10' })
      .default(5),
    minLabel: localized('the meaning of the lowest value', 60),
    maxLabel: localized('the meaning of the highest value', 60),
  })
  .refine((question) => question.max > question.min, {
    error: 'expected max above min',
    path: ['max'],
  })

const textQuestion = z.strictObject({
  type: z.literal('text'),
  ...questionBase,
  maxLength: z
    .int({ error: 'expected the longest answer as a whole number' })
    .min(10, { error: 'expected a longest answer of at least 10 characters' })
    .max(4000, { error: 'expected a longest answer of at most 4000 characters' })
    .default(1000),
})

export const QUESTION_TYPES = ['single', 'multiple', 'scale', 'text'] as const

const question = z.discriminatedUnion(
  'type',
  [singleQuestion, multipleQuestion, scaleQuestion, textQuestion],
  {
    error: `expected a question with type ${QUESTION_TYPES.join(', ')}`,
  },
)

/** A survey: its questions, and the version its answers are stored with. */
export const survey = z.strictObject({
  name: localized('the survey name', 120),
  /** Answers are stored with it; change it whenever questions or answers change. */
  version,
  questions: z
    .array(question)
    .min(1, { error: 'expected at least one question' })
    .max(30, { error: 'expected at most 30 questions' })
    .superRefine((questions, context) => uniqueIds(questions, context, 'question')),
  submit: localized('the button label', 40),
  successPage: pageName('the page after sending'),
})
export type Survey = z.output<typeof survey>
export type SurveyQuestion = Survey['questions'][number]
