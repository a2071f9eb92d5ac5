/**
 * The publishing service's audit trail: every action (sign-in, save, approval, publish,
 * rollback, schedule, role change, refusal) as one entry with who, what, the commits before and
 * after, and when. Append-only and tamper-evident:
 * - each entry carries the SHA-256 of the entry before it and of its own fields, so a changed,
 *   removed or inserted entry breaks the chain at that point (`verifyAudit` names it);
 * - the database itself refuses to update or delete an entry (a trigger), whatever asks;
 * - entries are appended one at a time (an advisory lock), so the chain has no forks even when
 *   two service processes share PostgreSQL;
 * - with `AUDIT_KEY` (a key kept outside the database), each new entry's hash is keyed
 *   (HMAC-SHA-256), so whoever holds only the database cannot compute it; the entry names its
 *   key's id, and once the trail is keyed every later entry must be (no downgrade);
 * - the chain's length and last hash are anchored outside the database, in git
 *   (anchors.ts): `verifyAudit` given those anchors also finds entries removed from the
 *   end, and a chain recomputed after a change.
 * Administrators read and export it (CSV or JSON); nothing here changes an entry.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { Database, Queryable } from '../../database/database'
import { SettingError } from '../../shared/settings-error'
import { settleRequestRecord, wantAnchor } from './refusal-record'
import { storableText, storableValue } from './storable'

/** What the trail records. */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-out',
  'sign-in-refused',
  'invite',
  'invite-replace',
  'role-change',
  'grant',
  'grant-confirm',
  'grant-refuse',
  'grant-withdraw',
  'passkey-add',
  'passkey-rename',
  'passkey-remove',
  'sign-in-reset',
  'sessions-end',
  'save',
  'delete',
  'upload',
  'submit',
  'approve',
  'request-changes',
  'comment',
  'publish',
  'publish-failed',
  'rollback',
  'rollback-request',
  'take-in',
  'unreviewed-live',
  'recovery',
  'first-release',
  'schedule',
  'schedule-cancel',
  'schedule-fired',
  'refusal',
  'audit-key',
  'notice-setting',
  'restore',
  'restore-gap',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export interface AuditInput {
  /** Who acted: a person's id (e-mail), or `service` for what the service did by itself. */
  actor: string
  action: AuditAction
  /** What it was done to: a draft's slug, a release, a person, a path. */
  subject: string
  /** The commit before and after, where the action moved one. */
  before?: string | null
  after?: string | null
  /** Anything else worth keeping: a reason, a role, a schedule's time. No secrets. */
  details?: Record<string, unknown>
}

export interface AuditEntry extends Required<Omit<AuditInput, 'details'>> {
  id: number
  at: string
  details: Record<string, unknown>
  previousHash: string
  /** The id of the key its hash is keyed with (`AUDIT_KEY`), or `null`: plain SHA-256. */
  keyId: string | null
  hash: string
}

/** The entries that record a refusal (or a failure) of what someone asked. */
const REFUSALS = new Set<AuditAction>(['refusal', 'publish-failed', 'sign-in-refused'])

/**
 * The entries anchored before the request that wrote them is answered: those that approve,
 * publish, roll back, grant a role or add or remove a way to sign in (and change main or the
 * keys). The others are anchored
 * by the checkpoint timer, within `ANCHOR_WITHIN_MS` (./anchors.ts).
 */
export const ANCHORED_AT_ONCE = new Set<AuditAction>([
  'approve',
  'publish',
  'rollback',
  'invite',
  'invite-replace',
  'role-change',
  'grant',
  'grant-confirm',
  'passkey-add',
  'passkey-remove',
  'sign-in-reset',
  'take-in',
  'unreviewed-live',
  'audit-key',
  'restore',
  'restore-gap',
])

/** The hash the first entry links to. */
export const GENESIS = '0'.repeat(64)
const AUDIT_LOCK = 727276

/**
 * The fields an entry's hash covers, in a fixed order: the same text every time. A keyed
 * entry's text ends with its key's id; an unkeyed one's is as it always was, so trails written
 * before keys existed still check out.
 */
function canonical(entry: Omit<AuditEntry, 'hash'>): string {
  return JSON.stringify([
    entry.id,
    entry.at,
    entry.actor,
    entry.action,
    entry.subject,
    entry.before,
    entry.after,
    sortKeys(entry.details),
    entry.previousHash,
    ...(entry.keyId === null ? [] : [entry.keyId]),
  ])
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    )
  }
  return value
}

