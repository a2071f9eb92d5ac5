/**
 * The engine of a mail queue kept in the database, whatever the mails are: the forms service's
 * confirmation mails (`mail_jobs`, sender.ts) and the publishing service's notices to its people
 * (`notice_mails`, src/publishing/notices/) are both sent by it, with the same leases, retries,
 * backoff, outage readiness and counts. What differs is the queue's own (`MailQueue`): its
 * table and how a claimed job becomes a mail.
 *
 * One round: claim up to `batchSize` due jobs with a lease (a job of a process that died is
 * taken again when its lease ends; one this process claimed in a round that failed, at its
 * next round, since rounds never overlap), send them a few at a time over the mailer's pooled
 * connections, record the outcomes. A refused connection or an SMTP 4xx is tried again later,
 * after 5 s, 10 s, 20 s … (at most 30 minutes apart); an SMTP 5xx, or the last attempt, fails
 * the job. A round runs at once when `wake` says a mail was queued, and every `pollMs` for the
 * jobs of other processes and the retries. `stop` finishes the round in flight (its mails sent
 * and marked), so the database can close after it.
 *
 * Logs name jobs, counts and SMTP codes, never an address, a link or a mail's text.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Database } from '../database/database'
import { errorCode, type Failure, failureOf, isPermanent } from './failure'
import type { Mail, Mailer } from './transport'

/** A claimed job, ready to be sent: its id and the attempts made (this one counted). */
export interface QueuedJob {
  id: string
  attempts: number
}

/** What became of one job of a round. */
export type JobOutcome<Job extends QueuedJob> =
  | { job: Job; result: 'sent' }
  | { job: Job; result: 'retry' | 'failed'; error: string; failure: Failure }

/** A queue in the database that a `QueueSender` drains. */
export interface MailQueue<Job extends QueuedJob> {
  /** What the log calls one of its mails, several, and the queue. */
  readonly names: { one: string; many: string; queue: string }
  /**
   * Ends every lease: run once before the first round on PGlite, which serves one process at
   * a time, so its leases are an earlier run's that stopped or died.
   */
  endLeases(): Promise<void>
  /**
   * Claims up to `batchSize` due jobs for `me` until `leaseUntil`: how many were claimed, and
   * those of them still to send (a queue may drop some it finds outdated). Due jobs still
   * leased to `me` count as free: they are left over from a round of its own that failed.
   */
  claim(
    me: string,
    now: Date,
    leaseUntil: Date,
    batchSize: number,
  ): Promise<{ claimed: number; ready: Job[] }>
  /** The mail a job sends; throwing fails it as a send would (a `code` names why). */
  compose(job: Job): Mail | Promise<Mail>
  /** Records a round's outcomes, only for jobs `me` still holds; `delay` by attempts made. */
  mark(
    me: string,
    outcomes: JobOutcome<Job>[],
    now: Date,
    delay: (attempts: number) => number,
  ): Promise<void>
}

export interface SenderLog {
  info(details: object, message: string): void
  warn(details: object, message: string): void
  error(details: object, message: string): void
}

/** The sender's timing: how many, how often, how long a lease, how retries are spaced. */
export interface SenderTiming {
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
}

/** What the sender tells the operators' metrics. */
export interface SenderMetrics {
  mail(event: 'sent' | 'retried' | 'failed', count?: number): void
  databaseError(): void
}

export interface QueueSenderOptions<Job extends QueuedJob> extends SenderTiming {
  database: Database
  mailer: Mailer
  queue: MailQueue<Job>
  /** The time; tests move it. */
  now?: () => Date
  /** Told what became of the mails and of the queue's statements. */
  metrics?: SenderMetrics
}

export interface RoundResult {
  sent: number
  retried: number
  failed: number
  skipped: number
}

export class QueueSender<Job extends QueuedJob> {
  readonly #db: Database
  readonly #mailer: Mailer
  readonly #queue: MailQueue<Job>
  readonly #now: () => Date
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
  #unmarked: JobOutcome<Job>[] = []
  #down = false
  /** Since when every attempt to send failed, or the queue could not be read. */
  #failingSince: Date | undefined
  readonly #metrics: SenderMetrics | undefined

