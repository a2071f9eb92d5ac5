/**
 * Each service's schema as numbered migrations, applied at start, the same for PGlite and
 * PostgreSQL. A service brings its own set (`FORMS_MIGRATIONS`, `PUBLISHING_MIGRATIONS`) with
 * its own table of applied ones, so services may share one database.
 */
import { type Database, quoteIdentifier } from './database'

/** One step of a schema: never edited once shipped; the next one is added instead. */
export interface Migration {
  id: string
  statements: string[]
}

/** A service's migrations and where it records them: services may share one database. */
export interface MigrationSet {
  migrations: readonly Migration[]
  /** The table of applied migrations' ids. */
  table: string
  /** The advisory lock that keeps two instances from migrating at once. */
  lock: number
}

/**
 * Applies the migrations the database has not seen, in order, in one transaction. An advisory
 * lock keeps two instances starting at once from applying the same one twice. A database that
 * has them all is only read: a role that may not create tables (the service's own, the owner's
 * having migrated with `npm run cms -- migrate`) starts on it; one that lacks some is told to
 * run them as the tables' owner.
 */
export async function migrate(database: Database, set: MigrationSet): Promise<string[]> {
  try {
    return await migrateAll(database, set)
  } catch (error) {
    // insufficient_privilege: the role of DATABASE_URL owns nothing, as it should.
    if ((error as { code?: string }).code !== '42501') throw error
    // Its code kept: a program's start says it as DATABASE_URL's fault (settings.ts).
    throw Object.assign(
      new Error(
        `${(error as Error).message}: this database role may not change the tables; run the migrations as their owner (DATABASE_OWNER_URL, or npm run cms -- migrate)`,
      ),
      { code: '42501' },
    )
  }
}

async function migrateAll(database: Database, set: MigrationSet): Promise<string[]> {
  const applied: string[] = []
  const table = quoteIdentifier(set.table)
  const [known] = await database.query<{ exists: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS exists',
    [set.table],
  )
  if (known?.exists) {
    const done = new Set(
      (await database.query<{ id: string }>(`SELECT id FROM ${table}`)).map((row) => row.id),
    )
    if (set.migrations.every((migration) => done.has(migration.id))) return applied
  }
  await database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [set.lock])
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${table} (
        id text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    )
    const done = new Set(
      (await tx.query<{ id: string }>(`SELECT id FROM ${table}`)).map((row) => row.id),
    )
    for (const migration of set.migrations) {
      if (done.has(migration.id)) continue
      for (const statement of migration.statements) await tx.query(statement)
      await tx.query(`INSERT INTO ${table} (id) VALUES ($1)`, [migration.id])
      applied.push(migration.id)
    }
  })
  return applied
}
