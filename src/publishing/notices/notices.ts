/**
 * Telling people: an e-mail to whoever has something to do now, or whose draft moved, written
 * into the queue (`notice_mails`) in the transaction of the action and its trail entry, and
 * sent later by the sender (sender.ts): no request waits for the mail server.
 *
 * - A draft moved to review: every reviewer who may approve it (`mayApprove`: wrote none of it).
 * - A draft approved: its authors, and every publisher who may publish it (`mayPublish`).
 * - A draft sent back by a reviewer: its authors, with the reviewer's comment.
 * - A draft published: its authors and its approver.
 * - A schedule cancelled: the publisher who set it, and the draft's authors.
 *
 * Never the person who acted; only people who may sign in (not disabled) and who have not
 * turned the e-mails off (`people.notices`, on by default; `/api/me/notices`). Each mail is in
 * its reader's language and names the draft by its id: no content but the reviewer's comment.
 */
import type { Queryable } from '../../database/database'
import { appendAudit } from '../audit/trail'
import { type PersonRow, toPerson } from '../people/people'
import type { EditorLanguage, Person } from '../people/roles'
import { berlinTime } from '../workflow/berlin-time'
import { type Draft, mayApprove, mayPublish } from '../workflow/four-eyes'
import { type NoticeKind, noticeText, SERVICE_NAME } from './texts'

/** Who acted, as a notice names them. */
export type Actor = Pick<Person, 'email' | 'name'> | 'service'

/** A notice about to be queued: its reader and what it says. */
interface Reader {
  person: Person
  kind: NoticeKind
}

/** Whether `email` gets the notices (on unless they turned them off). */
export async function noticesOn(database: Queryable, email: string): Promise<boolean> {
  const [row] = await database.query<{ notices: boolean }>(
    'SELECT notices FROM people WHERE email = $1',
    [email],
  )
  return row?.notices ?? true
}

/** Turns a person's notices on or off, recorded in the trail in the same transaction. */
export async function setNotices(
  database: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  person: Pick<Person, 'email'>,
  on: boolean,
  now: Date,
): Promise<void> {
  await database.transaction(async (tx) => {
    await tx.query('UPDATE people SET notices = $2 WHERE email = $1', [person.email, on])
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: 'notice-setting',
        subject: person.email,
        details: { notices: on },
      },
      now,
      tx,
    )
  })
}

export interface NoticesOptions {
  /** The service's public address (`CMS_URL`): the mails' links start with it. */
  url: string
  /** Told that notices were queued (after the transaction): the sender runs at once. */
  wake?: () => void
  /** Counts the notices queued. */
  queued?: (count: number) => void
  /** The time the notices are queued at (the service's clock; the sender reads the same). */
  clock?: () => Date
}

/**
 * Queues the notices of the workflow's actions. Each method is given the transaction of the
 * action's record and trail entry, and the draft as it is after the action.
 */
export class Notices {
  private readonly url: string
  private readonly clock: () => Date

  constructor(private readonly options: NoticesOptions) {
    this.url = options.url.replace(/\/+$/, '')
    this.clock = options.clock ?? (() => new Date())
  }

  /** Notices were queued and their transaction committed: the sender may send them now. */
  wake(): void {
    this.options.wake?.()
  }

  /** A draft moved to review (submitted): the reviewers who may approve it now. */
  async submitted(tx: Queryable, actor: Actor, draft: Draft): Promise<number> {
    const readers = (await this.people(tx))
      .filter((person) => mayApprove(person, draft).allowed)
      .map((person): Reader => ({ person, kind: 'review' }))
    return this.queue(tx, actor, draft.id, readers, this.changesLink(draft.id))
  }

  /** A draft approved: its authors, and the publishers who may publish it now. */
  async approved(tx: Queryable, actor: Actor, draft: Draft): Promise<number> {
    const people = await this.people(tx)
    const readers = [
      ...people
        .filter((person) => draft.writers.includes(person.email))
        .map((person): Reader => ({ person, kind: 'approved' })),
      ...people
        .filter((person) => mayPublish(person, draft).allowed)
        .map((person): Reader => ({ person, kind: 'publish' })),
    ]
    return this.queue(tx, actor, draft.id, readers, this.changesLink(draft.id))
  }

