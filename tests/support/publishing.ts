/**
 * A fresh database for the publishing service's tests: PGlite in memory, or a new schema on
 * the PostgreSQL server `TEST_DATABASE_URL` names, dropped by `close`.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Database, type Queryable, quoteIdentifier } from '../../src/database/database'
import { migrate } from '../../src/database/migrations'
import { openDatabase } from '../../src/database/open'
import { ROOT, readBuildConfig } from '../../src/engine/config'
import { type AuditEntry, GENESIS, hashOf, readAudit } from '../../src/publishing/audit/trail'
import { PUBLISHING_MIGRATIONS } from '../../src/publishing/migrations'
import type { Person } from '../../src/publishing/people/roles'
import { openPublishingService, type PublishingService } from '../../src/publishing/service'
import { readPublishingSettings } from '../../src/publishing/settings'
import type { Drafts } from '../../src/publishing/workflow/drafts'
import { standInReport } from './build-report'
import { ada, rita } from './people'
import { createSchema } from './schema'

export interface TestDatabase {
  database: Database
  close(): Promise<void>
}

/**
 * One PGlite per test worker (starting one takes about half a second): each test works in a
 * schema of its own in it, migrated afresh and dropped by `close`, as on PostgreSQL.
 */
let sharedPglite: Promise<Database> | undefined

/**
 * `base` seen through `schema`: every statement runs in a transaction that sets the search path
 * first (PGlite is one session, and tests of one file run one after the other in it).
 */
function inSchema(base: Database, schema: string): Database {
  const searchPath = `SET LOCAL search_path TO ${quoteIdentifier(schema)}`
  let closed = false
  const transaction = <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new Error('the database is closed'))
    return base.transaction(async (tx) => {
      await tx.query(searchPath)
      return work(tx)
    })
  }
  return {
    kind: base.kind,
    query: (sql, params, options) => transaction((tx) => tx.query(sql, params, options)),
    transaction,
    async close() {
      if (closed) return
      closed = true
      await base.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
    },
  }
}

export async function openPublishingDatabase(kind: { url?: string }): Promise<TestDatabase> {
  if (!kind.url) {
    const schema = `publishing_${randomBytes(6).toString('hex')}`
    sharedPglite ??= openDatabase({})
    const base = await sharedPglite
    await base.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`)
    const database = inSchema(base, schema)
    await migrate(database, PUBLISHING_MIGRATIONS)
    return { database, close: () => database.close() }
  }
  const schema = await createSchema(kind.url, 'publishing')
  const database = await openDatabase({
    url: kind.url,
    schema: schema.name,
    migrations: PUBLISHING_MIGRATIONS,
  })
  return {
    database,
    async close() {
      await database.close()
      await schema.drop()
    },
  }
}

/** The about page in English, the entry most tests change. */
export const ABOUT = 'content/en/pages/about.yaml'

/**
 * A draft of the site's `file` (the about page) with its title changed, written by Ada, moved
 * to review by her and approved by Rita: ready for a publisher.
 */
export async function approvedDraft(
  drafts: Drafts,
  title: string,
  { file = ABOUT, id = 'pages/about' }: { file?: string; id?: string } = {},
) {
  const text = (await readFile(join(ROOT, file), 'utf8')).replace(/^title: .*$/m, `title: ${title}`)
  await drafts.save(ada, id, [{ path: file, content: text }], title)
  await drafts.setStatus(ada, id, 'pending_review')
  return approveSeen(drafts, rita, id)
}

/**
 * The publishing service configured by `env`, with a stand-in build that writes one page: for
 * the tests of everything but publishing itself (the real build is in publisher.test.ts).
 */
export function openServiceWithStandInBuild(
  env: Record<string, string>,
  clock?: () => Date,
): Promise<PublishingService> {
  return openPublishingService(readPublishingSettings(ROOT, env), {
    ...(clock ? { clock } : {}),
    root: ROOT,
    buildConfig: readBuildConfig(env),
    build: async (config) => {
      await mkdir(config.outDir, { recursive: true })
      await writeFile(join(config.outDir, 'index.html'), 'site')
      return standInReport()
    },
  })
}

/**
 * What someone holding the database as its owner can do, for the tests of the audit trail's
 * defences: the append-only triggers off while `work` runs (on PostgreSQL the tests' role owns
 * the tables, as the service's own role does without `DATABASE_OWNER_URL`).
 */
export async function asOwner(database: Database, work: () => Promise<void>) {
  await database.query('ALTER TABLE audit_entries DISABLE TRIGGER USER')
  try {
    await work()
  } finally {
    await database.query('ALTER TABLE audit_entries ENABLE TRIGGER USER')
  }
}

/**
 * Entry `id` changed by `change`, and every later entry's link and hash computed again (keyed
 * with `keyed`'s key under its id when given, else unkeyed): the chain checks out again.
 */
export async function rewrite(
  database: Database,
  id: number,
  change: (entry: AuditEntry) => AuditEntry,
  keyed?: { key: string; keyId: string },
) {
  const entries = await readAudit(database, { afterId: id - 2 })
  let previous = id > 1 ? (entries.shift()?.hash ?? GENESIS) : GENESIS
  await asOwner(database, async () => {
    for (const entry of entries) {
      const { hash: _old, ...rest } = entry.id === id ? change(entry) : entry
      const unsigned = { ...rest, previousHash: previous, keyId: keyed?.keyId ?? null }
      const hash = hashOf(unsigned, keyed?.key)
      await database.query(
        `UPDATE audit_entries SET subject = $2, previous_hash = $3, hash = $4, key_id = $5
         WHERE id = $1`,
        [entry.id, unsigned.subject, previous, hash, unsigned.keyId],
      )
      previous = hash
    }
  })
}

/** `person` approves draft `id` as she sees it now: the version there at this moment. */
export async function approveSeen(drafts: Drafts, person: Person, id: string) {
  return drafts.approve(person, id, (await drafts.get(id))?.head)
}
