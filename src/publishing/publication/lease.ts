/**
 * The publication lease: one row in the database (`publish_lease`, name `publish`) that every
 * process of the service takes before it moves main or switches the served release (a
 * publisher's turn, `Turns` below), and that a backup takes for as long as it reads the
 * database and the repository (../backup/), so that it never catches a publication half-way.
 * It lapses by itself (`LEASE_MS`) should its holder die; a holder of this machine that died is
 * taken over at once.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Database, Queryable } from '../../database/database'
import { isProcessAlive } from '../../shared/process-alive'
import { PublishingError } from '../errors'
import type { GitRepository } from '../git/repository'
import { type MainMove, settleMainMoves } from './main-moves'

export const LEASE = 'publish'
/**
 * The lease's length; its holder renews it while its turn runs. A holder that died (a pod
 * killed, a node lost, where no process of the same machine can tell) lets it lapse within a
 * minute; a holder stalled longer than that finds it taken at its next step and stops.
 */
export const LEASE_MS = 60_000

/** The holders' tokens of this process's turns under way, whichever publisher runs them. */
const turnsUnderWay = new Set<string>()
export const turnBegins = (holder: string) => {
  turnsUnderWay.add(holder)
}
export const turnEnds = (holder: string) => {
  turnsUnderWay.delete(holder)
}

/**
 * The turns of this process waiting for the lease: woken as soon as one of this process ends, so
 * a publication pressed while the release is built ahead (`Publisher.prepare`) starts at once,
 * not at its next poll.
 */
const waitingForTurn = new Set<() => void>()

/** A new holder's token: `<host>:<pid>:<random>`, one per turn. */
export const leaseHolder = () => `${hostname()}:${process.pid}:${randomUUID()}`

/** Takes the lease for `holder` if it is free or lapsed; whether it did. */
export async function tryTakeLease(database: Queryable, holder: string): Promise<boolean> {
  // The database's time, not the (injectable) clock: every process reads the same.
  const [taken] = await database.query<{ holder: string }>(
    `INSERT INTO publish_lease (name, holder, until)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond')
     ON CONFLICT (name)
       DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until, since = now()
       WHERE publish_lease.until < now()
     RETURNING holder`,
    [LEASE, holder, LEASE_MS],
  )
  return Boolean(taken)
}

/** Whether `holder` (a lease's token) names a process of this machine that is gone. */
export function holderIsDead(holder: string): boolean {
  const [host, pid] = holder.split(':')
  return host === hostname() && Boolean(pid) && !isProcessAlive(Number(pid))
}

/**
 * Takes the lease over from a process of this machine that died holding it (killed during a
 * publication, or this container's process before it was restarted) at once, not when the
 * lease lapses. Returns the dead holder's token when it did.
 */
export async function takeOverFromDead(
  database: Queryable,
  holder: string,
): Promise<string | null> {
  const [row] = await database.query<{ holder: string }>(
    'SELECT holder FROM publish_lease WHERE name = $1',
    [LEASE],
  )
  const [host, pid] = (row?.holder ?? '').split(':')
  if (!row || host !== hostname() || !pid || turnsUnderWay.has(row.holder)) return null
  // This process's number but none of its turns: an earlier process of the same container,
  // restarted (a container's processes get the same numbers again).
  if (Number(pid) !== process.pid && !holderIsDead(row.holder)) return null
  const [taken] = await database.query<{ holder: string }>(
    `UPDATE publish_lease
     SET holder = $2, until = now() + $3 * interval '1 millisecond', since = now()
     WHERE name = $1 AND holder = $4 RETURNING holder`,
    [LEASE, holder, LEASE_MS, row.holder],
  )
  return taken ? row.holder : null
}

/** Extends the lease if `holder` still holds it; whether it does. */
export async function renewLease(database: Queryable, holder: string): Promise<boolean> {
  const rows = await database.query<{ holder: string }>(
    `UPDATE publish_lease SET until = now() + $3 * interval '1 millisecond'
     WHERE name = $1 AND holder = $2 RETURNING holder`,
    [LEASE, holder, LEASE_MS],
  )
  return rows.length > 0
}

