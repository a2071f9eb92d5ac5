/**
 * The mail queue in the database (`mail_jobs`): claiming due jobs with a lease, making the
 * links of the claimed mails, and recording how each send went. Every statement names the
 * claiming process (`me`), so a job whose lease passed to another process is left alone.
 */
import type { Database } from '../database/database'
import type { JobOutcome } from '../mail/queue-sender'
import { hashToken, newToken } from './store'

/** A job claimed by this process. */
export interface Claimed {
  id: string
  subscriber_id: string
  list: string
  language: string
  attempts: number
}

/** A claimed job with its address and the tokens of its two links, ready to send. */
export interface Ready extends Claimed {
  email: string
  confirmToken: string
  unsubscribeToken: string
}

export type Outcome = JobOutcome<Ready>

const CLAIM = `
UPDATE mail_jobs SET locked_until = $2::timestamptz, claimed_by = $3, attempts = attempts + 1
WHERE id IN (
  SELECT id FROM mail_jobs
  WHERE sent_at IS NULL AND failed_at IS NULL AND run_at <= $1::timestamptz
    AND (locked_until IS NULL OR locked_until <= $1::timestamptz OR claimed_by = $3)
  ORDER BY run_at, id
  LIMIT $4
  FOR UPDATE SKIP LOCKED
)
RETURNING id, subscriber_id, list, language, attempts`

/** Claims up to `batchSize` due jobs for `me` until `leaseUntil`. */
export function claimJobs(
  db: Database,
  me: string,
  now: Date,
  leaseUntil: Date,
  batchSize: number,
): Promise<Claimed[]> {
  return db.query<Claimed>(CLAIM, [now, leaseUntil, me, batchSize], { name: 'forms-mail-claim' })
}

/**
 * The links of the claimed mails, made in one transaction that locks the subscribers first
 * (as every transaction does). A job whose subscriber is gone or no longer pending, or with
 * a newer job for the same subscriber (asked again since), is dropped.
 */
export async function prepareJobs(
  db: Database,
  me: string,
  claimed: Claimed[],
  now: Date,
  ttl: { confirm: number; unsubscribe: number },
): Promise<Ready[]> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{
      job_id: string
      id: string
      email: string
      status: string
      newest: boolean
    }>(
      `SELECT j.id AS job_id, s.id, s.email, s.status,
           NOT EXISTS (SELECT 1 FROM mail_jobs n
                       WHERE n.subscriber_id = j.subscriber_id AND n.id > j.id) AS newest
         FROM subscribers s JOIN mail_jobs j ON j.subscriber_id = s.id
         WHERE j.id = ANY($1::bigint[]) AND j.claimed_by = $2
           AND j.sent_at IS NULL AND j.failed_at IS NULL
         ORDER BY s.id
         FOR UPDATE OF s`,
      [claimed.map((job) => job.id), me],
      { name: 'forms-mail-lock' },
    )
    const byJob = new Map(rows.map((row) => [String(row.job_id), row]))
    const ready: Ready[] = []
    const dropped: { id: string; reason: string }[] = []
    for (const job of claimed) {
      const row = byJob.get(String(job.id))
      if (!row) continue
      if (row.status !== 'pending' || !row.newest) {
        dropped.push({ id: String(job.id), reason: row.newest ? 'not pending' : 'superseded' })
        continue
      }
      ready.push({
        ...job,
        id: String(job.id),
        email: row.email,
        confirmToken: newToken(),
        unsubscribeToken: newToken(),
      })
    }
    if (dropped.length > 0) {
      await tx.query(
        `UPDATE mail_jobs j SET failed_at = $2, locked_until = NULL, last_error = v.reason
           FROM unnest($1::bigint[], $3::text[]) AS v (id, reason) WHERE j.id = v.id`,
        [dropped.map((job) => job.id), now, dropped.map((job) => job.reason)],
      )
    }
    if (ready.length === 0) return ready
    // Only the newest request's confirmation links work: those of an earlier request go. The
    // links of this very mail's earlier attempts stay: a sender that died after the mail
    // server took the mail, before marking it sent, has delivered them, and the mail is sent
    // again with new links (only hashes are stored: the old ones cannot be mailed again).
    await tx.query(
      `DELETE FROM subscriber_tokens t
         USING unnest($1::uuid[], $2::bigint[]) AS r (subscriber_id, job_id)
         WHERE t.subscriber_id = r.subscriber_id AND t.purpose = 'confirm'
           AND t.used_at IS NULL AND t.job_id IS DISTINCT FROM r.job_id`,
      [ready.map((job) => job.subscriber_id), ready.map((job) => job.id)],
      { name: 'forms-mail-old-links' },
    )
    await tx.query(
      `INSERT INTO subscriber_tokens (hash, subscriber_id, purpose, created_at, expires_at,
           job_id)
         SELECT hash, subscriber_id, purpose, $4::timestamptz,
           CASE purpose WHEN 'confirm' THEN $5::timestamptz ELSE $6::timestamptz END, job_id
         FROM unnest($1::text[], $2::uuid[], $3::text[], $7::bigint[])
           AS t (hash, subscriber_id, purpose, job_id)`,
      [
        ready.flatMap((job) => [hashToken(job.confirmToken), hashToken(job.unsubscribeToken)]),
        ready.flatMap((job) => [job.subscriber_id, job.subscriber_id]),
        ready.flatMap(() => ['confirm', 'unsubscribe']),
        now,
        new Date(now.getTime() + ttl.confirm),
        new Date(now.getTime() + ttl.unsubscribe),
        ready.flatMap((job) => [job.id, job.id]),
      ],
      { name: 'forms-mail-links' },
    )
    return ready
  })
}

