/**
 * A person's refusals in the audit trail, a minute's share at a time. Every refusal of a
 * signed-in person's write is recorded, so repeating a refused request grew the trail as fast
 * as the service could answer: one author wrote about 9,300 entries a minute in a probe.
 *
 * The first `REFUSALS_PER_MINUTE` refusals of a person in a minute (from the first of them) are
 * written one by one; the further ones are counted, by code, and written as one entry (code
 * `refusals-held`: how many, of which codes, the minute they fell in) when the minute ends, or
 * before that person's next entry written, whichever comes first. The request is refused and
 * answered as before: only its entry waits. Counted in each process, for each database.
 */
import type { Database } from '../../database/database'
import { settleRequestRecord } from './refusal-record'
import { type AuditInput, appendAudit } from './trail'

/** How many of a person's refusals a minute are written one by one. */
export const REFUSALS_PER_MINUTE = 60
const MINUTE_MS = 60_000

/** One person's minute: from its first refusal. */
interface Minute {
  start: number
  written: number
  held: number
  /** The held refusals by their code. */
  codes: Record<string, number>
  timer?: NodeJS.Timeout
}

class RefusalLimit {
  private readonly minutes = new Map<string, Minute>()

  constructor(private readonly database: Database) {}

  async append(input: AuditInput, now: Date): Promise<void> {
    const at = now.getTime()
    let minute = this.minutes.get(input.actor)
    if (minute && at - minute.start >= MINUTE_MS) {
      await this.writeHeld(input.actor, minute)
      // Another refusal may have begun the next minute meanwhile.
      minute = this.minutes.get(input.actor)
    }
    if (!minute) {
      minute = { start: at, written: 0, held: 0, codes: {} }
      this.minutes.set(input.actor, minute)
    }
    if (minute.written < REFUSALS_PER_MINUTE) {
      minute.written += 1
      await appendAudit(this.database, input, now)
      return
    }
    minute.held += 1
    const code = String(input.details?.code ?? 'refusal').slice(0, 40)
    minute.codes[code] = (minute.codes[code] ?? 0) + 1
    // Counted here, so the HTTP layer writes no entry of its own for this request.
    settleRequestRecord()
    if (!minute.timer) {
      const held = minute
      held.timer = setTimeout(
        () => void this.writeHeld(input.actor, held).catch(() => {}),
        Math.max(0, held.start + MINUTE_MS - at),
      )
      held.timer.unref()
    }
  }

  /** Writes what `minute` held, if anything, as one entry; the minute is over. */
  async writeHeld(actor: string, minute: Minute): Promise<void> {
    clearTimeout(minute.timer)
    if (this.minutes.get(actor) === minute) this.minutes.delete(actor)
    const count = minute.held
    if (count === 0) return
    minute.held = 0
    const from = new Date(minute.start)
    const until = new Date(minute.start + MINUTE_MS)
    await appendAudit(
      this.database,
      {
        actor,
        action: 'refusal',
        subject: `refusals of ${actor}`.slice(0, 200),
        details: {
          code: 'refusals-held',
          count,
          codes: minute.codes,
          from: from.toISOString(),
          until: until.toISOString(),
          reason: `${count} more refusals of ${actor} in the minute from ${from.toISOString()}, beyond the ${REFUSALS_PER_MINUTE} written one by one`,
        },
      },
      until,
    )
  }

  /** Writes every minute's held refusals now (the service stops). */
  async writeAll(): Promise<void> {
    for (const [actor, minute] of [...this.minutes]) await this.writeHeld(actor, minute)
  }
}

const limits = new WeakMap<Database, RefusalLimit>()
const limitOf = (database: Database) => {
  let limit = limits.get(database)
  if (!limit) {
    limit = new RefusalLimit(database)
    limits.set(database, limit)
  }
  return limit
}

/**
 * Records a person's refusal in the trail, within their share of a minute; beyond it, the
 * refusal is counted into one entry written later (see above).
 */
export function appendRefusal(
  database: Database,
  input: AuditInput & { action: 'refusal' },
  now: Date,
): Promise<void> {
  return limitOf(database).append(input, now)
}

/** Writes the refusals held so far for `database` (before it closes). */
export async function writeHeldRefusals(database: Database): Promise<void> {
  await limits.get(database)?.writeAll()
}
