/**
 * A person's own sign-in ("Your sign-in"): their passkeys, each with a name they give it, when
 * it was added and last used, added, renamed and removed; and their sessions, ended everywhere
 * but here, or all of them by an administrator. The rules are `sign-in-rules.ts`; each change
 * and each refusal is in the trail in the transaction that makes it. The trail and the pages
 * name a passkey by a reference (`passkeyRef`), never by its credential.
 */
import { createHash } from 'node:crypto'
import type { Database, Queryable } from '../../database/database'
import { appendAudit } from '../audit/trail'
import { type NewPasskey, storePasskey } from './passkeys'
import { hashToken, normalEmail, PEOPLE_LOCK, PeopleError } from './people'
import type { Person } from './roles'
import {
  mayEndSessions,
  mayRemovePasskey,
  PASSKEY_NAME_LENGTH,
  type SignInDecision,
  signInRefusal,
} from './sign-in-rules'

/** A passkey's reference in the trail and on the pages: no credential, only its hash's start. */
export const passkeyRef = (id: string) =>
  createHash('sha256').update(`passkey ${id}`).digest('hex').slice(0, 16)

/** One of a person's passkeys as "Your sign-in" lists it. */
export interface PasskeyListing {
  ref: string
  name: string | null
  createdAt: string
  lastUsedAt: string | null
}

interface PasskeyRow {
  id: string
  name: string | null
  created_at: Date | string
  last_used_at: Date | string | null
}

const iso = (value: Date | string) => new Date(value).toISOString()

async function passkeysOf(database: Queryable, email: string, lock = false) {
  return database.query<PasskeyRow>(
    `SELECT id, name, created_at, last_used_at FROM passkeys WHERE email = $1
     ORDER BY created_at, id${lock ? ' FOR UPDATE' : ''}`,
    [email],
  )
}

