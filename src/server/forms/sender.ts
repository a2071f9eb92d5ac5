/**
 * The sender: sends the confirmation e-mails that sign-ups queue in `mail_jobs`, so that no
 * request waits for SMTP and an SMTP outage only delays mail. It runs inside each service
 * process; any number of processes may share one PostgreSQL.
 *
 * One round: claim up to `batchSize` due jobs (`FOR UPDATE SKIP LOCKED`, so two processes
 * never claim one job) with a lease (`locked_until`: a job of a process that died is taken
 * again when its lease ends); make each mail's links in one short transaction (the
 * subscriber locked first, older unused confirmation links deleted, jobs of a subscriber no
 * longer pending dropped); send the batch at once over the mailer's pooled connections; mark
 * the outcomes. A refused connection or an SMTP 4xx is tried again later, after 5 s, 10 s,
 * 20 s … (at most 30 minutes apart); an SMTP 5xx, or the last attempt, fails the job and lets
 * the address ask again at once (its `mailed_at` is cleared).
 *
 * A round runs at once when a sign-up of this process queued a mail (`wake`), and every
 * `pollMs` for the jobs of other processes and the retries. `stop` finishes the round in
 * flight (its mails sent and marked), so the database can close after it.
 *
 * Logs name jobs, counts and SMTP codes, never an address or a link.
 */

import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { FormsContent } from '../../content/forms'
import type { Database } from '../../database/database'
import { isLanguage, type Language } from '../../shared/languages'
import type { SiteSettings } from '../../shared/types'
import { confirmationMail } from './confirmation-mail'
import type { Mailer } from './mail'
import { errorCode, failureOf, isPermanent } from './mail-failure'
import { claimJobs, markOutcomes, type Outcome, prepareJobs, type Ready } from './mail-queue'
import type { FormsMetrics } from './metrics'
import { DEFAULTS, subscriptionLink } from './store'

export interface SenderLog {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
}

export interface SenderOptions {
  database: Database
  mailer: Mailer
  forms: FormsContent
  settings: SiteSettings
  /** The public origin the links point to (`SITE_URL`). */
  siteUrl: string
  /** The time; tests move it (the store's clock). */
  now?: () => Date
  confirmTtlMs?: number
  unsubscribeTtlMs?: number
  /** Jobs claimed at once (default 100). */
  batchSize?: number
  /** Mails of a batch in flight at once (default 10, the SMTP connections of the mailer). */
  concurrency?: number
  /** How often to look for jobs without being woken (default 1 s). */
  pollMs?: number
  /** How long a claimed job stays with this process (default 60 s; `MAIL_LEASE_SECONDS`). */
  leaseMs?: number
  /** The first retry's delay, doubled for each further one (default 5 s). */
  retryBaseMs?: number
  /** The longest delay between two attempts (default 30 minutes). */
  retryMaxMs?: number
  /** Attempts before a job fails for good (default 12: about two hours of retries). */
  maxAttempts?: number
  /** Told what became of the mails and of the queue's statements (`./metrics.ts`). */
  metrics?: Pick<FormsMetrics, 'mail' | 'databaseError'>
}

export interface RoundResult {
  sent: number
  retried: number
  failed: number
  skipped: number
}
export class MailSender {
  readonly #db: Database
  readonly #mailer: Mailer
  readonly #forms: FormsContent
  readonly #settings: SiteSettings
  readonly #siteUrl: string
  readonly #now: () => Date
  readonly #ttl: { confirm: number; unsubscribe: number }
  readonly #batchSize: number
  readonly #concurrency: number
  readonly #pollMs: number
  readonly #leaseMs: number
  readonly #retry: { base: number; max: number; attempts: number }
  /** This process among the senders: host, process id and a random part. */
  readonly #me = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  #log: SenderLog | undefined
  #running: Promise<void> | undefined
  #stopping = false
  #woken = false
  #wakeUp: (() => void) | undefined
  /** Outcomes sent but not yet recorded (the database failed): recorded before new claims. */
  #unmarked: Outcome[] = []
  #down = false
  /** Since when every attempt to send failed, or the queue could not be read. */
  #failingSince: Date | undefined
  readonly #metrics: SenderOptions['metrics']

