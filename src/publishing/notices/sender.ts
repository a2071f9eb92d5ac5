/**
 * Sends the queued notices (`notice_mails`, notices.ts) as they were written, through the forms
 * service's transport (`createMailer`: `SMTP_URL`, else the outbox in `DATA_DIR/outbox`) and its
 * queue engine (`QueueSender`): the same leases (`MAIL_LEASE_SECONDS`), retries after 5 s, 10 s,
 * 20 s … (at most 30 minutes apart, 12 attempts), failure for good on an SMTP 5xx, readiness
 * (`MAIL_OUTAGE_MINUTES`) and counts. Sent and abandoned notices are kept 30 days, then deleted
 * (they hold a reviewer's comment and an address). Logs name jobs, counts and SMTP codes only.
 */
import type { Database } from '../../database/database'
import {
  type JobOutcome,
  type MailQueue,
  QueueSender,
  type SenderMetrics,
  type SenderTiming,
} from '../../mail/queue-sender'
import type { Mail, Mailer } from '../../mail/transport'
import { escapeHtml } from '../../shared/html'

/** A claimed notice, ready to send. */
export interface NoticeJob {
  id: string
  attempts: number
  recipient: string
  language: string
  subject: string
  text: string
}

/** How long sent and abandoned notices are kept. */
const KEPT_MS = 30 * 24 * 60 * 60_000
/** How often the kept ones are looked through. */
const PURGE_EVERY_MS = 60 * 60_000

/** A notice's HTML part: its text, paragraph by paragraph, with its links made links. */
export function noticeHtml(text: string, language: string): string {
  const paragraphs = text
    .split(/\n{2,}/)
    .map((paragraph) => {
      const html = escapeHtml(paragraph)
        .replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')
        .replace(/\n/g, '<br>\n')
      return `<p>${html}</p>`
    })
    .join('\n')
  return `<!doctype html><html lang="${language === 'de' ? 'de' : 'en'}"><head><meta charset="utf-8"></head><body>\n${paragraphs}\n</body></html>`
}

/** The mail a notice sends: to its reader, as it was written, marked as sent by a machine. */
export function noticeMail(job: NoticeJob): Mail {
  return {
    to: job.recipient,
    subject: job.subject,
    text: job.text,
    html: noticeHtml(job.text, job.language),
    // RFC 3834: no out-of-office reply to the service.
    headers: { 'Auto-Submitted': 'auto-generated' },
  }
}

/** `notice_mails` as a queue for `QueueSender`. */
export function noticeQueue(db: Database, now: () => Date): MailQueue<NoticeJob> {
  let purged = 0
  return {
    names: { one: 'notice e-mail', many: 'notice e-mails', queue: 'notice queue' },
    async endLeases() {
      await db.query(
        `UPDATE notice_mails SET locked_until = NULL
         WHERE locked_until IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL`,
      )
    },
    async claim(me, at, leaseUntil, batchSize) {
      if (at.getTime() - purged > PURGE_EVERY_MS) {
        purged = at.getTime()
        await db.query(
          `DELETE FROM notice_mails
           WHERE coalesce(sent_at, failed_at) < $1::timestamptz`,
          [new Date(now().getTime() - KEPT_MS)],
        )
      }
      const ready = await db.query<NoticeJob>(
        `UPDATE notice_mails SET locked_until = $2::timestamptz, claimed_by = $3,
           attempts = attempts + 1
         WHERE id IN (
           SELECT id FROM notice_mails
           WHERE sent_at IS NULL AND failed_at IS NULL AND run_at <= $1::timestamptz
             AND (locked_until IS NULL OR locked_until <= $1::timestamptz OR claimed_by = $3)
           ORDER BY run_at, id
           LIMIT $4
           FOR UPDATE SKIP LOCKED
         )
         RETURNING id::text AS id, attempts, recipient, language, subject, text`,
        [at, leaseUntil, me, batchSize],
      )
      return { claimed: ready.length, ready }
    },
    compose: noticeMail,
    async mark(me, outcomes: JobOutcome<NoticeJob>[], at, delay) {
      if (outcomes.length === 0) return
      await db.query(
        `UPDATE notice_mails j
           SET sent_at = CASE WHEN v.result = 'sent' THEN $2::timestamptz END,
               failed_at = CASE WHEN v.result = 'failed' THEN $2::timestamptz END,
               run_at = CASE WHEN v.result = 'retry'
                 THEN $2::timestamptz + v.delay * interval '1 millisecond' ELSE j.run_at END,
               locked_until = NULL,
               last_error = v.error
           FROM unnest($1::bigint[], $3::text[], $4::integer[], $5::text[])
             AS v (id, result, delay, error)
           WHERE j.id = v.id AND j.claimed_by = $6 AND j.sent_at IS NULL`,
        [
          outcomes.map((outcome) => outcome.job.id),
          at,
          outcomes.map((outcome) => outcome.result),
          outcomes.map((outcome) => (outcome.result === 'retry' ? delay(outcome.job.attempts) : 0)),
          outcomes.map((outcome) => ('error' in outcome ? outcome.error : null)),
          me,
        ],
      )
    },
  }
}

export interface NoticeSenderOptions extends SenderTiming {
  database: Database
  mailer: Mailer
  now?: () => Date
  metrics?: SenderMetrics
}

/** The publishing service's sender of notices. */
export function noticeSender(options: NoticeSenderOptions): QueueSender<NoticeJob> {
  const now = options.now ?? (() => new Date())
  return new QueueSender({ ...options, now, queue: noticeQueue(options.database, now) })
}
