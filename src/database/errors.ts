/**
 * Which errors mean the database is out of reach (stopped, restarting, refusing connections, a
 * connection lost) rather than a fault of the request: the services answer those 503 and log an
 * outage. Only an error the database raised can say so, so every error it raises is marked.
 */
import type { Database, Queryable, QueryOptions } from './database'

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

/** A code or message that says the database's disk (or PGlite's folder) is full. */
function isNoSpace(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown }
  // disk_full (PostgreSQL, and PGlite reporting its file system's ENOSPC); ENOSPC itself from a
  // write of PGlite's outside PostgreSQL.
  if (code === '53100' || code === 'ENOSPC') return true
  if (Array.isArray(errors) && errors.some(isNoSpace)) return true
  return typeof message === 'string' && /No space left on device/.test(message)
}

/**
 * Whether an error means the database's disk is full: nothing was stored (the statement or
 * transaction failed whole), and only freeing space helps. Only an error the database raised
 * can say so.
 */
export function isDiskFull(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { [FROM_DATABASE]?: boolean })[FROM_DATABASE] === true &&
    isNoSpace(error)
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
export function markingErrors(database: Database): Database {
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
