/**
 * The forms service's database: PostgreSQL when `DATABASE_URL` is set, otherwise PGlite
 * (PostgreSQL compiled to WebAssembly) in a data folder, so `npm start` needs nothing
 * installed. Both speak the same SQL; the service sees one small interface.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import type { PoolClient } from 'pg'
import { isProcessAlive } from '../process-alive'
import { MIGRATIONS, type Migration } from './migrations'

export interface QueryOptions {
  /**
   * A name for a statement run often: PostgreSQL parses and plans it once per connection and
   * then only binds the values (one name per SQL text). PGlite ignores it.
   */
  name?: string
}

export interface Queryable {
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: QueryOptions,
  ): Promise<Row[]>
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgresql'
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
  /** Waits for the queries in flight, then closes; everything committed is on disk. */
  close(): Promise<void>
}

export interface DatabaseOptions {
  /** A PostgreSQL connection string; PGlite when absent. */
  url?: string
  /** PGlite's folder; in memory when absent (tests). */
  dataDir?: string
  /** PostgreSQL schema to work in (tests isolate themselves in one). */
  schema?: string
  /** Connections to PostgreSQL (default 10). */
  poolSize?: number
  /** Apply the migrations (default true; false for administrative connections). */
  migrate?: boolean
  /** Which service's migrations (default the forms service's). */
  migrations?: MigrationSet
  /** How long to wait for a new connection to PostgreSQL (default 3 s). */
  connectTimeoutMs?: number
  /**
   * PostgreSQL as the role that owns the tables (`DATABASE_OWNER_URL`), for the migrations:
   * they run through it, and it grants the role of `url` what a service needs and no more (see
   * `grantServiceRole`). The service's own connection then owns nothing it could drop or alter.
   */
  ownerUrl?: string
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  // admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
])

/** Set on every error the database raised: a query, a connection, a commit that failed. */
const FROM_DATABASE = Symbol('raised by the database')

/** `error`, marked as the database's (an error of another kind is left as it is). */
function fromDatabase(error: unknown): unknown {
  if (error && typeof error === 'object' && Object.isExtensible(error)) {
    Object.defineProperty(error, FROM_DATABASE, { value: true })
  }
  return error
}

/** A code or message that says a connection to the database failed or was lost. */
function isOutage(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown }
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) {
    return true
  }
  if (Array.isArray(errors) && errors.some(isOutage)) return true
  return (
    typeof message === 'string' &&
    /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed)/.test(
      message,
    )
  )
}

/**
 * Whether an error means the database cannot be reached right now (stopped, restarting,
 * refusing connections, a connection lost), rather than a fault of the request: nothing was
 * stored, and trying again later will work. Only an error the database raised can say so: the
 * same codes come from other sockets (a visitor who resets the connection while its body is
 * read fails the request with ECONNRESET too).
 */
export function isUnavailable(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { [FROM_DATABASE]?: boolean })[FROM_DATABASE] === true &&
    isOutage(error)
  )
}

/** Queries whose errors are marked as the database's. */
const marking = (target: Queryable): Queryable => ({
  query: <Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) =>
    target.query<Row>(sql, params, options).catch((error: unknown) => {
      throw fromDatabase(error)
    }),
})

/**
 * The database with its own errors marked (see `isUnavailable`): a query's, and a
 * transaction's own (connecting, beginning, committing); what the work inside a transaction
 * throws of its own is passed on as it is.
 */
