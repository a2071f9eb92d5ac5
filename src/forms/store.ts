/**
 * What the forms service keeps: subscribers with double opt-in, their proof of consent, survey
 * answers and the cookie banner's choices. Every change is one transaction; the rules that
 * make sign-ups safe under concurrency live in the SQL (a unique address per list, a cooling
 * period checked and set in one statement).
 */

import { createHash, randomBytes } from 'node:crypto'
import type { Database, Queryable } from '../database/database'
import type { ClientGroup } from '../http/client-address'
import type { Answer } from '../shared/forms/validate'
import type { Language } from '../shared/languages'
import { mailboxOf } from './mailbox'

export interface StoreOptions {
  /** The time; tests move it. */
  now?: () => Date
  /** How long a confirmation link works (default 48 hours). */
  confirmTtlMs?: number
  /** How long an unsubscribe link works (default: as long as the subscription can exist). */
  unsubscribeTtlMs?: number
  /** No second confirmation e-mail to an address within this time (default 10 minutes). */
  coolingMs?: number
  /**
   * Confirmation e-mails the whole service sends in an hour, at most
   * (`CONFIRMATION_MAILS_PER_HOUR`, default 500); 0 for no cap.
   */
  mailsPerHour?: number
  /**
   * Sign-ups that could mail, per client network (an IPv4 /24; an IPv6 /64, its /56 twice as
   * many, its /48 four times) and hour, at most
   * (`CONFIRMATION_MAILS_PER_CLIENT`): by default a 25th of `mailsPerHour` (20 of 500), at
   * least 1, none without a cap; 0 for no share.
   */
  mailsPerClient?: number
}

export interface SignUp {
  list: string
  email: string
  language: Language
  topics: string[]
  consentVersion: string
  consentText: string
  /**
   * Where the sign-up's client counts (`networkGroups`: an IPv4 /24; an IPv6 client's /64, /56
   * and /48, each with its multiple of the share), held to its share of the mails; none (the
   * operators' tools) is held to none.
   */
  client?: readonly ClientGroup[]
}

/** A confirmation e-mail queued by a sign-up. */
export interface MailQueued {
  subscriberId: string
  jobId: string
}

/**
 * What a sign-up did: queued a confirmation e-mail; nothing, since none is due (a repeat, an
 * address already confirmed); nothing, since its mailbox had its share of mails
 * (`MAILBOX_MAILS`); nothing, since its client's network had its share of the hour's mails
 * (for `retryAfterSeconds`); or nothing, since the service has sent its hourly cap.
 */
export type SignUpOutcome =
  | ({ outcome: 'queued' } & MailQueued)
  | { outcome: 'repeated' }
  | { outcome: 'mailboxLimit' }
  | { outcome: 'clientShare'; retryAfterSeconds: number }
  | { outcome: 'serviceCap' }

export type LinkOutcome =
  | { outcome: 'done'; list: string; language: Language }
  | { outcome: 'expired'; list: string; language: Language }
  | { outcome: 'invalid' }

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Confirmation e-mails to one address and list within a day, at most. */
const MAILS_PER_DAY = 3
/**
 * Sign-ups of one mailbox (every `+tag`, every list) at most, per hour and per day, and so its
 * confirmation mails: enough for a person who signs up for each list and asks once more, too
 * few to bomb anyone.
 */
export const MAILBOX_MAILS = { perHour: 3, perDay: 6 }
export const DEFAULTS = {
  confirmTtlMs: 48 * HOUR,
  // An unsubscribe link must keep working for every e-mail ever sent: a century.
  unsubscribeTtlMs: 100 * 365 * DAY,
  coolingMs: 10 * 60_000,
  mailsPerHour: 500,
}

/** A client network's share of the hourly cap, unless set: a 25th, at least 1; none without. */
export const defaultMailsPerClient = (mailsPerHour: number) =>
  mailsPerHour > 0 ? Math.max(1, Math.floor(mailsPerHour / 25)) : 0

/** The address of a link in the e-mails: `confirm` or `unsubscribe`, with its token. */
export const subscriptionLink = (
  siteUrl: string,
  action: 'confirm' | 'unsubscribe',
  token: string,
  language: string,
) => `${siteUrl.replace(/\/$/, '')}/api/subscriptions/${action}?token=${token}&lang=${language}`

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
export const newToken = () => randomBytes(32).toString('base64url')

