/**
 * Scheduled publishing: a publisher sets a draft to go live at a date and time (entered and
 * shown in Berlin time, kept in UTC). When the time comes, the draft is published as if the
 * publisher pressed Publish then: the four-eyes rules are checked again (an edit after the
 * approval, or the publisher's role taken away, stops it), and the outcome is recorded. The
 * approval must still stand then (`mayFireSchedule`): the publisher who set it, the reviewer
 * who approved and the author who submitted still have access and their roles; if not, the
 * schedule is cancelled, in the trail, and its authors are told (author-notes.ts, and by e-mail: ../notices/). A
 * schedule fires once, whichever of the service's processes sees it first: each claims it in
 * the database, and a claim left by a process that died lapses after ten minutes. Taking an
 * entry offline at a time is the same: its deletion is a draft like any change.
 */
import type { Database } from '../../database/database'
import { appendAudit } from '../audit/trail'
import { PublishingError } from '../errors'
import { NO_METRICS, type PublishingMetrics } from '../metrics'
import type { Notices } from '../notices/notices'
import { personOf } from '../people/people'
import type { EditorLanguage, Person } from '../people/roles'
import type { Publisher } from '../publication/publisher'
import type { Release } from '../publication/release-records'
import { notifyAuthors, SERVICE_ACTOR } from './author-notes'
import { type Drafts, type DraftView, RefusedError, refuseUnless } from './drafts'
import { type Decision, mayCancelSchedule, mayFireSchedule, mayPublish } from './four-eyes'

/** How long a process may take to fire a schedule before another may take it over. */
const CLAIM_MS = 10 * 60_000

export interface Schedule {
  id: number
  draftId: string
  /** The draft as it was scheduled: a later edit (or another draft of the entry) is not it. */
  head: string
  at: string
  createdBy: string
  state: 'pending' | 'firing' | 'done' | 'failed' | 'cancelled'
  firedAt: string | null
  outcome: string | null
}

/** A schedule that cannot be made, cancelled or fired (its time, its draft). */
export class ScheduleError extends PublishingError<
  | 'schedule-time-format'
  | 'schedule-time-skipped'
  | 'schedule-no-draft'
  | 'schedule-past'
  | 'schedule-taken'
  | 'schedule-not-pending'
  | 'schedule-draft-gone'
  | 'schedule-draft-changed'
> {}

/** The approval a schedule was set on no longer stands when it is due: it is cancelled. */
class ScheduleVoidedError extends RefusedError {}

/** What a schedule's authors read when it is cancelled when due, in their language. */
const CANCELLED_NOTE: Record<EditorLanguage, (at: string, by: string, reason: string) => string> = {
  en: (at, by, reason) =>
    `The publication ${by} scheduled for ${at} (Berlin) was cancelled when it was due: ${reason} It needs an approval that stands before it can be published or scheduled again.`,
  de: (at, by, reason) =>
    `Die von ${by} für ${at} (Berliner Zeit) geplante Veröffentlichung wurde zu ihrem Zeitpunkt abgebrochen: ${reason} Sie braucht eine gültige Freigabe, bevor sie wieder veröffentlicht oder eingeplant werden kann.`,
}

/** A schedule as made: with the pending ones of the same draft it replaced. */
export interface NewSchedule extends Schedule {
  replaced: Schedule[]
}

interface Row {
  id: string | number
  draft_id: string
  head: string
  at: Date | string
  created_by: string
  state: Schedule['state']
  fired_at: Date | string | null
  outcome: string | null
}

const toSchedule = (row: Row): Schedule => ({
  id: Number(row.id),
  draftId: row.draft_id,
  head: row.head,
  at: new Date(row.at).toISOString(),
  createdBy: row.created_by,
  state: row.state,
  firedAt: row.fired_at ? new Date(row.fired_at).toISOString() : null,
  outcome: row.outcome,
})

const BERLIN_PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Berlin',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
})

