/**
 * Whether the database has room to store what visitors send, for `/readyz` (`disk`) and the
 * answers to their forms. A full disk fails every write (PostgreSQL's `disk_full`, 53100;
 * PGlite's file system's ENOSPC, which it reports as the same): the forms service then answers
 * 503 with `Retry-After` (nothing was stored; what was stored before is untouched), and says
 * it is not ready until the space is back.
 *
 * Two signs: an error of the database that says so (seen on any of its statements, the
 * sender's too), which counts for `DISK_FULL_HOLD_MS` or until a form is stored again; and,
 * for PGlite, the free space of its folder's file system, below `MIN_FREE_BYTES` (a new WAL
 * segment is 16 MiB: PostgreSQL stops outright when it cannot write one).
 */
import { statfs } from 'node:fs/promises'
import type { Database, QueryOptions } from '../database/database'
import { isDiskFull } from '../database/errors'

/** How long a disk-full error keeps the service not ready, unless a form is stored meanwhile. */
export const DISK_FULL_HOLD_MS = 30_000
/** PGlite's folder needs this much free space to be ready: one WAL segment. */
export const MIN_FREE_BYTES = 16 * 1024 * 1024
/** How long a visitor turned away by a full disk is asked to wait (an operator must act). */
export const DISK_FULL_RETRY_SECONDS = 300

export class DiskSpace {
  readonly #folder: string | undefined
  readonly #now: () => number
  #fullAt: number | undefined

  /** `folder`: PGlite's data folder, whose free space is checked; none for PostgreSQL. */
  constructor(options: { folder?: string; now?: () => number } = {}) {
    this.#folder = options.folder
    this.#now = options.now ?? Date.now
  }

  /** Notes `error` when it says the disk is full; true when it does. */
  failed(error: unknown): boolean {
    if (!isDiskFull(error)) return false
    this.#fullAt = this.#now()
    return true
  }

  /** A form was stored: there is room again. */
  stored(): void {
    this.#fullAt = undefined
  }

  /** Resolves while there is room; rejects naming why not (a readiness check). */
  async ready(): Promise<void> {
    if (this.#fullAt !== undefined && this.#now() - this.#fullAt < DISK_FULL_HOLD_MS) {
      throw new Error('the database reported its disk full')
    }
    if (!this.#folder) return
    const stats = await statfs(this.#folder)
    if (stats.bavail * stats.bsize < MIN_FREE_BYTES) {
      throw new Error(`less than ${MIN_FREE_BYTES} bytes free for ${this.#folder}`)
    }
  }
}

/** `database`, telling `disk` of every error that says its disk is full. */
export function watchingDisk(database: Database, disk: DiskSpace): Database {
  const noted = (error: unknown): never => {
    disk.failed(error)
    throw error
  }
  return {
    kind: database.kind,
    query<Row>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      return database.query<Row>(sql, params, options).catch(noted)
    },
    transaction: (work) => database.transaction(work).catch(noted),
    close: () => database.close(),
  }
}