/**
 * A sign-up in one statement: the subscriber inserted, or asked again when the rules allow
 * (the conditions of ON CONFLICT … WHERE; the row is locked either way), then only for a row
 * asked: its unused confirmation links dropped, the proof written as the row now is, and the
 * mail queued (an older mail still queued is dropped by the sender: only the newest goes).
 *
 * Before all that, in the same statement: the service's hourly cap (a count of the last hour's
 * mails, without a lock: processes signing up at the same moment may pass it by a few); then
 * whether a mail is due at all (`due`: the subscriber's rules read ahead: a new address, or one
 * not confirmed, not mailed within the cooling period and mailed fewer than three times a day);
 * only then the client's share (not once any of its groups has its multiple of it, then an
 * upsert into `client_quota` for each group, keyed by the group's SHA-256 salted with
 * `forms_secrets`' client key, so that the table holds no address; the upsert's row lock and
 * condition hold each group to its share exactly, and what the other groups counted for a
 * sign-up one group refused at the same instant is given back, `REFUND`), and
 * last the mailbox's quota (the same upsert into `mailbox_quota`, whose row lock makes
 * concurrent sign-ups of one mailbox wait for each other). So a sign-up that mails nothing (a
 * repeat, a confirmed address) or that the network's share refuses spends none of the
 * mailbox's allowance: nobody can use up a stranger's mails without mailing them. Any one
 * saying no stops the sign-up before the subscriber is written.
 *
 * `due` reads the statement's snapshot: two sign-ups of one new address at the same moment
 * both find it due and both count, while the second mails nothing (on PostgreSQL only; PGlite
 * runs one statement at a time). The second then gives back what it counted (`REFUND`, a
 * statement of its own: a process that dies between the two leaves one count too many).
 *
 * Parameters: list, email, language, topics, consent version and text, now, the end of the
 * cooling period, a day ago, the mailbox, an hour ago, the hourly cap (0: none), the client's
 * groups, its share (0: none), each group's multiple of it. One row: whether the cap, the share or the quota stopped it
 * (with the hour the share began), and the queued mail, if any.
 */
