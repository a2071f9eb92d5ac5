/**
 * What operators do with the stored data: export confirmed subscribers and survey answers as
 * CSV, erase a person's data by e-mail address (GDPR Art. 17), and delete what is no longer
 * needed (as the privacy policy promises).
 */
import type { Database, Queryable } from '../database/database'
import { mailboxOf } from './mailbox'
import { DEFAULTS, insertToken } from './store'

/** One CSV cell: quoted when needed; a leading = + - @ is defused for spreadsheets. */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : value instanceof Date
        ? value.toISOString()
        : Array.isArray(value)
          ? value.join('|')
          : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvRow = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`

export interface SubscriberExport {
  list?: string
  now: Date
  /** The unsubscribe link for a token and the subscriber's language. */
  unsubscribeLink(token: string, language: string): string
}

/**
 * Confirmed subscribers with the proof of their consent, one row per address and list, each
 * with a fresh unsubscribe link for the mails sent to this export (only its hash is stored).
 */
export async function exportSubscribers(db: Database, options: SubscriberExport): Promise<string> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{
      id: string
      list: string
      email: string
      language: string
      topics: string[]
      confirmed_at: Date
      consent_version: string
      consent_text: string
      requested_at: Date
    }>(
      `SELECT id, list, email, language, topics, requested_at, confirmed_at, consent_version,
         consent_text
       FROM subscribers
       WHERE status = 'confirmed' AND ($1::text IS NULL OR list = $1)
       ORDER BY list, confirmed_at, email`,
      [options.list ?? null],
    )
    let csv = csvRow([
      'list',
      'email',
      'language',
      'topics',
      'requested_at',
      'confirmed_at',
      'consent_version',
      'consent_text',
      'unsubscribe_link',
    ])
    for (const row of rows) {
      const token = await insertToken(
        tx,
        row.id,
        'unsubscribe',
        options.now,
        DEFAULTS.unsubscribeTtlMs,
      )
      csv += csvRow([
        row.list,
        row.email,
        row.language,
        row.topics,
        row.requested_at,
        row.confirmed_at,
        row.consent_version,
        row.consent_text,
        options.unsubscribeLink(token, row.language),
      ])
    }
    return csv
  })
}

/** Survey answers, one row per response and one column per question met in the answers. */
export async function exportSurveys(db: Queryable, survey?: string): Promise<string> {
  const rows = await db.query<{
    survey: string
    version: string
    language: string
    submitted_at: Date
    answers: Record<string, unknown>
  }>(
    `SELECT survey, version, language, submitted_at, answers
     FROM survey_responses
     WHERE ($1::text IS NULL OR survey = $1)
     ORDER BY survey, submitted_at`,
    [survey ?? null],
  )
  const questions: string[] = []
  for (const row of rows) {
    for (const key of Object.keys(row.answers)) if (!questions.includes(key)) questions.push(key)
  }
  let csv = csvRow(['survey', 'version', 'language', 'submitted_at', ...questions])
  for (const row of rows) {
    csv += csvRow([
      row.survey,
      row.version,
      row.language,
      row.submitted_at,
      ...questions.map((question) => row.answers[question]),
    ])
  }
  return csv
}

/**
 * Erases everything stored about an address on every list: the subscriber, its links and its
 * history. Survey answers are anonymous and name no address, so none can be found.
 */
export async function eraseEmail(db: Queryable, email: string): Promise<{ subscriptions: number }> {
  const address = email.trim().toLowerCase()
  const rows = await db.query<{ id: string }>(
    'DELETE FROM subscribers WHERE email = $1 RETURNING id',
    [address],
  )
  // The count of its mailbox's sign-ups names it too (it would go within a day anyway).
  await db.query('DELETE FROM mailbox_quota WHERE mailbox = $1', [mailboxOf(address)])
  return { subscriptions: rows.length }
}

export interface PurgeResult {
  /** Sign-ups never confirmed, after `unconfirmedDays`. */
  unconfirmed: number
  /** Former subscribers (unsubscribed, or asked again and never confirmed) after `formerYears`. */
  former: number
  /** The cookie banner's records, after `formerYears` too. */
  consentRecords: number
  /** Mails sent or given up, after `unconfirmedDays` (their record of delivery). */
  mails: number
}

/**
 * Deletes what is no longer needed: sign-ups never confirmed after 30 days; former
 * subscribers once their last step is 3 years old (the proof of consent is kept that long,
 * for legal claims, then erased), and the cookie banner's records after 3 years; the queue's
 * record of mails sent or given up after 30 days. Confirmed subscribers are never touched.
 */
export async function purge(
  db: Queryable,
  now: Date,
  { unconfirmedDays = 30, formerYears = 3 } = {},
): Promise<PurgeResult> {
  const confirmedOnce = `EXISTS (SELECT 1 FROM subscription_events e
    WHERE e.subscriber_id = subscribers.id AND e.event = 'confirmed')`
  const unconfirmed = await db.query<{ id: string }>(
    `DELETE FROM subscribers
     WHERE status = 'pending' AND requested_at < $1 AND NOT ${confirmedOnce}
     RETURNING id`,
    [new Date(now.getTime() - unconfirmedDays * 24 * 3_600_000)],
  )
  const former = await db.query<{ id: string }>(
    `DELETE FROM subscribers
     WHERE status <> 'confirmed' AND ${confirmedOnce}
       AND (SELECT max(at) FROM subscription_events e WHERE e.subscriber_id = subscribers.id) < $1
     RETURNING id`,
    [new Date(now.getTime() - formerYears * 365 * 24 * 3_600_000)],
  )
  const records = await db.query<{ id: string }>(
    'DELETE FROM consent_records WHERE recorded_at < $1 RETURNING id',
    [new Date(now.getTime() - formerYears * 365 * 24 * 3_600_000)],
  )
  const mails = await db.query<{ id: string }>(
    'DELETE FROM mail_jobs WHERE sent_at < $1 OR failed_at < $1 RETURNING id',
    [new Date(now.getTime() - unconfirmedDays * 24 * 3_600_000)],
  )
  // The mailboxes' counts are needed for a day only, the client networks' for their hour.
  await db.query('DELETE FROM mailbox_quota WHERE day_start < $1', [
    new Date(now.getTime() - 24 * 3_600_000),
  ])
  await db.query('DELETE FROM client_quota WHERE hour_start < $1', [
    new Date(now.getTime() - 3_600_000),
  ])
  return {
    unconfirmed: unconfirmed.length,
    former: former.length,
    consentRecords: records.length,
    mails: mails.length,
  }
}
