/**
 * What the forms service keeps: subscribers with double opt-in, their proof of consent, survey
 * answers and the cookie banner's choices. Every change is one transaction; the rules that
 * make sign-ups safe under concurrency live in the SQL (a unique address per list, a cooling
 * period checked and set in one statement).
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Answer } from '../../shared/forms/validate'
import type { Language } from '../../shared/languages'
import type { Database, Queryable } from './database'

export interface StoreOptions {
  /** The time; tests move it. */
  now?: () => Date
  /** How long a confirmation link works (default 48 hours). */
  confirmTtlMs?: number
  /** How long an unsubscribe link works (default three years). */
  unsubscribeTtlMs?: number
  /** No second confirmation e-mail to an address within this time (default 10 minutes). */
  coolingMs?: number
}

export interface SignUp {
  list: string
  email: string
  language: Language
  topics: string[]
  consentVersion: string
  consentText: string
}

/** The links of a confirmation e-mail, when one is due. */
export interface ConfirmationDue {
  subscriberId: string
  confirmToken: string
  unsubscribeToken: string
}

export type LinkOutcome =
  | { outcome: 'done'; list: string; language: Language }
  | { outcome: 'expired'; list: string; language: Language }
  | { outcome: 'invalid' }

const HOUR = 3_600_000
export const DEFAULTS = {
  confirmTtlMs: 48 * HOUR,
  unsubscribeTtlMs: 3 * 365 * 24 * HOUR,
  coolingMs: 10 * 60_000,
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
const newToken = () => randomBytes(32).toString('base64url')

export class FormsStore {
  readonly #db: Database
  readonly #now: () => Date
  readonly #ttl: { confirm: number; unsubscribe: number; cooling: number }

  constructor(database: Database, options: StoreOptions = {}) {
    this.#db = database
    this.#now = options.now ?? (() => new Date())
    this.#ttl = {
      confirm: options.confirmTtlMs ?? DEFAULTS.confirmTtlMs,
      unsubscribe: options.unsubscribeTtlMs ?? DEFAULTS.unsubscribeTtlMs,
      cooling: options.coolingMs ?? DEFAULTS.coolingMs,
    }
  }

  get database(): Database {
    return this.#db
  }

  /**
   * Records a sign-up. A new address becomes a pending subscriber; a pending or unsubscribed
   * one asks again (its choices updated) unless it was mailed within the cooling period; a
   * confirmed one stays as it is. Returns the links to mail, or undefined when no mail is due.
   */
  async signUp(request: SignUp): Promise<ConfirmationDue | undefined> {
    const now = this.#now()
    const cooledBefore = new Date(now.getTime() - this.#ttl.cooling)
    return this.#db.transaction(async (tx) => {
      const inserted = await tx.query<{ id: string }>(
        `INSERT INTO subscribers (list, email, language, topics, status, consent_version,
           consent_text, created_at, requested_at, mailed_at)
         VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $7, $7)
         ON CONFLICT (list, email) DO NOTHING
         RETURNING id`,
        [
          request.list,
          request.email,
          request.language,
          request.topics,
          request.consentVersion,
          request.consentText,
          now,
        ],
      )
      let id = inserted[0]?.id
      if (!id) {
        const asked = await tx.query<{ id: string }>(
          `UPDATE subscribers
           SET language = $3, topics = $4, consent_version = $5, consent_text = $6,
               status = 'pending', requested_at = $7, mailed_at = $7
           WHERE list = $1 AND email = $2 AND status <> 'confirmed'
             AND (mailed_at IS NULL OR mailed_at <= $8)
           RETURNING id`,
          [
            request.list,
            request.email,
            request.language,
            request.topics,
            request.consentVersion,
            request.consentText,
            now,
            cooledBefore,
          ],
        )
        id = asked[0]?.id
        if (!id) return undefined
        // Only the newest confirmation link works.
        await tx.query(
          `DELETE FROM subscriber_tokens
           WHERE subscriber_id = $1 AND purpose = 'confirm' AND used_at IS NULL`,
          [id],
        )
      }
      await this.#event(tx, id, 'requested', now)
      return {
        subscriberId: id,
        confirmToken: await this.#token(tx, id, 'confirm', now, this.#ttl.confirm),
        unsubscribeToken: await this.#token(tx, id, 'unsubscribe', now, this.#ttl.unsubscribe),
      }
    })
  }

  /** The confirmation e-mail could not be sent: the next sign-up may try again at once. */
  async mailFailed(subscriberId: string): Promise<void> {
    await this.#db.query('UPDATE subscribers SET mailed_at = NULL WHERE id = $1', [subscriberId])
  }

  /**
   * Follows a confirmation link. A link works once; following it again while the address is
   * still confirmed shows the same result without changing anything.
   */
  async confirm(token: string): Promise<LinkOutcome> {
    const now = this.#now()
    return this.#db.transaction(async (tx) => {
      const found = await this.#findToken(tx, token, 'confirm')
      if (!found) return { outcome: 'invalid' }
      const { list, language } = found
      if (found.used_at) {
        return found.status === 'confirmed'
          ? { outcome: 'done', list, language }
          : { outcome: 'expired', list, language }
      }
      if (found.expires_at <= now || found.status !== 'pending') {
        return { outcome: 'expired', list, language }
      }
      await tx.query('UPDATE subscriber_tokens SET used_at = $2 WHERE hash = $1', [
        hashToken(token),
        now,
      ])
      await tx.query(
        `UPDATE subscribers SET status = 'confirmed', confirmed_at = $2, unsubscribed_at = NULL
         WHERE id = $1`,
        [found.subscriber_id, now],
      )
      await this.#event(tx, found.subscriber_id, 'confirmed', now)
      return { outcome: 'done', list, language }
    })
  }

  /** Follows an unsubscribe link: works in one click, and again without harm. */
  async unsubscribe(token: string): Promise<LinkOutcome> {
    const now = this.#now()
    return this.#db.transaction(async (tx) => {
      const found = await this.#findToken(tx, token, 'unsubscribe')
      if (!found) return { outcome: 'invalid' }
      const { list, language } = found
      if (found.expires_at <= now) return { outcome: 'expired', list, language }
      if (found.status !== 'unsubscribed') {
        await tx.query(
          `UPDATE subscribers SET status = 'unsubscribed', unsubscribed_at = $2 WHERE id = $1`,
          [found.subscriber_id, now],
        )
        await tx.query(
          `DELETE FROM subscriber_tokens WHERE subscriber_id = $1 AND purpose = 'confirm'`,
          [found.subscriber_id],
        )
        await this.#event(tx, found.subscriber_id, 'unsubscribed', now)
      }
      return { outcome: 'done', list, language }
    })
  }

  async saveSurvey(response: {
    survey: string
    version: string
    language: Language
    answers: Record<string, Answer>
  }): Promise<void> {
    await this.#db.query(
      `INSERT INTO survey_responses (survey, version, language, answers, submitted_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [
        response.survey,
        response.version,
        response.language,
        JSON.stringify(response.answers),
        this.#now(),
      ],
    )
  }

  async saveConsent(record: {
    consentId: string
    categories: Record<string, boolean>
    trackers: Record<string, boolean>
    revision: string
    language: Language
  }): Promise<void> {
    await this.#db.query(
      `INSERT INTO consent_records (consent_id, categories, trackers, revision, language, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        record.consentId,
        JSON.stringify(record.categories),
        JSON.stringify(record.trackers),
        record.revision,
        record.language,
        this.#now(),
      ],
    )
  }

  async #findToken(tx: Queryable, token: string, purpose: 'confirm' | 'unsubscribe') {
    if (!/^[\w-]{20,100}$/.test(token)) return undefined
    const rows = await tx.query<{
      subscriber_id: string
      expires_at: Date
      used_at: Date | null
      status: string
      list: string
      language: Language
    }>(
      `SELECT t.subscriber_id, t.expires_at, t.used_at, s.status, s.list, s.language
       FROM subscriber_tokens t JOIN subscribers s ON s.id = t.subscriber_id
       WHERE t.hash = $1 AND t.purpose = $2
       FOR UPDATE OF t, s`,
      [hashToken(token), purpose],
    )
    return rows[0]
  }

  async #token(
    tx: Queryable,
    subscriberId: string,
    purpose: 'confirm' | 'unsubscribe',
    now: Date,
    ttl: number,
  ): Promise<string> {
    const token = newToken()
    await tx.query(
      `INSERT INTO subscriber_tokens (hash, subscriber_id, purpose, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [hashToken(token), subscriberId, purpose, now, new Date(now.getTime() + ttl)],
    )
    return token
  }

  /** Writes the proof: the subscriber's choices and consent text as they are now. */
  async #event(tx: Queryable, subscriberId: string, event: string, now: Date): Promise<void> {
    await tx.query(
      `INSERT INTO subscription_events (subscriber_id, event, at, language, topics,
         consent_version, consent_text)
       SELECT id, $2, $3, language, topics, consent_version, consent_text
       FROM subscribers WHERE id = $1`,
      [subscriberId, event, now],
    )
  }
}
