/**
 * PGlite, the embedded database of `npm start`: PostgreSQL compiled to WebAssembly in a data
 * folder (or in memory for tests). Its folder belongs to one process at a time, a new one
 * starts from an empty cluster kept in the user's cache, and statements run often are prepared
 * once, as PostgreSQL would.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { isProcessAlive } from '../shared/process-alive'
import { SettingError } from '../shared/settings-error'
import type { Database, Queryable, QueryOptions } from './database'

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
      throw new SettingError(
        'DATA_DIR',
        `the database in ${dataDir} is in use by process ${owner} (npm start?), and PGlite serves one process at a time`,
        'stop that process first, set DATA_DIR to another folder, or use PostgreSQL (DATABASE_URL)',
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

/**
 * The kept cluster as PGlite's `loadDataDir` reads it (`arrayBuffer()`, once): the file's bytes
 * handed over as they are. `new Blob([bytes])` copied the 40 MB in and read them out again in
 * chunks, about a second of CPU for every new database (a test run opens hundreds).
 */
class KeptCluster extends Blob {
  readonly #bytes: Uint8Array

  constructor(bytes: Uint8Array) {
    super()
    this.#bytes = bytes
  }

  override get size(): number {
    return this.#bytes.byteLength
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.#bytes
    return Promise.resolve(buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer)
  }
}

/** The empty cluster as a tarball: from the cache, or made now and kept there. */
async function emptyCluster(pglite: PGliteModule, file: string): Promise<Blob> {
  const kept = await readFile(file).catch(() => undefined)
  if (kept) return new KeptCluster(kept)
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

export async function openPglite(dataDir: string | undefined): Promise<Database> {
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
