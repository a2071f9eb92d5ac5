/**
 * A fresh database for the publishing service's tests: PGlite in memory, or a new schema on
 * the PostgreSQL server `TEST_DATABASE_URL` names, dropped by `close`.
 */
import { randomBytes } from 'node:crypto'
import type { Person, Role } from '../../src/publishing/rules'
import { PUBLISHING_MIGRATIONS } from '../../src/publishing/schema'
import { type Database, openDatabase, quoteIdentifier } from '../../src/server/forms/database'

export interface TestDatabase {
  database: Database
  close(): Promise<void>
}

/** A migrated PGlite's data, made once per test worker: each test's database starts from it. */
let template: Promise<Blob> | undefined
const migratedPglite = () => {
  template ??= (async () => {
    const first = await openDatabase({ migrations: PUBLISHING_MIGRATIONS })
    try {
      return await (first.dump as () => Promise<Blob>)()
    } finally {
      await first.close()
    }
  })()
  return template
}

export async function openPublishingDatabase(kind: { url?: string }): Promise<TestDatabase> {
  const schema = kind.url ? `publishing_${randomBytes(6).toString('hex')}` : undefined
  const database = await openDatabase({
    url: kind.url,
    schema,
    migrations: PUBLISHING_MIGRATIONS,
    ...(kind.url ? {} : { loadDataDir: await migratedPglite() }),
  })
  return {
    database,
    async close() {
      await database.close()
      if (kind.url && schema) {
        const admin = await openDatabase({ url: kind.url, poolSize: 1, migrate: false })
        await admin.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
        await admin.close()
      }
    },
  }
}

/** A person as the rules see them. */
export const person = (email: string, roles: Role[]): Person => ({
  email,
  name: email.split('@')[0] ?? '',
  roles,
  language: 'en',
})
/** The bank's team in the tests: an author, a reviewer, a publisher. */
export const ada = person('ada@bank.example', ['author'])
export const rita = person('rita@bank.example', ['reviewer'])
export const paul = person('paul@bank.example', ['publisher'])
