/**
 * The one small interface both services see of their database: PostgreSQL when `DATABASE_URL`
 * is set, otherwise PGlite (PostgreSQL compiled to WebAssembly) in a data folder, so `npm start`
 * needs nothing installed. Both speak the same SQL; `open.ts` picks one.
 */

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

/** `name` as an SQL identifier; anything but a plain lower-case name is refused. */
export const quoteIdentifier = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL name: ${name}`)
  return `"${name}"`
}