/**
 * An entry's hash: HMAC-SHA-256 with `key` for a keyed entry (one with a `keyId`), else
 * SHA-256. Whoever recomputes a keyed entry's hash needs the key.
 */
export function hashOf(entry: Omit<AuditEntry, 'hash'>, key?: string): string {
  if (entry.keyId === null) return createHash('sha256').update(canonical(entry)).digest('hex')
  if (key === undefined) throw new Error(`entry ${entry.id} is keyed: its hash needs its key`)
  return createHmac('sha256', key).update(canonical(entry)).digest('hex')
}

/** A key's public name, kept with each entry keyed with it: tells keys apart, reveals nothing. */
export const keyIdOf = (key: string) =>
  createHmac('sha256', key).update('audit-trail key id').digest('hex').slice(0, 16)

/**
 * The keys of this process (`AUDIT_KEY`, read by settings.ts): the first keys new entries, all
 * of them check entries (an older key kept after a new one). Process-wide, like the variable:
 * every part of the service appends with the same key.
 */
let signingKey: { id: string; key: string } | undefined
const knownKeys = new Map<string, string>()

export function setAuditKeys(keys: readonly string[] | undefined): void {
  knownKeys.clear()
  signingKey = undefined
  for (const key of keys ?? []) {
    const id = keyIdOf(key)
    signingKey ??= { id, key }
    knownKeys.set(id, key)
  }
}

/** Whether this process holds an `AUDIT_KEY`: new entries and anchors are keyed with it. */
export const holdsAuditKey = () => signingKey !== undefined

/**
 * An anchor's tag: HMAC-SHA-256 with `key` over the chain's length and head, so that an anchor
 * found anywhere is the service's own (it needs the key), whatever the trail says of its commit.
 */
const tagOf = (key: string, length: number, head: string) =>
  createHmac('sha256', key).update(`audit-trail anchor\n${length}\n${head}`).digest('hex')

/** The tag of an anchor written now (with `AUDIT_KEY`'s first key), or none without a key. */
export function anchorTag(
  length: number,
  head: string,
): { keyId: string; tag: string } | undefined {
  return signingKey ? { keyId: signingKey.id, tag: tagOf(signingKey.key, length, head) } : undefined
}

/**
 * What an anchor's tag says: `valid` (made with a key `AUDIT_KEY` holds), `forged` (a key it
 * holds, a tag that key did not make), `unknown-key` (a key it does not hold: an old key dropped
 * from `AUDIT_KEY`, or someone else's), `untagged` (written without a key, or before tags).
 */
