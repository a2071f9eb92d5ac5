/**
 * The publishing service's audit trail: every action (sign-in, save, approval, publish,
 * rollback, schedule, role change, refusal) as one entry with who, what, the commits before and
 * after, and when. Append-only and tamper-evident:
 * - each entry carries the SHA-256 of the entry before it and of its own fields, so a changed,
 *   removed or inserted entry breaks the chain at that point (`verifyAudit` names it);
 * - the database itself refuses to update or delete an entry (a trigger), whatever asks;
 * - entries are appended one at a time (an advisory lock), so the chain has no forks even when
 *   two service processes share PostgreSQL;
 * - the chain's length and last hash are anchored outside the database, in git
 *   (audit-anchor.ts): `verifyAudit` given those anchors also finds entries removed from the
 *   end, and a chain recomputed after a change.
 * Administrators read and export it (CSV or JSON); nothing here changes an entry.
 */
import { createHash } from 'node:crypto'
import type { Database, Queryable } from '../server/forms/database'

/** What the trail records. */
export const AUDIT_ACTIONS = [
  'sign-in',
  'sign-out',
  'sign-in-refused',
  'invite',
  'role-change',
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
  'take-in',
  'recovery',
  'schedule',
  'schedule-cancel',
  'schedule-fired',
  'refusal',
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
  hash: string
}

/** The hash the first entry links to. */
export const GENESIS = '0'.repeat(64)
const AUDIT_LOCK = 727276

export const AUDIT_MIGRATION = {
  id: '0001-audit',
  statements: [
    `CREATE TABLE audit_entries (
      id bigint PRIMARY KEY,
      at timestamptz NOT NULL,
      actor text NOT NULL,
      action text NOT NULL,
      subject text NOT NULL,
      before_commit text,
      after_commit text,
      details jsonb NOT NULL DEFAULT '{}',
      previous_hash text NOT NULL,
      hash text NOT NULL UNIQUE
    )`,
    // Append-only, in the database itself: no statement may change or remove an entry.
    `CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       RAISE EXCEPTION 'the audit trail is append-only: % is not allowed', TG_OP;
     END $$`,
    `CREATE TRIGGER audit_entries_append_only
       BEFORE UPDATE OR DELETE ON audit_entries
       FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`,
    `CREATE TRIGGER audit_entries_no_truncate
       BEFORE TRUNCATE ON audit_entries
       FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()`,
  ],
}

/** The fields an entry's hash covers, in a fixed order: the same text every time. */
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

export const hashOf = (entry: Omit<AuditEntry, 'hash'>) =>
  createHash('sha256').update(canonical(entry)).digest('hex')

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
  const write = async (q: Queryable) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK])
    const [last] = await q.query<{ id: string | number; hash: string }>(
      'SELECT id, hash FROM audit_entries ORDER BY id DESC LIMIT 1',
    )
    const unsigned = {
      id: last ? Number(last.id) + 1 : 1,
      at: now.toISOString(),
      actor: input.actor,
      action: input.action,
      subject: input.subject,
      before: input.before ?? null,
      after: input.after ?? null,
      details: input.details ?? {},
      previousHash: last?.hash ?? GENESIS,
    }
    const entry: AuditEntry = { ...unsigned, hash: hashOf(unsigned) }
    await q.query(
      `INSERT INTO audit_entries
        (id, at, actor, action, subject, before_commit, after_commit, details, previous_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
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
      ],
    )
    return entry
  }
  if (tx) return write(tx)
  if ('transaction' in database) return database.transaction(write)
  return write(database)
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
 * them with hash `head` (audit-anchor.ts reads them from git).
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
    }
  | { ok: false; entries: number; brokenAt: number; reason: string; anchor?: string }

const short = (hash: string) => hash.slice(0, 12)

/**
 * Recomputes the chain from the first entry: where it breaks, and why. Each anchor given must
 * agree: entry #length exists and has the hash it records. An entry changed without
 * recomputing the rest breaks the chain there; a chain recomputed after a change, or entries
 * removed from the end, disagree with the anchors after the change.
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
  let checked = 0
  let lastAgreeing = 0
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
      if (hashOf(unsigned) !== hash) return broken(entry.id, 'its content was changed')
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
  return {
    ok: true,
    entries: count,
    ...(anchors.length > 0 ? { anchors: { checked, last: lastAgreeing } } : {}),
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
