/**
 * The operators' tools (CSV export, erasure, purge of unconfirmed sign-ups), the outbox that
 * stands in for SMTP, and the lock that keeps two processes off one PGlite folder.
 */
import { randomBytes } from 'node:crypto'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFileStore } from '../../../src/content/file-store'
import { loadFormsContent } from '../../../src/content/forms'
import type { Database } from '../../../src/database/database'
import { openDatabase } from '../../../src/database/open'
import { FORMS_MIGRATIONS } from '../../../src/forms/migrations'
import {
  csvCell,
  eraseEmail,
  exportSubscribers,
  exportSurveys,
  purge,
} from '../../../src/forms/operations'
import { MailSender } from '../../../src/forms/sender'
import { FormsStore, hashToken } from '../../../src/forms/store'
import { networkGroups } from '../../../src/http/client-address'
import { createMailer, type Mailer, readOutbox } from '../../../src/mail/transport'
import { FIXTURE_CONTENT } from '../../support/forms'
import { removeFolder } from '../../support/temporary-folder'

const DAY = 24 * 3_600_000
const scratch = () => join(tmpdir(), `forms-ops-${randomBytes(6).toString('hex')}`)

describe('operators’ tools', () => {
  let db: Database
  let store: FormsStore
  let mailer: Mailer
  let sender: MailSender
  const outbox = scratch()
  let now = Date.parse('2026-10-01T08:00:00Z')
  /** Sends the queued mails into the outbox; the tokens of the last one to `email`. */
  const tokensOf = async (email: string) => {
    await sender.runOnce()
    const mail = (await readOutbox(outbox)).filter((sent) => sent.to === email).at(-1)
    const token = (action: string) =>
      new RegExp(`/api/subscriptions/${action}\\?token=([\\w-]+)`).exec(mail?.text ?? '')?.[1] ?? ''
    return { confirm: token('confirm'), unsubscribe: token('unsubscribe') }
  }
  beforeAll(async () => {
    db = await openDatabase({ migrations: FORMS_MIGRATIONS })
    store = new FormsStore(db, { now: () => new Date(now), coolingMs: 0 })
    mailer = await createMailer({ outboxDir: outbox, from: 'Test <test@example.com>' })
    const { forms, settings } = await loadFormsContent(createFileStore(FIXTURE_CONTENT))
    sender = new MailSender({
      database: db,
      mailer,
      forms,
      settings,
      siteUrl: 'https://bank.example',
      now: () => new Date(now),
    })
    const signUp = (list: string, email: string, topics: string[]) =>
      store.signUp({
        list,
        email,
        language: 'de',
        topics,
        consentVersion: '7',
        consentText: 'Ja, "bitte", per E-Mail',
      })
    await signUp('newsletter', 'ada@example.com', ['services', 'studies'])
    const ada = await tokensOf('ada@example.com')
    await signUp('productupdates', 'ada@example.com', [])
    expect(await sender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0, skipped: 0 })
    await signUp('newsletter', '=bob@example.com', [])
    const bob = await tokensOf('=bob@example.com')
    expect((await store.confirm(ada.confirm)).outcome).toBe('done')
    expect((await store.confirm(bob.confirm)).outcome).toBe('done')
    now += 40 * DAY
    await signUp('newsletter', 'carl@example.com', [])
    await store.saveSurvey({
      survey: 'survey',
      version: '2',
      language: 'en',
      answers: { role: 'x', uses: ['a', 'b'] },
    })
    await store.saveSurvey({
      survey: 'survey',
      version: '2',
      language: 'de',
      answers: { score: 4, note: 'Mehr, "bitte"' },
    })
  })
  afterAll(async () => {
    await mailer.close()
    await db.close()
    await removeFolder(outbox)
  })

  it('exports confirmed subscribers only, with the proof of consent and an unsubscribe link, as safe CSV', async () => {
    const csv = await exportSubscribers(db, {
      now: new Date(now),
      unsubscribeLink: (token, language) =>
        `https://bank.example/u?token=${token}&lang=${language}`,
    })
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'list,email,language,topics,requested_at,confirmed_at,consent_version,consent_text,unsubscribe_link',
    )
    expect(lines).toHaveLength(3)
    expect(lines[2]).toMatch(
      /^newsletter,ada@example\.com,de,services\|studies,2026-10-01T08:00:00\.000Z,2026-10-01T08:00:00\.000Z,7,"Ja, ""bitte"", per E-Mail",https:\/\/bank\.example\/u\?token=[\w-]+&lang=de$/,
    )
    // A cell starting with = would run as a formula in a spreadsheet.
    expect(lines[1]?.split(',')[1]).toBe("'=bob@example.com")
    // The link's token works for as long as the subscription can last; only its hash is kept.
    const token = new URL(lines[2]?.split(',').at(-1) ?? '').searchParams.get('token') ?? ''
    const [stored] = await db.query<{ purpose: string; expires_at: Date }>(
      'SELECT purpose, expires_at FROM subscriber_tokens WHERE hash = $1',
      [hashToken(token)],
    )
    expect(stored?.purpose).toBe('unsubscribe')
    expect(stored?.expires_at.getTime()).toBeGreaterThan(now + 90 * 365 * DAY)
    const header = `${lines[0]}\r\n`
    expect(
      await exportSubscribers(db, {
        list: 'productupdates',
        now: new Date(now),
        unsubscribeLink: String,
      }),
    ).toBe(header)
  })

  it('exports survey answers with a column per question', async () => {
    const lines = (await exportSurveys(db)).trimEnd().split('\r\n')
    expect(lines[0]).toBe('survey,version,language,submitted_at,role,uses,note,score')
    expect(lines[1]).toBe('survey,2,en,2026-11-10T08:00:00.000Z,x,a|b,,')
    expect(lines[2]).toBe('survey,2,de,2026-11-10T08:00:00.000Z,,,"Mehr, ""bitte""",4')
  })

  it('deletes sign-ups never confirmed after 30 days, former subscribers and banner records after 3 years', async () => {
    const dora = await store.signUp({
      list: 'newsletter',
      email: 'dora@example.com',
      language: 'en',
      topics: [],
      consentVersion: '7',
      consentText: 'Yes',
      client: networkGroups('192.0.2.7'),
    })
    expect(dora).toBeDefined()
    const networks = async () =>
      (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM client_quota'))[0]?.n
    const links = await tokensOf('dora@example.com')
    expect((await store.confirm(links.confirm)).outcome).toBe('done')
    expect((await store.unsubscribe(links.unsubscribe)).outcome).toBe('done')
    // Ada's product updates were never confirmed (40 days); Carl signed up today.
    await store.saveConsent({
      consentId: '5b0c1f7e-8d1a-4a4b-9f5e-2f1d3c4b5a69',
      categories: { analytics: true, conversion: false },
      trackers: { googleanalytics: true, adwords: true, twitter: true, linkedin: true },
      revision: '1',
      language: 'en',
    })
    // The record of Ada's and Bob's mails, sent 40 days ago, goes too; Dora's is new.
    expect(await purge(db, new Date(now))).toEqual({
      unconfirmed: 1,
      former: 0,
      consentRecords: 0,
      mails: 2,
    })
    const emails = async () =>
      (await db.query<{ email: string }>('SELECT email FROM subscribers ORDER BY email')).map(
        (row) => row.email,
      )
    expect(await emails()).toEqual([
      '=bob@example.com',
      'ada@example.com',
      'carl@example.com',
      'dora@example.com',
    ])
    // A client network's count is kept for its hour only.
    expect(await networks()).toBe(1)
    // Dora's proof of consent is kept for three years after she left, then erased.
    expect(await purge(db, new Date(now + 2 * 365 * DAY))).toEqual({
      unconfirmed: 1,
      former: 0,
      consentRecords: 0,
      mails: 1,
    })
    expect(await networks()).toBe(0)
    // The cookie banner's records go after three years as well.
    expect(await purge(db, new Date(now + 3 * 365 * DAY + DAY))).toEqual({
      unconfirmed: 0,
      former: 1,
      consentRecords: 1,
      mails: 0,
    })
    expect(await emails()).toEqual(['=bob@example.com', 'ada@example.com'])
  })

  it('erases an address on every list with its links, history and queued mails', async () => {
    await store.signUp({
      list: 'productupdates',
      email: 'ada@example.com',
      language: 'de',
      topics: [],
      consentVersion: '7',
      consentText: 'Ja',
    })
    const queued = (
      await db.query<{ id: string }>(
        `SELECT j.id FROM mail_jobs j JOIN subscribers s ON s.id = j.subscriber_id
         WHERE s.email = $1 AND j.sent_at IS NULL`,
        ['ada@example.com'],
      )
    ).map((row) => row.id)
    expect(queued).toHaveLength(1)
    expect(await eraseEmail(db, ' ADA@example.com ')).toEqual({ subscriptions: 2 })
    // The queued mail goes with her: nothing left to send to the address.
    expect(
      await db.query('SELECT id FROM mail_jobs WHERE id = ANY($1::bigint[])', [queued]),
    ).toEqual([])
    expect(await eraseEmail(db, 'ada@example.com')).toEqual({ subscriptions: 0 })
    const events = await db.query(
      'SELECT * FROM subscription_events e JOIN subscribers s ON s.id = e.subscriber_id WHERE s.email = $1',
      ['ada@example.com'],
    )
    expect(events).toEqual([])
    const orphans = await db.query(
      'SELECT 1 FROM subscriber_tokens t LEFT JOIN subscribers s ON s.id = t.subscriber_id WHERE s.id IS NULL',
    )
    expect(orphans).toEqual([])
  })

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['+49 30', "'+49 30"],
    ['@here', "'@here"],
    [null, ''],
    [['a', 'b'], 'a|b'],
  ])('writes %j as %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell)
  })
})