  constructor(options: SenderOptions) {
    this.#db = options.database
    this.#mailer = options.mailer
    this.#forms = options.forms
    this.#settings = options.settings
    this.#siteUrl = options.siteUrl.replace(/\/$/, '')
    this.#now = options.now ?? (() => new Date())
    this.#metrics = options.metrics
    this.#ttl = {
      confirm: options.confirmTtlMs ?? DEFAULTS.confirmTtlMs,
      unsubscribe: options.unsubscribeTtlMs ?? DEFAULTS.unsubscribeTtlMs,
    }
    this.#batchSize = options.batchSize ?? 100
    this.#concurrency = options.concurrency ?? 10
    this.#pollMs = options.pollMs ?? 1000
    this.#leaseMs = options.leaseMs ?? 60_000
    this.#retry = {
      base: options.retryBaseMs ?? 5000,
      max: options.retryMaxMs ?? 30 * 60_000,
      attempts: options.maxAttempts ?? 12,
    }
  }

  /** Starts sending in the background until `stop`. */
  start(log: SenderLog): void {
    if (this.#running) return
    this.#log = log
    this.#stopping = false
    this.#running = this.#loop()
  }

  /** A mail was queued: a round runs now rather than at the next poll. */
  wake(): void {
    this.#woken = true
    this.#wakeUp?.()
  }

  /** Finishes the round in flight and stops; the database may close afterwards. */
  async stop(): Promise<void> {
    this.#stopping = true
    this.#wakeUp?.()
    await this.#running
    this.#running = undefined
  }

  /**
   * Since when the sender has been unable to send: every attempt failing (the mail server
   * refuses or cannot be reached) or the queue unreadable; undefined while mails go out, or
   * none is due. For readiness (`/readyz`).
   */
  get failingSince(): Date | undefined {
    return this.#failingSince
  }

  async #loop(): Promise<void> {
    if (this.#db.kind === 'pglite') {
      // PGlite serves one process at a time (a lock file says so): the leases in the database
      // belong to an earlier run of this service that stopped or died, so they end now.
      await this.#db
        .query(
          `UPDATE mail_jobs SET locked_until = NULL
           WHERE locked_until IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL`,
        )
        .catch(() => {})
    }
    while (!this.#stopping) {
      this.#woken = false
      let claimed = 0
      try {
        claimed = (await this.#round()).claimed
        if (this.#down) this.#log?.info({}, 'mail queue reachable again')
        this.#down = false
      } catch (error) {
        if (!this.#down) this.#log?.error(failureOf(error), 'mail queue unreachable; retrying')
        this.#down = true
        this.#failingSince ??= this.#now()
        this.#metrics?.databaseError()
      }
      if (this.#stopping) break
      // A full batch means more may be waiting; a wake during the round queued one more.
      if (!this.#down && (claimed >= this.#batchSize || this.#woken)) continue
      await this.#sleep(this.#pollMs)
    }
    if (this.#unmarked.length > 0) await this.#mark(this.#unmarked).catch(() => {})
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((done) => {
      const finish = () => {
        clearTimeout(timer)
        this.#wakeUp = undefined
        done()
      }
      const timer = setTimeout(finish, ms)
      timer.unref()
      this.#wakeUp = finish
      if (this.#woken || this.#stopping) finish()
    })
  }

  /**
   * One round: what is due now, claimed, sent and marked. Tests and tools call it directly
   * (without `start`); it throws when the database fails.
   */
  async runOnce(): Promise<RoundResult> {
    return (await this.#round()).result
  }

  async #round(): Promise<{ claimed: number; result: RoundResult }> {
    const result: RoundResult = { sent: 0, retried: 0, failed: 0, skipped: 0 }
    if (this.#unmarked.length > 0) {
      await this.#mark(this.#unmarked)
      this.#unmarked = []
    }
    const now = this.#now()
    const claimed = await claimJobs(
      this.#db,
      this.#me,
      now,
      new Date(now.getTime() + this.#leaseMs),
      this.#batchSize,
    )
    if (claimed.length === 0) return { claimed: 0, result }
    const ready = await prepareJobs(this.#db, this.#me, claimed, now, this.#ttl)
    result.skipped = claimed.length - ready.length
    // A few mails at a time, as many as the mailer has connections: all of a batch at once
    // composed every mail in one go and held up the requests for a tenth of a second.
    const outcomes: Outcome[] = []
    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(this.#concurrency, ready.length) }, async () => {
        for (let job = ready[next++]; job; job = ready[next++]) outcomes.push(await this.#send(job))
      }),
    )
    this.#unmarked = outcomes
    await this.#mark(outcomes)
    this.#unmarked = []
    for (const outcome of outcomes) {
      if (outcome.result === 'sent') result.sent++
      else if (outcome.result === 'retry') result.retried++
      else result.failed++
    }
    this.#metrics?.mail('sent', result.sent)
    this.#metrics?.mail('retried', result.retried)
    this.#metrics?.mail('failed', result.failed)
    // Unable to send: attempts made and none went out (a mail server down, a wrong password).
    if (result.sent > 0) this.#failingSince = undefined
    else if (result.retried + result.failed > 0) this.#failingSince ??= now
    if (result.sent + result.failed + result.skipped > 0 || result.retried > 0) {
      this.#log?.info({ ...result }, 'confirmation e-mails sent')
    }
    return { claimed: claimed.length, result }
  }

  async #send(job: Ready): Promise<Outcome> {
    try {
      const list = Object.hasOwn(this.#forms.lists, job.list)
        ? this.#forms.lists[job.list]
        : undefined
      if (!list) throw Object.assign(new Error('the list is gone'), { code: 'unknown list' })
      const language: Language = isLanguage(job.language) ? job.language : 'en'
      const link = (action: 'confirm' | 'unsubscribe', token: string) =>
        subscriptionLink(this.#siteUrl, action, token, language)
      await this.#mailer.send(
        confirmationMail(
          job.email,
          list,
          language,
          {
            confirm: link('confirm', job.confirmToken),
            unsubscribe: link('unsubscribe', job.unsubscribeToken),
          },
          this.#settings,
        ),
      )
      return { job, result: 'sent' }
    } catch (error) {
      const failure = failureOf(error)
      const last = isPermanent(failure) || job.attempts >= this.#retry.attempts
      this.#log?.[last ? 'error' : 'warn'](
        { ...failure, job: job.id, attempt: job.attempts },
        last
          ? 'confirmation e-mail not sent; given up'
          : 'confirmation e-mail not sent; will retry',
      )
      return { job, result: last ? 'failed' : 'retry', error: errorCode(failure), failure }
    }
  }

  /** Records the outcomes of a round (see `markOutcomes`), with this sender's retry delays. */
  #mark(outcomes: Outcome[]): Promise<void> {
    return markOutcomes(this.#db, this.#me, outcomes, this.#now(), (attempts) =>
      this.#delay(attempts),
    )
  }

  /** The wait before attempt `attempts + 1`: doubling from the base, a little spread. */
  #delay(attempts: number): number {
    const plain = Math.min(this.#retry.max, this.#retry.base * 2 ** Math.max(0, attempts - 1))
    return Math.round(plain * (0.9 + Math.random() * 0.2))
  }
}