function markingErrors(database: Database): Database {
  return {
    kind: database.kind,
    ...marking(database),
    async transaction(work) {
      let thrown: { error: unknown } | undefined
      try {
        return await database.transaction(async (tx) => {
          try {
            return await work(marking(tx))
          } catch (error) {
            thrown = { error }
            throw error
          }
        })
      } catch (error) {
        throw thrown && thrown.error === error ? error : fromDatabase(error)
      }
    },
    close: () => database.close(),
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return markingErrors(await openUnmarked(options))
}

async function openUnmarked(options: DatabaseOptions): Promise<Database> {
  if (options.url && options.ownerUrl && options.migrate !== false) {
    return openAsServiceRole(options.url, options.ownerUrl, options)
  }
  const database = options.url
    ? await openPostgres(options.url, options)
    : await openPglite(options.dataDir)
  if (options.migrate === false) return database
  try {
    await migrate(database, options.migrations)
  } catch (error) {
    await database.close()
    throw error
  }
  return database
}

/**
 * PGlite's folder belongs to one process at a time (two would corrupt it): a lock file beside
 * it names the owner; a lock left by a process that is gone is taken over.
 */
async function lockDataDir(dataDir: string): Promise<string> {
  const lock = `${dataDir}.lock`
  try {
    await writeFile(lock, String(process.pid), { flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const owner = Number(await readFile(lock, 'utf8').catch(() => '0'))
    if (owner && owner !== process.pid && isProcessAlive(owner)) {
      throw new Error(
        `The database in ${dataDir} is in use by process ${owner} (npm start?). PGlite serves one process at a time: stop that process first, or use PostgreSQL (DATABASE_URL).`,
      )
    }
    await writeFile(lock, String(process.pid))
  }
  return lock
}

/**
 * The empty cluster new PGlite databases start from, kept in the user's cache (`XDG_CACHE_HOME`,
 * else `~/.cache`) per PGlite version. PostgreSQL's initdb, compiled to WebAssembly, takes 2 to
 * 5 s of CPU on two cores (more under load); loading its result takes under one.
 * `PGLITE_TEMPLATES=off` runs initdb for every new database.
 */
function templateFile(): string | undefined {
  if (process.env.PGLITE_TEMPLATES === 'off') return undefined
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const { version } = JSON.parse(
    readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8'),
  ) as { version: string }
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache')
  return join(cache, 'pglite-templates', `${version}.tar`)
}

type PGliteModule = typeof import('@electric-sql/pglite')

/** The empty cluster as a tarball: from the cache, or made now and kept there. */
async function emptyCluster(pglite: PGliteModule, file: string): Promise<Blob> {
  const kept = await readFile(file).catch(() => undefined)
  if (kept) return new Blob([kept])
  const db = await pglite.PGlite.create()
  const dump = await db.dumpDataDir('none')
  await db.close()
  // Written whole under a name of its own, then renamed: a reader never sees half of it.
  // A cache that cannot be written costs the next database its initdb, nothing else.
  const partial = `${file}.${randomBytes(6).toString('hex')}`
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
    .then(() => dump.arrayBuffer())
    .then((bytes) => writeFile(partial, new Uint8Array(bytes), { mode: 0o600 }))
    .then(() => rename(partial, file))
    .catch(() => rm(partial, { force: true }))
  return dump
}

/**
 * Opens PGlite in `dataDir` (in memory when absent). A new database is loaded from the empty
 * cluster; should that fail (a damaged cache), the cache is dropped and initdb runs.
 */
async function createPglite(pglite: PGliteModule, dataDir: string | undefined) {
  const file = templateFile()
  // Only an empty folder takes the copy (and is emptied again if loading it fails).
  const isEmpty = !dataDir || (await readdir(dataDir)).length === 0
  if (!file || !isEmpty) return pglite.PGlite.create(dataDir ? { dataDir } : {})
  try {
    const loadDataDir = await emptyCluster(pglite, file)
    return await pglite.PGlite.create(dataDir ? { dataDir, loadDataDir } : { loadDataDir })
  } catch {
    await rm(file, { force: true })
    if (dataDir) {
      // What the failed load wrote goes: the folder was empty before it.
      await rm(dataDir, { recursive: true, force: true })
      await mkdir(dataDir, { recursive: true })
    }
    return pglite.PGlite.create(dataDir ? { dataDir } : {})
  }
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const pglite = await import('@electric-sql/pglite')
  const { parse, protocol } = pglite
  let lock: string | undefined
  if (dataDir) {
    await mkdir(dataDir, { recursive: true })
    lock = await lockDataDir(dataDir)
  }
  const db = await createPglite(pglite, dataDir).catch(async (error: unknown) => {
    if (lock) await rm(lock, { force: true })
    throw error
  })
  // PGlite's query() parses and plans every statement anew in several calls into the
  // WebAssembly; a named statement is parsed once and then runs in one call, in half the
  // time. PGlite is one session: a named statement outside a transaction must not run while
  // one is open, so `exclusive` keeps them and the transactions apart.
  const { serialize } = protocol
  const message = (...parts: Uint8Array[]) => {
    const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0))
    let offset = 0
    for (const part of parts) {
      whole.set(part, offset)
      offset += part.length
    }
    return whole
  }
  const parameterTypes = new Map<string, number[]>()
  let last: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const run = last.then(work, work)
    last = run.catch(() => {})
    return run
  }
  const runNamed = <Row>(
    name: string,
    sql: string,
    params: readonly unknown[],
    inTransaction: boolean,
  ) =>
    db.runExclusive(async () => {
      let types = parameterTypes.get(name)
      if (!types) {
        const described = await db.execProtocol(
          message(
            serialize.parse({ name, text: sql }),
            serialize.describe({ type: 'S', name }),
            serialize.sync(),
          ),
        )
        const found = described.messages.find(
          (item): item is typeof item & { dataTypeIDs: number[] } =>
            item.name === 'parameterDescription',
        )
        types = found?.dataTypeIDs ?? []
        parameterTypes.set(name, types)
      }
      const values = params.map((value, index) => {
        if (value === null || value === undefined) return null
        const serializer = db.serializers[types[index] ?? 0]
        return serializer ? serializer(value) : String(value)
      })
      const result = await db.execProtocol(
        message(
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ),
        // Inside a transaction the files are written at its commit.
        { syncToFs: !inTransaction },
      )
      return (parse.parseResults(result.messages, db.parsers)[0]?.rows ?? []) as Row[]
    })
  const queryable = (target: Pick<typeof db, 'query'>, inTransaction: boolean): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      if (!options.name) return (await target.query<Row>(sql, params as unknown[])).rows
      const run = () => runNamed<Row>(options.name ?? '', sql, params, inTransaction)
      return inTransaction ? run() : exclusive(run)
    },
  })
  return {
    kind: 'pglite',
    ...queryable(db, false),
    transaction: (work) => exclusive(() => db.transaction((tx) => work(queryable(tx, true)))),
    async close() {
      await exclusive(async () => {
        if (!db.closed) await db.close()
      })
      if (lock) await rm(lock, { force: true })
    },
  }
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // A server that does not answer fails a request after a few seconds instead of holding it.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
    keepAlive: true,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  })
  // A connection the server drops must not crash the process: idle ones are the pool's, and
  // one in use fails its query (the pool then discards it, see transaction()).
  pool.on('error', () => {})
  pool.on('connect', (client) => client.on('error', () => {}))
  // Made when missing (a role that may not create schemas finds the owner's).
  if (
    options.schema &&
    (await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [options.schema]))
      .rowCount === 0
  ) {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(options.schema)}`)
  }
  const queryable = (target: Pick<PoolClient, 'query'>): Queryable => ({
    async query<Row>(sql: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const values = params as unknown[]
      const result = options.name
        ? await target.query({ name: options.name, text: sql, values })
        : await target.query(sql, values)
      return result.rows as Row[]
    },
  })
  let closed = false
  return {
    kind: 'postgresql',
    ...queryable(pool),
    async transaction(work) {
      // A deadlock or serialization failure rolls back one side; it is run again, twice at most.
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect()
        let broken: Error | undefined
        try {
          await client.query('BEGIN')
          const result = await work(queryable(client))
          await client.query('COMMIT')
          return result
        } catch (error) {
          // A connection that cannot roll back is closed rather than handed to the next user.
          await client.query('ROLLBACK').catch((failure: Error) => {
            broken = failure
          })
          const code = (error as { code?: string }).code
          if (!broken && attempt < 3 && (code === '40P01' || code === '40001')) continue
          throw error
        } finally {
          client.release(broken)
        }
      }
    },
    async close() {
      if (closed) return
      closed = true
      await pool.end()
    },
  }
}

/**
 * The service's connection (`url`) after the migrations ran as the tables' owner (`ownerUrl`),
 * and the owner granted the service's role its rights.
 */
async function openAsServiceRole(
  url: string,
  ownerUrl: string,
  options: DatabaseOptions,
): Promise<Database> {
  const owner = await openPostgres(ownerUrl, { ...options, poolSize: 1 })
  try {
    await migrate(owner, options.migrations)
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

/** Services sharing a database grant one at a time (concurrent grants on a table fail). */
const GRANT_LOCK = 727273

/**
 * Run as the tables' owner: gives `role` (the service's) the use of the schema, and of every
 * table in it reading and writing rows, except the append-only tables (those with a trigger
 * named `…_append_only`, such as the audit trail's), which it may only read and append to. It
 * owns nothing, so it can neither drop nor alter a table, nor drop or disable a trigger. Run at
 * every start, after the migrations: new tables are covered.
 */
export async function grantServiceRole(owner: Database, role: string): Promise<void> {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
  await owner.transaction(async (tx) => {
    const [me] = await tx.query<{ name: string; schema: string }>(
      'SELECT current_user AS name, current_schema() AS schema',
    )
    if (!me || me.name === role) return
    await tx.query('SELECT pg_advisory_xact_lock($1)', [GRANT_LOCK])
    const schema = quote(me.schema)
    await tx.query(`GRANT USAGE ON SCHEMA ${schema} TO ${quote(role)}`)
    await tx.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${quote(role)}`,
    )
    await tx.query(
      `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${quote(role)}`,
    )
    const appendOnly = await tx.query<{ name: string }>(
      `SELECT DISTINCT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE c.relnamespace = current_schema()::regnamespace AND right(t.tgname, 12) = '_append_only'`,
    )
    for (const table of appendOnly) {
      await tx.query(
        `REVOKE UPDATE, DELETE, TRUNCATE ON ${schema}.${quote(table.name)} FROM ${quote(role)}`,
      )
    }
  })
}

