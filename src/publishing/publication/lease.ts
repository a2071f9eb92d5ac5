/**
 * The publication lease: one row in the database (`publish_lease`, name `publish`) that every
 * process of the service takes before it moves main or switches the served release
 * (../workflow/publisher.ts), and that a backup takes for as long as it reads the database and
 * the repository (../backup/), so that it never catches a publication half-way. It lapses by
 * itself (`LEASE_MS`) should its holder die; a holder of this machine that died is taken over
 * at once.
 */
import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Queryable } from '../../database/database'
import { isProcessAlive } from '../../shared/process-alive'

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
