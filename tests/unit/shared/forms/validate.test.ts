import { describe, expect, it } from 'vitest'
import type { ContentProblem } from '../../../../src/content/errors'
import { localizeForm, readForms } from '../../../../src/content/forms'
import type { ListForm, SurveyForm } from '../../../../src/shared/forms/definition'
import { FORM_MESSAGES, summaryText } from '../../../../src/shared/forms/messages'
import { validateSubmission } from '../../../../src/shared/forms/validate'

const list: ListForm = {
  kind: 'list',
  id: 'newsletter',
  language: 'en',
  name: 'Newsletter',
  version: 'v1',
  consent: 'Yes, please.',
  topics: {
    legend: 'Topics',
    options: [
      { id: 'a', label: 'A' },
      { id: 'b', label: 'B' },
    ],
  },
  submit: 'Subscribe',
  action: '/api/forms/newsletter',
  successPath: '/en/newsletter-success/',
}

const survey: SurveyForm = {
  kind: 'survey',
  id: 'survey',
  language: 'en',
  name: 'Survey',
  version: '2',
  questions: [
    {
      type: 'single',
      id: 'role',
      label: 'Role',
      required: true,
      options: [
        { id: 'x', label: 'X' },
        { id: 'y', label: 'Y' },
      ],
    },
    {
      type: 'multiple',
      id: 'uses',
      label: 'Uses',
      required: false,
      options: [
        { id: 'x', label: 'X' },
        { id: 'y', label: 'Y' },
      ],
    },
    {
      type: 'scale',
      id: 'score',
      label: 'Score',
      required: false,
      min: 1,
      max: 5,
      minLabel: 'Low',
      maxLabel: 'High',
    },
    { type: 'text', id: 'note', label: 'Note', required: false, maxLength: 10 },
  ],
  submit: 'Send',
  action: '/api/forms/survey',
  successPath: '/en/survey-success/',
}

const body = {
  email: ' Ada@Example.COM ',
  topics: 'a',
  consent: 'yes',
  version: 'v1',
  language: 'de',
}