export const quoteIdentifier = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL name: ${name}`)
  return `"${name}"`
}

/** A service's migrations and where it records them: services may share one database. */
export interface MigrationSet {
  migrations: readonly Migration[]
  /** The table of applied migrations' ids. */
  table: string
  /** The advisory lock that keeps two instances from migrating at once. */
  lock: number
}

export const FORMS_MIGRATIONS: MigrationSet = {
  migrations: MIGRATIONS,
  table: 'schema_migrations',
  lock: 727274,
}

/**
 * Applies the migrations the database has not seen, in order, in one transaction. An advisory
 * lock keeps two instances starting at once from applying the same one twice. A database that
 * has them all is only read: a role that may not create tables (the service's own, the owner's
 * having migrated with `npm run cms -- migrate`) starts on it; one that lacks some is told to
 * run them as the tables' owner.
 */
export async function migrate(
  database: Database,
  set: MigrationSet = FORMS_MIGRATIONS,
): Promise<string[]> {
  try {
    return await migrateAll(database, set)
  } catch (error) {
    // insufficient_privilege: the role of DATABASE_URL owns nothing, as it should.
    if ((error as { code?: string }).code !== '42501') throw error
    throw new Error(
      `${(error as Error).message}: this database role may not change the tables; run the migrations as their owner (DATABASE_OWNER_URL, or npm run cms -- migrate)`,
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
