/**
 * The forms service end to end over HTTP (Fastify's inject), against PGlite and, when
 * configured, a real PostgreSQL server, with a real SMTP server receiving the mails.
 */
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { eraseEmail } from '../../../src/forms/operations'
import {
  databases,
  linkIn,
  SITE_URL,
  signUp,
  startService,
  type TestService,
  until,
} from '../../support/forms'

const HOUR = 3_600_000

/** Every row the service could have stored, table by table. */
async function counts(service: TestService) {
  const tables = [
    'subscribers',
    'subscriber_tokens',
    'subscription_events',
    'survey_responses',
    'consent_records',
  ]
  const result: Record<string, number> = {}
  for (const table of tables) {
    const [row] = await service.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)
    result[table] = row?.n ?? -1
  }
  return result
}

const pathOf = (link: string) => link.replace(SITE_URL, '')

describe.each(databases())('forms service on $name', (database) => {
  let service: TestService
  let clock = Date.parse('2026-11-21T10:00:00Z')
  // One service per database (PGlite takes a second or two to start); emptied before each test.
  beforeAll(async () => {
    service = await startService(database, { now: () => new Date(clock) })
  }, 30_000)
  afterAll(async () => {
    await service.close()
  })
  beforeEach(async () => {
    clock = Date.parse('2026-11-21T10:00:00Z')
    await service.reset()
  })

  /**
   * Follows a link of an e-mail (confirm, unsubscribe) as a visitor does: opens it, then presses
   * its button.
   */
  const followLink = async (link: string) => {
    const path = pathOf(link)
    const opened = await service.app.inject({ url: path })
    if (opened.statusCode !== 200) return opened
    return service.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    })
  }
  const confirmLink = followLink
  const unsubscribeLink = followLink

  const post = (payload: unknown, form = 'newsletter') =>
    service.app.inject({ method: 'POST', url: `/api/forms/${form}`, payload: payload as object })

  it('signs up with double opt-in: pending, a mail with one-time link, confirmed with proof', async () => {
    const response = await post(signUp('Ada@Example.com', { topics: ['services', 'regulation'] }))
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ ok: true, redirect: '/en/newsletter-success/' })
    const [mail] = await service.inbox.waitFor(1)
    expect(mail?.to?.[0]?.address).toBe('ada@example.com')
    expect(mail?.subject).toBe('Please confirm')
    expect(mail?.html).toContain('lang="en"')
    const unsubscribeHeader = mail?.headers.find((h) => h.key === 'list-unsubscribe')?.value
    expect(unsubscribeHeader).toMatch(
      /^<https:\/\/www\.lumora-bank\.example\/api\/subscriptions\/unsubscribe\?token=/,
    )
    expect(mail?.headers.find((h) => h.key === 'list-unsubscribe-post')?.value).toBe(
      'List-Unsubscribe=One-Click',
    )
    expect(mail?.text).toContain('Lumora Bank AG, Friedrichstraße 200, 10117 Berlin')

    const [pending] = await service.query<{ status: string; topics: string[] }>(
      'SELECT status, topics FROM subscribers',
    )
    expect(pending).toMatchObject({ status: 'pending', topics: ['services', 'regulation'] })
    // Tokens are stored hashed: the link's token is nowhere in the database.
    const token = new URL(linkIn(mail, '/confirm')).searchParams.get('token') ?? ''
    const stored = await service.query<{ hash: string }>('SELECT hash FROM subscriber_tokens')
    expect(stored.map((row) => row.hash)).not.toContain(token)

    clock += HOUR
    const confirmed = await confirmLink(linkIn(mail, '/confirm'))
    expect(confirmed.statusCode).toBe(303)
    expect(confirmed.headers.location).toBe('/en/newsletter-confirmed/')
    const [subscriber] = await service.query<{ status: string; confirmed_at: Date }>(
      'SELECT status, confirmed_at FROM subscribers',
    )
    expect(subscriber?.status).toBe('confirmed')
    expect(subscriber?.confirmed_at.toISOString()).toBe('2026-11-21T11:00:00.000Z')
    const events = await service.query<{
      event: string
      consent_text: string
      consent_version: string
    }>('SELECT event, consent_text, consent_version FROM subscription_events ORDER BY id')
    expect(events).toEqual([
      {
        event: 'requested',
        consent_text: 'I would like the test newsletter.',
        consent_version: 'v1',
      },
      {
        event: 'confirmed',
        consent_text: 'I would like the test newsletter.',
        consent_version: 'v1',
      },
    ])
  })

  it('confirms nothing when the link is only opened (mail scanners open every link)', async () => {
    await post(signUp('ada@example.com', { language: 'de' }))
    const [mail] = await service.inbox.waitFor(1)
    const opened = await service.app.inject({ url: pathOf(linkIn(mail, '/confirm')) })
    expect(opened.statusCode).toBe(200)
    expect(opened.headers['content-type']).toContain('text/html')
    expect(opened.body).toContain('<html lang="de">')
    expect(opened.body).toContain('<h1>Anmeldung bestätigen</h1>')
    expect(opened.body).toMatch(
      /<form method="post" action="\/api\/subscriptions\/confirm\?token=[\w-]+&amp;lang=de"><button type="submit">Bestätigen<\/button>/,
    )
    const [row] = await service.query<{ status: string }>('SELECT status FROM subscribers')
    expect(row?.status).toBe('pending')
  })

  it('writes the mail in the language of the form', async () => {
    await post(signUp('bea@example.com', { language: 'de' }))
    const [mail] = await service.inbox.waitFor(1)
    expect(mail?.subject).toBe('Bitte bestätigen')
    expect(mail?.text).toContain('bitte bestätigen Sie den Test-Newsletter.')
    expect(mail?.text).toContain('Abmelden: https://')
    const confirmed = await confirmLink(linkIn(mail, '/confirm'))
    expect(confirmed.headers.location).toBe('/de/newsletter-confirmed/')
  })

  it('does not confirm twice with a reused link, and shows the same result', async () => {
    await post(signUp('ada@example.com'))
    const [mail] = await service.inbox.waitFor(1)
    const link = linkIn(mail, '/confirm')
    await confirmLink(link)
    clock += HOUR
    const again = await confirmLink(link)
    expect(again.headers.location).toBe('/en/newsletter-confirmed/')
    const events = await service.query('SELECT event FROM subscription_events')
    expect(events).toHaveLength(2)
    const [subscriber] = await service.query<{ confirmed_at: Date }>(
      'SELECT confirmed_at FROM subscribers',
    )
    expect(subscriber?.confirmed_at.toISOString()).toBe('2026-11-21T10:00:00.000Z')
  })

  it('refuses an expired link and keeps the sign-up pending', async () => {
    await post(signUp('ada@example.com'))
    const [mail] = await service.inbox.waitFor(1)
    clock += 49 * HOUR
    const response = await confirmLink(linkIn(mail, '/confirm'))
    expect(response.headers.location).toBe('/en/link-expired/')
    const [subscriber] = await service.query<{ status: string }>('SELECT status FROM subscribers')
    expect(subscriber?.status).toBe('pending')
  })

  it('answers unknown and malformed tokens with the expired-link page in the given language', async () => {
    for (const query of ['token=abcdefghijklmnopqrstuvwxyz0123', 'token=%27%3B--', 'token=', '']) {
      const response = await service.app.inject({
        url: `/api/subscriptions/confirm?${query}&lang=de`,
      })
      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe('/de/link-expired/')
    }
  })

  it('unsubscribes by the one-click POST of a mail client (multipart, RFC 8058)', async () => {
    await post(signUp('ada@example.com'))
    const [mail] = await service.inbox.waitFor(1)
    await confirmLink(linkIn(mail, '/confirm'))
    const boundary = 'x-boundary'
    const oneClick = await service.app.inject({
      method: 'POST',
      url: pathOf(linkIn(mail, '/unsubscribe')),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
    })
    expect(oneClick.statusCode).toBe(200)
    const [subscriber] = await service.query<{ status: string }>('SELECT status FROM subscribers')
    expect(subscriber?.status).toBe('unsubscribed')
  })

  it('unsubscribes with the button of the link’s page, and again without harm', async () => {
    await post(signUp('ada@example.com', { language: 'de' }))
    const [mail] = await service.inbox.waitFor(1)
    await confirmLink(linkIn(mail, '/confirm'))
    const link = pathOf(linkIn(mail, '/unsubscribe'))
    const opened = await service.app.inject({ url: link })
    expect(opened.statusCode).toBe(200)
    expect(opened.body).toContain('<html lang="de">')
    expect(opened.body).toContain('<h1>Abmelden</h1>')
    expect(opened.body).toMatch(
      /<form method="post" action="\/api\/subscriptions\/unsubscribe\?token=[\w-]+&amp;lang=de"><button type="submit">Abmelden<\/button>/,
    )
    for (let time = 0; time < 2; time++) {
      const response = await unsubscribeLink(linkIn(mail, '/unsubscribe'))
      expect(response.statusCode).toBe(303)
      expect(response.headers.location).toBe('/de/unsubscribed/')
    }
    const events = await service.query<{ event: string }>(
      'SELECT event FROM subscription_events ORDER BY id',
    )
    expect(events.map((e) => e.event)).toEqual(['requested', 'confirmed', 'unsubscribed'])
  })

  it('signs up again after unsubscribing, with a new confirmation; a pending sign-up can be withdrawn too', async () => {
    await post(signUp('ada@example.com'))
    const [first] = await service.inbox.waitFor(1)
    await confirmLink(linkIn(first, '/confirm'))
    await unsubscribeLink(linkIn(first, '/unsubscribe'))
    clock += HOUR
    await post(signUp('ada@example.com'))
    const [, second] = await service.inbox.waitFor(2)
    const [pending] = await service.query<{ status: string }>('SELECT status FROM subscribers')
    expect(pending?.status).toBe('pending')
    // The old confirmation link does not bring the subscription back.
    expect((await confirmLink(linkIn(first, '/confirm'))).headers.location).toBe(
      '/en/link-expired/',
    )
    expect((await confirmLink(linkIn(second, '/confirm'))).headers.location).toBe(
      '/en/newsletter-confirmed/',
    )
    await post(signUp('bob@example.com'))
    const [, , third] = await service.inbox.waitFor(3)
    await unsubscribeLink(linkIn(third, '/unsubscribe'))
    expect((await confirmLink(linkIn(third, '/confirm'))).headers.location).toBe(
      '/en/link-expired/',
    )
    const rows = await service.query<{ email: string; status: string }>(
      'SELECT email, status FROM subscribers ORDER BY email',
    )
    expect(rows).toEqual([
      { email: 'ada@example.com', status: 'confirmed' },
      { email: 'bob@example.com', status: 'unsubscribed' },
    ])
  })

  it('mails one address at most three times a day, however often it signs up', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await post(signUp('ada@example.com'))).statusCode).toBe(200)
      // Each mail goes out before the next sign-up (a newer one would replace it unsent).
      if (attempt < 3) await service.inbox.waitFor(attempt + 1)
      clock += 11 * 60_000
    }
    await new Promise((done) => setTimeout(done, 200))
    expect(service.inbox.mails).toHaveLength(3)
    clock += 24 * HOUR
    await post(signUp('ada@example.com'))
    await service.inbox.waitFor(4)
  })

  it('lets confirmations and unsubscriptions of one subscriber race without failing', async () => {
    await post(signUp('ada@example.com'))
    const [mail] = await service.inbox.waitFor(1)
    const confirm = pathOf(linkIn(mail, '/confirm'))
    const unsubscribe = pathOf(linkIn(mail, '/unsubscribe'))
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        index % 2 === 0
          ? service.app.inject({
              method: 'POST',
              url: confirm,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: '',
            })
          : service.app.inject({
              method: 'POST',
              url: unsubscribe,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload: '',
            }),
      ),
    )
    expect(responses.map((response) => response.statusCode)).toEqual(responses.map(() => 303))
    const [row] = await service.query<{ status: string }>('SELECT status FROM subscribers')
    expect(['confirmed', 'unsubscribed']).toContain(row?.status)
  })

  it('sends no second mail within the cooling period and never duplicates a record', async () => {
    await post(signUp('ada@example.com'))
    await post(signUp('ADA@example.com '))
    await service.inbox.waitFor(1)
    await new Promise((done) => setTimeout(done, 200))
    expect(service.inbox.mails).toHaveLength(1)
    clock += 11 * 60_000
    await post(signUp('ada@example.com', { topics: ['regulation'] }))
    const [first, second] = await service.inbox.waitFor(2)
    const rows = await service.query<{ topics: string[] }>('SELECT topics FROM subscribers')
    expect(rows).toEqual([{ topics: ['regulation'] }])
    // Only the newest confirmation link works.
    const old = await confirmLink(linkIn(first, '/confirm'))
    expect(old.headers.location).toBe('/en/link-expired/')
    const current = await confirmLink(linkIn(second, '/confirm'))
    expect(current.headers.location).toBe('/en/newsletter-confirmed/')
  })

  it('turns 100 concurrent sign-ups of one address into one record and one mail', async () => {
    const responses = await Promise.all(
      Array.from({ length: 100 }, () => post(signUp('rush@example.com'))),
    )
    expect(new Set(responses.map((response) => response.statusCode))).toEqual(new Set([200]))
    await service.inbox.waitFor(1)
    await new Promise((done) => setTimeout(done, 300))
    expect(service.inbox.mails).toHaveLength(1)
    expect(await service.query('SELECT id FROM subscribers')).toHaveLength(1)
    const tokens = await service.query<{ purpose: string }>(
      'SELECT purpose FROM subscriber_tokens ORDER BY purpose',
    )
    expect(tokens.map((token) => token.purpose)).toEqual(['confirm', 'unsubscribe'])
  })

  it('leaves a confirmed subscriber alone when the address signs up again', async () => {
    await post(signUp('ada@example.com'))
    const [mail] = await service.inbox.waitFor(1)
    await confirmLink(linkIn(mail, '/confirm'))
    clock += 24 * HOUR
    const again = await post(signUp('ada@example.com', { topics: ['regulation'] }))
    expect(again.json()).toEqual({ ok: true, redirect: '/en/newsletter-success/' })
    await new Promise((done) => setTimeout(done, 200))
    expect(service.inbox.mails).toHaveLength(1)
    const [row] = await service.query<{ status: string; topics: string[] }>(
      'SELECT status, topics FROM subscribers',
    )
    expect(row).toEqual({ status: 'confirmed', topics: ['services'] })
  })

  it('keeps the lists apart: product updates have their own record and pages', async () => {
    await post(signUp('ada@example.com'))
    await service.inbox.waitFor(1)
    const response = await post(
      { email: 'ada@example.com', consent: 'yes', version: 'v1', language: 'en' },
      'productupdates',
    )
    expect(response.json()).toEqual({ ok: true, redirect: '/en/productupdates-success/' })
    const [, mail] = await service.inbox.waitFor(2)
    const confirmed = await confirmLink(linkIn(mail, '/confirm'))
    expect(confirmed.headers.location).toBe('/en/productupdates-confirmed/')
    const rows = await service.query<{ list: string; status: string }>(
      'SELECT list, status FROM subscribers ORDER BY list',
    )
    expect(rows).toEqual([
      { list: 'newsletter', status: 'pending' },
      { list: 'productupdates', status: 'confirmed' },
    ])
  })

  it('answers a form sent without script with a redirect, or a page of errors in its language', async () => {
    const sent = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload:
        'email=ada%40example.com&topics=services&topics=regulation&consent=yes&version=v1&language=de&website=',
    })
    expect(sent.statusCode).toBe(303)
    expect(sent.headers.location).toBe('/de/newsletter-success/')
    const [row] = await service.query<{ topics: string[]; language: string }>(
      'SELECT topics, language FROM subscribers',
    )
    expect(row).toEqual({ topics: ['services', 'regulation'], language: 'de' })

    const wrong = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        host: 'www.lumora-bank.example',
        referer: 'https://www.lumora-bank.example/de/newsletter/',
      },
      payload: 'email=kein-at&version=v1&language=de',
    })
    expect(wrong.statusCode).toBe(422)
    expect(wrong.headers['content-type']).toContain('text/html')
    expect(wrong.body).toContain('<html lang="de">')
    expect(wrong.body).toContain('Bitte korrigieren Sie 3 Angaben:')
    expect(wrong.body).toContain('<strong>E-Mail-Adresse:</strong> Bitte geben Sie eine gültige')
    expect(wrong.body).toContain(
      '<strong>Themen:</strong> Bitte wählen Sie mindestens eine Option.',
    )
    expect(wrong.body).toContain('Bitte bestätigen Sie Ihre Einwilligung')
    expect(wrong.body).toContain('<a href="/de/newsletter/">Zurück zum Formular</a>')
  })

  it('answers each of 44 malformed requests with 4xx and changes nothing stored', async () => {
    await post(signUp('kept@example.com'))
    const [mail] = await service.inbox.waitFor(1)
    await confirmLink(linkIn(mail, '/confirm'))
    const before = await service.query('SELECT * FROM subscribers')
    const stored = await counts(service)
    const json = (payload: unknown, url = '/api/forms/newsletter') => ({
      method: 'POST' as const,
      url,
      headers: { 'content-type': 'application/json' },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    })
    const survey = {
      'answers.role': 'partner',
      'answers.satisfaction': '3',
      version: '3',
      language: 'en',
    }
    const cases: [string, InjectOptions][] = [
      ['no body', { method: 'POST', url: '/api/forms/newsletter' }],
      ['empty object', json({})],
      ['an array', json([signUp('a@example.com')])],
      ['a string', json('"a@example.com"')],
      ['broken JSON', json('{"email": ')],
      ['null', json('null')],
      ['missing e-mail', json({ ...signUp('x'), email: undefined })],
      ['empty e-mail', json(signUp(''))],
      ['e-mail without @', json(signUp('kept.example.com'))],
      ['e-mail with spaces', json(signUp('kept @example.com'))],
      ['e-mail without domain dot', json(signUp('kept@example'))],
      ['e-mail too long', json(signUp(`${'a'.repeat(250)}@example.com`))],
      ['e-mail as a number', json(signUp('x', { email: 42 }))],
      ['e-mail as an array', json(signUp('x', { email: ['kept@example.com'] }))],
      ['no consent', json(signUp('kept@example.com', { consent: undefined }))],
      ['consent refused', json(signUp('kept@example.com', { consent: 'no' }))],
      ['no topic', json(signUp('kept@example.com', { topics: [] }))],
      ['unknown topic', json(signUp('kept@example.com', { topics: ['gossip'] }))],
      ['topic as an object', json(signUp('kept@example.com', { topics: { a: 1 } }))],
      ['outdated consent version', json(signUp('kept@example.com', { version: 'v0' }))],
      ['unknown language', json(signUp('kept@example.com', { language: 'fr' }))],
      ['unknown field', json(signUp('kept@example.com', { admin: true }))],
      ['prototype pollution', json('{"__proto__": {"admin": true}, "email": "kept@example.com"}')],
      ['honeypot as an object', json(signUp('kept@example.com', { website: { a: 1 } }))],
      ['unknown form', json(signUp('kept@example.com'), '/api/forms/nope')],
      ['path traversal in the form', json(signUp('kept@example.com'), '/api/forms/..%2Fsurvey')],
      [
        'wrong content type',
        { ...json(signUp('kept@example.com')), headers: { 'content-type': 'text/plain' } },
      ],
      ['body too large', json(signUp('kept@example.com', { website: 'x'.repeat(70_000) }))],
      ['a display name around the address', json(signUp('x<kept@example.com>'))],
      ['a group of addresses', json(signUp('group:kept@example.com;'))],
      ['a NUL in the address', json(signUp('kept\u0000x@example.com'))],
      [
        'a form named like a property of every object',
        json(signUp('kept@example.com'), '/api/forms/constructor'),
      ],
      ['a form named __proto__', json(signUp('kept@example.com'), '/api/forms/__proto__')],
      ['a form named toString', json(signUp('kept@example.com'), '/api/forms/toString')],
      [
        'survey: a NUL in a text answer',
        json({ ...survey, 'answers.comment': 'a\u0000b' }, '/api/forms/survey'),
      ],
      [
        'survey: an escape sequence in a text answer',
        json({ ...survey, 'answers.comment': 'a\u001b[2J' }, '/api/forms/survey'),
      ],
      [
        'survey: missing required answer',
        json({ ...survey, 'answers.role': undefined }, '/api/forms/survey'),
      ],
      ['survey: unknown option', json({ ...survey, 'answers.role': 'ceo' }, '/api/forms/survey')],
      [
        'survey: two answers to a single choice',
        json({ ...survey, 'answers.role': ['partner', 'other'] }, '/api/forms/survey'),
      ],
      [
        'survey: scale out of range',
        json({ ...survey, 'answers.satisfaction': '9' }, '/api/forms/survey'),
      ],
      [
        'survey: scale not a number',
        json({ ...survey, 'answers.satisfaction': 'high' }, '/api/forms/survey'),
      ],
      [
        'survey: answer too long',
        json({ ...survey, 'answers.comment': 'x'.repeat(21) }, '/api/forms/survey'),
      ],
      [
        'survey: unknown question',
        json({ ...survey, 'answers.salary': '100' }, '/api/forms/survey'),
      ],
      ['survey: outdated version', json({ ...survey, version: '2' }, '/api/forms/survey')],
    ]
    expect(cases.length).toBeGreaterThanOrEqual(30)
    for (const [name, request] of cases) {
      const response = await service.app.inject(request)
      expect(response.statusCode, name).toBeGreaterThanOrEqual(400)
      expect(response.statusCode, name).toBeLessThan(500)
      expect(response.json().ok, name).toBe(false)
    }
    expect(await counts(service)).toEqual(stored)
    expect(await service.query('SELECT * FROM subscribers')).toEqual(before)
    expect(service.inbox.mails).toHaveLength(1)
  })

  it('stores survey answers with the version of the questions', async () => {
    const response = await post(
      {
        'answers.role': 'partner',
        'answers.services': ['cards', 'accounts'],
        'answers.satisfaction': '4',
        'answers.comment': '  Faster payouts ',
        version: '3',
        language: 'de',
      },
      'survey',
    )
    expect(response.json()).toEqual({ ok: true, redirect: '/de/survey-success/' })
    const rows = await service.query(
      'SELECT survey, version, language, answers FROM survey_responses',
    )
    expect(rows).toEqual([
      {
        survey: 'survey',
        version: '3',
        language: 'de',
        answers: {
          role: 'partner',
          services: ['cards', 'accounts'],
          satisfaction: 4,
          comment: 'Faster payouts',
        },
      },
    ])
  })

  it('answers a bot that fills the hidden field as if all went well, and stores nothing', async () => {
    const response = await post(signUp('bot@example.com', { website: 'https://spam.example' }))
    expect(response.json()).toEqual({ ok: true, redirect: '/en/newsletter-success/' })
    await new Promise((done) => setTimeout(done, 200))
    expect(service.inbox.mails).toHaveLength(0)
    expect((await counts(service)).subscribers).toBe(0)
  })

  it('stores the cookie banner choices without an address', async () => {
    const record = {
      id: '5b0c1f7e-8d1a-4a4b-9f5e-2f1d3c4b5a69',
      categories: { analytics: true, conversion: false },
      trackers: { googleanalytics: true, adwords: false, twitter: false, linkedin: true },
      revision: '3',
      language: 'de',
    }
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/consent',
      payload: record,
    })
    expect(response.statusCode).toBe(204)
    const rows = await service.query('SELECT * FROM consent_records')
    expect(rows).toHaveLength(1)
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      ['categories', 'consent_id', 'id', 'language', 'recorded_at', 'revision', 'trackers'].sort(),
    )
    const bad = await service.app.inject({
      method: 'POST',
      url: '/api/consent',
      payload: { ...record, ip: '1.2.3.4' },
    })
    expect(bad.statusCode).toBe(422)
  })
})

