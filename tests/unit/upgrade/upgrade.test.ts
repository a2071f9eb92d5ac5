/**
 * An upgrade with the data kept: the database and the publishing repository an older version
 * of the code wrote (`tests/fixtures/upgrade/`, made by that version, see its README) are put
 * back into a fresh database and `DATA_DIR`; the current code's migrations run as an upgrade
 * job does (`npm run cms -- migrate` as the tables' owner on PostgreSQL; PGlite migrates at
 * start); and then everything the older version left works: the audit trail verifies with
 * its key against the older version's anchors, people sign in with their passkeys and
 * sessions, an open invitation is accepted, drafts, approvals, the schedule and the release
 * are there and a new publication goes on top, and the forms service sends the mails that
 * waited, whose links work as the links the older version mailed do, and takes new sign-ups.
 * On PGlite, and on PostgreSQL with the services' own role when `TEST_DATABASE_URL` (and
 * `TEST_DATABASE_SERVICE_URL`) are set.
 */
import { mkdir, readFile, readlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../../src/database/database'
import { openDatabase } from '../../../src/database/open'
import { readBuildConfig } from '../../../src/engine/config'
import { FORMS_MIGRATIONS } from '../../../src/forms/migrations'
import { verifyWithAnchors } from '../../../src/publishing/audit/anchors'
import { readAudit } from '../../../src/publishing/audit/trail'
import { createPublishingApp, SESSION_COOKIE } from '../../../src/publishing/http/app'
import { PUBLISHING_MIGRATIONS } from '../../../src/publishing/migrations'
import { listPeople } from '../../../src/publishing/people/people'
import { openPublishingService, type PublishingService } from '../../../src/publishing/service'
import { readPublishingSettings } from '../../../src/publishing/settings'
import { MAIN } from '../../../src/publishing/workflow/drafts'
import { CURRENT } from '../../../src/shared/release-layout'
import { standInReport } from '../../support/build-report'
import { type Inbox, linkIn, startSmtp } from '../../support/forms'
import { freePort } from '../../support/free-port'
import { PROJECT_ROOT, unreachable } from '../../support/older-version'
import { Passkey } from '../../support/passkey'
import { type RunningService, runProgram, startProgram } from '../../support/programs'
import { PublishingClient } from '../../support/publishing-client'
import { createSchema, type Schema } from '../../support/schema'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'
import {
  loadIntoPglite,
  loadIntoPostgres,
  readManifest,
  restoreReleases,
  restoreRepository,
  shiftTimes,
} from '../../support/upgrade-fixture'

const fixture = await readManifest()
const OWNER_URL = process.env.TEST_DATABASE_URL
const SERVICE_URL = process.env.TEST_DATABASE_SERVICE_URL
if (OWNER_URL && !SERVICE_URL && process.env.CI) {
  throw new Error(
    'CI must test the upgrade with the services’ own role: set TEST_DATABASE_SERVICE_URL',
  )
}
/** The fixture's base commit must be in this clone: its repository is built on it. */
const missing = unreachable(fixture.commit)
const engines = [
  { name: 'PGlite', postgres: false },
  ...(OWNER_URL ? [{ name: 'PostgreSQL', postgres: true }] : []),
]

/** The link's button: a POST to the link's own address, at `origin`; where it leads. */
async function press(origin: string, link: string): Promise<string> {
  const url = new URL(link)
  const response = await fetch(`${origin}${url.pathname}${url.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  })
  return response.status === 303 ? (response.headers.get('location') ?? '') : `${response.status}`
}

describe.skipIf(missing).each(engines)(
  `an upgrade from the fixture of ${fixture.commit.slice(0, 12)} on $name${missing ? ` (skipped: ${missing})` : ''}`,
  ({ postgres }) => {
    let dir: string
    let schema: Schema | undefined
    /** The services' settings: as an operator sets them for the new version. */
    const env: Record<string, string> = {}
    /** The upgrade job's (PostgreSQL): the tables' owner too. */
    const migrationEnv: Record<string, string> = {}
    let forms: Inbox
    const cmsPort = { value: 0 }

    /** The database of the fixture's `part`, as the test reads it (the owner, or PGlite's). */
    async function withDatabase<T>(
      part: 'forms' | 'publishing',
      work: (database: Database) => Promise<T>,
    ): Promise<T> {
      const database = await openDatabase(
        schema
          ? { url: schema.url, poolSize: 1 }
          : { dataDir: join(dir, 'data', ...(part === 'publishing' ? ['publishing'] : []), 'db') },
      )
      try {
        return await work(database)
      } finally {
        await database.close()
      }
    }

    beforeAll(async () => {
      dir = await temporaryFolder('upgrade-')
      const data = join(dir, 'data')
      // The bank's repository, as when the older version started from it.
      const remote = await siteRepository(join(dir, 'bank.git'), fixture.commit)
      await restoreRepository(join(data, 'publishing', 'site.git'))
      await restoreReleases(join(data, 'releases'))
      if (postgres) {
        schema = await createSchema(OWNER_URL as string, 'upgrade')
        await loadIntoPostgres(schema.url, ['forms', 'publishing'])
      } else {
        await loadIntoPglite(join(data, 'db'), 'forms')
        await loadIntoPglite(join(data, 'publishing', 'db'), 'publishing')
      }
      // Its data as the older version left it just before the upgrade, whenever this runs.
      const age = Date.now() - Date.parse(fixture.madeAt)
      await withDatabase('forms', (database) => shiftTimes(database, age))
      if (!schema) await withDatabase('publishing', (database) => shiftTimes(database, age))
      forms = await startSmtp()
      cmsPort.value = await freePort()
      Object.assign(env, {
        DATA_DIR: data,
        PUBLISHING_REMOTE: remote.gitDir,
        AUDIT_KEY: fixture.auditKey,
        CMS_URL: `http://localhost:${cmsPort.value}`,
        CMS_PORT: String(cmsPort.value),
        SITE_URL: fixture.siteUrl,
        ...(schema ? { DATABASE_URL: schema.urlOf(SERVICE_URL ?? (OWNER_URL as string)) } : {}),
      })
      if (schema) Object.assign(migrationEnv, env, { DATABASE_OWNER_URL: schema.url })
    }, 120_000)

    afterAll(async () => {
      await forms?.close()
      await schema?.drop()
      await removeFolder(dir)
    })

    it('migrates as an upgrade job, and the older trail verifies against its anchors', async () => {
      if (postgres) {
        const migrated = await runProgram(PROJECT_ROOT, 'cms', ['migrate'], migrationEnv)
        expect(migrated.code).toBe(0)
        expect(migrated.stdout).toMatch(/The tables are up to date/)
      }
      // PGlite: the command migrates as it opens the database, as every start does.
      const verified = await runProgram(PROJECT_ROOT, 'cms', ['verify'], env)
      expect(verified.stderr).toMatch(/It agrees with its \d+ anchors? in git/)
      expect(verified.stderr).toMatch(/Intact and fully anchored\./)
      expect(verified.code).toBe(0)
      await withDatabase('publishing', async (database) => {
        const applied = await database.query<{ id: string }>('SELECT id FROM publishing_migrations')
        expect(applied.map((row) => row.id).sort()).toEqual(
          PUBLISHING_MIGRATIONS.migrations.map((migration) => migration.id).sort(),
        )
      })
      if (postgres) {
        await withDatabase('forms', async (database) => {
          const applied = await database.query<{ id: string }>('SELECT id FROM schema_migrations')
          expect(applied.map((row) => row.id).sort()).toEqual(
            FORMS_MIGRATIONS.migrations.map((migration) => migration.id).sort(),
          )
        })
      }
    }, 120_000)

    describe('the publishing service', () => {
      let service: PublishingService
      let app: FastifyInstance
      let stopTimers: () => Promise<void>
      let client: PublishingClient
      const logged: string[] = []
      const cookie: Record<string, string> = {}

      beforeAll(async () => {
        const settings = readPublishingSettings(PROJECT_ROOT, env)
        // Put together as start.ts does, with a stand-in build writing the about page's title.
        service = await openPublishingService(settings, {
          root: PROJECT_ROOT,
          buildConfig: readBuildConfig(env),
          build: async (config) => {
            const about = await readFile(join(config.contentDir, 'en/pages/about.yaml'), 'utf8')
            await mkdir(config.outDir, { recursive: true })
            await writeFile(
              join(config.outDir, 'index.html'),
              /^title: (.*)$/m.exec(about)?.[1] ?? '',
            )
            return standInReport()
          },
        })
        app = await createPublishingApp(service, {
          logLevel: 'warn',
          logStream: { write: (line) => logged.push(line) },
          signInLimit: 0,
        })
        const stopSchedules = service.schedules.start(1)
        const stopCheckpoints = service.checkpoints.start(1)
        stopTimers = async () => {
          await Promise.all([stopCheckpoints(), stopSchedules()])
        }
        service.notices.sender.start(app.log)
        await app.listen({ port: cmsPort.value, host: '127.0.0.1' })
        client = new PublishingClient(`http://127.0.0.1:${cmsPort.value}`, env.CMS_URL as string)
      }, 60_000)

      afterAll(async () => {
        await stopTimers?.()
        await app?.close()
        await service?.close()
      })

      it('starts on the older data and serves its release as it was', async () => {
        // Only a database without the services' own role has a warning to give.
        if (!postgres || SERVICE_URL) expect(service.warnings).toEqual([])
        // Nothing to bring up to main: the release the older version published is main's.
        expect(await service.publisher.recover()).toBeNull()
        const releases = await service.publisher.list()
        expect(releases).toHaveLength(1)
        const live = await readlink(join(env.DATA_DIR as string, 'releases', CURRENT))
        expect(releases[0]?.folder).toBe(live)
        expect(
          await readFile(join(env.DATA_DIR as string, 'releases', live, 'index.html'), 'utf8'),
        ).toBe(fixture.publishing.drafts.published.title)
      }, 90_000)

      it('signs people in with the passkeys and the sessions they made', async () => {
        for (const person of fixture.publishing.people) {
          const signedIn = await client.signIn(Passkey.restore(person.passkey))
          expect(signedIn.status, person.email).toBe(200)
          expect(signedIn.session).toBeDefined()
          cookie[person.email] = signedIn.session as string
          // The session of their last sign-in under the older version still stands.
          const page = await client.get('/sign-in', `${SESSION_COOKIE}=${person.session}`)
          expect(page.text, person.email).toContain(person.email)
        }
        const people = await client.get('/people', cookie['alma@bank.example'])
        expect(people.status).toBe(200)
        // The invitation the older version sent is accepted under the new one.
        const { invitation } = fixture.publishing
        const victor = await client.acceptInvitation(invitation.token, Passkey.create(), {
          name: 'Victor',
        })
        expect(victor).toMatch(new RegExp(`^${SESSION_COOKIE}=`))
        expect(
          (await listPeople(service.database)).find((person) => person.email === invitation.email)
            ?.roles,
        ).toEqual(invitation.roles)
      }, 90_000)

      it('keeps the drafts, approvals and the schedule, and publishes on top', async () => {
        const { drafts } = fixture.publishing
        const slug = (id: string) => id.replace(/^pages\//, '')
        const ada = cookie['ada@bank.example'] as string
        const rita = cookie['rita@bank.example'] as string
        const paul = cookie['paul@bank.example'] as string
        const live = async (path: string) => {
          const main = (await service.repo.resolve(MAIN)) as string
          return /^title: (.*)$/m.exec(
            (await service.repo.readFile(main, path))?.toString() ?? '',
          )?.[1]
        }
        expect(await live('content/en/pages/about.yaml')).toBe(drafts.published.title)
        for (const [draft, status] of [
          [drafts.scheduled, 'pending_publish'],
          [drafts.approved, 'pending_publish'],
          [drafts.inReview, 'pending_review'],
        ] as const) {
          const entry = await client.draftOfPage(ada, slug(draft.id))
          expect(entry?.status, draft.id).toBe(status)
        }
        const approvals = await service.database.query<{ draft_id: string; approved_by: string }>(
          'SELECT draft_id, approved_by FROM approvals ORDER BY draft_id',
        )
        expect(approvals).toEqual([
          { draft_id: drafts.approved.id, approved_by: 'rita@bank.example' },
          { draft_id: drafts.scheduled.id, approved_by: 'rita@bank.example' },
        ])
        const [schedule, ...others] = await service.schedules.list()
        expect(others).toEqual([])
        expect(schedule).toMatchObject({ draftId: drafts.scheduled.id, state: 'pending' })
        expect(Date.parse(schedule?.at ?? '')).toBeGreaterThan(Date.now() + 24 * 3_600_000)

        // Approved under the older version, published under the new one.
        const approved = await client.draftOfPage(paul, slug(drafts.approved.id))
        const published = await client.publish(
          paul,
          slug(drafts.approved.id),
          String(approved?.version),
        )
        expect(published.status, JSON.stringify(published.body)).toBe(200)
        expect(await live(`content/en/${drafts.approved.id}.yaml`)).toBe(drafts.approved.title)
        // In review across the upgrade: approved and published under the new one.
        const inReview = String((await client.draftOfPage(rita, slug(drafts.inReview.id)))?.version)
        const decided = await client.setStatus(
          rita,
          slug(drafts.inReview.id),
          'pending_publish',
          inReview,
        )
        expect(decided.status, JSON.stringify(decided.body)).toBe(200)
        const second = await client.publish(paul, slug(drafts.inReview.id), inReview)
        expect(second.status, JSON.stringify(second.body)).toBe(200)
        expect(await live(`content/en/${drafts.inReview.id}.yaml`)).toBe(drafts.inReview.title)
        expect(await live('content/en/pages/about.yaml')).toBe(drafts.published.title)
        // The schedule still waits for its time, on the draft it was set for.
        expect((await service.schedules.list())[0]).toMatchObject({ state: 'pending' })
        const releases = await service.publisher.list()
        expect(releases).toHaveLength(3)
        const current = await readlink(join(env.DATA_DIR as string, 'releases', CURRENT))
        expect(releases.map((release) => release.folder)).toContain(current)
        const actions = (await readAudit(service.database)).map((entry) => entry.action)
        expect(actions.filter((action) => action === 'publish')).toHaveLength(3)
      }, 90_000)

      it('anchors what it adds with the key, and the whole trail verifies', async () => {
        await expect
          .poll(
            async () => (await verifyWithAnchors(service.database, service.repo)).outcome.kind,
            { timeout: 20_000, interval: 500 },
          )
          .toBe('intact')
        expect(logged.filter((line) => JSON.parse(line).level >= 50)).toEqual([])
      }, 90_000)
    })

    it('verifies the trail from the command line after the new version wrote to it', async () => {
      const verified = await runProgram(PROJECT_ROOT, 'cms', ['verify'], env)
      expect(verified.stderr).toMatch(/Intact and fully anchored\./)
      expect(verified.code).toBe(0)
    }, 120_000)

    describe('the forms service', () => {
      let api: RunningService

      beforeAll(async () => {
        api = await startProgram(PROJECT_ROOT, 'serve-api', {
          ...env,
          SMTP_URL: forms.url,
          FORMS_RATE_LIMIT: '0',
          CONFIRMATION_MAILS_PER_CLIENT: '0',
          LOG_LEVEL: 'info',
        })
      }, 90_000)

      afterAll(async () => {
        await api?.stop()
      })

      it('sends the mails that waited, with links that work', async () => {
        const mails = await forms.waitFor(fixture.forms.waiting.length, 30_000)
        expect(mails.map((mail) => mail.to?.[0]?.address).sort()).toEqual(
          [...fixture.forms.waiting].sort(),
        )
        for (const mail of mails) {
          expect(await press(api.origin, linkIn(mail, '/confirm'))).toMatch(/confirmed/)
        }
      }, 90_000)

      it('takes the links the older version mailed', async () => {
        for (const [email, links] of Object.entries(fixture.forms.links)) {
          if (links.confirm) {
            expect(await press(api.origin, links.confirm), email).toMatch(/confirmed/)
          }
        }
        const [leaving] = fixture.forms.confirmed
        const unsubscribe = fixture.forms.links[leaving as string]?.unsubscribe as string
        expect(await press(api.origin, unsubscribe)).toMatch(/unsubscribed/)
      }, 90_000)

      it('takes a new sign-up, and mails it once', async () => {
        const list = await readFile(
          join(PROJECT_ROOT, 'content/forms/lists/newsletter.yaml'),
          'utf8',
        )
        const version = /^consentVersion: "(.*)"$/m.exec(list)?.[1]
        const response = await fetch(`${api.origin}/api/forms/newsletter`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            email: 'jonas@example.com',
            topics: ['services'],
            consent: 'yes',
            version,
            language: 'en',
          }),
        })
        expect(response.status).toBe(200)
        const mails = await forms.waitFor(fixture.forms.waiting.length + 1, 30_000)
        const mail = mails.find((each) => each.to?.[0]?.address === 'jonas@example.com')
        expect(await press(api.origin, linkIn(mail, '/confirm'))).toMatch(/confirmed/)
        // One mail each: the waiting ones and the new one.
        expect([...forms.countByRecipient().values()].every((count) => count === 1)).toBe(true)
      }, 90_000)

      it('keeps every subscriber once, with the state each is in, and logs no error', async () => {
        expect(await api.stop()).toBe(0)
        expect(api.logged(50)).toEqual([])
        const rows = await withDatabase('forms', (database) =>
          database.query<{ email: string; status: string; n: number }>(
            'SELECT email, status, count(*) OVER (PARTITION BY list, email)::int AS n FROM subscribers ORDER BY email',
          ),
        )
        const { confirmed, pending, waiting, unsubscribed } = fixture.forms
        const [leaving] = confirmed
        const expected = new Map<string, string>()
        for (const email of [...confirmed, ...pending, ...waiting, 'jonas@example.com']) {
          expected.set(email, 'confirmed')
        }
        for (const email of [...unsubscribed, leaving as string])
          expected.set(email, 'unsubscribed')
        expect(Object.fromEntries(rows.map((row) => [row.email, row.status]))).toEqual(
          Object.fromEntries(expected),
        )
        expect(rows.every((row) => row.n === 1)).toBe(true)
        const [counts] = await withDatabase('forms', (database) =>
          database.query<{ surveys: number; waiting: number }>(
            `SELECT (SELECT count(*) FROM survey_responses)::int AS surveys,
                    (SELECT count(*) FROM mail_jobs
                     WHERE sent_at IS NULL AND failed_at IS NULL)::int AS waiting`,
          ),
        )
        expect(counts).toEqual({ surveys: fixture.forms.surveys, waiting: 0 })
      }, 90_000)
    })
  },
)