/** A person's passkeys, the oldest first. */
export async function listPasskeys(database: Queryable, email: string): Promise<PasskeyListing[]> {
  return (await passkeysOf(database, normalEmail(email))).map((row) => ({
    ref: passkeyRef(row.id),
    name: row.name,
    createdAt: iso(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
  }))
}

/** How many passkeys each person has, by address. */
export async function passkeyCounts(database: Queryable): Promise<Map<string, number>> {
  const rows = await database.query<{ email: string; n: string | number }>(
    'SELECT email, count(*) AS n FROM passkeys GROUP BY email',
  )
  return new Map(rows.map((row) => [row.email, Number(row.n)]))
}

/** A passkey's name as typed: trimmed, 1 to `PASSKEY_NAME_LENGTH` characters, or none. */
export function passkeyName(value: unknown, required = false): string | null {
  const name = typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : ''
  if (name.length === 0 && !required) return null
  if (name.length === 0 || name.length > PASSKEY_NAME_LENGTH) {
    throw new PeopleError('passkey-name-length', { max: String(PASSKEY_NAME_LENGTH) })
  }
  return name
}

/** Administrators other than `email` who can sign in: not disabled, with a passkey. */
export async function otherAdministrators(database: Queryable, email: string): Promise<number> {
  const [row] = await database.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM people p
     WHERE 'administrator' = ANY (p.roles) AND p.disabled_at IS NULL AND p.email <> $1
       AND EXISTS (SELECT 1 FROM passkeys k WHERE k.email = p.email)`,
    [email],
  )
  return Number(row?.n ?? 0)
}

/** Records `decision`'s refusal of `person`'s action on `subject` (`details`: what it was). */
export async function recordSignInRefusal(
  tx: Queryable,
  person: Person,
  subject: string,
  decision: SignInDecision,
  details: Record<string, unknown>,
  now: Date,
): Promise<void> {
  if (decision.allowed) return
  await appendAudit(
    tx,
    {
      actor: person.email,
      action: 'refusal',
      subject,
      details: { code: decision.code, reason: decision.reason, ...details },
    },
    now,
    tx,
  )
}

/** Stores a checked passkey and records it (`passkey-add`), in the caller's transaction. */
export async function storeAndRecordPasskey(
  tx: Queryable,
  passkey: NewPasskey,
  options: { name: string | null; via: 'your sign-in' | 'reset link' },
  now: Date,
): Promise<void> {
  await storePasskey(tx, passkey, now, options.name)
  await appendAudit(
    tx,
    {
      actor: passkey.email,
      action: 'passkey-add',
      subject: passkey.email,
      details: { passkey: passkeyRef(passkey.id), name: options.name, via: options.via },
    },
    now,
    tx,
  )
}

/**
 * Adds a passkey `person` made on "Your sign-in" (the ceremony checked by `verifyRegistration`
 * and the session's sign-in by `mayAddPasskey`): one begun for someone else is refused.
 */
export async function addPasskey(
  database: Database,
  person: Person,
  passkey: NewPasskey,
  name: string | null,
  now: Date = new Date(),
): Promise<SignInDecision> {
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    if (passkey.email !== person.email) {
      const decision = signInRefusal(person, 'ceremony-not-yours')
      await recordSignInRefusal(tx, person, person.email, decision, { action: 'add' }, now)
      return decision
    }
    await storeAndRecordPasskey(tx, passkey, { name, via: 'your sign-in' }, now)
    return { allowed: true }
  })
}

/** The passkey `ref` of `person`, or their refusal recorded (`unknown-passkey`). */
async function ownPasskey(
  tx: Queryable,
  person: Person,
  ref: string,
  action: string,
  now: Date,
): Promise<{ found?: PasskeyRow; all: PasskeyRow[]; refusal?: SignInDecision }> {
  const all = await passkeysOf(tx, person.email, true)
  const found = all.find((row) => passkeyRef(row.id) === ref)
  if (found) return { found, all }
  const refusal = signInRefusal(person, 'unknown-passkey')
  const shown = typeof ref === 'string' ? ref.slice(0, 40) : ''
  await recordSignInRefusal(tx, person, person.email, refusal, { action, passkey: shown }, now)
  return { all, refusal }
}

/** Gives `person`'s passkey `ref` a new name (`passkey-rename`). */
export async function renamePasskey(
  database: Database,
  person: Person,
  ref: string,
  name: string,
  now: Date = new Date(),
): Promise<SignInDecision> {
  return database.transaction(async (tx) => {
    const { found, refusal } = await ownPasskey(tx, person, ref, 'rename', now)
    if (!found) return refusal as SignInDecision
    await tx.query('UPDATE passkeys SET name = $2 WHERE id = $1', [found.id, name])
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: 'passkey-rename',
        subject: person.email,
        details: { passkey: ref, name, before: found.name },
      },
      now,
      tx,
    )
    return { allowed: true }
  })
}

/**
 * Removes `person`'s passkey `ref`, if `mayRemovePasskey` allows (`confirmedLast`: they
 * confirmed removing their last one). Their sessions stay: "End my other sessions" ends the
 * others. Recorded (`passkey-remove`, or the refusal).
 */
export async function removePasskey(
  database: Database,
  person: Person,
  ref: string,
  confirmedLast: boolean,
  now: Date = new Date(),
): Promise<SignInDecision> {
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const { found, all, refusal } = await ownPasskey(tx, person, ref, 'remove', now)
    if (!found) return refusal as SignInDecision
    const decision = mayRemovePasskey(person, {
      passkeys: all.length,
      confirmedLast,
      otherAdministrators: await otherAdministrators(tx, person.email),
    })
    if (!decision.allowed) {
      const details = { action: 'remove', passkey: ref }
      await recordSignInRefusal(tx, person, person.email, decision, details, now)
      return decision
    }
    await tx.query('DELETE FROM passkeys WHERE id = $1', [found.id])
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: 'passkey-remove',
        subject: person.email,
        details: {
          passkey: ref,
          name: found.name,
          ...(all.length === 1 ? { last: 'confirmed: a reset is needed to sign in again' } : {}),
        },
      },
      now,
      tx,
    )
    return decision
  })
}

/** When the session of cookie `token` was signed in, while it stands. */
export async function sessionStarted(database: Queryable, token: string): Promise<Date | null> {
  const [row] = await database.query<{ created_at: Date | string }>(
    'SELECT created_at FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL',
    [hashToken(token)],
  )
  return row ? new Date(row.created_at) : null
}

/** How many sessions of `email` stand, but the one of cookie `token`. */
export async function otherSessions(
  database: Queryable,
  email: string,
  token: string,
  now: Date = new Date(),
): Promise<number> {
  const [row] = await database.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM sessions
     WHERE email = $1 AND token_hash <> $2 AND revoked_at IS NULL AND expires_at > $3`,
    [normalEmail(email), hashToken(token), now.toISOString()],
  )
  return Number(row?.n ?? 0)
}

/**
 * Ends the sessions of `email` as `person` decided (`mayEndSessions`): every one, or all but
 * the one of cookie `keep` (their own "End my other sessions"). A session ended is refused at
 * its next request, whichever process answers it (sessions live in the database). Recorded
 * (`sessions-end`, or the refusal); the sessions ended, counted.
 */
export async function endSessions(
  database: Database,
  person: Person,
  email: string,
  options: { keep?: string } = {},
  now: Date = new Date(),
): Promise<{ decision: SignInDecision; ended: number }> {
  const address = normalEmail(email)
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const decision = mayEndSessions(person, address)
    if (!decision.allowed) {
      await recordSignInRefusal(tx, person, address, decision, { action: 'end-sessions' }, now)
      return { decision, ended: 0 }
    }
    const [exists] = await tx.query('SELECT 1 FROM people WHERE email = $1', [address])
    if (!exists) throw new PeopleError('unknown-person', { email: address })
    const ended = await tx.query(
      `UPDATE sessions SET revoked_at = $2
       WHERE email = $1 AND revoked_at IS NULL AND expires_at > $2
         AND ($3::text IS NULL OR token_hash <> $3)
       RETURNING token_hash`,
      [address, now.toISOString(), options.keep ? hashToken(options.keep) : null],
    )
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: 'sessions-end',
        subject: address,
        details: {
          sessionsEnded: ended.length,
          ...(options.keep ? { kept: 'the session that asked' } : {}),
        },
      },
      now,
      tx,
    )
    return { decision, ended: ended.length }
  })
}