/** Gives the lease back (if `holder` still holds it). */
export async function releaseLease(database: Queryable, holder: string): Promise<void> {
  await database.query('DELETE FROM publish_lease WHERE name = $1 AND holder = $2', [LEASE, holder])
}

/** Who holds the lease now and until when, or `null` when nobody does (or it lapsed). */
export async function liveLeaseHolder(
  database: Queryable,
): Promise<{ holder: string; until: string } | null> {
  const [row] = await database.query<{ holder: string; until: Date | string }>(
    'SELECT holder, until FROM publish_lease WHERE name = $1 AND until > now()',
    [LEASE],
  )
  return row ? { holder: row.holder, until: new Date(row.until).toISOString() } : null
}

/**
 * Another publication holds the lease longer than a publish waits, or took it over from this
 * one (before or after main moved).
 */
export class PublishBusyError extends PublishingError<
  'publish-busy' | 'publish-overtaken' | 'publish-not-switched'
> {}

/** The longest a turn keeps renewing the lease: far above any build. */
const MAX_TURN_MS = 30 * 60_000

export interface TurnsOptions {
  database: Database
  repo: GitRepository
  clock: () => Date
  log?: {
    info(data: object, message: string): void
  }
  /** How long a turn waits for another to finish (default 120 s). */
  waitMs?: number
}

/**
 * A publisher's turns of the lease: a publication, a rollback or the site brought up to main
 * runs in one, and stops before each step others see if it lost it (`stillHolding`).
 */
export class Turns {
  private readonly clock: () => Date
  /** The lease's holder token of the turn the code runs in (see exclusively). */
  private readonly turn = new AsyncLocalStorage<string>()

  constructor(private readonly options: TurnsOptions) {
    this.clock = options.clock
  }

  /**
   * Runs `work` holding the lease, with the moves of main a killed process left settled first
   * (passed to it); waits (polling) while another holds it, `waitMs` at most.
   */
  async exclusively<T>(
    work: (settled: MainMove[]) => Promise<T>,
    waitMs = this.options.waitMs ?? 120_000,
  ): Promise<T> {
    const { database } = this.options
    const deadline = Date.now() + waitMs
    // One token per turn: a process that stalled past its lease while another turn of the
    // same process began cannot pass the other's for its own.
    const holder = leaseHolder()
    for (;;) {
      if (await tryTakeLease(database, holder)) break
      const dead = await takeOverFromDead(database, holder)
      if (dead) {
        this.options.log?.info({ from: dead }, 'took the publication over from a process that died')
        break
      }
      if (Date.now() > deadline) {
        throw new PublishBusyError('publish-busy')
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          waitingForTurn.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, 200)
        waitingForTurn.add(wake)
      })
    }
    // Renewed while the work runs, so a long build keeps it, but not for ever: a turn hung on
    // a network or a build lets the lease lapse after MAX_TURN_MS and the others go on. A
    // process stalled past its lease finds it taken at its next step and stops (stillHolding).
    const began = Date.now()
    const renewal = setInterval(() => {
      if (Date.now() - began < MAX_TURN_MS) this.renew(holder).catch(() => {})
    }, LEASE_MS / 4)
    renewal.unref()
    turnBegins(holder)
    try {
      return await this.turn.run(holder, async () => {
        const settled = await settleMainMoves(database, this.options.repo, this.clock())
        if (settled.length > 0) {
          this.options.log?.info(
            { moves: settled.map((move) => `${move.action} ${move.subject}`) },
            'recorded the moves of main a killed process made',
          )
        }
        return work(settled)
      })
    } finally {
      clearInterval(renewal)
      turnEnds(holder)
      await releaseLease(database, holder).catch(() => {})
      for (const wake of waitingForTurn) wake()
    }
  }

  /** Extends the lease if `holder` still holds it; whether it does. */
  private renew(holder: string): Promise<boolean> {
    return renewLease(this.options.database, holder)
  }

  /**
   * Checked before each step others see (moving main, switching the served release): a
   * publisher that lost the lease to another process stops before it, changing nothing more.
   */
  async stillHolding(): Promise<void> {
    const holder = this.turn.getStore()
    if (!holder || !(await this.renew(holder))) {
      throw new PublishBusyError('publish-overtaken')
    }
  }
}