describe('forms service failures', () => {
  it('accepts a sign-up while SMTP is unreachable and keeps its mail queued for a retry; an erasure removes it', async () => {
    const logs: string[] = []
    const service = await startService(
      {},
      { smtpUrl: 'smtp://127.0.0.1:9', logs, sender: { retryBaseMs: 60_000 } },
    )
    try {
      const response = await service.app.inject({
        method: 'POST',
        url: '/api/forms/newsletter',
        payload: signUp('ada@example.com'),
      })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ ok: true, redirect: '/en/newsletter-success/' })
      const [job] = await until(() =>
        service.query<{ attempts: number; last_error: string; waits: boolean }>(
          `SELECT attempts, last_error, run_at > now() + interval '40 seconds' AS waits
           FROM mail_jobs WHERE attempts > 0 AND locked_until IS NULL`,
        ),
      )
      expect(job).toEqual({ attempts: 1, last_error: 'ESOCKET', waits: true })
      const [row] = await service.query<{ status: string; mailed: boolean }>(
        'SELECT status, mailed_at IS NOT NULL AS mailed FROM subscribers',
      )
      // Still within the cooling period: a second sign-up queues no second mail.
      expect(row).toEqual({ status: 'pending', mailed: true })
      await service.app.inject({
        method: 'POST',
        url: '/api/forms/newsletter',
        payload: signUp('ada@example.com'),
      })
      expect(await service.query('SELECT id FROM mail_jobs')).toHaveLength(1)
      // No link was made for a mail that did not go out.
      expect(await service.query('SELECT hash FROM subscriber_tokens')).toEqual([])
      expect(logs.join('')).toContain('confirmation e-mail not sent; will retry')
      expect(logs.join('')).not.toContain('ada@example.com')
      expect(await eraseEmail(service.database, 'ada@example.com')).toEqual({ subscriptions: 1 })
      expect(await service.query('SELECT id FROM mail_jobs')).toEqual([])
    } finally {
      await service.close()
    }
  })

  it('logs forms and outcomes, never an address, a token or the visitor’s IP', async () => {
    const logs: string[] = []
    const service = await startService({}, { logs })
    try {
      await service.app.inject({
        method: 'POST',
        url: '/api/forms/newsletter',
        payload: signUp('secret.person@example.com'),
      })
      const [mail] = await service.inbox.waitFor(1)
      const unsubscribe = new URL(linkIn(mail, '/unsubscribe'))
      await service.app.inject({
        method: 'POST',
        url: `${unsubscribe.pathname}${unsubscribe.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
        remoteAddress: '203.0.113.7',
      })
      const token = unsubscribe.searchParams.get('token') ?? ''
      const text = logs.join('')
      expect(text).toContain('sign-up recorded')
      expect(text).toContain('one-click unsubscribe')
      expect(text).not.toContain('secret.person')
      expect(text).not.toContain(token)
      expect(text).not.toContain('203.0.113.7')
    } finally {
      await service.close()
    }
  })

  it('gives up on a refused recipient, logs it without the address and lets the address ask again', async () => {
    const logs: string[] = []
    const service = await startService({}, { logs, rejectRecipients: true })
    try {
      const send = () =>
        service.app.inject({
          method: 'POST',
          url: '/api/forms/newsletter',
          payload: signUp('refused.person@example.com'),
        })
      expect((await send()).statusCode).toBe(200)
      const failed = () =>
        service.query<{ attempts: number; last_error: string }>(
          'SELECT attempts, last_error FROM mail_jobs WHERE failed_at IS NOT NULL',
        )
      expect(await until(failed)).toEqual([{ attempts: 1, last_error: 'smtp 550' }])
      const [row] = await service.query<{ mailed_at: Date | null }>(
        'SELECT mailed_at FROM subscribers',
      )
      expect(row).toEqual({ mailed_at: null })
      const text = logs.join('')
      expect(text).toContain('confirmation e-mail not sent; given up')
      expect(text).toContain('"responseCode":550')
      expect(text).not.toContain('refused.person')
      // Failed for good: the next sign-up may ask again at once, and fails again.
      expect((await send()).statusCode).toBe(200)
      expect(await until(async () => ((await failed()).length === 2 ? failed() : []))).toHaveLength(
        2,
      )
      expect(service.inbox.mails).toHaveLength(0)
    } finally {
      await service.close()
    }
  })

  it('limits opening links as it limits confirming; an over-used link answers with a page, not JSON', async () => {
    const service = await startService({}, { rateLimit: 1 })
    try {
      await service.app.inject({
        method: 'POST',
        url: '/api/forms/newsletter',
        payload: signUp('ada@example.com'),
      })
      const [mail] = await service.inbox.waitFor(1)
      const opened: number[] = []
      for (let time = 0; time < 11; time++) {
        const response = await service.app.inject({ url: pathOf(linkIn(mail, '/unsubscribe')) })
        opened.push(response.statusCode)
      }
      expect(opened.slice(0, 10)).toEqual(Array(10).fill(200))
      expect(opened[10]).toBe(429)
      // The one-click POST of RFC 8058 is limited the same way.
      const boundary = 'x-boundary'
      const clicked: number[] = []
      for (let time = 0; time < 11; time++) {
        const response = await service.app.inject({
          method: 'POST',
          url: pathOf(linkIn(mail, '/unsubscribe')),
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
        })
        clicked.push(response.statusCode)
      }
      expect(clicked.slice(0, 10).every((status) => status !== 429)).toBe(true)
      expect(clicked[10]).toBe(429)
      const statuses: number[] = []
      let last = ''
      for (let time = 0; time < 11; time++) {
        const response = await service.app.inject({
          url: `/api/subscriptions/confirm?token=${'x'.repeat(43)}&lang=de`,
        })
        statuses.push(response.statusCode)
        last = response.body
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(303))
      expect(statuses[10]).toBe(429)
      expect(last).toContain('<html lang="de">')
      expect(last).toContain('Zu viele Versuche')
    } finally {
      await service.close()
    }
  })

  it('limits sends per address and says so', async () => {
    const service = await startService({}, { rateLimit: 3 })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) {
        const response = await service.app.inject({
          method: 'POST',
          url: '/api/forms/newsletter',
          payload: signUp(`person${i}@example.com`),
        })
        statuses.push(response.statusCode)
        if (response.statusCode === 429)
          expect(response.json()).toMatchObject({ ok: false, reason: 'rateLimited' })
      }
      expect(statuses).toEqual([200, 200, 200, 429])
    } finally {
      await service.close()
    }
  })
})