const SIGN_UP = `
WITH capped AS (
  SELECT $12::int > 0 AND count(*) >= $12::int AS reached FROM (
    SELECT 1 FROM subscription_events
    WHERE event = 'requested' AND at > $11::timestamptz LIMIT GREATEST($12::int, 0)
  ) AS recent
), due AS (
  SELECT NOT (SELECT reached FROM capped) AND NOT EXISTS (
    SELECT 1 FROM subscribers s
    WHERE s.list = $1 AND s.email = $2
      AND (s.status = 'confirmed'
        OR (s.mailed_at IS NOT NULL AND s.mailed_at > $8::timestamptz)
        OR (SELECT count(*) FROM subscription_events e
            WHERE e.subscriber_id = s.id AND e.event = 'requested'
              AND e.at > $9::timestamptz) >= ${MAILS_PER_DAY})
  ) AS mails
), network AS (
  SELECT encode(sha256(convert_to(
    COALESCE((SELECT value FROM forms_secrets WHERE name = 'client-key'), '') || g.name,
    'UTF8')), 'hex') AS key, g.times
  FROM unnest($13::text[], $15::int[]) AS g(name, times)
), full_groups AS (
  SELECT c.hour_start FROM client_quota c JOIN network n ON n.key = c.network
  WHERE c.hour_start > $11::timestamptz AND c.hour_count >= $14::int * n.times
), share AS (
  INSERT INTO client_quota AS c (network, hour_start, hour_count)
  SELECT key, $7::timestamptz, 1 FROM network
  WHERE $14::int > 0 AND (SELECT mails FROM due) AND NOT EXISTS (SELECT 1 FROM full_groups)
  ON CONFLICT (network) DO UPDATE
  SET hour_start = CASE WHEN c.hour_start <= $11::timestamptz THEN EXCLUDED.hour_start
                        ELSE c.hour_start END,
      hour_count = CASE WHEN c.hour_start <= $11::timestamptz THEN 1 ELSE c.hour_count + 1 END
  WHERE c.hour_start <= $11::timestamptz
    OR c.hour_count < $14::int * (SELECT n.times FROM network n WHERE n.key = c.network)
  RETURNING c.network, c.hour_start
), shared AS (
  SELECT NOT (SELECT mails FROM due) OR $14::int <= 0
    OR (SELECT count(*) FROM share) = (SELECT count(*) FROM network) AS within
), quota AS (
  INSERT INTO mailbox_quota AS q (mailbox, hour_start, hour_count, day_start, day_count)
  SELECT $10, $7::timestamptz, 1, $7::timestamptz, 1
  WHERE (SELECT mails FROM due) AND (SELECT within FROM shared)
  ON CONFLICT (mailbox) DO UPDATE
  SET hour_start = CASE WHEN q.hour_start <= $11::timestamptz THEN EXCLUDED.hour_start
                        ELSE q.hour_start END,
      hour_count = CASE WHEN q.hour_start <= $11::timestamptz THEN 1 ELSE q.hour_count + 1 END,
      day_start = CASE WHEN q.day_start <= $9::timestamptz THEN EXCLUDED.day_start
                       ELSE q.day_start END,
      day_count = CASE WHEN q.day_start <= $9::timestamptz THEN 1 ELSE q.day_count + 1 END
  WHERE (q.hour_start <= $11::timestamptz OR q.hour_count < ${MAILBOX_MAILS.perHour})
    AND (q.day_start <= $9::timestamptz OR q.day_count < ${MAILBOX_MAILS.perDay})
  RETURNING q.hour_start, q.day_start
), asked AS (
  INSERT INTO subscribers AS s (list, email, language, topics, status, consent_version,
    consent_text, created_at, requested_at, mailed_at)
  SELECT $1, $2, $3, $4::text[], 'pending', $5, $6, $7::timestamptz, $7::timestamptz,
    $7::timestamptz
  WHERE EXISTS (SELECT 1 FROM quota)
  ON CONFLICT (list, email) DO UPDATE
  SET language = EXCLUDED.language, topics = EXCLUDED.topics,
      consent_version = EXCLUDED.consent_version, consent_text = EXCLUDED.consent_text,
      status = 'pending', requested_at = EXCLUDED.requested_at, mailed_at = EXCLUDED.mailed_at
  WHERE s.status <> 'confirmed'
    AND (s.mailed_at IS NULL OR s.mailed_at <= $8::timestamptz)
    AND (SELECT count(*) FROM subscription_events e
         WHERE e.subscriber_id = s.id AND e.event = 'requested'
           AND e.at > $9::timestamptz) < ${MAILS_PER_DAY}
  RETURNING id, list, language, topics, consent_version, consent_text
), old_links AS (
  DELETE FROM subscriber_tokens t USING asked
  WHERE t.subscriber_id = asked.id AND t.purpose = 'confirm' AND t.used_at IS NULL
), proof AS (
  INSERT INTO subscription_events (subscriber_id, event, at, language, topics,
    consent_version, consent_text)
  SELECT id, 'requested', $7::timestamptz, language, topics, consent_version, consent_text
  FROM asked
), queued AS (
  INSERT INTO mail_jobs (subscriber_id, kind, list, language, created_at, run_at)
  SELECT id, 'confirm', list, language, $7::timestamptz, $7::timestamptz FROM asked
  RETURNING id, subscriber_id
)
SELECT (SELECT reached FROM capped) AS capped,
  NOT (SELECT mails FROM due) OR EXISTS (SELECT 1 FROM quota) AS allowed,
  (SELECT within FROM shared) AS within,
  CASE WHEN NOT (SELECT within FROM shared) THEN (SELECT max(c.hour_start) FROM client_quota c
    JOIN network n ON n.key = c.network) END AS share_start,
  (SELECT hour_start FROM quota) AS quota_hour, (SELECT day_start FROM quota) AS quota_day,
  ARRAY(SELECT network FROM share) AS networks,
  ARRAY(SELECT hour_start::text FROM share) AS network_hours,
  queued.id, queued.subscriber_id
FROM (SELECT 1) AS one LEFT JOIN queued ON true`

/**
 * Gives back what a sign-up counted but did not mail (`SIGN_UP`'s race: another sign-up of the
 * same address, at the same instant, mailed first): one of the mailbox's hour and day, if they
 * are still the ones counted, and one of each of the client's groups' shares, likewise.
 * Parameters: the mailbox, its hour and day as counted, the groups' keys and their hours as
 * counted (arrays, empty when none).
 */
const REFUND = `
WITH mailbox AS (
  UPDATE mailbox_quota
  SET hour_count = CASE WHEN hour_start = $2::timestamptz THEN GREATEST(hour_count - 1, 0)
                        ELSE hour_count END,
      day_count = CASE WHEN day_start = $3::timestamptz THEN GREATEST(day_count - 1, 0)
                       ELSE day_count END
  WHERE mailbox = $1
)
UPDATE client_quota c SET hour_count = GREATEST(c.hour_count - 1, 0)
FROM unnest($4::text[], $5::timestamptz[]) AS counted(network, hour_start)
WHERE c.network = counted.network AND c.hour_start = counted.hour_start`

