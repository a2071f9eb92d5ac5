/**
 * Who may do what in PostgreSQL: the migrations run as the role that owns the tables
 * (`DATABASE_OWNER_URL`), which grants the services' role (`DATABASE_URL`) what a service needs
 * and no more. That role then owns nothing it could drop or alter.
 */
import type { Database } from './database'

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
