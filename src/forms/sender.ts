/**
 * The sender of the forms service: sends the confirmation e-mails that sign-ups queue in
 * `mail_jobs`, so that no request waits for SMTP and an SMTP outage only delays mail. It runs
 * inside each service process; any number of processes may share one PostgreSQL.
 *
 * The queue's engine (claiming with a lease, sending a few at a time, retries with backoff,
 * readiness, counts) is `QueueSender` (queue-sender.ts), which the publishing service's notices
 * share; this file is what is the forms service's own. One round: claim up to `batchSize` due
 * jobs (`FOR UPDATE SKIP LOCKED`, so two processes never claim one job) with a lease
 * (`locked_until`: a job of a process that died is taken again when its lease ends); make each
 * mail's links in one short transaction (the subscriber locked first, older unused
 * confirmation links deleted, jobs of a subscriber no longer pending dropped); send the batch
 * at once over the mailer's pooled connections; mark the outcomes. A refused connection or an
 * SMTP 4xx is tried again later, after 5 s, 10 s, 20 s … (at most 30 minutes apart); an SMTP
 * 5xx, or the last attempt, fails the job and lets the address ask again at once (its
 * `mailed_at` is cleared).
 *
 * Logs name jobs, counts and SMTP codes, never an address or a link.
 */

import type { FormsContent } from '../content/forms'
import type { Database } from '../database/database'
import { type MailQueue, QueueSender, type SenderTiming } from '../mail/queue-sender'
import type { Mailer } from '../mail/transport'
import { isLanguage, type Language } from '../shared/languages'
import type { SiteSettings } from '../shared/types'
import { confirmationMail } from './confirmation-mail'
import { claimJobs, markOutcomes, prepareJobs, type Ready } from './mail-queue'
import type { FormsMetrics } from './metrics'
import { DEFAULTS, subscriptionLink } from './store'

export type { RoundResult, SenderLog } from '../mail/queue-sender'

export interface SenderOptions extends SenderTiming {
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
  /** Told what became of the mails and of the queue's statements (`./metrics.ts`). */
  metrics?: Pick<FormsMetrics, 'mail' | 'databaseError'>
}

/** `mail_jobs` as the sender's queue: the subscribers' confirmation mails with their links. */
function confirmationQueue(options: SenderOptions): MailQueue<Ready> {
  const db = options.database
  const siteUrl = options.siteUrl.replace(/\/$/, '')
  const ttl = {
    confirm: options.confirmTtlMs ?? DEFAULTS.confirmTtlMs,
    unsubscribe: options.unsubscribeTtlMs ?? DEFAULTS.unsubscribeTtlMs,
  }
  return {
    names: { one: 'confirmation e-mail', many: 'confirmation e-mails', queue: 'mail queue' },
    async endLeases() {
      await db.query(
        `UPDATE mail_jobs SET locked_until = NULL
         WHERE locked_until IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL`,
      )
    },
    async claim(me, now, leaseUntil, batchSize) {
      const claimed = await claimJobs(db, me, now, leaseUntil, batchSize)
      if (claimed.length === 0) return { claimed: 0, ready: [] }
      return { claimed: claimed.length, ready: await prepareJobs(db, me, claimed, now, ttl) }
    },
    compose(job) {
      const list = Object.hasOwn(options.forms.lists, job.list)
        ? options.forms.lists[job.list]
        : undefined
      if (!list) throw Object.assign(new Error('the list is gone'), { code: 'unknown list' })
      const language: Language = isLanguage(job.language) ? job.language : 'en'
      const link = (action: 'confirm' | 'unsubscribe', token: string) =>
        subscriptionLink(siteUrl, action, token, language)
      return confirmationMail(
        job.email,
        list,
        language,
        {
          confirm: link('confirm', job.confirmToken),
          unsubscribe: link('unsubscribe', job.unsubscribeToken),
        },
        options.settings,
      )
    },
    mark: (me, outcomes, now, delay) => markOutcomes(db, me, outcomes, now, delay),
  }
}

/** The forms service's sender: `QueueSender` on `mail_jobs`. */
export class MailSender extends QueueSender<Ready> {
  constructor(options: SenderOptions) {
    super({ ...options, queue: confirmationQueue(options) })
  }
}