  /** A draft sent back by a reviewer: its authors, with the comment if there is one. */
  async sentBack(
    tx: Queryable,
    actor: Actor,
    draft: Pick<Draft, 'id' | 'writers'>,
    comment?: string,
  ): Promise<number> {
    const readers = (await this.people(tx))
      .filter((person) => draft.writers.includes(person.email))
      .map((person): Reader => ({ person, kind: 'sent-back' }))
    return this.queue(tx, actor, draft.id, readers, this.changesLink(draft.id), {
      ...(comment ? { comment } : {}),
    })
  }

  /** A draft published: its authors and its approver; the link is to the releases. */
  async published(
    tx: Queryable,
    actor: Actor,
    draft: Pick<Draft, 'id' | 'writers' | 'approval'>,
  ): Promise<number> {
    const concerned = new Set([...draft.writers, ...(draft.approval ? [draft.approval.by] : [])])
    const readers = (await this.people(tx))
      .filter((person) => concerned.has(person.email))
      .map((person): Reader => ({ person, kind: 'published' }))
    return this.queue(tx, actor, draft.id, readers, `${this.url}/releases`)
  }

  /**
   * A scheduled publication cancelled (by a publisher, or by the service): the publisher who
   * set it and the draft's authors (`writers`, when the draft is still there), with the time
   * it was planned for and, when the service cancelled it, why.
   */
  async scheduleCancelled(
    tx: Queryable,
    actor: Actor,
    schedule: {
      draftId: string
      /** When it was to go live. */
      at: string | Date
      /** The publisher who set it. */
      createdBy: string
      /** The draft's authors. */
      writers?: readonly string[]
      /** Why, when no person chose it (in the reader's language or plain). */
      reason?: string
    },
  ): Promise<number> {
    const concerned = new Set([schedule.createdBy, ...(schedule.writers ?? [])])
    const readers = (await this.people(tx))
      .filter((person) => concerned.has(person.email))
      .map((person): Reader => ({ person, kind: 'schedule-cancelled' }))
    const at = new Date(schedule.at).toISOString()
    return this.queue(
      tx,
      actor,
      schedule.draftId,
      readers,
      this.changesLink(schedule.draftId),
      { ...(schedule.reason ? { reason: schedule.reason } : {}) },
      (language) => berlinTime(at, language),
    )
  }

  /** The draft on the page of changes (its item's anchor). */
  private changesLink(draftId: string): string {
    return `${this.url}/changes#${changeAnchor(draftId)}`
  }

  /** Everyone who may sign in and has the notices on. */
  private async people(tx: Queryable): Promise<Person[]> {
    const rows = await tx.query<PersonRow>(
      `SELECT email, name, roles, language FROM people
       WHERE disabled_at IS NULL AND notices ORDER BY email`,
    )
    return rows.map(toPerson)
  }

  /** Writes one notice for each reader (the first kind for each, never the actor). */
  private async queue(
    tx: Queryable,
    actor: Actor,
    draftId: string,
    readers: readonly Reader[],
    link: string,
    extra: { comment?: string; reason?: string } = {},
    at?: (language: EditorLanguage) => string,
  ): Promise<number> {
    const actorEmail = actor === 'service' ? undefined : actor.email
    const seen = new Set<string>()
    const now = this.clock().toISOString()
    let queued = 0
    for (const { person, kind } of readers) {
      if (person.email === actorEmail || seen.has(person.email)) continue
      seen.add(person.email)
      const { language } = person
      const text = noticeText(language, kind, {
        draft: draftId,
        actor: actor === 'service' ? SERVICE_NAME[language] : `${actor.name} (${actor.email})`,
        link,
        settings: `${this.url}/sign-in`,
        ...extra,
        ...(at ? { at: at(language) } : {}),
      })
      await tx.query(
        `INSERT INTO notice_mails
           (kind, draft_id, recipient, language, subject, text, created_at, run_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
        [kind, draftId, person.email, language, text.subject, text.body, now],
      )
      queued++
    }
    if (queued > 0) this.options.queued?.(queued)
    return queued
  }
}

/** A draft's anchor on the page of changes (`/changes#change-pages/about`). */
export const changeAnchor = (draftId: string) => `change-${draftId}`
