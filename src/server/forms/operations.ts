/**
 * What operators do with the stored data: export confirmed subscribers and survey answers as
 * CSV, erase a person's data by e-mail address (GDPR Art. 17), and delete sign-ups that were
 * never confirmed (as the privacy policy promises).
 */
import type { Queryable } from './database'

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

/** Confirmed subscribers with the proof of their consent, one row per address and list. */
export async function exportSubscribers(db: Queryable, list?: string): Promise<string> {
  const rows = await db.query<{
    list: string
    email: string
    language: string
    topics: string[]
    confirmed_at: Date
    consent_version: string
    consent_text: string
    requested_at: Date
  }>(
    `SELECT list, email, language, topics, requested_at, confirmed_at, consent_version, consent_text
     FROM subscribers
     WHERE status = 'confirmed' AND ($1::text IS NULL OR list = $1)
     ORDER BY list, confirmed_at, email`,
    [list ?? null],
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
  ])
  for (const row of rows) {
    csv += csvRow([
      row.list,
      row.email,
      row.language,
      row.topics,
      row.requested_at,
      row.confirmed_at,
      row.consent_version,
      row.consent_text,
    ])
  }
  return csv
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
  const rows = await db.query<{ id: string }>(
    'DELETE FROM subscribers WHERE email = $1 RETURNING id',
    [email.trim().toLowerCase()],
  )
  return { subscriptions: rows.length }
}

/** Deletes sign-ups still unconfirmed after `days` days (default 30). */
export async function purgeUnconfirmed(db: Queryable, now: Date, days = 30): Promise<number> {
  const before = new Date(now.getTime() - days * 24 * 3_600_000)
  const rows = await db.query<{ id: string }>(
    `DELETE FROM subscribers WHERE status = 'pending' AND requested_at < $1 RETURNING id`,
    [before],
  )
  return rows.length
}
