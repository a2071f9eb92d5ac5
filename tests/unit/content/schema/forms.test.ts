/**
 * The forms as content, their schemas on their own: a mailing list and a survey with each of
 * their rules (texts in both languages, enough and unique options, question types and their
 * bounds, page names), refused with the field and what is expected. How the forms service and
 * the pages read a valid form is in tests/unit/shared/forms/.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { ContentProblem } from '../../../../src/content/errors'
import { mailingList, QUESTION_TYPES, survey } from '../../../../src/content/schema/forms'
import { validateDocument } from '../../../../src/content/validate-document'

function problems(schema: z.ZodType, data: unknown): string[] {
  const found: ContentProblem[] = []
  validateDocument(schema, { file: 'x.yaml', data }, found)
  return found.map((problem) => `${problem.field}: ${problem.message}`)
}

const both = (en: string, de: string) => ({ en, de })
const option = (id: string) => ({ id, label: both(id, id) })

const list = () => ({
  name: both('Newsletter', 'Newsletter'),
  consentVersion: '2026-11-21',
  consent: both('I would like the newsletter.', 'Ich möchte den Newsletter.'),
  submit: both('Subscribe', 'Abonnieren'),
  successPage: 'newsletter-success',
  confirmedPage: 'newsletter-confirmed',
  mail: {
    subject: both('Please confirm', 'Bitte bestätigen'),
    body: both('Please confirm.', 'Bitte bestätigen Sie.'),
    button: both('Confirm', 'Bestätigen'),
  },
})

const question = (type: string, id: string, extra: Record<string, unknown> = {}) => ({
  type,
  id,
  label: both(`Question ${id}`, `Frage ${id}`),
  ...extra,
})

const scale = (extra: Record<string, unknown> = {}) =>
  question('scale', 'satisfaction', {
    minLabel: both('Bad', 'Schlecht'),
    maxLabel: both('Good', 'Gut'),
    ...extra,
  })

const poll = (questions: unknown[]) => ({
  name: both('Poll', 'Umfrage'),
  version: '1',
  questions,
  submit: both('Send', 'Senden'),
  successPage: 'survey/thanks',
})

describe('mailingList', () => {
  it('accepts a list without topics', () => {
    expect(problems(mailingList, list())).toEqual([])
    expect(mailingList.parse(list()).topics).toBeUndefined()
  })

  it('needs every text in English and German, named by language', () => {
    expect(
      problems(mailingList, {
        ...list(),
        consent: { en: 'Yes please.' },
        mail: { ...list().mail, button: { en: 'Confirm', de: '' } },
      }),
    ).toEqual([
      'consent.de: expected the consent text the visitor agrees to in German as text',
      'mail.button.de: expected the label of the confirmation link in German, found an empty text',
    ])
  })

  it('offers between two and twenty topics', () => {
    const topics = (count: number) => ({
      legend: both('Topics', 'Themen'),
      options: Array.from({ length: count }, (_, index) => option(`topic-${index}`)),
    })
    expect(problems(mailingList, { ...list(), topics: topics(2) })).toEqual([])
    expect(problems(mailingList, { ...list(), topics: topics(20) })).toEqual([])
    expect(problems(mailingList, { ...list(), topics: topics(1) })).toEqual([
      'topics.options: expected at least two topics',
    ])
    expect(problems(mailingList, { ...list(), topics: topics(21) })).toEqual([
      'topics.options: expected at most 20 topics',
    ])
  })

  it('names every repeated topic id, not only the first', () => {
    const options = [option('a'), option('b'), option('a'), option('b'), option('a')]
    expect(
      problems(mailingList, { ...list(), topics: { legend: both('T', 'T'), options } }),
    ).toEqual([
      'topics.options.2.id: expected a unique topic id; "a" is used twice',
      'topics.options.3.id: expected a unique topic id; "b" is used twice',
      'topics.options.4.id: expected a unique topic id; "a" is used twice',
    ])
  })

  it('leads to pages by their names, and stores consent with a version', () => {
    expect(
      problems(mailingList, {
        ...list(),
        successPage: '/en/newsletter-success/',
        confirmedPage: 'Newsletter Confirmed',
        consentVersion: 'version 2',
      }),
    ).toEqual([
      'consentVersion: expected the version in letters, digits, dots and hyphens (at most 40)',
      'successPage: expected the page after signing up as a page name such as "newsletter-success"',
      'confirmedPage: expected the page after confirming as a page name such as "newsletter-success"',
    ])
    expect(problems(mailingList, { ...list(), consentVersion: 'v'.repeat(41) })).toEqual([
      'consentVersion: expected the version in letters, digits, dots and hyphens (at most 40)',
    ])
  })
})

describe('survey', () => {
  it('accepts one question of each type, filling in the defaults', () => {
    const parsed = survey.parse(
      poll([
        question('single', 'role', { options: [option('a'), option('b')] }),
        question('multiple', 'services', { options: [option('a'), option('b')] }),
        scale(),
        question('text', 'comment'),
      ]),
    )
    expect(parsed.questions.map((q) => q.type)).toEqual([...QUESTION_TYPES])
    expect(parsed.questions.every((q) => q.required === false)).toBe(true)
    expect(parsed.questions[2]).toMatchObject({ min: 1, max: 5 })
    expect(parsed.questions[3]).toMatchObject({ maxLength: 1000 })
  })

  it('refuses a question of an unknown type, listing the types there are', () => {
    expect(problems(survey, poll([question('date', 'when')]))).toEqual([
      'questions.0.type: expected a question with type single, multiple, scale, text',
    ])
  })

  it('names every repeated question id', () => {
    expect(
      problems(survey, poll([question('text', 'comment'), question('text', 'comment')])),
    ).toEqual(['questions.1.id: expected a unique question id; "comment" is used twice'])
  })

  it('asks between one and thirty questions', () => {
    const texts = (count: number) =>
      Array.from({ length: count }, (_, index) => question('text', `q${index}`))
    expect(problems(survey, poll(texts(30)))).toEqual([])
    expect(problems(survey, poll(texts(31)))).toEqual(['questions: expected at most 30 questions'])
    expect(problems(survey, poll([]))).toEqual(['questions: expected at least one question'])
  })

  it('needs answers to choose from, at least two', () => {
    expect(
      problems(survey, poll([question('single', 'role', { options: [option('only')] })])),
    ).toEqual(['questions.0.options: expected at least two answers'])
    expect(
      problems(
        survey,
        poll([question('multiple', 'role', { options: [option('a'), option('a')] })]),
      ),
    ).toEqual(['questions.0.options.1.id: expected a unique answer id; "a" is used twice'])
  })

  it('runs a scale from 0 or 1 up to between 3 and 10', () => {
    expect(problems(survey, poll([scale({ min: 0, max: 10 })]))).toEqual([])
    expect(problems(survey, poll([scale({ min: 1, max: 3 })]))).toEqual([])
    expect(problems(survey, poll([scale({ min: 1.5 })]))).toEqual([
      'questions.0.min: expected the lowest value as a whole number',
    ])
    expect(problems(survey, poll([scale({ max: 'ten' })]))).toEqual([
      'questions.0.max: expected the highest value as a whole number',
    ])
  })

  it('says which values a scale may start and end at, not that 2 is no whole number', () => {
    expect(problems(survey, poll([scale({ min: 2 })]))).toEqual([
      'questions.0.min: expected the lowest value 0 or 1',
    ])
    for (const max of [2, 11]) {
      expect(problems(survey, poll([scale({ max })])), String(max)).toEqual([
        'questions.0.max: expected the highest value between 3 and 10',
      ])
    }
  })

  it('bounds the longest text answer between 10 and 4000 characters', () => {
    expect(problems(survey, poll([question('text', 'c', { maxLength: 10 })]))).toEqual([])
    expect(problems(survey, poll([question('text', 'c', { maxLength: 9 })]))).toEqual([
      'questions.0.maxLength: expected a longest answer of at least 10 characters',
    ])
    expect(problems(survey, poll([question('text', 'c', { maxLength: 4001 })]))).toEqual([
      'questions.0.maxLength: expected a longest answer of at most 4000 characters',
    ])
    expect(problems(survey, poll([question('text', 'c', { maxLength: 100.5 })]))).toEqual([
      'questions.0.maxLength: expected the longest answer as a whole number',
    ])
  })

  it('takes required as true or false only, and a page name with a folder', () => {
    expect(problems(survey, poll([question('text', 'c', { required: 'yes' })]))).toEqual([
      'questions.0.required: expected required as true or false',
    ])
    expect(problems(survey, { ...poll([question('text', 'c')]), successPage: 'a//b' })).toEqual([
      'successPage: expected the page after sending as a page name such as "newsletter-success"',
    ])
  })
})