describe('form validation', () => {
  it('accepts a sign-up, normalising the address and a single topic sent as text', () => {
    expect(validateSubmission(list, body)).toEqual({
      ok: true,
      value: {
        kind: 'list',
        email: 'ada@example.com',
        topics: ['a'],
        language: 'de',
        version: 'v1',
        bot: false,
      },
    })
  })

  it('reports one error per field, in the order of the form, with a code the visitor can read', () => {
    const result = validateSubmission(list, {
      language: 'en',
      version: 'v1',
      topics: ['zzz'],
      email: 'a@b',
    })
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'email', code: 'email' },
        { field: 'topics', code: 'choice' },
        { field: 'consent', code: 'consent' },
      ],
    })
    for (const language of ['en', 'de'] as const) {
      expect(FORM_MESSAGES[language].errors.email.length).toBeGreaterThan(10)
    }
  })

  it('names the missing pieces: no address, no topic, an unknown field', () => {
    const result = validateSubmission(list, {
      consent: 'yes',
      version: 'v1',
      language: 'en',
      extra: 1,
    })
    expect(result.ok ? [] : result.errors).toEqual([
      { field: 'email', code: 'required' },
      { field: 'topics', code: 'chooseOne' },
      { field: 'extra', code: 'unknown' },
    ])
  })

  it('turns away a form loaded before its consent text changed', () => {
    const result = validateSubmission(list, { ...body, version: 'v0' })
    expect(result.ok ? [] : result.errors).toEqual([{ field: 'version', code: 'outdated' }])
  })

  it('marks a filled-in hidden field as a bot without rejecting it', () => {
    const result = validateSubmission(list, { ...body, website: 'spam' })
    expect(result.ok && result.value.bot).toBe(true)
  })

  it('accepts survey answers of every type and leaves out what was skipped', () => {
    const result = validateSubmission(survey, {
      'answers.role': 'x',
      'answers.uses': ['x', 'y'],
      'answers.score': '5',
      'answers.note': '',
      version: '2',
      language: 'en',
    })
    expect(result).toEqual({
      ok: true,
      value: {
        kind: 'survey',
        answers: { role: 'x', uses: ['x', 'y'], score: 5 },
        language: 'en',
        version: '2',
        bot: false,
      },
    })
  })

  it.each([
    [{ 'answers.role': '' }, 'answers.role', 'required'],
    [{ 'answers.role': 'z' }, 'answers.role', 'choice'],
    [{ 'answers.role': ['x', 'y'] }, 'answers.role', 'choice'],
    [{ 'answers.role': 'x', 'answers.uses': ['x', 'q'] }, 'answers.uses', 'choice'],
    [{ 'answers.role': 'x', 'answers.score': '0' }, 'answers.score', 'number'],
    [{ 'answers.role': 'x', 'answers.score': '2.5' }, 'answers.score', 'number'],
    [{ 'answers.role': 'x', 'answers.note': 'x'.repeat(11) }, 'answers.note', 'tooLong'],
    [{ 'answers.role': 'x', 'answers.note': 5 }, 'answers.note', 'invalid'],
  ])('rejects %j: %s %s', (answers, field, code) => {
    const result = validateSubmission(survey, { ...answers, version: '2', language: 'en' })
    expect(result.ok ? [] : result.errors).toEqual([{ field, code }])
  })

  it('keeps each choice once, and refuses more choices than the form offers', () => {
    const signUp = validateSubmission(list, { ...body, topics: ['a', 'b', 'a'] })
    expect(signUp.ok ? [] : signUp.errors).toEqual([{ field: 'topics', code: 'choice' }])
    const twice = validateSubmission(list, { ...body, topics: ['b', 'b'] })
    expect(twice.ok && twice.value.kind === 'list' && twice.value.topics).toEqual(['b'])
    const flood = validateSubmission(list, { ...body, topics: Array(3000).fill('a') })
    expect(flood.ok ? [] : flood.errors).toEqual([{ field: 'topics', code: 'choice' }])
    const answers = (uses: string[]) =>
      validateSubmission(survey, {
        'answers.role': 'x',
        'answers.uses': uses,
        version: '2',
        language: 'en',
      })
    const repeated = answers(['y', 'y'])
    expect(repeated.ok && repeated.value.kind === 'survey' && repeated.value.answers).toEqual({
      role: 'x',
      uses: ['y'],
    })
    const many = answers(Array(5000).fill('x'))
    expect(many.ok ? [] : many.errors).toEqual([{ field: 'answers.uses', code: 'choice' }])
  })

  it('counts a text answer in characters: an emoji is one, as the page’s hint says', () => {
    const note = (text: string) =>
      validateSubmission(survey, {
        'answers.role': 'x',
        'answers.note': text,
        version: '2',
        language: 'en',
      })
    // Ten characters of two UTF-16 units each: within the note's 10.
    expect(note('😀'.repeat(10)).ok).toBe(true)
    expect(note('𝔸'.repeat(10)).ok).toBe(true)
    const long = note('😀'.repeat(11))
    expect(long.ok ? [] : long.errors).toEqual([{ field: 'answers.note', code: 'tooLong' }])
    expect(FORM_MESSAGES.en.maxLength.replace('{count}', '10')).toBe('At most 10 characters.')
    expect(FORM_MESSAGES.de.maxLength.replace('{count}', '10')).toBe('Höchstens 10 Zeichen.')
  })

  it.each(['x@xn--a.org', 'x@xn--abc.example.com', 'x@xn--zz.de', 'x@sub.xn--.org'])(
    'refuses %s: its label is no international name',
    (email) => {
      const result = validateSubmission(list, { ...body, email })
      expect(result.ok ? [] : result.errors).toEqual([{ field: 'email', code: 'email' }])
    },
  )

  it('takes international domains, as punycode or not', () => {
    for (const [email, stored] of [
      ['x@bücher.de', 'x@xn--bcher-kva.de'],
      ['x@xn--bcher-kva.de', 'x@xn--bcher-kva.de'],
      ['x@испытание.рф', 'x@xn--80akhbyknj4f.xn--p1ai'],
    ]) {
      const result = validateSubmission(list, { ...body, email })
      expect(result.ok && result.value.kind === 'list' && result.value.email, email).toBe(stored)
    }
  })

  it.each([
    'x@printer.local',
    'x@mail.invalid',
    'x@site.test',
    'x@host.example',
    'x@app.localhost',
    'x@abcdefghijklmnop.onion',
    'x@router.home.arpa',
    'x@corp.internal',
    'x@name.alt',
    'x@HOST.LOCAL',
  ])('refuses %s: its domain is reserved and reaches no mailbox', (email) => {
    const result = validateSubmission(list, { ...body, email })
    expect(result.ok ? [] : result.errors).toEqual([{ field: 'email', code: 'emailDomain' }])
  })

  it('counts errors in words in both languages', () => {
    expect(summaryText('en', 1)).toBe('Please correct 1 entry:')
    expect(summaryText('de', 3)).toBe('Bitte korrigieren Sie 3 Angaben:')
  })
})

