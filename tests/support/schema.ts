/**
 * A throwaway schema on the tests' PostgreSQL server: tests, and the service processes they
 * start, that share one database each work in a schema of their own, then drop it with
 * everything in it.
 */
import { randomBytes } from 'node:crypto'
import { quoteIdentifier } from '../../src/database/database'
import { openDatabase } from '../../src/database/open'

export interface Schema {
  /** Its name, for `openDatabase({ schema })`. */
  readonly name: string
  /** The server's URL, as the role that made it, working in it: for `DATABASE_URL`. */
  readonly url: string
  /** `url` (another role's on the same server) working in it. */
  urlOf(url: string): string
  /** Drops it with everything in it. */
  drop(): Promise<void>
}

/** `url` with every connection's search path set to `schema`. */
function inSchema(url: string, schema: string): string {
  const scoped = new URL(url)
  scoped.searchParams.set('options', `-c search_path=${schema}`)
  return scoped.toString()
}

/** A new schema `<prefix>_<random>` on `url`'s server, made by its role. */
export async function createSchema(url: string, prefix: string): Promise<Schema> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`
  const run = async (sql: string) => {
    const admin = await openDatabase({ url, poolSize: 1 })
    try {
      await admin.query(sql)
    } finally {
      await admin.close()
    }
  }
  await run(`CREATE SCHEMA ${quoteIdentifier(name)}`)
  return {
    name,
    url: inSchema(url, name),
    urlOf: (other) => inSchema(other, name),
    drop: () => run(`DROP SCHEMA ${quoteIdentifier(name)} CASCADE`),
  }
}
