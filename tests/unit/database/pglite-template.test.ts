/**
 * A new PGlite database starts from an empty cluster kept in the user's cache (initdb in
 * WebAssembly costs seconds of CPU): the copy is made once, each database made from it is a
 * database of its own that keeps what is written, and a damaged copy costs an initdb, never a
 * database.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/database/open'
import { FORMS_MIGRATIONS } from '../../../src/forms/migrations'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let dir: string
let templates: string
const before = process.env.XDG_CACHE_HOME

beforeAll(async () => {
  dir = await temporaryFolder('pglite-template-')
  process.env.XDG_CACHE_HOME = join(dir, 'cache')
  templates = join(dir, 'cache', 'pglite-templates')
})

afterAll(async () => {
  process.env.XDG_CACHE_HOME = before
  await removeFolder(dir)
})

const template = async () => {
  const [name, ...others] = await readdir(templates).catch(() => [])
  expect(others).toEqual([])
  return name ? join(templates, name) : undefined
}

/** A database in `folder` (in memory when absent) with the forms service's tables. */
async function withDatabase<T>(
  folder: string | undefined,
  work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
) {
  const db = await openDatabase({ dataDir: folder, migrations: FORMS_MIGRATIONS })
  try {
    return await work(db)
  } finally {
    await db.close()
  }
}

const count = (folder: string | undefined) =>
  withDatabase(folder, async (db) => {
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes')
    return row?.n
  })

describe('new PGlite databases', () => {
  it('start from the empty cluster, made once, and keep what they store', async () => {
    const first = join(dir, 'first')
    await withDatabase(first, async (db) => {
      await db.query('CREATE TABLE notes (text text)')
      await db.query("INSERT INTO notes VALUES ('kept')")
    })
    const made = await template()
    expect(made).toMatch(/pglite-templates\/\d+\.\d+\.\d+\.tar$/)
    const { mtimeMs } = await stat(made as string)
    expect(await count(first)).toBe(1)

    // Another database from the same copy is a database of its own.
    const second = join(dir, 'second')
    await withDatabase(second, async (db) => {
      expect(await db.query("SELECT to_regclass('notes') AS found")).toEqual([{ found: null }])
      await db.query('CREATE TABLE notes (text text)')
    })
    expect(await count(second)).toBe(0)
    expect(await count(first)).toBe(1)
    // In memory too; the copy was not made again.
    await withDatabase(undefined, async (db) => {
      expect(await db.query<{ ok: number }>('SELECT 1 AS ok')).toEqual([{ ok: 1 }])
    })
    expect((await stat(made as string)).mtimeMs).toBe(mtimeMs)
    // initdb in WebAssembly, then five databases: over 30 s on two busy cores in CI.
  }, 120_000)

  it('runs initdb when the kept copy is damaged, and drops it', async () => {
    const made = (await template()) as string
    await writeFile(made, 'not a tarball at all')
    const folder = join(dir, 'after-damage')
    await withDatabase(folder, async (db) => {
      await db.query('CREATE TABLE notes (text text)')
      await db.query("INSERT INTO notes VALUES ('one'), ('two')")
    })
    expect(await count(folder)).toBe(2)
    // Dropped: the next new database makes a sound one.
    expect(await template()).toBeUndefined()
  }, 120_000)

  it('leaves a folder that already holds files to initdb, and its files where they are', async () => {
    const folder = join(dir, 'not-empty')
    await mkdir(folder)
    await writeFile(join(folder, 'README'), 'mine')
    await withDatabase(folder, async (db) => {
      await db.query('CREATE TABLE notes (text text)')
    })
    expect(await count(folder)).toBe(0)
    expect(await readFile(join(folder, 'README'), 'utf8')).toBe('mine')
  })
})
