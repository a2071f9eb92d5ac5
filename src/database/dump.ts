/**
 * A service's tables as rows of JSON, and back: the database's part of a backup, made and
 * loaded through the same connection the services use (PGlite or PostgreSQL, no `pg_dump`).
 *
 * A service's tables are those its migrations create (`CREATE TABLE`), in the order they do:
 * a table only references tables made before it, so loading them in that order keeps every
 * foreign key. Each row is PostgreSQL's own `to_jsonb(row)` text, never parsed here (a bigint
 * stays exact), and is loaded again by `jsonb_populate_recordset` into a table of the same
 * migration: the database converts every value both ways. A restore runs the migrations the
 * backup recorded, loads the rows, sets the sequences, then runs the migrations that came
 * since, over the data, as an upgrade would.
 */
import type { Queryable } from './database'
import { quoteIdentifier } from './database'
import type { Migration, MigrationSet } from './migrations'

/** The tables `migrations` create, in the order they create them. */
export function tablesOf(migrations: readonly Migration[]): string[] {
  const tables: string[] = []
  for (const migration of migrations) {
    for (const statement of migration.statements) {
      const match = /^\s*CREATE TABLE (?:IF NOT EXISTS )?([a-z_][a-z0-9_]*)/i.exec(statement)
      if (match?.[1] && !tables.includes(match[1])) tables.push(match[1])
    }
  }
  return tables
}

/** The functions `migrations` create, with their argument lists, for `DROP FUNCTION`. */
export function functionsOf(migrations: readonly Migration[]): string[] {
  const functions: string[] = []
  for (const migration of migrations) {
    for (const statement of migration.statements) {
      const match = /^\s*CREATE (?:OR REPLACE )?FUNCTION ([a-z_][a-z0-9_]*\([^)]*\))/i.exec(
        statement,
      )
      if (match?.[1]) functions.push(match[1])
    }
  }
  return functions
}

/** A migration applied, as the set's table records it. */
export interface AppliedMigration {
  id: string
  appliedAt: string
}

/** The migrations the database has of `set`, oldest first; `null` when it has none (no table). */
export async function appliedMigrations(
  database: Queryable,
  set: MigrationSet,
): Promise<AppliedMigration[] | null> {
  const [known] = await database.query<{ exists: boolean }>(
    'SELECT to_regclass($1) IS NOT NULL AS exists',
    [set.table],
  )
  if (!known?.exists) return null
  const rows = await database.query<{ id: string; applied_at: Date | string }>(
    `SELECT id, applied_at FROM ${quoteIdentifier(set.table)} ORDER BY applied_at, id`,
  )
  return rows.map((row) => ({ id: row.id, appliedAt: new Date(row.applied_at).toISOString() }))
}

/** Which of the set's tables (and its migrations' table) exist in the database now. */
export async function existingTables(database: Queryable, set: MigrationSet): Promise<string[]> {
  const names = [set.table, ...tablesOf(set.migrations)]
  const rows = await database.query<{ name: string }>(
    'SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass(name) IS NOT NULL',
    [names],
  )
  return rows.map((row) => row.name)
}

/**
 * Every row of `table` as the text of `to_jsonb(row)`, in pages of `page` rows through a cursor
 * (so a large table is never held whole), handed to `write`; returns how many. Runs in the
 * caller's transaction, whose snapshot it reads. `where` leaves rows out (a condition on `t`).
 */
export async function dumpTable(
  tx: Queryable,
  table: string,
  write: (rows: string[]) => Promise<void> | void,
  { where, orderBy, page = 1000 }: { where?: string; orderBy?: string; page?: number } = {},
): Promise<number> {
  const cursor = `dump_${table}`
  await tx.query(
    `DECLARE ${quoteIdentifier(cursor)} NO SCROLL CURSOR FOR
     SELECT to_jsonb(t)::text AS row FROM ${quoteIdentifier(table)} t
     ${where ? `WHERE ${where}` : ''} ${orderBy ? `ORDER BY ${orderBy}` : ''}`,
  )
  let count = 0
  try {
    for (;;) {
      const rows = await tx.query<{ row: string }>(
        `FETCH FORWARD ${page} FROM ${quoteIdentifier(cursor)}`,
      )
      if (rows.length === 0) break
      count += rows.length
      await write(rows.map((row) => row.row))
    }
  } finally {
    await tx.query(`CLOSE ${quoteIdentifier(cursor)}`)
  }
  return count
}

/** A sequence's state: the last value it gave, and whether it gave it (`setval`'s arguments). */
export interface SequenceState {
  table: string
  column: string
  lastValue: string
  isCalled: boolean
}

/** The sequences behind the `serial` columns of `tables` (those of the service), as they stand. */
export async function sequencesOf(tx: Queryable, tables: readonly string[]) {
  const columns = await tx.query<{ table_name: string; column_name: string; sequence: string }>(
    `SELECT table_name, column_name,
            pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
     FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ANY($1::text[])
       AND column_default LIKE 'nextval(%'
     ORDER BY table_name, column_name`,
    [tables],
  )
  const states: SequenceState[] = []
  for (const column of columns) {
    if (!column.sequence) continue
    // A sequence is read outside any snapshot: its latest value, never below the rows read.
    const [state] = await tx.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM ${column.sequence}`,
    )
    if (!state) continue
    states.push({
      table: column.table_name,
      column: column.column_name,
      lastValue: state.last_value,
      isCalled: state.is_called,
    })
  }
  return states
}

/** Loads rows (each `to_jsonb(row)` text) into `table`, in one statement. */
export async function loadRows(tx: Queryable, table: string, rows: readonly string[]) {
  if (rows.length === 0) return
  const name = quoteIdentifier(table)
  await tx.query(
    `INSERT INTO ${name} SELECT * FROM jsonb_populate_recordset(NULL::${name}, $1::text::jsonb)`,
    [`[${rows.join(',')}]`],
  )
}

/**
 * Sets each sequence where it was, or past the largest value its column holds now, whichever
 * is further: no id a row had (or a purged row had, which others may still name) is given again.
 */
export async function setSequences(tx: Queryable, states: readonly SequenceState[]) {
  for (const state of states) {
    const table = quoteIdentifier(state.table)
    const column = quoteIdentifier(state.column)
    await tx.query(
      `SELECT setval(pg_get_serial_sequence($1, $2),
                     GREATEST($3::bigint, COALESCE((SELECT max(${column}) FROM ${table}), 0), 1),
                     $4::boolean OR EXISTS (SELECT 1 FROM ${table}))`,
      [state.table, state.column, state.lastValue, state.isCalled],
    )
  }
}
