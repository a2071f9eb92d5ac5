/**
 * PostgreSQL with two roles, as docs/operators.md sets them up: the migrations run as the tables'
 * owner (`DATABASE_OWNER_URL`, here `TEST_DATABASE_URL`'s role), the service connects as a role
 * of its own (`DATABASE_URL`, here `TEST_DATABASE_SERVICE_URL`'s; CI makes it, see `.ci/run`)
 * that reads and appends to the audit trail and can neither change it nor drop its trigger,
 * while the publishing and forms services work as before. Without a second role, the service
 * says at start that its own role owns the trail.
 */
import { execFile } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Database, quoteIdentifier } from '../../../../src/database/database'
import { openDatabase } from '../../../../src/database/open'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import { FORMS_MIGRATIONS } from '../../../../src/forms/migrations'
import {
  appendAudit,
  readAudit,
  trailOwnedByServiceRole,
  verifyAudit,
} from '../../../../src/publishing/audit/trail'
import { PUBLISHING_MIGRATIONS } from '../../../../src/publishing/migrations'
import { openPublishingService } from '../../../../src/publishing/service'
import { readPublishingSettings } from '../../../../src/publishing/settings'
import { standInReport } from '../../../support/build-report'
import { paul } from '../../../support/people'
import { approvedDraft } from '../../../support/publishing'
import { createSchema, type Schema } from '../../../support/schema'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const OWNER_URL = process.env.TEST_DATABASE_URL
const SERVICE_URL = process.env.TEST_DATABASE_SERVICE_URL
if (OWNER_URL && !SERVICE_URL && process.env.CI) {
  throw new Error(
    'CI must test the service’s own role: set TEST_DATABASE_SERVICE_URL (see .ci/run)',
  )
}

