/**
 * A rolling upgrade of the forms service on one PostgreSQL: a process of the older version
 * (the upgrade fixture's commit, checked out with `git archive` and run as `npm run
 * serve:api` runs it) takes sign-ups on the schema its own migrations made; the current
 * code's migrations run as the upgrade job while it does (`npm run cms -- migrate`, as the
 * tables' owner); then a process of the current version starts beside it, and another of the
 * older version starts on the newer schema (what a rollback of the software, or a scale-up
 * during the rollout, does). Sign-ups, confirmations and unsubscriptions go to all three, each
 * confirmed at a process other than the one it signed up at; every sign-up is stored once,
 * mailed once, its links work wherever they are pressed, and no process logs an error.
 * Needs PostgreSQL (`TEST_DATABASE_URL`; PGlite serves one process).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/database/open'
import { FORMS_MIGRATIONS } from '../../../src/forms/migrations'
import { type Inbox, linkIn, startSmtp } from '../../support/forms'
import {
  checkOutOlderVersion,
  type OlderVersion,
  PROJECT_ROOT,
  unreachable,
} from '../../support/older-version'
import { type RunningService, runProgram, startProgram } from '../../support/programs'
import { createSchema, type Schema } from '../../support/schema'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'
import { readManifest } from '../../support/upgrade-fixture'

const OWNER_URL = process.env.TEST_DATABASE_URL
const SERVICE_URL = process.env.TEST_DATABASE_SERVICE_URL
/** The older version: the upgrade fixture's, the last before the latest migrations. */
const { commit } = await readManifest()
const missing = OWNER_URL ? unreachable(commit) : 'needs PostgreSQL (TEST_DATABASE_URL)'

const CONSENT = /^consentVersion: "(.*)"$/m

