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
import { connectionFailure, type DatabaseSetting } from './settings'

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
  /**
   * The URLs are the settings `DATABASE_URL` and `DATABASE_OWNER_URL` (a program's start): a
   * server that cannot be reached, refuses the role, or has no such database is a
   * `SettingError` naming the one that failed (see settings.ts), not the driver's error.
   */
  fromSettings?: boolean
}

/** The database `options` name, with the service's migrations applied and its errors marked. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return markingErrors(await openUnmarked(options))
}

async function openUnmarked(options: DatabaseOptions): Promise<Database> {
  const { migrations } = options
  if (options.url && options.ownerUrl && migrations) {
    return openAsServiceRole(
      options.url,
      options.ownerUrl,
      migrations,
      options,
      Boolean(options.fromSettings),
    )
  }
  const setting = options.fromSettings ? 'DATABASE_URL' : undefined
  const database = options.url
    ? await connect(options.url, options, setting)
    : await openPglite(options.dataDir)
  if (!migrations) return database
  try {
    await migrate(database, migrations)
  } catch (error) {
    await database.close()
    throw (options.url && setting && connectionFailure(error, options.url, setting)) || error
  }
  return database
}

/**
 * PostgreSQL at `url`; with `setting`, connected once at once, so that a server that cannot be
 * used is said as the setting's fault before anything else happens.
 */
async function connect(
  url: string,
  options: PostgresOptions,
  setting: DatabaseSetting | undefined,
): Promise<Database> {
  if (!setting) return openPostgres(url, options)
  const failed = (error: unknown) => connectionFailure(error, url, setting) ?? error
  const database = await openPostgres(url, options).catch((error: unknown) => {
    throw failed(error)
  })
  try {
    await database.query('SELECT 1')
  } catch (error) {
    await database.close()
    throw failed(error)
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
  fromSettings: boolean,
): Promise<Database> {
  const owner = await connect(
    ownerUrl,
    { ...options, poolSize: 1 },
    fromSettings ? 'DATABASE_OWNER_URL' : undefined,
  )
  try {
    await migrate(owner, migrations)
    const database = await connect(url, options, fromSettings ? 'DATABASE_URL' : undefined)
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

/**
 * Connects to the PostgreSQL `DATABASE_URL` and `DATABASE_OWNER_URL` name, once each, and
 * closes again: a program checks them before it starts anything (a build, a listener), so that
 * a server it cannot use stops it at once with its setting's line.
 */
export async function checkDatabaseUrls(urls: {
  databaseUrl?: string | undefined
  databaseOwnerUrl?: string | undefined
}): Promise<void> {
  const { databaseUrl, databaseOwnerUrl } = urls
  if (databaseOwnerUrl) {
    await (await connect(databaseOwnerUrl, { poolSize: 1 }, 'DATABASE_OWNER_URL')).close()
  }
  if (databaseUrl) await (await connect(databaseUrl, { poolSize: 1 }, 'DATABASE_URL')).close()
}
