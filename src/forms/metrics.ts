/**
 * The forms service's metrics (see `../http/metrics.ts` for how they are served): what the sign-ups
 * came to, what became of the confirmation mails, the mail queue and the hour's mail budget as
 * the database has them at each scrape, and the database's failures. Labels are the form's id
 * (one the content defines, else `unknown`) and fixed words: never an address or a network.
 */
import { Counter, Gauge, type Registry } from 'prom-client'
import type { Queryable } from '../database/database'

/** What a form's sending came to. */
export type SubmissionResult =
  /** Stored; for a mailing list, its confirmation mail queued. */
  | 'accepted'
  /** A sign-up already pending or confirmed: no mail due. */
  | 'repeated'
  /** The mailbox had its confirmation mails for the hour or day: answered as accepted. */
  | 'mailbox_limit'
  /** The client's network had its share of the hour's mails (429). */
  | 'client_share'
  /** The service's hourly mail cap was reached (503). */
  | 'service_cap'
  /** A field failed its check (422), or the form is unknown (404). */
  | 'invalid'
  /** The honeypot was filled in: nothing stored, answered as accepted. */
  | 'bot'
  /** Too many sends from the address in a minute (429). */
  | 'rate_limited'
  /** Posted by a page of another site (403). */
  | 'cross_site'
  /** The database could not be reached (503). */
  | 'unavailable'
  /** Anything else that failed (5xx). */
  | 'error'

export type MailEvent = 'queued' | 'sent' | 'retried' | 'failed'

export interface FormsMetrics {
  submission(form: string, result: SubmissionResult): void
  mail(event: MailEvent, count?: number): void
  /** A statement that failed because the database could not be reached. */
  databaseError(): void
}

export interface FormsMetricsOptions {
  database: Queryable
  /** The forms the content defines: any other name is counted as `unknown`. */
  forms: readonly string[]
  /** `CONFIRMATION_MAILS_PER_HOUR` (0: no cap, and no budget is reported). */
  mailsPerHour: number
}

export function formsMetrics(registry: Registry, options: FormsMetricsOptions): FormsMetrics {
  const known = new Set(options.forms)
  const submissions = new Counter({
    name: 'forms_submissions_total',
    help: 'Forms sent to the service, by form and by what became of them.',
    labelNames: ['form', 'result'],
    registers: [registry],
  })
  const mails = new Counter({
    name: 'forms_mails_total',
    help: 'Confirmation mails queued, sent, put back for a retry, and given up (failed).',
    labelNames: ['event'],
    registers: [registry],
  })
  const databaseErrors = new Counter({
    name: 'forms_database_errors_total',
    help: 'Statements that failed because the database could not be reached.',
    registers: [registry],
  })
  // Start at zero: a rate of failures is then defined before the first one.
  for (const event of ['queued', 'sent', 'retried', 'failed'] as const) mails.inc({ event }, 0)
  databaseErrors.inc(0)

  /** The queue's state, read once for the gauges that ask at the same time. */
  let reading: Promise<QueueState | undefined> | undefined
  const read = () => {
    reading ??= readQueue(options.database, options.mailsPerHour)
      .then(
        (state) => state,
        () => {
          databaseErrors.inc()
          return undefined
        },
      )
      .finally(() => {
        reading = undefined
      })
    return reading
  }
  new Gauge({
    name: 'forms_mail_queue_depth',
    help: 'Confirmation mails waiting to be sent (due now or later, for a retry).',
    registers: [registry],
    async collect() {
      this.set((await read())?.depth ?? Number.NaN)
    },
  })
  new Gauge({
    name: 'forms_mail_queue_oldest_seconds',
    help: 'Age of the oldest confirmation mail still waiting, in seconds (0 when none waits).',
    registers: [registry],
    async collect() {
      this.set((await read())?.oldestSeconds ?? Number.NaN)
    },
  })
  if (options.mailsPerHour > 0) {
    new Gauge({
      name: 'forms_mail_budget_remaining',
      help: 'Confirmation mails the service may still queue in the current hour (CONFIRMATION_MAILS_PER_HOUR).',
      registers: [registry],
      async collect() {
        this.set((await read())?.budget ?? Number.NaN)
      },
    })
  }
  return {
    submission(form, result) {
      submissions.inc({ form: known.has(form) ? form : 'unknown', result })
    },
    mail(event, count = 1) {
      if (count > 0) mails.inc({ event }, count)
    },
    databaseError() {
      databaseErrors.inc()
    },
  }
}

interface QueueState {
  depth: number
  oldestSeconds: number
  budget: number
}

/** One statement: the queue's depth and oldest mail, and the mails queued this hour for the cap. */
async function readQueue(database: Queryable, mailsPerHour: number): Promise<QueueState> {
  const [row] = await database.query<{ depth: number; oldest: number | null; requested: number }>(
    `SELECT count(*)::int AS depth,
            EXTRACT(EPOCH FROM (now() - min(created_at)))::float8 AS oldest,
            ${
              mailsPerHour > 0
                ? `(SELECT count(*)::int FROM subscription_events
                     WHERE event = 'requested' AND at > now() - interval '1 hour')`
                : '0'
            } AS requested
       FROM mail_jobs WHERE sent_at IS NULL AND failed_at IS NULL`,
  )
  return {
    depth: row?.depth ?? 0,
    oldestSeconds: Math.max(0, row?.oldest ?? 0),
    budget: Math.max(0, mailsPerHour - (row?.requested ?? 0)),
  }
}
