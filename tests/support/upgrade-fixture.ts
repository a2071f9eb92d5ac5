/**
 * The upgrade fixture (`tests/fixtures/upgrade/`, made by its `make.ts` with an older version
 * of the code): what it holds, and how a test puts it back as that version left it, into a
 * fresh database (PostgreSQL or PGlite) and a fresh `DATA_DIR`.
 */
import { execFile } from 'node:child_process'
import { cp, readFile, symlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { type Queryable, quoteIdentifier } from '../../src/database/database'
import { openDatabase } from '../../src/database/open'
import { initBare } from '../../src/publishing/git/repository'
import type { Role } from '../../src/publishing/people/roles'
import type { SavedPasskey } from './passkey'
import { shareObjects } from './site-repository'

const run = promisify(execFile)

export const FIXTURE_DIR = resolve(import.meta.dirname, '../fixtures/upgrade')

/** The fixture's `AUDIT_KEY`: a key for tests, as public as the fixture itself. */
export const TEST_AUDIT_KEY = 'upgrade-fixture-audit-key-for-tests-only-not-a-secret'
/** The public site's address the fixture's mails link to. */
export const SITE_URL = 'https://www.lumora-bank.example'

export interface FixturePerson {
  email: string
  name: string
  roles: Role[]
  /** The passkey they created with the older version (its private key: a test's). */
  passkey: SavedPasskey
  /** The session cookie's value of their last sign-in. */
  session: string
}

export interface FixtureDraft {
  id: string
  title: string
}

export interface FixtureManifest {
  /** The commit whose code made it. */
  commit: string
  /** When it was made (ISO 8601): the test moves the data's times on by its age. */
  madeAt: string
  auditKey: string
  siteUrl: string
  publishing: {
    people: FixturePerson[]
    /** An invitation sent and not accepted yet. */
    invitation: { email: string; roles: Role[]; token: string }
    drafts: {
      /** Published, with its release. */
      published: FixtureDraft
      /** Approved, and scheduled two days after the fixture was made. */
      scheduled: FixtureDraft
      /** Approved, to be published. */
      approved: FixtureDraft
      /** Waiting for a reviewer. */
      inReview: FixtureDraft
    }
  }
  forms: {
    confirmed: string[]
    /** Mailed, not confirmed. */
    pending: string[]
    /** Their confirmation mails wait in the queue (the mail server was away). */
    waiting: string[]
    unsubscribed: string[]
    surveys: number
    /** Links the older version mailed, still to work. */
    links: Record<string, { confirm?: string; unsubscribe?: string }>
  }
}

export async function readManifest(): Promise<FixtureManifest> {
  return JSON.parse(await readFile(join(FIXTURE_DIR, 'fixture.json'), 'utf8')) as FixtureManifest
}

export type FixturePart = 'forms' | 'publishing'

/** A part's SQL: its tables, indexes, triggers and rows, without a schema name. */
export const fixtureSql = (part: FixturePart) => readFile(join(FIXTURE_DIR, `${part}.sql`), 'utf8')

/** Loads `parts` into PostgreSQL at `url` (a schema's, see `createSchema`), as its role. */
export async function loadIntoPostgres(url: string, parts: FixturePart[]): Promise<void> {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    // One simple query per part: several statements, no parameters.
    for (const part of parts) await client.query(await fixtureSql(part))
  } finally {
    await client.end()
  }
}

/** Loads `part` into a new PGlite database in `dataDir` (where the service keeps it). */
export async function loadIntoPglite(dataDir: string, part: FixturePart): Promise<void> {
  // Made as the service makes it (from the empty cluster kept in the cache), then loaded.
  await (await openDatabase({ dataDir })).close()
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create({ dataDir })
  try {
    await db.exec(await fixtureSql(part))
  } finally {
    await db.close()
  }
}

/**
 * Moves every time the fixture's tables hold forward by `ms` (its age): the data is then as
 * the older version left it just before the upgrade, whenever the test runs (sign-ups younger
 * than the 30 days after which they are purged, sessions and invitations still standing, the
 * schedule still to come). The audit trail's entries keep their times: each is in its hash,
 * and the trail cannot be changed (append-only tables are left alone).
 */
export async function shiftTimes(database: Queryable, ms: number): Promise<void> {
  const columns = await database.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
     WHERE c.table_schema = current_schema() AND c.data_type = 'timestamp with time zone'
       AND NOT EXISTS (
         SELECT 1 FROM pg_trigger t JOIN pg_class k ON k.oid = t.tgrelid
         WHERE k.relname = c.table_name AND k.relnamespace = current_schema()::regnamespace
           AND right(t.tgname, 12) = '_append_only')
     ORDER BY c.table_name, c.column_name`,
  )
  const interval = `${Math.round(ms)} milliseconds`
  for (const { table_name: table, column_name: column } of columns) {
    await database.query(
      `UPDATE ${quoteIdentifier(table)} SET ${quoteIdentifier(column)} = ${quoteIdentifier(column)} + $1::interval`,
      [interval],
    )
  }
}

/** The publishing repository as the older version left it, at `gitDir`. */
export async function restoreRepository(gitDir: string): Promise<void> {
  await initBare(gitDir)
  // The bundle's base (the older version's commit) comes from this checkout's history.
  await shareObjects(gitDir)
  await run('git', [
    `--git-dir=${gitDir}`,
    'fetch',
    '--quiet',
    join(FIXTURE_DIR, 'publishing.bundle'),
    '+refs/*:refs/*',
  ])
}

/**
 * The releases the older version published, with its `current` link, into `releasesDir`. The
 * fixture names the live release in `current.txt`: a symbolic link in the repository would be
 * refused by the publishing service, which builds from this repository's tree.
 */
export async function restoreReleases(releasesDir: string): Promise<void> {
  await cp(join(FIXTURE_DIR, 'releases'), releasesDir, {
    recursive: true,
    filter: (source) => !source.endsWith(LIVE_RELEASE_FILE),
  })
  const live = (await readFile(join(FIXTURE_DIR, 'releases', LIVE_RELEASE_FILE), 'utf8')).trim()
  await symlink(live, join(releasesDir, 'current'), 'dir')
}

/** The file of the fixture's releases that names the live one. */
export const LIVE_RELEASE_FILE = 'current.txt'