/** Records the outcomes of a round, in one transaction when more than sent mails. */
export async function markOutcomes(
  db: Database,
  me: string,
  outcomes: Outcome[],
  now: Date,
  /** The wait before a retried job's next attempt, by the attempts made. */
  delay: (attempts: number) => number,
): Promise<void> {
  const sent = outcomes.filter((outcome) => outcome.result === 'sent')
  const retry = outcomes.filter((outcome) => outcome.result === 'retry')
  const failed = outcomes.filter((outcome) => outcome.result === 'failed')
  const ids = (list: Outcome[]) => list.map((outcome) => outcome.job.id)
  const markSent = (tx: Pick<Database, 'query'>) =>
    tx.query(
      `UPDATE mail_jobs SET sent_at = $2, locked_until = NULL, last_error = NULL
         WHERE id = ANY($1::bigint[]) AND claimed_by = $3 AND sent_at IS NULL`,
      [ids(sent), now, me],
      { name: 'forms-mail-sent' },
    )
  if (retry.length === 0 && failed.length === 0) {
    if (sent.length > 0) await markSent(db)
    return
  }
  await db.transaction(async (tx) => {
    if (failed.length > 0) {
      // The address may ask again at once (what a failed mail in the request used to do).
      await tx.query(
        `UPDATE subscribers SET mailed_at = NULL
           WHERE id IN (SELECT subscriber_id FROM mail_jobs
                        WHERE id = ANY($1::bigint[]) AND claimed_by = $2
                          AND sent_at IS NULL AND failed_at IS NULL)`,
        [ids(failed), me],
      )
    }
    // The links of mails not sent were never seen by anyone.
    await tx.query('DELETE FROM subscriber_tokens WHERE hash = ANY($1::text[])', [
      [...retry, ...failed].flatMap((outcome) => [
        hashToken(outcome.job.confirmToken),
        hashToken(outcome.job.unsubscribeToken),
      ]),
    ])
    if (sent.length > 0) await markSent(tx)
    if (retry.length > 0) {
      await tx.query(
        `UPDATE mail_jobs j
           SET run_at = $2::timestamptz + v.delay * interval '1 millisecond',
               locked_until = NULL, last_error = v.error
           FROM unnest($1::bigint[], $3::integer[], $4::text[]) AS v (id, delay, error)
           WHERE j.id = v.id AND j.claimed_by = $5 AND j.sent_at IS NULL`,
        [
          ids(retry),
          now,
          retry.map((outcome) => delay(outcome.job.attempts)),
          retry.map((outcome) => ('error' in outcome ? outcome.error : '')),
          me,
        ],
      )
    }
    if (failed.length > 0) {
      await tx.query(
        `UPDATE mail_jobs j SET failed_at = $2, locked_until = NULL, last_error = v.error
           FROM unnest($1::bigint[], $3::text[]) AS v (id, error)
           WHERE j.id = v.id AND j.claimed_by = $4 AND j.sent_at IS NULL`,
        [ids(failed), now, failed.map((outcome) => ('error' in outcome ? outcome.error : '')), me],
      )
    }
  })
}
