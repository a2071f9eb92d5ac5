/**
 * Messages the service sends a draft's authors by itself (a schedule of theirs cancelled when it
 * was due, say). One function, so that every way of reaching them is added in one place: for
 * now the message is a comment on the draft, which everyone who opens it sees, and an entry in
 * the trail naming whom it was for.
 */
import type { Queryable } from '../../database/database'
import { appendAudit } from '../audit/trail'

/** Who the service is in the trail and on a draft's comments. */
export const SERVICE_ACTOR = 'service'

export interface AuthorNotice {
  /** The draft it is about: the comment goes on it. */
  draftId: string
  /** Its authors, by e-mail: whom it is for. */
  to: readonly string[]
  /** What happened, for the trail and for whoever extends this (`schedule-cancelled`). */
  kind: string
  /** The message, in the authors' language. */
  body: string
  /** Anything else the trail keeps with it (a schedule's number). */
  details?: Record<string, unknown>
}

/**
 * Tells a draft's authors: a comment on the draft and its entry in the trail, in `tx` (the
 * transaction of what it tells of).
 */
export async function notifyAuthors(tx: Queryable, notice: AuthorNotice, now: Date): Promise<void> {
  await tx.query(
    'INSERT INTO draft_comments (draft_id, written_by, body, at) VALUES ($1, $2, $3, $4)',
    [notice.draftId, SERVICE_ACTOR, notice.body, now.toISOString()],
  )
  await appendAudit(
    tx,
    {
      actor: SERVICE_ACTOR,
      action: 'comment',
      subject: notice.draftId,
      details: { comment: notice.body, to: [...notice.to], notice: notice.kind, ...notice.details },
    },
    now,
    tx,
  )
}