export function checkAnchorTag(anchor: {
  length: number
  head: string
  keyId?: string
  tag?: string
}): 'valid' | 'forged' | 'unknown-key' | 'untagged' {
  if (anchor.keyId === undefined || anchor.tag === undefined) return 'untagged'
  const key = knownKeys.get(anchor.keyId)
  if (key === undefined) return 'unknown-key'
  const expected = Buffer.from(tagOf(key, anchor.length, anchor.head), 'hex')
  const given = Buffer.from(anchor.tag, 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'forged'
}

/** The id of `AUDIT_KEY`'s first key (new entries are keyed with it), or `null` without one. */
export const auditKeyId = (): string | null => signingKey?.id ?? null

/** Whether `AUDIT_KEY` holds the key of id `keyId` (the first or an older one). */
export const holdsKeyOf = (keyId: string): boolean => knownKeys.has(keyId)

const keyedTagOf = (key: string, purpose: string, data: Buffer | string) =>
  createHmac('sha256', key).update(`${purpose}\n`).update(data).digest('hex')

/**
 * A tag with `AUDIT_KEY`'s first key over `data`, for `purpose` (a backup's manifest): only
 * the key makes it. None without a key.
 */
export function keyedTag(
  purpose: string,
  data: Buffer | string,
): { keyId: string; tag: string } | undefined {
  return signingKey
    ? { keyId: signingKey.id, tag: keyedTagOf(signingKey.key, purpose, data) }
    : undefined
}

/** What a `keyedTag` says of `data`: made with a key `AUDIT_KEY` holds, not, or unknown. */
export function checkKeyedTag(
  purpose: string,
  data: Buffer | string,
  given: { keyId: string; tag: string },
): 'valid' | 'forged' | 'unknown-key' {
  const key = knownKeys.get(given.keyId)
  if (key === undefined) return 'unknown-key'
  const expected = Buffer.from(keyedTagOf(key, purpose, data), 'hex')
  const tag = Buffer.from(given.tag, 'hex')
  return tag.length === expected.length && timingSafeEqual(tag, expected) ? 'valid' : 'forged'
}

/**
 * `AUDIT_KEY` is wrong or missing: the trail is keyed and this process cannot append to it or
 * check it as it should (or the key is too short to be one).
 */
export class AuditKeyError extends SettingError {
  constructor(problem: string, advice: string) {
    super('AUDIT_KEY', problem, advice)
  }
}

/**
 * Whether this process may append to the trail as it stands: a keyed trail needs its key (an
 * unkeyed entry after keyed ones would be refused as a downgrade by `verifyAudit`), and a key
 * other than its last entry's means the older key must be kept in `AUDIT_KEY` after the new.
 */
export async function checkAuditKey(database: Queryable): Promise<void> {
  const [last] = await database.query<{ id: string | number; key_id: string | null }>(
    'SELECT id, key_id FROM audit_entries ORDER BY id DESC LIMIT 1',
  )
  if (!last?.key_id) return
  if (!signingKey) {
    throw new AuditKeyError(
      `is not set, and the audit trail is keyed from an AUDIT_KEY (its last entry, ${last.id}, with key ${last.key_id})`,
      'set AUDIT_KEY to that key',
    )
  }
  if (!knownKeys.has(last.key_id)) {
    throw new AuditKeyError(
      `does not hold the key the audit trail's last entry (${last.id}) is keyed with (key ${last.key_id})`,
      'keep the old key after the new one, comma-separated',
    )
  }
}

interface Row {
  id: string | number
  at: Date | string
  actor: string
  action: string
  subject: string
  before_commit: string | null
  after_commit: string | null
  details: Record<string, unknown> | string
  previous_hash: string
  key_id: string | null
  hash: string
}

const toEntry = (row: Row): AuditEntry => ({
  id: Number(row.id),
  at: new Date(row.at).toISOString(),
  actor: row.actor,
  action: row.action as AuditAction,
  subject: row.subject,
  before: row.before_commit,
  after: row.after_commit,
  details: typeof row.details === 'string' ? JSON.parse(row.details) : row.details,
  previousHash: row.previous_hash,
  keyId: row.key_id ?? null,
  hash: row.hash,
})

/**
 * Appends one entry, linked to the last; in `tx` when given (so it commits or rolls back with
 * the action it records), else in a transaction of its own.
 */
export async function appendAudit(
  database: Database | Queryable,
  input: AuditInput,
  now: Date = new Date(),
  tx?: Queryable,
): Promise<AuditEntry> {
  // A refusal written for the request being answered: the HTTP layer writes none of its own.
  if (REFUSALS.has(input.action)) settleRequestRecord()
  if (ANCHORED_AT_ONCE.has(input.action)) wantAnchor()
  const write = async (q: Queryable) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK])
    const [last] = await q.query<{ id: string | number; hash: string; key_id: string | null }>(
      'SELECT id, hash, key_id FROM audit_entries ORDER BY id DESC LIMIT 1',
    )
    // Keyed once, keyed for good: without the key nothing more is written.
    if (last?.key_id && !signingKey) {
      throw new AuditKeyError(
        `is not set, and the audit trail is keyed (its last entry with key ${last.key_id})`,
        'set AUDIT_KEY to append to it',
      )
    }
    const unsigned = {
      id: last ? Number(last.id) + 1 : 1,
      at: now.toISOString(),
      // Whatever a request carried, the trail keeps it in a form the database stores.
      actor: storableText(input.actor),
      action: input.action,
      subject: storableText(input.subject),
      before: input.before ?? null,
      after: input.after ?? null,
      details: storableValue(input.details ?? {}),
      previousHash: last?.hash ?? GENESIS,
      keyId: signingKey?.id ?? null,
    }
    const entry: AuditEntry = { ...unsigned, hash: hashOf(unsigned, signingKey?.key) }
    await q.query(
      `INSERT INTO audit_entries
        (id, at, actor, action, subject, before_commit, after_commit, details, previous_hash,
         hash, key_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        entry.id,
        entry.at,
        entry.actor,
        entry.action,
        entry.subject,
        entry.before,
        entry.after,
        JSON.stringify(entry.details),
        entry.previousHash,
        entry.hash,
        entry.keyId,
      ],
    )
    return entry
  }
  if (tx) return write(tx)
  if ('transaction' in database) return database.transaction(write)
  return write(database)
}

/**
 * Starts keying with `AUDIT_KEY`'s first key where the trail is not keyed with it yet: an
 * entry saying so (`audit-key`, naming the key's id and the one before), the first keyed with
 * it. Returns it, or `null` when the trail's last entry is keyed with that key already. The
 * caller anchors it at once (a checkpoint): the trail written again without the key from an
 * entry before it would then disagree with the anchor, and from it on with the rule that a
 * keyed trail stays keyed.
 */
export async function recordAuditKey(database: Database, now: Date): Promise<AuditEntry | null> {
  const key = signingKey
  if (!key) return null
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK])
    const [last] = await tx.query<{ key_id: string | null }>(
      'SELECT key_id FROM audit_entries ORDER BY id DESC LIMIT 1',
    )
    if (last?.key_id === key.id) return null
    return appendAudit(
      tx,
      {
        actor: 'service',
        action: 'audit-key',
        subject: key.id,
        details: { keyId: key.id, previousKeyId: last?.key_id ?? null },
      },
      now,
      tx,
    )
  })
}

export interface AuditQuery {
  /** Entries after this id (paging forward). */
  afterId?: number
  /** Entries before this id (paging back). */
  beforeId?: number
  /** The newest first (the page people read), instead of the oldest. */
  newestFirst?: boolean
  limit?: number
  actor?: string
  action?: AuditAction
}

/**
 * Whether the role the service connects as could rewrite the trail behind the trigger's back:
 * it owns the table or its schema (it could drop the trigger, or the table), or is a superuser.
 * PostgreSQL only; with two roles (`DATABASE_OWNER_URL`) it is false.
 */
export async function trailOwnedByServiceRole(database: Queryable): Promise<boolean> {
  const [row] = await database.query<{ owns: boolean }>(
    `SELECT pg_has_role(current_user, c.relowner, 'USAGE')
         OR pg_has_role(current_user, n.nspowner, 'USAGE') AS owns
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.oid = 'audit_entries'::regclass`,
  )
  return row?.owns === true
}

/** Entries in order, oldest first (or newest first). */
export async function readAudit(
  database: Queryable,
  query: AuditQuery = {},
): Promise<AuditEntry[]> {
  const rows = await database.query<Row>(
    `SELECT * FROM audit_entries
     WHERE id > $1 AND ($5::bigint IS NULL OR id < $5)
       AND ($2::text IS NULL OR actor = $2) AND ($3::text IS NULL OR action = $3)
     ORDER BY id ${query.newestFirst ? 'DESC' : 'ASC'} LIMIT $4`,
    [
      query.afterId ?? 0,
      query.actor ?? null,
      query.action ?? null,
      query.limit ?? 1000,
      query.beforeId ?? null,
    ],
  )
  return rows.map(toEntry)
}

/**
 * What a record outside the database says of the trail: it had `length` entries, the last of
 * them with hash `head` (anchors.ts reads them from git).
 */
export interface TrailAnchor {
  length: number
  head: string
  /** Where it is, for people: `checkpoint 1a2b3c4d5e6f (refs/audit/checkpoint, …)`. */
  name: string
}

export type AuditCheck =
  | {
      ok: true
      entries: number
      /** When anchors were given: how many agree, and the entry the furthest of them names. */
      anchors?: { checked: number; last: number }
      /**
       * Keyed entries whose hashes were not checked: their keys are not in `AUDIT_KEY`; from
       * `unvouchedFrom` on, no anchor written since vouches for them either.
       */
      unchecked?: { entries: number; keys: string[]; unvouchedFrom?: number }
    }
  | { ok: false; entries: number; brokenAt: number; reason: string; anchor?: string }

const short = (hash: string) => hash.slice(0, 12)

/**
 * Recomputes the chain from the first entry: where it breaks, and why. Each anchor given must
 * agree: entry #length exists and has the hash it records. An entry changed without
 * recomputing the rest breaks the chain there; a chain recomputed after a change, or entries
 * removed from the end, disagree with the anchors after the change. Keyed entries are checked
 * with the key their id names; one of a key not given is counted as unchecked, but given keys,
 * only where an anchor written since vouches for it (else it breaks the chain: whoever may
 * insert rows could have keyed it with a key of their own); an unkeyed entry after a keyed one
 * is refused whatever the keys.
 */
export async function verifyAudit(
  database: Queryable,
  anchors: readonly TrailAnchor[] = [],
): Promise<AuditCheck> {
  const byLength = new Map<number, TrailAnchor[]>()
  for (const anchor of anchors) {
    if (anchor.length < 1) continue
    byLength.set(anchor.length, [...(byLength.get(anchor.length) ?? []), anchor])
  }
  let previous = GENESIS
  let expectedId = 1
  let count = 0
  let keyedFrom: number | undefined
  let unchecked = 0
  const missingKeys = new Set<string>()
  let checked = 0
  let lastAgreeing = 0
  /** Entries of a key the keys given do not hold: an old key's, or a forger's. */
  const unknownKeyed: { id: number; keyId: string }[] = []
  const broken = (brokenAt: number, reason: string, anchor?: string): AuditCheck => ({
    ok: false,
    entries: count,
    brokenAt,
    reason,
    ...(anchor ? { anchor } : {}),
  })
  for (;;) {
    const page = await readAudit(database, { afterId: expectedId - 1, limit: 1000 })
    if (page.length === 0) break
    for (const entry of page) {
      if (entry.id !== expectedId) return broken(expectedId, 'an entry is missing')
      if (entry.previousHash !== previous) {
        return broken(entry.id, 'it does not link to the entry before')
      }
      const { hash, ...unsigned } = entry
      if (entry.keyId === null) {
        if (keyedFrom !== undefined) {
          return broken(
            entry.id,
            `it is not keyed, though the entries from ${keyedFrom} on are: it was written again without the key`,
          )
        }
        if (hashOf(unsigned) !== hash) return broken(entry.id, 'its content was changed')
      } else {
        keyedFrom ??= entry.id
        const key = knownKeys.get(entry.keyId)
        if (key === undefined) {
          unchecked++
          missingKeys.add(entry.keyId)
          if (knownKeys.size > 0) unknownKeyed.push({ id: entry.id, keyId: entry.keyId })
        } else if (hashOf(unsigned, key) !== hash) {
          return broken(entry.id, 'its content was changed')
        }
      }
      for (const anchor of byLength.get(entry.id) ?? []) {
        if (anchor.head !== hash) {
          return broken(
            entry.id,
            `${anchor.name} records entry ${entry.id} with hash ${short(anchor.head)}…, the database's has ${short(hash)}…: the trail was rewritten at or before entry ${entry.id}${lastAgreeing ? `, after entry ${lastAgreeing} (the last anchor that agrees)` : ''}`,
            anchor.name,
          )
        }
        checked++
        lastAgreeing = entry.id
      }
      previous = hash
      expectedId++
      count++
    }
  }
  // Anchors beyond the end: entries were removed (or the trail replaced by a shorter one).
  const beyond = anchors
    .filter((anchor) => anchor.length > count)
    .sort((a, b) => b.length - a.length)[0]
  if (beyond) {
    return broken(
      count + 1,
      `${beyond.name} records ${beyond.length} entries, the last with hash ${short(beyond.head)}…, the database has ${count}: entries were removed from the end`,
      beyond.name,
    )
  }
  // Given keys, an entry of another key is vouched for only by an anchor written since (an
  // older key's, before a checkpoint); after the last anchor, it is an old key dropped from
  // AUDIT_KEY or anyone's who may insert rows: which, the trail cannot tell.
  const exposed = unknownKeyed.find((entry) => entry.id > lastAgreeing)
  return {
    ok: true,
    entries: count,
    ...(anchors.length > 0 ? { anchors: { checked, last: lastAgreeing } } : {}),
    ...(unchecked > 0
      ? {
          unchecked: {
            entries: unchecked,
            keys: [...missingKeys],
            ...(exposed ? { unvouchedFrom: exposed.id } : {}),
          },
        }
      : {}),
  }
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actor',
  'action',
  'subject',
  'before',
  'after',
  'details',
  'previousHash',
  'hash',
  'keyId',
] as const

/** One CSV field: quoted when needed; a leading =, +, - or @ is defused for spreadsheets. */
function csvField(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'string'
        ? value
        : JSON.stringify(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** The trail as CSV (a header, then one line per entry) or as JSON lines' array. */
export async function exportAudit(database: Queryable, format: 'csv' | 'json'): Promise<string> {
  const entries: AuditEntry[] = []
  for (let afterId = 0; ; ) {
    const page = await readAudit(database, { afterId, limit: 1000 })
    if (page.length === 0) break
    entries.push(...page)
    afterId = page.at(-1)?.id ?? afterId
  }
  if (format === 'json') return `${JSON.stringify(entries, null, 2)}\n`
  const lines = [CSV_COLUMNS.join(',')]
  for (const entry of entries)
    lines.push(CSV_COLUMNS.map((column) => csvField(entry[column])).join(','))
  return `${lines.join('\r\n')}\r\n`
}
