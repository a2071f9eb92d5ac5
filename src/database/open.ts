/**
 * Opens a service's database: PostgreSQL when given a URL, otherwise PGlite (in a folder, or in
 * memory for tests); applies the service's migrations, as the tables' owner when one is named;
 * and marks every error the database raises, so an outage can be told from a faulty request.
 */
import type { Database } from './database'
import { markingErrors } from './errors'
import { type MigrationSet, migrate } from './migrations'
import { openPglite } from './pglite'
import { openPostgres, type PostgresOptions } from './postgresql'
import { grantServiceRole } from './roles'

export interface DatabaseOptions extends PostgresOptions {
  /** A PostgreSQL connection string; PGlite when absent. */
  url?: string
  /** PGlite's folder; in memory when absent (tests). */
  dataDir?: string
  /**
   * The service's migrations, applied before the database is handed over; none when absent
   * (an administrative connection).
   */
  migrations?: MigrationSet
  /**
   * PostgreSQL as the role that owns the tables (`DATABASE_OWNER_URL`), for the migrations:
   * they run through it, and it grants the role of `url` what a service needs and no more (see
   * `grantServiceRole`). The service's own connection then owns nothing it could drop or alter.
   */
  ownerUrl?: string
}

/** The database `options` name, with the service's migrations applied and its errors marked. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return markingErrors(await openUnmarked(options))
}

async function openUnmarked(options: DatabaseOptions): Promise<Database> {
  const { migrations } = options
  if (options.url && options.ownerUrl && migrations) {
    return openAsServiceRole(options.url, options.ownerUrl, migrations, options)
  }
  const database = options.url
    ? await openPostgres(options.url, options)
    : await openPglite(options.dataDir)
  if (!migrations) return database
  try {
    await migrate(database, migrations)
  } catch (error) {
    await database.close()
    throw error
  }
  return database
}

/**
 * The service's connection (`url`) after the migrations ran as the tables' owner (`ownerUrl`),
 * and the owner granted the service's role its rights.
 */
async function openAsServiceRole(
  url: string,
  ownerUrl: string,
  migrations: MigrationSet,
  options: PostgresOptions,
): Promise<Database> {
  const owner = await openPostgres(ownerUrl, { ...options, poolSize: 1 })
  try {
    await migrate(owner, migrations)
    const database = await openPostgres(url, options)
    try {
      const [role] = await database.query<{ name: string }>('SELECT current_user AS name')
      await grantServiceRole(owner, role?.name ?? '')
      return database
    } catch (error) {
      await database.close()
      throw error
    }
  } finally {
    await owner.close()
  }
}