/** `2026-11-26T15:30` as Berlin shows the moment (for a form's `datetime-local` field). */
export function berlinLocal(moment: Date): string {
  const parts = Object.fromEntries(
    BERLIN_PARTS.formatToParts(moment).map((part) => [part.type, part.value]),
  )
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`
}

/**
 * The moment a Berlin wall-clock time names (`YYYY-MM-DDTHH:mm`, seconds optional). A time the clocks skip in
 * spring is refused; one they pass twice in autumn is the first (summer time).
 */
export function fromBerlinTime(local: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local)
  if (!match) throw new ScheduleError('schedule-time-format', { local })
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0))
  const wall = Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second)
  // Berlin is one or two hours ahead of UTC: the candidate whose Berlin time is the one asked.
  for (const offsetHours of [2, 1]) {
    const candidate = new Date(wall - offsetHours * 3_600_000)
    if (berlinLocal(candidate) === local.slice(0, 16)) return candidate
  }
  throw new ScheduleError('schedule-time-skipped', { local })
}

export interface SchedulesOptions {
  database: Database
  drafts: Drafts
  publisher: Publisher
  clock?: () => Date
  log?: {
    info(data: object, message: string): void
    error(data: object, message: string): void
  }
  /** The operators' metrics: schedules due, fired and failed. */
  metrics?: PublishingMetrics
  /** Notices to the people concerned (../notices/): a cancelled schedule's. */
  notices?: Notices
}

export class Schedules {
  private readonly clock: () => Date
  private readonly metrics: PublishingMetrics

  constructor(private readonly options: SchedulesOptions) {
    this.clock = options.clock ?? (() => new Date())
    this.metrics = options.metrics ?? NO_METRICS
  }

  /**
   * Schedules a draft's publication: a publisher who may publish it now, at a future time. A
   * pending schedule of the same draft is replaced (cancelled, and the trail says by which).
   */
  async schedule(person: Person, draftId: string, at: Date): Promise<NewSchedule> {
    const { database, drafts } = this.options
    const draft = await drafts.get(draftId)
    if (!draft) throw new ScheduleError('schedule-no-draft', { id: draftId })
    const now = this.clock()
    await refuseUnless(database, person, mayPublish(person, draft, 'schedule'), draftId, now, {
      scheduled: at.toISOString(),
    })
    if (at.getTime() <= now.getTime()) {
      throw new ScheduleError('schedule-past')
    }
    const made = database.transaction(async (tx) => {
      const replaced = (
        await tx.query<Row>(
          `UPDATE schedules SET state = 'cancelled', outcome = 'replaced by a later schedule'
           WHERE draft_id = $1 AND state = 'pending' RETURNING *`,
          [draftId],
        )
      ).map(toSchedule)
      for (const old of replaced) {
        await appendAudit(
          tx,
          {
            actor: person.email,
            action: 'schedule-cancel',
            subject: draftId,
            details: { id: old.id, at: old.at, replaced: true },
          },
          now,
          tx,
        )
      }
      const [row] = await tx.query<Row>(
        `INSERT INTO schedules (draft_id, head, at, created_by, created_at, state)
         VALUES ($1, $2, $3, $4, $5, 'pending') RETURNING *`,
        [draftId, draft.head, at.toISOString(), person.email, now.toISOString()],
      )
      await appendAudit(
        tx,
        {
          actor: person.email,
          action: 'schedule',
          subject: draftId,
          after: draft.head,
          details: {
            at: at.toISOString(),
            ...(replaced.length > 0 ? { replaces: replaced.map((old) => old.id) } : {}),
          },
        },
        now,
        tx,
      )
      return { ...toSchedule(row as Row), replaced }
    })
    // Two schedules of one draft made at once: the database keeps one, the other is told.
    return made.catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505') {
        throw new ScheduleError('schedule-taken', { id: draftId })
      }
      throw error
    })
  }

  /** Cancels a pending schedule (any publisher); a refusal is in the trail. */
  async cancel(person: Person, id: number): Promise<void> {
    const { database, notices } = this.options
    const now = this.clock()
    await refuseUnless(database, person, mayCancelSchedule(person), `schedule ${id}`, now, {
      action: 'schedule-cancel',
    })
    // Its draft's authors are told too (notices), as git has them.
    const [pending] = await database.query<{ draft_id: string }>(
      'SELECT draft_id FROM schedules WHERE id = $1',
      [id],
    )
    const draft = notices && pending ? await this.options.drafts.get(pending.draft_id) : null
    await database.transaction(async (tx) => {
      const [row] = await tx.query<Row>(
        `UPDATE schedules SET state = 'cancelled' WHERE id = $1 AND state = 'pending' RETURNING *`,
        [id],
      )
      if (!row) throw new ScheduleError('schedule-not-pending', { id })
      await appendAudit(
        tx,
        {
          actor: person.email,
          action: 'schedule-cancel',
          subject: row.draft_id,
          details: { id, at: new Date(row.at).toISOString() },
        },
        now,
        tx,
      )
      await notices?.scheduleCancelled(tx, person, {
        draftId: row.draft_id,
        at: row.at,
        createdBy: row.created_by,
        ...(draft ? { writers: draft.writers } : {}),
      })
    })
    notices?.wake()
  }

  /** Schedules, the pending and the latest others, soonest first. */
  async list(): Promise<Schedule[]> {
    const rows = await this.options.database.query<Row>(
      `SELECT * FROM schedules ORDER BY (state IN ('pending', 'firing')) DESC, at DESC LIMIT 200`,
    )
    return rows
      .map(toSchedule)
      .sort((a, b) =>
        a.state === 'pending' && b.state === 'pending' ? a.at.localeCompare(b.at) : 0,
      )
  }

  /**
   * Fires every schedule that is due, one after another; returns what fired. Called every few
   * seconds by each process (and by tests with their clock).
   */
  async fireDue(): Promise<{ schedule: Schedule; release?: Release; error?: string }[]> {
    const fired: { schedule: Schedule; release?: Release; error?: string }[] = []
    for (;;) {
      const schedule = await this.claim()
      if (!schedule) return fired
      this.metrics.schedule('due')
      fired.push(await this.fire(schedule))
    }
  }

  /** Takes one due schedule for this process, or `null` when none is due. */
  private async claim(): Promise<Schedule | null> {
    const now = this.clock()
    const [row] = await this.options.database.query<Row>(
      `UPDATE schedules SET state = 'firing', claimed_until = $2
       WHERE id = (
         SELECT id FROM schedules
         WHERE at <= $1 AND (state = 'pending' OR (state = 'firing' AND claimed_until < $1))
         ORDER BY at LIMIT 1
         FOR UPDATE SKIP LOCKED
       )
       RETURNING *`,
      [now.toISOString(), new Date(now.getTime() + CLAIM_MS).toISOString()],
    )
    return row ? toSchedule(row) : null
  }

  private async fire(schedule: Schedule) {
    const { database, publisher, log, drafts } = this.options
    const finish = async (state: 'done' | 'failed', outcome: string) => {
      const now = this.clock()
      await database.transaction(async (tx) => {
        // Only while this firing holds it: a claim taken over meanwhile is the other's.
        await tx.query(
          `UPDATE schedules SET state = $2, fired_at = $3, outcome = $4
           WHERE id = $1 AND state = 'firing'`,
          [schedule.id, state, now.toISOString(), outcome],
        )
        await appendAudit(
          tx,
          {
            actor: schedule.createdBy,
            action: 'schedule-fired',
            subject: schedule.draftId,
            details: { id: schedule.id, at: schedule.at, state, outcome },
          },
          now,
          tx,
        )
      })
    }
    let draft: DraftView | null = null
    try {
      draft = await drafts.get(schedule.draftId)
      if (!draft) {
        throw new ScheduleError('schedule-draft-gone')
      }
      if (draft.head !== schedule.head) {
        throw new ScheduleError('schedule-draft-changed')
      }
      // The approval as the rules see it now, its people as they are now; asked again in the
      // publication's turn, right before the draft is merged.
      const stands = await this.stillStands(schedule, draft)
      if (!stands.allowed) throw new ScheduleVoidedError(stands)
      // The publisher as they are now (they stand: checked just now).
      const person = (await personOf(database, schedule.createdBy)) as Person
      const release = await publisher.publish(person, schedule.draftId, 'schedule', {
        stillStands: async () => {
          const now = await drafts.get(schedule.draftId)
          const decision: Decision = now ? await this.stillStands(schedule, now) : { allowed: true }
          if (now && !decision.allowed) {
            draft = now
            throw new ScheduleVoidedError(decision)
          }
        },
      })
      await finish('done', `published as release ${release.folder}`)
      this.metrics.schedule('fired')
      log?.info({ schedule: schedule.id, release: release.folder }, 'scheduled publication done')
      return { schedule: { ...schedule, state: 'done' as const }, release }
    } catch (error) {
      if (error instanceof ScheduleVoidedError && draft) {
        const reason = await this.cancelWhenDue(schedule, draft, error.decision)
        this.metrics.schedule('failed')
        log?.info({ schedule: schedule.id, reason }, 'scheduled publication cancelled')
        return { schedule: { ...schedule, state: 'cancelled' as const }, error: reason }
      }
      const message = error instanceof Error ? error.message : String(error)
      await finish('failed', message)
      this.metrics.schedule('failed')
      log?.error({ schedule: schedule.id, reason: message }, 'scheduled publication failed')
      return { schedule: { ...schedule, state: 'failed' as const }, error: message }
    }
  }

  /**
   * Whether the draft's approval stands now under the rules (`mayFireSchedule`), with the
   * publisher who set the schedule, the reviewer who approved and the author who submitted as
   * they are now; worded in the language of the author who submitted it.
   */
  private async stillStands(schedule: Schedule, draft: DraftView): Promise<Decision> {
    const { database } = this.options
    const emails = [schedule.createdBy, draft.approval?.by, draft.submission?.by].filter(
      (email): email is string => typeof email === 'string',
    )
    const people = new Map<string, Person>()
    for (const email of new Set(emails)) {
      const person = await personOf(database, email).catch(() => null)
      if (person) people.set(email, person)
    }
    return mayFireSchedule(await this.authorsLanguage(draft), schedule.createdBy, draft, people)
  }

  /** The language of the author who submitted the draft (or began it), access or not. */
  private async authorsLanguage(draft: DraftView): Promise<EditorLanguage> {
    const [row] = await this.options.database.query<{ language: string }>(
      'SELECT language FROM people WHERE email = $1',
      [draft.submission?.by ?? draft.createdBy],
    )
    return row?.language === 'de' ? 'de' : 'en'
  }

  /**
   * Cancels a due schedule whose approval no longer stands: the schedule, its entry in the
   * trail (by the service, with the rules' code and reason) and the message to the draft's
   * authors, in one transaction. Returns the reason.
   */
  private async cancelWhenDue(
    schedule: Schedule,
    draft: DraftView,
    decision: Exclude<Decision, { allowed: true }>,
  ): Promise<string> {
    const now = this.clock()
    const language = await this.authorsLanguage(draft)
    await this.options.database.transaction(async (tx) => {
      const [cancelled] = await tx.query(
        `UPDATE schedules SET state = 'cancelled', fired_at = $2, outcome = $3
         WHERE id = $1 AND state = 'firing' RETURNING id`,
        [schedule.id, now.toISOString(), decision.reason],
      )
      // Taken over meanwhile by another process: that one decides.
      if (!cancelled) return
      await appendAudit(
        tx,
        {
          actor: SERVICE_ACTOR,
          action: 'schedule-cancel',
          subject: schedule.draftId,
          after: draft.head,
          details: {
            id: schedule.id,
            at: schedule.at,
            scheduledBy: schedule.createdBy,
            whenDue: true,
            code: decision.code,
            reason: decision.reason,
          },
        },
        now,
        tx,
      )
      await notifyAuthors(
        tx,
        {
          draftId: schedule.draftId,
          to: draft.writers,
          kind: 'schedule-cancelled',
          body: CANCELLED_NOTE[language](
            berlinLocal(new Date(schedule.at)).replace('T', ' '),
            schedule.createdBy,
            decision.reason,
          ),
          details: { schedule: schedule.id },
        },
        now,
      )
      // And by e-mail, the publisher who set it too (../notices/), queued with the record.
      await this.options.notices?.scheduleCancelled(tx, 'service', {
        draftId: schedule.draftId,
        at: schedule.at,
        createdBy: schedule.createdBy,
        writers: draft.writers,
        reason: decision.reason,
      })
    })
    this.options.notices?.wake()
    return decision.reason
  }

  /**
   * Checks for due schedules, and that the site serves main, every `seconds` until stopped. The
   * stop waits for a check under way: the service closes its database after it, and a check
   * cut off by that would be logged as failed.
   */
  start(seconds: number): () => Promise<void> {
    let running: Promise<void> | undefined
    const timer = setInterval(() => {
      if (running) return
      running = this.fireDue()
        .catch((error: unknown) => this.options.log?.error({ err: error }, 'schedules failed'))
        // And the served site kept up with main (a process that lost its turn after moving
        // main left it unswitched).
        .then(() => this.options.publisher.keepUpWithMain())
        .then(
          () => undefined,
          (error: unknown) =>
            this.options.log?.error({ err: error }, 'bringing the served site up to main failed'),
        )
        .finally(() => {
          running = undefined
        })
    }, seconds * 1000)
    timer.unref()
    return async () => {
      clearInterval(timer)
      await running
    }
  }
}
