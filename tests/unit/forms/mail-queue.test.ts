/**
 * The mail queue under faults: sign-ups answered while the SMTP server is down have their
 * mails delivered once it is back, each exactly once; and two service processes on one
 * PostgreSQL, signing up the same addresses at once, send every mail once and keep one
 * subscriber per address and list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFileStore } from '../../../src/content/file-store'
import { loadFormsContent } from '../../../src/content/forms'
import type { Database } from '../../../src/database/database'
import { openDatabase } from '../../../src/database/open'
import { FORMS_MIGRATIONS } from '../../../src/forms/migrations'
import { MailSender } from '../../../src/forms/sender'
import { FormsStore } from '../../../src/forms/store'
import { createMailer, readOutbox } from '../../../src/mail/transport'
import {
  databases,
  FIXTURE_CONTENT,
  type Inbox,
  linkIn,
  type ServerProcess,
  signUp,
  spawnFormsServer,
  startService,
  startSmtp,
  stopFormsServer,
  until,
} from '../../support/forms'
import { rawRequest, sendRaw } from '../../support/raw-http'
import { createSchema, type Schema } from '../../support/schema'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** Runs `work` over `items` with `concurrency` workers at a time. */
async function pool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++
        results[index] = await work(items[index] as T)
      }
    }),
  )
  return results
}

describe.each(databases())('an SMTP outage on $name', (database) => {
  it('answers every sign-up, then delivers each mail exactly once when SMTP is back', async () => {
    const service = await startService(database, {
      sender: { pollMs: 50, retryBaseMs: 100, retryMaxMs: 300, batchSize: 20 },
      // Every sign-up from one client: no share per client network here.
      mailsPerClient: 0,
    })
    try {
      await service.inbox.stop()
      const addresses = Array.from({ length: 40 }, (_, index) => `outage${index}@example.com`)
      // Every fourth address signs up twice at once: still one mail.
      const posts = [...addresses, ...addresses.filter((_, index) => index % 4 === 0)]
      const responses = await pool(posts, 8, (email) =>
        service.app.inject({
          method: 'POST',
          url: '/api/forms/newsletter',
          payload: signUp(email),
        }),
      )
      expect(responses.map((response) => response.statusCode)).toEqual(posts.map(() => 200))
      expect(new Set(responses.map((response) => response.json().ok))).toEqual(new Set([true]))
      // The sender tried, failed to connect and keeps the mails for later.
      await until(() =>
        service.query(
          `SELECT 1 FROM mail_jobs HAVING count(*) FILTER (WHERE attempts >= 2) = ${addresses.length}`,
        ),
      )
      expect(service.inbox.mails).toHaveLength(0)

      await service.inbox.start()
      await service.inbox.waitFor(addresses.length, 10_000)
      // Time for a duplicate to arrive, were there one.
      await new Promise((done) => setTimeout(done, 500))
      const counts = service.inbox.countByRecipient()
      expect([...counts.keys()].sort()).toEqual([...addresses].sort())
      expect([...counts.values()].every((count) => count === 1)).toBe(true)
      const jobs = await service.query<{ sent: number; open: number; failed: number }>(
        `SELECT count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent,
           count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL)::int AS open,
           count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed
         FROM mail_jobs`,
      )
      expect(jobs).toEqual([{ sent: addresses.length, open: 0, failed: 0 }])
      // Each subscriber has the links of its one mail: a confirmation and an unsubscribe link.
      const [links] = await service.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM subscriber_tokens',
      )
      expect(links?.n).toBe(2 * addresses.length)
    } finally {
      await service.close()
    }
  }, 30_000)
})

