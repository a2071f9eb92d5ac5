/**
 * PostgreSQL through a pool of connections (`pg`), in a schema of its own when asked (tests
 * isolate themselves in one). A connection the server drops fails its query and nothing more;
 * a transaction that loses a deadlock runs again.
 */
import type { PoolClient } from 'pg'
import { type Database, type Queryable, type QueryOptions, quoteIdentifier } from './database'

export interface PostgresOptions {
  /** PostgreSQL schema to work in (made when missing). */
  schema?: string
  /** Connections to PostgreSQL (default 10). */
  poolSize?: number
  /** How long to wait for a new connection to PostgreSQL (default 3 s). */
  connectTimeoutMs?: number
}

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<Database> {
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