describe('the outbox', () => {
  it('keeps each mail as sent and readable, oldest first', async () => {
    const dir = scratch()
    const mailer = await createMailer({ outboxDir: dir, from: 'Bank <bank@example.com>' })
    try {
      await mailer.send({
        to: 'a@example.com',
        subject: 'Erste',
        text: 'Link: https://x.example/1',
        html: '<p>1</p>',
      })
      await mailer.send({
        to: 'b@example.com',
        subject: 'Zweite',
        text: 'Link: https://x.example/2',
        html: '<p>2</p>',
      })
      const mails = await readOutbox(dir)
      expect(mails.map((mail) => [mail.to, mail.subject])).toEqual([
        ['a@example.com', 'Erste'],
        ['b@example.com', 'Zweite'],
      ])
      const raw = await readFile(join(dir, mails[0]?.file ?? ''), 'utf8')
      expect(raw).toMatch(/^From: Bank <bank@example.com>/m)
      expect(raw).toMatch(/^To: a@example.com/m)
      expect((await readdir(dir)).filter((file) => file.endsWith('.eml'))).toHaveLength(2)
    } finally {
      await mailer.close()
      await removeFolder(dir)
    }
  })
})

describe('PGlite in a folder', () => {
  it('refuses a folder another running process holds, and takes over a stale lock', async () => {
    const dir = scratch()
    try {
      // The parent process (the test runner's) is alive and is not us.
      await writeFile(`${dir}.lock`, String(process.ppid))
      await expect(openDatabase({ dataDir: dir, migrations: FORMS_MIGRATIONS })).rejects.toThrow(
        `is in use by process ${process.ppid}`,
      )
      await writeFile(`${dir}.lock`, '999999999')
      const db = await openDatabase({ dataDir: dir, migrations: FORMS_MIGRATIONS })
      expect(await readFile(`${dir}.lock`, 'utf8')).toBe(String(process.pid))
      await db.close()
      await expect(readFile(`${dir}.lock`, 'utf8')).rejects.toThrow()
    } finally {
      await removeFolder(dir)
      await rm(`${dir}.lock`, { force: true })
    }
  })
})