describe.each(databases())('a sign-up asked again while its mail waits, on $name', (database) => {
  it('sends only the newest mail, and its link confirms', async () => {
    // No cooling period: the second sign-up queues a second mail at once.
    const service = await startService(database, {
      coolingMs: 0,
      sender: { pollMs: 50, retryBaseMs: 100, retryMaxMs: 200 },
    })
    try {
      await service.inbox.stop()
      const send = (topics: string[]) =>
        service.app.inject({
          method: 'POST',
          url: '/api/forms/newsletter',
          payload: signUp('again@example.com', { topics }),
        })
      expect((await send(['services'])).statusCode).toBe(200)
      // The first mail failed once and waits for its retry when the address asks again.
      await until(() =>
        service.query('SELECT 1 FROM mail_jobs WHERE attempts > 0 AND locked_until IS NULL'),
      )
      expect((await send(['regulation'])).statusCode).toBe(200)
      // At its retry, the first mail is dropped for the newer one.
      await until(() => service.query("SELECT 1 FROM mail_jobs WHERE last_error = 'superseded'"))
      await service.inbox.start()
      const [mail] = await service.inbox.waitFor(1)
      await new Promise((done) => setTimeout(done, 500))
      expect(service.inbox.mails).toHaveLength(1)
      const jobs = await service.query<{ sent: boolean; last_error: string | null }>(
        'SELECT sent_at IS NOT NULL AS sent, last_error FROM mail_jobs ORDER BY id',
      )
      expect(jobs).toEqual([
        { sent: false, last_error: 'superseded' },
        { sent: true, last_error: null },
      ])
      const link = new URL(linkIn(mail, '/confirm'))
      const confirmed = await service.app.inject({
        method: 'POST',
        url: `${link.pathname}${link.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      })
      expect(confirmed.headers.location).toBe('/en/newsletter-confirmed/')
      const [row] = await service.query<{ status: string; topics: string[] }>(
        'SELECT status, topics FROM subscribers',
      )
      expect(row).toEqual({ status: 'confirmed', topics: ['regulation'] })
    } finally {
      await service.close()
    }
  }, 30_000)
})

describe.each(databases())('a round that fails after its claim, on $name', (database) => {
  it('sends the mails it had claimed at the next round, not when their lease ends', async () => {
    const schema = database.url ? await createSchema(database.url, 'claimfail') : undefined
    const real = await openDatabase({
      url: schema?.url,
      ...(schema ? { schema: schema.name } : {}),
      migrations: FORMS_MIGRATIONS,
    })
    const outbox = await temporaryFolder('forms-claim-fail-')
    // The links are made in a transaction after the claim: the first one fails, as a full disk
    // or a lost connection would make it.
    let failures = 1
    const flaky: Database = {
      kind: real.kind,
      query: (sql, params, options) => real.query(sql, params, options),
      transaction: (work) => {
        if (failures-- > 0) return Promise.reject(new Error('No space left on device'))
        return real.transaction(work)
      },
      close: async () => {},
    }
    try {
      const { forms, settings } = await loadFormsContent(createFileStore(FIXTURE_CONTENT))
      const mailer = await createMailer({ outboxDir: outbox, from: 'Test <test@example.com>' })
      const sender = new MailSender({
        database: flaky,
        mailer,
        forms,
        settings,
        siteUrl: 'https://bank.example',
        leaseMs: 60_000,
      })
      const store = new FormsStore(real)
      const signedUp = await store.signUp({
        list: 'newsletter',
        email: 'claimed@example.com',
        language: 'en',
        topics: [],
        consentVersion: '1',
        consentText: 'Yes, please.',
      })
      expect(signedUp.outcome).toBe('queued')
      await expect(sender.runOnce()).rejects.toThrow('No space left on device')
      // The job is still leased to this process for a minute; its next round takes it anyway.
      expect(await sender.runOnce()).toEqual({ sent: 1, retried: 0, failed: 0, skipped: 0 })
      const mails = await readOutbox(outbox)
      expect(mails.map((mail) => mail.to)).toEqual(['claimed@example.com'])
      expect(await sender.runOnce()).toEqual({ sent: 0, retried: 0, failed: 0, skipped: 0 })
      await mailer.close()
    } finally {
      await real.close()
      await schema?.drop()
      await removeFolder(outbox)
    }
  }, 30_000)
})

const postgres = databases().find((database) => database.url)

describe.skipIf(!postgres)('two service processes on one PostgreSQL', () => {
  let inbox: Inbox
  let schema: Schema
  let url = ''

  beforeAll(async () => {
    inbox = await startSmtp()
    schema = await createSchema(postgres?.url ?? '', 'twins')
    url = schema.url
  })
  afterAll(async () => {
    await inbox.close()
    await schema?.drop()
  })

  it('sends every mail once and keeps one subscriber per address and list', async () => {
    const env = { DATABASE_URL: url, SMTP_URL: inbox.url }
    // Started one after the other: the first applies the migrations.
    const servers: ServerProcess[] = [await spawnFormsServer(env)]
    servers.push(await spawnFormsServer(env))
    try {
      const addresses = Array.from({ length: 150 }, (_, index) => `twin${index}@example.com`)
      // Each address to one process; every third to both at once, and to both lists.
      const posts = addresses.flatMap((email, index) => {
        const one = servers[index % 2] as ServerProcess
        const other = servers[(index + 1) % 2] as ServerProcess
        return index % 3 === 0
          ? [
              { origin: one.origin, email, list: 'newsletter' },
              { origin: other.origin, email, list: 'newsletter' },
              { origin: other.origin, email, list: 'productupdates' },
            ]
          : [{ origin: one.origin, email, list: 'newsletter' }]
      })
      const statuses = await pool(posts, 16, async ({ origin, email, list }) => {
        const response = await fetch(`${origin}/api/forms/${list}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(
            list === 'newsletter'
              ? signUp(email)
              : { email, consent: 'yes', version: 'v1', language: 'en' },
          ),
        })
        return response.status
      })
      expect(statuses).toEqual(posts.map(() => 200))
      const expected = addresses.length + Math.ceil(addresses.length / 3)
      await inbox.waitFor(expected, 15_000)
      // Past a poll of both processes: a second copy would have arrived by now.
      await new Promise((done) => setTimeout(done, 1500))
      expect(inbox.mails).toHaveLength(expected)
      const counts = inbox.countByRecipient()
      for (const [index, email] of addresses.entries()) {
        expect(counts.get(email), email).toBe(index % 3 === 0 ? 2 : 1)
      }
      const db = await openDatabase({ url, poolSize: 1 })
      try {
        const [rows] = await db.query<{ rows: number; distinct: number }>(
          'SELECT count(*)::int AS rows, count(DISTINCT (list, email))::int AS distinct FROM subscribers',
        )
        expect(rows).toEqual({ rows: expected, distinct: expected })
        const senders = await until(() =>
          db.query<{ claimed_by: string }>(
            'SELECT DISTINCT claimed_by FROM mail_jobs WHERE sent_at IS NOT NULL',
          ),
        )
        // Both processes sent mail.
        expect(senders).toHaveLength(2)
        const [open] = await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM mail_jobs WHERE sent_at IS NULL',
        )
        expect(open?.n).toBe(0)
      } finally {
        await db.close()
      }
    } finally {
      for (const server of servers) expect(await stopFormsServer(server)).toBe(0)
    }
  }, 60_000)

  it('holds a client network to its share of the mails across both processes', async () => {
    // A share of 4 an hour per network, the cap far from reached.
    const env = {
      DATABASE_URL: url,
      SMTP_URL: inbox.url,
      CONFIRMATION_MAILS_PER_HOUR: '1000',
      CONFIRMATION_MAILS_PER_CLIENT: '4',
    }
    const servers = [await spawnFormsServer(env), await spawnFormsServer(env)]
    try {
      const before = inbox.mails.length
      const send = (server: ServerProcess, localAddress: string, email: string) => {
        const body = JSON.stringify(signUp(email))
        return sendRaw(
          { port: Number(new URL(server.origin).port), localAddress },
          rawRequest(
            'POST',
            '/api/forms/newsletter',
            {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            },
            body,
          ),
        ).then((answer) => answer.status)
      }
      // 40 addresses of one /24, to both processes at once.
      const statuses = await pool(
        Array.from({ length: 40 }, (_, index) => index),
        8,
        (index) =>
          send(
            servers[index % 2] as ServerProcess,
            `127.0.0.${index + 2}`,
            `share${index}@example.com`,
          ),
      )
      expect(statuses.filter((status) => status === 200)).toHaveLength(4)
      expect(statuses.filter((status) => status === 429)).toHaveLength(36)
      // Another network, at either process.
      for (const [index, server] of servers.entries()) {
        expect(await send(server, '127.0.5.1', `other${index}@example.com`)).toBe(200)
      }
      await inbox.waitFor(before + 6, 15_000)
    } finally {
      for (const server of servers) expect(await stopFormsServer(server)).toBe(0)
    }
  }, 60_000)
})