describe('forms in the content store', () => {
  const topic = (id: string) => ({ id, label: { en: id, de: id } })
  const newsletter = {
    name: { en: 'News', de: 'News' },
    consentVersion: '1',
    consent: { en: 'Yes', de: 'Ja' },
    topics: { legend: { en: 'Topics', de: 'Themen' }, options: [topic('a'), topic('b')] },
    submit: { en: 'Go', de: 'Los' },
    successPage: 'newsletter-success',
    confirmedPage: 'newsletter-confirmed',
    mail: {
      subject: { en: 'S', de: 'S' },
      body: { en: 'B', de: 'B' },
      button: { en: 'C', de: 'C' },
    },
  }

  it('gives each language its own texts, with the same ids and version', () => {
    const problems: ContentProblem[] = []
    const forms = readForms([{ file: 'forms/lists/newsletter.yaml', data: newsletter }], problems)
    expect(problems).toEqual([])
    expect(localizeForm(forms, 'newsletter', 'de')).toMatchObject({
      kind: 'list',
      version: '1',
      consent: 'Ja',
      submit: 'Los',
      topics: {
        legend: 'Themen',
        options: [
          { id: 'a', label: 'a' },
          { id: 'b', label: 'b' },
        ],
      },
      action: '/api/forms/newsletter',
      successPath: '/de/newsletter-success/',
    })
    expect(localizeForm(forms, 'missing', 'en')).toBeUndefined()
  })

  it('names the file and field of every problem', () => {
    const problems: ContentProblem[] = []
    readForms(
      [
        { file: 'forms/lists/newsletter.yaml', data: { ...newsletter, consent: { en: 'Yes' } } },
        {
          file: 'forms/lists/updates.yaml',
          data: {
            ...newsletter,
            topics: { ...newsletter.topics, options: [topic('a'), topic('a')] },
          },
        },
        { file: 'forms/surveys/newsletter.yaml', data: {} },
        { file: 'forms/other/x.yaml', data: {} },
        {
          file: 'forms/surveys/poll.yaml',
          data: { name: { en: 'P', de: 'P' }, version: 3, questions: [] },
        },
      ],
      problems,
    )
    expect(problems).toEqual(
      expect.arrayContaining([
        {
          file: 'forms/lists/newsletter.yaml',
          field: 'consent.de',
          message: expect.stringContaining('consent text'),
        },
        {
          file: 'forms/lists/updates.yaml',
          field: 'topics.options.1.id',
          message: 'expected a unique topic id; "a" is used twice',
        },
        {
          file: 'forms/surveys/newsletter.yaml',
          field: '',
          message: expect.stringContaining('unique form name'),
        },
        { file: 'forms/other/x.yaml', field: '', message: expect.stringContaining('unknown file') },
        {
          file: 'forms/surveys/poll.yaml',
          field: 'version',
          message: expect.stringContaining('version as text'),
        },
        {
          file: 'forms/surveys/poll.yaml',
          field: 'questions',
          message: 'expected at least one question',
        },
      ]),
    )
  })
})
