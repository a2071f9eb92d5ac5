/**
 * A rollback of the publishing service's software after an upgrade: the upgrade fixture's
 * data, migrated to the current schema and used by the current version, then served by the
 * fixture's older version again (its code checked out with `git archive`), then by the current
 * one once more. What docs/operators.md (Upgrades) says of it holds: the older version starts
 * on the newer schema (a migration it does not know is none it needs) and signs in, approves
 * and publishes; it cannot invite an address that has an open invitation (500: the index of
 * one open invitation per address it does not know); it grants approving roles without a
 * second administrator, as it always did; its checkpoint timer fails on the newer version's
 * tagged anchors, so only its publications anchor what it writes; and back on the current
 * version the trail verifies and is anchored again. On PostgreSQL with the services' own role
 * when `TEST_DATABASE_URL` is set, else on PGlite.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../../src/database/database'
import { openDatabase } from '../../../src/database/open'
import { freePort } from '../../support/free-port'
import {
  checkOutOlderVersion,
  type OlderVersion,
  PROJECT_ROOT,
  unreachable,
} from '../../support/older-version'
import { Passkey } from '../../support/passkey'
import { type RunningService, runProgram, startPublishingProcess } from '../../support/programs'
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

const OWNER_URL = process.env.TEST_DATABASE_URL
const SERVICE_URL = process.env.TEST_DATABASE_SERVICE_URL
const fixture = await readManifest()
const missing = unreachable(fixture.commit)

describe.skipIf(missing)(
  `a rollback of the publishing service to ${fixture.commit.slice(0, 12)} after the upgrade${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let older: OlderVersion
    let dir: string
    let schema: Schema | undefined
    let service: RunningService | undefined
    let client: PublishingClient
    const env: Record<string, string> & { CMS_PORT: string } = { CMS_PORT: '0' }
    const people = Object.fromEntries(
      fixture.publishing.people.map((person) => [person.email.split('@')[0], person]),
    )

    const signIn = async (name: string) => {
      const answer = await client.signIn(
        Passkey.restore(people[name]?.passkey ?? { id: '', privateKey: '' }),
      )
      expect(answer.status, name).toBe(200)
      return answer.session as string
    }
    async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
      const database = await openDatabase(
        schema
          ? { url: schema.url, poolSize: 1 }
          : { dataDir: join(dir, 'data', 'publishing', 'db') },
      )
      try {
        return await work(database)
      } finally {
        await database.close()
      }
    }

    beforeAll(async () => {
      older = await checkOutOlderVersion(fixture.commit)
      dir = await temporaryFolder('rollback-')
      const data = join(dir, 'data')
      const remote = await siteRepository(join(dir, 'bank.git'), fixture.commit)
      await restoreRepository(join(data, 'publishing', 'site.git'))
      await restoreReleases(join(data, 'releases'))
      if (OWNER_URL) {
        schema = await createSchema(OWNER_URL, 'rollback')
        await loadIntoPostgres(schema.url, ['publishing'])
      } else {
        await loadIntoPglite(join(data, 'publishing', 'db'), 'publishing')
      }
      await withDatabase((database) =>
        shiftTimes(database, Date.now() - Date.parse(fixture.madeAt)),
      )
      const port = await freePort()
      Object.assign(env, {
        DATA_DIR: data,
        PUBLISHING_REMOTE: remote.gitDir,
        AUDIT_KEY: fixture.auditKey,
        CMS_URL: `http://localhost:${port}`,
        CMS_PORT: String(port),
        SCHEDULE_CHECK_SECONDS: '1',
        ...(schema ? { DATABASE_URL: schema.urlOf(SERVICE_URL ?? (OWNER_URL as string)) } : {}),
      })
      client = new PublishingClient(`http://127.0.0.1:${port}`, env.CMS_URL as string)
      if (schema) {
        const migrated = await runProgram(PROJECT_ROOT, 'cms', ['migrate'], {
          ...env,
          DATABASE_OWNER_URL: schema.url,
        })
        expect(migrated.code, migrated.stderr).toBe(0)
      }
    }, 120_000)

    afterAll(async () => {
      await service?.stop()
      await schema?.drop()
      await removeFolder(dir)
      await older?.remove()
    })

    it('upgraded: the current version publishes and puts a reviewer’s grant under four eyes', async () => {
      service = await startPublishingProcess(PROJECT_ROOT, env)
      const paul = await signIn('paul')
      const alma = await signIn('alma')
      const careers = await client.draftOfPage(paul, 'careers')
      expect((await client.publish(paul, 'careers', String(careers?.version))).status).toBe(200)
      const invited = await client.post(
        '/api/people/invite',
        { email: 'rex@bank.example', roles: ['reviewer'] },
        alma,
      )
      expect(invited.status).toBe(200)
      expect(invited.body.grant).toMatchObject({ roles: ['reviewer'] })
      expect(await service.stop()).toBe(0)
      expect(service.logged(50)).toEqual([])
    }, 120_000)

    it('rolled back: the older version starts on the newer schema and works, within limits', async () => {
      service = await startPublishingProcess(older.root, env)
      const paul = await signIn('paul')
      const rita = await signIn('rita')
      const alma = await signIn('alma')
      expect((await client.setStatus(rita, 'accessibility', 'pending_publish')).status).toBe(200)
      const published = await client.publish(paul, 'accessibility')
      expect(published.status, JSON.stringify(published.body)).toBe(200)
      // One open invitation per address (0015-role-grants): the older code inserts a second.
      const again = await client.post(
        '/api/people/invite',
        { email: fixture.publishing.invitation.email, roles: ['author'] },
        alma,
      )
      expect(again.status).toBe(500)
      // Approving roles granted at once, with no grant for a second administrator to confirm.
      const publisher = await client.post(
        '/api/people/invite',
        { email: 'olga@bank.example', roles: ['publisher'] },
        alma,
      )
      expect(publisher.status).toBe(200)
      // Its checkpoint cannot go on from a tip the newer version tagged.
      await expect
        .poll(() => JSON.stringify(service?.logged(50)), { timeout: 60_000 })
        .toMatch(/records no anchor/)
      expect(await service.stop()).toBe(0)
      const errors = service.logged(50).map((entry) => JSON.stringify(entry))
      // Besides what the newer schema refuses it: the older version did not wait at its stop
      // for a check of the schedules under way, which the closing database cut off (a flaw of
      // that version's own, not of the schema; the current one waits).
      const cutOffAtStop =
        /bringing the served site up to main failed.*after calling end on the pool|after calling end on the pool.*bringing the served site up to main failed/
      expect(
        errors.filter(
          (line) =>
            !/invitations_one_open|records no anchor|checkpoint failed/.test(line) &&
            !cutOffAtStop.test(line),
        ),
      ).toEqual([])
      // (Read once it stopped: PGlite serves one process.)
      expect(
        await withDatabase((database) =>
          database.query("SELECT id FROM role_grants WHERE email = 'olga@bank.example'"),
        ),
      ).toEqual([])
    }, 180_000)

    it('upgraded again: the trail verifies, and the current version anchors what was left', async () => {
      const before = await runProgram(PROJECT_ROOT, 'cms', ['verify'], env)
      expect(before.stderr).toMatch(/chain of \d+ entries is intact/)
      expect([0, 4]).toContain(before.code)
      service = await startPublishingProcess(PROJECT_ROOT, env)
      const alma = await signIn('alma')
      expect((await client.get('/people', alma)).status).toBe(200)
      // The checkpoint timer anchors every entry within 10 s.
      await new Promise((done) => setTimeout(done, 12_000))
      expect(await service.stop()).toBe(0)
      expect(service.logged(50)).toEqual([])
      const after = await runProgram(PROJECT_ROOT, 'cms', ['verify'], env)
      expect(after.stderr).toMatch(/Intact and fully anchored\./)
      expect(after.code).toBe(0)
    }, 180_000)
  },
)