describe.skipIf(!OWNER_URL || !SERVICE_URL)('the audit trail on PostgreSQL with two roles', () => {
  const ownerUrl = OWNER_URL as string
  const serviceUrl = SERVICE_URL as string
  let schema: Schema
  let dir: string
  const opened: Database[] = []
  const open = async (url: string, options: { ownerUrl?: string; forms?: boolean } = {}) => {
    const database = await openDatabase({
      url,
      schema: schema.name,
      ...(options.ownerUrl ? { ownerUrl: options.ownerUrl } : {}),
      migrations: options.forms ? FORMS_MIGRATIONS : PUBLISHING_MIGRATIONS,
    })
    opened.push(database)
    return database
  }

  beforeEach(async () => {
    schema = await createSchema(ownerUrl, 'roles')
    dir = await temporaryFolder('audit-roles-')
  })

  afterEach(async () => {
    for (const database of opened.splice(0)) await database.close()
    await schema.drop()
    await removeFolder(dir)
  })

  it('lets the service’s role read and append to the trail, and nothing more', async () => {
    const service = await open(serviceUrl, { ownerUrl })
    for (const n of [1, 2]) {
      await appendAudit(service, { actor: 'ada@bank.example', action: 'save', subject: `p${n}` })
    }
    expect((await readAudit(service)).map((entry) => entry.subject)).toEqual(['p1', 'p2'])
    expect(await verifyAudit(service)).toEqual({ ok: true, entries: 2 })
    for (const statement of [
      "UPDATE audit_entries SET actor = 'mallory@evil.example'",
      'DELETE FROM audit_entries',
      'TRUNCATE audit_entries',
    ]) {
      await expect(service.query(statement), statement).rejects.toThrow(
        /permission denied for table audit_entries/,
      )
    }
    for (const statement of [
      'DROP TRIGGER audit_entries_append_only ON audit_entries',
      'ALTER TABLE audit_entries DISABLE TRIGGER USER',
      'DROP TABLE audit_entries',
      'ALTER TABLE audit_entries RENAME TO old_entries',
      'DROP FUNCTION audit_entries_append_only() CASCADE',
    ]) {
      await expect(service.query(statement), statement).rejects.toThrow(/must be owner/)
    }
    await expect(service.query('CREATE TABLE audit_copy (id int)')).rejects.toThrow(
      /permission denied for schema/,
    )
    expect(await trailOwnedByServiceRole(service)).toBe(false)
    // The owner could: that role is the migrations', never the service's.
    const owner = await open(ownerUrl)
    expect(await trailOwnedByServiceRole(owner)).toBe(true)
    expect(await verifyAudit(service)).toEqual({ ok: true, entries: 2 })
  })

  it('runs the publishing service as that role, beside the forms service in the same schema', async () => {
    const repository = join(dir, 'site.git')
    await siteRepository(repository)
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: serviceUrl,
      DATABASE_OWNER_URL: ownerUrl,
      PUBLISHING_REPO: repository,
      PUBLISHING_REMOTE: 'none',
    }
    const service = await openPublishingService(readPublishingSettings(ROOT, env), {
      root: ROOT,
      buildConfig: readBuildConfig(env),
      schema: schema.name,
      build: async (config) => {
        await mkdir(config.outDir, { recursive: true })
        await writeFile(join(config.outDir, 'index.html'), 'site')
        return standInReport()
      },
    })
    opened.push(service.database)
    expect(service.warnings).toEqual([])
    await approvedDraft(service.drafts, 'About the bank')
    await service.publisher.publish(paul, 'pages/about')
    expect((await readAudit(service.database)).map((entry) => entry.action)).toEqual([
      'save',
      'submit',
      'approve',
      'publish',
    ])

    // The forms service migrates in the same schema as the owner: its grants leave the trail
    // append-only, and its own tables are the service role's to change.
    const forms = await open(serviceUrl, { ownerUrl, forms: true })
    await forms.query('UPDATE subscribers SET email = email')
    await forms.query('DELETE FROM subscribers')
    await expect(service.database.query('DELETE FROM audit_entries')).rejects.toThrow(
      /permission denied/,
    )
    // The publishing service started again (grants again): still so.
    const again = await open(serviceUrl, { ownerUrl })
    await expect(again.query("UPDATE audit_entries SET actor = 'x'")).rejects.toThrow(
      /permission denied/,
    )
  })

  it('runs with DATABASE_URL alone once npm run cms -- migrate ran the migrations as the owner', async () => {
    const admin = await openDatabase({ url: ownerUrl, schema: schema.name, poolSize: 1 })
    opened.push(admin)
    const role = new URL(serviceUrl).username
    // As the public schema is: every role may use it, none but its owner create in it.
    await admin.query(
      `GRANT USAGE ON SCHEMA ${quoteIdentifier(schema.name)} TO ${quoteIdentifier(role)}`,
    )
    await expect(
      openDatabase({ url: serviceUrl, schema: schema.name, migrations: PUBLISHING_MIGRATIONS }),
    ).rejects.toThrow(
      /permission denied .*: this database role may not change the tables; run the migrations as their owner \(DATABASE_OWNER_URL, or npm run cms -- migrate\)$/,
    )
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['scripts/run.mjs', 'cms', 'migrate'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: dir,
          DATABASE_URL: schema.urlOf(serviceUrl),
          DATABASE_OWNER_URL: schema.url,
        },
      },
    )
    expect(stdout).toMatch(
      new RegExp(
        `^The tables are up to date. ${role} \\(DATABASE_URL\\) may read and write their rows, and only read and append to the audit trail`,
      ),
    )
    const service = await open(serviceUrl)
    await appendAudit(service, { actor: 'ada@bank.example', action: 'save', subject: 'p1' })
    await expect(service.query('DELETE FROM audit_entries')).rejects.toThrow(/permission denied/)
    const forms = await open(serviceUrl, { forms: true })
    await forms.query('DELETE FROM subscribers')
  }, 120_000)

  it('says at start when the service’s own role owns the trail', async () => {
    const repository = join(dir, 'site.git')
    await siteRepository(repository)
    const env = {
      DATA_DIR: dir,
      DATABASE_URL: ownerUrl,
      PUBLISHING_REPO: repository,
      PUBLISHING_REMOTE: 'none',
    }
    const service = await openPublishingService(readPublishingSettings(ROOT, env), {
      root: ROOT,
      buildConfig: readBuildConfig(env),
      schema: schema.name,
      build: async () => ({}) as never,
    })
    opened.push(service.database)
    expect(service.warnings).toEqual([
      expect.stringMatching(
        /^the audit trail is owned by the database role the service connects as \(DATABASE_URL\): .*DATABASE_OWNER_URL/,
      ),
    ])
  })
})