describe.skipIf(missing)(
  `a rolling upgrade of the forms service from ${commit.slice(0, 12)}${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let older: OlderVersion
    let schema: Schema
    let dir: string
    let inbox: Inbox
    const env: Record<string, string> = {}
    const running: Record<'old' | 'new' | 'oldAgain', RunningService | undefined> = {
      old: undefined,
      new: undefined,
      oldAgain: undefined,
    }
    /** Each address signed up, and where (the process's origin). */
    const signedUp = new Map<string, { list: string; at: string }>()

    const post = async (origin: string, path: string, body: unknown) => {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return response.status
    }
    const consentVersion = async (list: string) =>
      CONSENT.exec(
        await readFile(join(PROJECT_ROOT, `content/forms/lists/${list}.yaml`), 'utf8'),
      )?.[1]
    const signUp = async (origin: string, list: string, email: string) => {
      signedUp.set(email, { list, at: origin })
      return post(origin, `/api/forms/${list}`, {
        email,
        topics: list === 'newsletter' ? ['services'] : ['api-changes'],
        consent: 'yes',
        version: await consentVersion(list),
        language: 'en',
      })
    }
    /** The link's button, pressed at `origin`: where it leads. */
    const press = async (origin: string, link: string) => {
      const url = new URL(link)
      const response = await fetch(`${origin}${url.pathname}${url.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      })
      return response.status === 303
        ? (response.headers.get('location') ?? '')
        : `${response.status}`
    }
    const mailTo = (email: string) => inbox.mails.find((mail) => mail.to?.[0]?.address === email)
    const start = (root: string) =>
      startProgram(root, 'serve-api', {
        ...env,
        FORMS_RATE_LIMIT: '0',
        CONFIRMATION_MAILS_PER_CLIENT: '0',
        LOG_LEVEL: 'info',
      })

    beforeAll(async () => {
      older = await checkOutOlderVersion(commit)
      schema = await createSchema(OWNER_URL as string, 'rolling')
      dir = await temporaryFolder('rolling-')
      inbox = await startSmtp()
      Object.assign(env, {
        DATA_DIR: dir,
        DATABASE_URL: schema.urlOf(SERVICE_URL ?? (OWNER_URL as string)),
        SMTP_URL: inbox.url,
        SITE_URL: 'https://www.lumora-bank.example',
      })
    }, 120_000)

    afterAll(async () => {
      for (const service of Object.values(running)) await service?.stop()
      await inbox?.close()
      await schema?.drop()
      await removeFolder(dir)
      await older?.remove()
    })

    it('runs the older version on the schema its own migrations made', async () => {
      const migrated = await runProgram(older.root, 'cms', ['migrate'], {
        ...env,
        DATABASE_OWNER_URL: schema.url,
      })
      expect(migrated.code, migrated.stderr).toBe(0)
      running.old = await start(older.root)
      for (const index of [1, 2]) {
        expect(await signUp(running.old.origin, 'newsletter', `before${index}@example.com`)).toBe(
          200,
        )
      }
      await inbox.waitFor(2, 20_000)
    }, 120_000)

    it('migrates to the current schema while the older version takes sign-ups', async () => {
      const old = running.old as RunningService
      const during = Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          signUp(old.origin, 'productupdates', `during${index}@example.com`),
        ),
      )
      const migrated = await runProgram(PROJECT_ROOT, 'cms', ['migrate'], {
        ...env,
        DATABASE_OWNER_URL: schema.url,
      })
      expect(migrated.code, migrated.stderr).toBe(0)
      expect(await during).toEqual([200, 200, 200, 200, 200, 200])
      const database = await openDatabase({ url: schema.url, poolSize: 1 })
      try {
        const applied = await database.query<{ id: string }>('SELECT id FROM schema_migrations')
        expect(applied.map((row) => row.id).sort()).toEqual(
          FORMS_MIGRATIONS.migrations.map((migration) => migration.id).sort(),
        )
      } finally {
        await database.close()
      }
    }, 120_000)

    it('runs old and new side by side, and an old one started on the newer schema', async () => {
      running.new = await start(PROJECT_ROOT)
      running.oldAgain = await start(older.root)
      const origins = [running.old, running.new, running.oldAgain].map(
        (service) => (service as RunningService).origin,
      )
      // Sign-ups to each in turn, a few at once.
      const statuses = await Promise.all(
        Array.from({ length: 18 }, (_, index) =>
          signUp(
            origins[index % 3] as string,
            index % 2 ? 'productupdates' : 'newsletter',
            `rolling${index}@example.com`,
          ),
        ),
      )
      expect(statuses.every((status) => status === 200)).toBe(true)
      // One address signed up at an old and a new process at the same moment.
      expect(
        await Promise.all([
          signUp(origins[0] as string, 'newsletter', 'both@example.com'),
          signUp(origins[1] as string, 'newsletter', 'both@example.com'),
        ]),
      ).toEqual([200, 200])
      // Survey answers to each.
      for (const origin of origins) {
        expect(
          await post(origin, '/api/forms/survey', {
            'answers.role': 'developer',
            'answers.satisfaction': '4',
            version: '1',
            language: 'en',
          }),
        ).toBe(200)
      }
      const everyone = [...signedUp.keys()]
      await inbox.waitFor(everyone.length, 30_000)
      // Each confirmed at the next process from the one it signed up at (a mail the old
      // version made confirmed at the new one, and the other way round).
      for (const [email, { at }] of signedUp) {
        const next = origins[(origins.indexOf(at) + 1) % origins.length] ?? origins[0]
        const mail = mailTo(email)
        expect(await press(next as string, linkIn(mail, '/confirm')), email).toMatch(/confirmed/)
      }
      // Every third confirmed address unsubscribes at the third process.
      for (const [index, [email, { at }]] of [...signedUp].entries()) {
        if (index % 3) continue
        const third = origins[(origins.indexOf(at) + 2) % origins.length] ?? origins[0]
        const link = linkIn(mailTo(email), '/unsubscribe')
        expect(await press(third as string, link), email).toMatch(/unsubscribed/)
      }
    }, 120_000)

    it('stored each sign-up once and mailed it once, and no process logged an error', async () => {
      for (const name of ['old', 'new', 'oldAgain'] as const) {
        expect(await running[name]?.stop(), name).toBe(0)
        expect(running[name]?.logged(50), name).toEqual([])
      }
      expect(Object.fromEntries(inbox.countByRecipient())).toEqual(
        Object.fromEntries([...signedUp.keys()].map((email) => [email, 1])),
      )
      const database = await openDatabase({ url: schema.url, poolSize: 1 })
      try {
        const subscribers = await database.query<{ list: string; email: string; status: string }>(
          'SELECT list, email, status FROM subscribers ORDER BY email',
        )
        expect(subscribers).toHaveLength(signedUp.size)
        const unsubscribed = new Set([...signedUp.keys()].filter((_, index) => index % 3 === 0))
        for (const row of subscribers) {
          expect(row.list, row.email).toBe(signedUp.get(row.email)?.list)
          expect(row.status, row.email).toBe(
            unsubscribed.has(row.email) ? 'unsubscribed' : 'confirmed',
          )
        }
        const [jobs] = await database.query<{ sent: number; open: number; failed: number }>(
          `SELECT count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent,
                  count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL)::int AS open,
                  count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed
           FROM mail_jobs`,
        )
        expect(jobs).toEqual({ sent: signedUp.size, open: 0, failed: 0 })
        const [surveys] = await database.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM survey_responses',
        )
        expect(surveys?.n).toBe(3)
      } finally {
        await database.close()
      }
    }, 60_000)
  },
)