  constructor(options: QueueSenderOptions<Job>) {
    this.#db = options.database
    this.#mailer = options.mailer
    this.#queue = options.queue
    this.#now = options.now ?? (() => new Date())
    this.#metrics = options.metrics
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
    if (this.#db.kind === 'pglite') await this.#queue.endLeases().catch(() => {})
    while (!this.#stopping) {
      this.#woken = false
      let claimed = 0
      try {
        claimed = (await this.#round()).claimed
        if (this.#down) this.#log?.info({}, `${this.#queue.names.queue} reachable again`)
        this.#down = false
      } catch (error) {
        if (!this.#down) {
          this.#log?.error(failureOf(error), `${this.#queue.names.queue} unreachable; retrying`)
        }
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
    const { claimed, ready } = await this.#queue.claim(
      this.#me,
      now,
      new Date(now.getTime() + this.#leaseMs),
      this.#batchSize,
    )
    if (claimed === 0) return { claimed: 0, result }
    result.skipped = claimed - ready.length
    // A few mails at a time, as many as the mailer has connections: all of a batch at once
    // composed every mail in one go and held up the requests for a tenth of a second.
    // Each outcome is recorded as soon as the statement before it is done (a group commit):
    // a process killed mid-round leaves only the mails then in flight to be sent again, not the
    // batch. A job is not begun once its lease is nearly over: another process may take it then.
    const leaseEnds = now.getTime() + this.#leaseMs - Math.min(this.#leaseMs / 2, 5000)
    const outcomes: JobOutcome<Job>[] = []
    const waiting: JobOutcome<Job>[] = []
    let marking: Promise<void> | undefined
    let markFailure: { error: unknown } | undefined
    const markWaiting = async () => {
      while (waiting.length > 0 && !markFailure) {
        const group = waiting.splice(0)
        try {
          await this.#mark(group)
        } catch (error) {
          waiting.unshift(...group)
          markFailure = { error }
        }
      }
      marking = undefined
    }
    let next = 0
    await Promise.all(
      Array.from({ length: Math.min(this.#concurrency, ready.length) }, async () => {
        for (let job = ready[next++]; job; job = ready[next++]) {
          if (this.#now().getTime() >= leaseEnds) {
            result.skipped++
            continue
          }
          const outcome = await this.#send(job)
          outcomes.push(outcome)
          waiting.push(outcome)
          marking ??= markWaiting()
        }
      }),
    )
    await marking
    if (waiting.length > 0) {
      // The database failed on the way: the rest is recorded before the next claim.
      this.#unmarked = waiting
      throw markFailure?.error ?? new Error('outcomes left unrecorded')
    }
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
      this.#log?.info({ ...result }, `${this.#queue.names.many} sent`)
    }
    return { claimed, result }
  }

  async #send(job: Job): Promise<JobOutcome<Job>> {
    try {
      await this.#mailer.send(await this.#queue.compose(job))
      return { job, result: 'sent' }
    } catch (error) {
      const failure = failureOf(error)
      const last = isPermanent(failure) || job.attempts >= this.#retry.attempts
      const { one } = this.#queue.names
      this.#log?.[last ? 'error' : 'warn'](
        { ...failure, job: job.id, attempt: job.attempts },
        last ? `${one} not sent; given up` : `${one} not sent; will retry`,
      )
      return { job, result: last ? 'failed' : 'retry', error: errorCode(failure), failure }
    }
  }

  /** Records the outcomes of a round (the queue's `mark`), with this sender's retry delays. */
  #mark(outcomes: JobOutcome<Job>[]): Promise<void> {
    return this.#queue.mark(this.#me, outcomes, this.#now(), (attempts) => this.#delay(attempts))
  }

  /** The wait before attempt `attempts + 1`: doubling from the base, a little spread. */
  #delay(attempts: number): number {
    const plain = Math.min(this.#retry.max, this.#retry.base * 2 ** Math.max(0, attempts - 1))
    return Math.round(plain * (0.9 + Math.random() * 0.2))
  }
}