/** A new link of `purpose` for a subscriber: the token to mail; only its hash is stored. */
export async function insertToken(
  tx: Queryable,
  subscriberId: string,
  purpose: 'confirm' | 'unsubscribe',
  now: Date,
  ttlMs: number,
): Promise<string> {
  const token = newToken()
  await tx.query(
    `INSERT INTO subscriber_tokens (hash, subscriber_id, purpose, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [hashToken(token), subscriberId, purpose, now, new Date(now.getTime() + ttlMs)],
  )
  return token
}

export class FormsStore {
  readonly #db: Database
  readonly #now: () => Date
  readonly #ttl: { confirm: number; unsubscribe: number; cooling: number }
  readonly #mailsPerHour: number
  readonly #mailsPerClient: number

  constructor(database: Database, options: StoreOptions = {}) {
    this.#db = database
    this.#now = options.now ?? (() => new Date())
    this.#ttl = {
      confirm: options.confirmTtlMs ?? DEFAULTS.confirmTtlMs,
      unsubscribe: options.unsubscribeTtlMs ?? DEFAULTS.unsubscribeTtlMs,
      cooling: options.coolingMs ?? DEFAULTS.coolingMs,
    }
    this.#mailsPerHour = options.mailsPerHour ?? DEFAULTS.mailsPerHour
    this.#mailsPerClient = options.mailsPerClient ?? defaultMailsPerClient(this.#mailsPerHour)
  }

  get database(): Database {
    return this.#db
  }

  /**
   * Records a sign-up. A new address becomes a pending subscriber; a pending or unsubscribed
   * one asks again (its choices updated) unless it was mailed within the cooling period or
   * three times in a day; a confirmed one stays as it is. When a mail is due, the same
   * statement writes the proof (`requested`) and queues the confirmation e-mail, and the
   * links of an earlier request stop working (only the newest link works).
   *
   * Before that, and changing nothing when they say no: the service may have sent its hourly
   * cap, the client's network may have made its share of the hour's mailing sign-ups
   * (`mailsPerClient`), and the address's mailbox may have been mailed `MAILBOX_MAILS` times
   * (across its `+tags` and lists, one sign-up at a time per mailbox, whichever process takes
   * it). Only a sign-up that mails counts against the share and the mailbox: a repeat, a
   * confirmed address or a sign-up the share refused spends nothing. All of it is one
   * statement (`SIGN_UP`). The mail itself is sent by the sender (`sender.ts`).
   */
  async signUp(request: SignUp): Promise<SignUpOutcome> {
    const now = this.#now()
    const [row] = await this.#db.query<{
      capped: boolean
      allowed: boolean
      within: boolean
      share_start: Date | string | null
      quota_hour: Date | null
      quota_day: Date | null
      networks: string[]
      network_hours: string[]
      id: string | null
      subscriber_id: string | null
    }>(
      SIGN_UP,
      [
        request.list,
        request.email,
        request.language,
        request.topics,
        request.consentVersion,
        request.consentText,
        now,
        new Date(now.getTime() - this.#ttl.cooling),
        new Date(now.getTime() - DAY),
        mailboxOf(request.email),
        new Date(now.getTime() - HOUR),
        this.#mailsPerHour,
        (request.client ?? []).map((group) => group.key),
        request.client === undefined ? 0 : this.#mailsPerClient,
        (request.client ?? []).map((group) => group.times),
      ],
      { name: 'forms-sign-up' },
    )
    if (!row) throw new Error('the sign-up statement answered no row')
    if (row.capped) return { outcome: 'serviceCap' }
    if (!row.within) {
      // A group that had room counted, another's share was taken meanwhile (by a sign-up of
      // the same group at the same instant, the upsert's row lock deciding): given back.
      if (row.networks.length > 0) {
        await this.#db.query(REFUND, ['', null, null, row.networks, row.network_hours])
      }
      // Until the network's hour is over; an hour when its row is newer than this statement
      // (another sign-up of the network made it meanwhile).
      const start = row.share_start ? new Date(row.share_start).getTime() : now.getTime()
      const seconds = Math.ceil((start + HOUR - now.getTime()) / 1000)
      return { outcome: 'clientShare', retryAfterSeconds: Math.min(3600, Math.max(60, seconds)) }
    }
    if (!row.allowed) return { outcome: 'mailboxLimit' }
    if (row.id && row.subscriber_id) {
      return { outcome: 'queued', subscriberId: row.subscriber_id, jobId: String(row.id) }
    }
    if (row.quota_hour) {
      // Counted, yet nothing mailed: lost a race with a sign-up of the same address.
      await this.#db.query(REFUND, [
        mailboxOf(request.email),
        row.quota_hour,
        row.quota_day,
        row.networks,
        row.network_hours,
      ])
    }
    return { outcome: 'repeated' }
  }

  /** The confirmation e-mail could not be sent: the next sign-up may try again at once. */
  async mailFailed(subscriberId: string): Promise<void> {
    await this.#db.query('UPDATE subscribers SET mailed_at = NULL WHERE id = $1', [subscriberId])
  }

  /**
   * What a confirmation link would do, changing nothing: the page of the link shows a button
   * for `pending` (mail scanners that open links confirm nothing).
   */
  async inspectConfirmation(
    token: string,
  ): Promise<
    | { state: 'pending' | 'done' | 'expired'; list: string; language: Language }
    | { state: 'invalid' }
  > {
    const now = this.#now()
    return this.#db.transaction(async (tx) => {
      const found = await this.#findToken(tx, token, 'confirm')
      if (!found) return { state: 'invalid' }
      const { list, language } = found
      if (found.status === 'confirmed' && found.used_at) return { state: 'done', list, language }
      if (found.used_at || found.expires_at <= now || found.status !== 'pending') {
        return { state: 'expired', list, language }
      }
      return { state: 'pending', list, language }
    })
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
      // Every link of this request is used with it (a mail sent again after a crash carries a
      // second one): each now shows the subscription confirmed, none says it expired.
      await tx.query(
        `UPDATE subscriber_tokens SET used_at = $2
         WHERE subscriber_id = $1 AND purpose = 'confirm' AND used_at IS NULL`,
        [found.subscriber_id, now],
      )
      await tx.query(
        `UPDATE subscribers SET status = 'confirmed', confirmed_at = $2, unsubscribed_at = NULL
         WHERE id = $1`,
        [found.subscriber_id, now],
      )
      await this.#event(tx, found.subscriber_id, 'confirmed', now)
      return { outcome: 'done', list, language }
    })
  }

  /**
   * What an unsubscribe link would do, changing nothing: its page shows a button for `active`
   * (a mail scanner that opens the link unsubscribes no one and voids no confirmation link).
   */
  async inspectUnsubscribe(
    token: string,
  ): Promise<
    | { state: 'active' | 'done' | 'expired'; list: string; language: Language }
    | { state: 'invalid' }
  > {
    const now = this.#now()
    return this.#db.transaction(async (tx) => {
      const found = await this.#findToken(tx, token, 'unsubscribe')
      if (!found) return { state: 'invalid' }
      const { list, language } = found
      if (found.expires_at <= now) return { state: 'expired', list, language }
      return { state: found.status === 'unsubscribed' ? 'done' : 'active', list, language }
    })
  }

  /** Unsubscribes by a link's token (a POST): works at once, and again without harm. */
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

  /**
   * A token with its subscriber, both locked for the transaction. Every transaction locks the
   * subscriber before its tokens, so concurrent confirmations, unsubscriptions and sign-ups
   * wait for each other instead of deadlocking.
   */
  async #findToken(tx: Queryable, token: string, purpose: 'confirm' | 'unsubscribe') {
    if (!/^[\w-]{20,100}$/.test(token)) return undefined
    const hash = hashToken(token)
    const [owner] = await tx.query<{ subscriber_id: string }>(
      'SELECT subscriber_id FROM subscriber_tokens WHERE hash = $1 AND purpose = $2',
      [hash, purpose],
    )
    if (!owner) return undefined
    const [subscriber] = await tx.query<{ status: string; list: string; language: Language }>(
      'SELECT status, list, language FROM subscribers WHERE id = $1 FOR UPDATE',
      [owner.subscriber_id],
    )
    const [found] = await tx.query<{ expires_at: Date; used_at: Date | null }>(
      `SELECT expires_at, used_at FROM subscriber_tokens
       WHERE hash = $1 AND purpose = $2 FOR UPDATE`,
      [hash, purpose],
    )
    if (!subscriber || !found) return undefined
    return { subscriber_id: owner.subscriber_id, ...subscriber, ...found }
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
