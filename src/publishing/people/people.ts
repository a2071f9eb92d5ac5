/**
 * The publishing service's people: who they are, their roles, their invitations and their
 * sessions. Tokens (invitation links, session cookies) are random 256-bit values handed out
 * once; the database keeps only their SHA-256, so a copy of it opens no session. Sessions live
 * on the server: they expire (8 hours of absence, 7 days at most), and are revoked one by one,
 * all of a person's at once, or by taking the person's access away.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Database, Queryable } from '../../database/database'
import { type EditorLanguage, type Person, ROLES, type Role } from './roles'

/**
 * Who a person is at the bank's identity provider (its issuer and their subject there): the
 * account a person signs in with stays theirs, whatever e-mail address the provider sends later.
 */
export const PROVIDER_ACCOUNTS_MIGRATION = {
  id: '0007-provider-accounts',
  statements: [
    'ALTER TABLE people ADD COLUMN provider_account text',
    'CREATE UNIQUE INDEX people_provider_account ON people (provider_account) WHERE provider_account IS NOT NULL',
  ],
}

export const PEOPLE_MIGRATION = {
  id: '0002-people',
  statements: [
    `CREATE TABLE people (
      email text PRIMARY KEY,
      name text NOT NULL,
      roles text[] NOT NULL,
      language text NOT NULL DEFAULT 'en',
      created_at timestamptz NOT NULL,
      disabled_at timestamptz
    )`,
    `CREATE TABLE invitations (
      token_hash text PRIMARY KEY,
      email text NOT NULL,
      roles text[] NOT NULL,
      invited_by text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`,
    `CREATE TABLE sessions (
      token_hash text PRIMARY KEY,
      email text NOT NULL REFERENCES people (email),
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`,
    'CREATE INDEX sessions_by_person ON sessions (email)',
  ],
}

/** How long an invitation link works. */
export const INVITATION_MS = 72 * 60 * 60 * 1000
/** A session ends after this long without a request… */
export const IDLE_MS = 8 * 60 * 60 * 1000
/** …and after this long in any case. */
export const SESSION_MS = 7 * 24 * 60 * 60 * 1000

/** Who acts for the service itself in invitations it makes (the first administrator's). */
export const SERVICE_ACTOR = 'service'

export class PeopleError extends Error {}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
const newToken = () => randomBytes(32).toString('base64url')

/** An address in the form people type it, compared without case. */
export function normalEmail(email: string): string {
  const value = email.trim().toLowerCase()
  // Plain addresses only: git records an author's address without <>, quotes or trailing
  // punctuation, and the four-eyes rules compare what git recorded with who signs in.
  if (
    !/^[a-z0-9](?:[a-z0-9._%+-]*[a-z0-9_%+-])?@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(
      value,
    ) ||
    value.includes('..') ||
    value.length > 254
  ) {
    throw new PeopleError(`not an e-mail address: ${JSON.stringify(email)}`)
  }
  return value
}

function checkRoles(roles: readonly string[]): Role[] {
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role))
  if (unknown.length)
    throw new PeopleError(`unknown roles: ${unknown.join(', ')} (known: ${ROLES.join(', ')})`)
  if (roles.length === 0) throw new PeopleError('a person needs at least one role')
  return [...new Set(roles)] as Role[]
}

interface PersonRow {
  email: string
  name: string
  roles: string[] | string
  language: string
}

/** PGlite and node-postgres both return text[] as arrays; a literal `{a,b}` is read too. */
const rolesOf = (value: string[] | string): Role[] =>
  (Array.isArray(value)
    ? value
    : value
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean)) as Role[]

const toPerson = (row: PersonRow): Person => ({
  email: row.email,
  name: row.name,
  roles: rolesOf(row.roles),
  language: row.language === 'de' ? 'de' : 'en',
})

/** Whether anyone may sign in yet: if not, the service offers the first administrator's link. */
export async function hasPeople(database: Queryable): Promise<boolean> {
  const [row] = await database.query<{ n: string | number }>('SELECT count(*) AS n FROM people')
  return Number(row?.n ?? 0) > 0
}

/** An invitation for `email` with `roles`; the link's token, shown once. */
export async function invite(
  database: Queryable,
  options: { email: string; roles: readonly string[]; by: string },
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const email = normalEmail(options.email)
  const roles = checkRoles(options.roles)
  // An invitation adds a way to sign in: for someone who has one, it would let whoever holds
  // the link act as them. Their roles are changed on the people page instead.
  const [existing] = await database.query(
    'SELECT 1 FROM people WHERE email = $1 AND disabled_at IS NULL',
    [email],
  )
  if (existing) {
    throw new PeopleError(`${email} can sign in already: change their roles instead`)
  }
  const token = newToken()
  const expiresAt = new Date(now.getTime() + INVITATION_MS)
  await database.query(
    `INSERT INTO invitations (token_hash, email, roles, invited_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [hashToken(token), email, roles, options.by, now.toISOString(), expiresAt.toISOString()],
  )
  return { token, expiresAt }
}

/**
 * The first administrator's invitation, only while nobody exists: a second call (another
 * process starting) gets `null` when one is still open, and never a second link.
 */
export async function firstAdministratorInvitation(
  database: Database,
  email: string,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date } | null> {
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [727277])
    if (await hasPeople(tx)) return null
    const [open] = await tx.query(
      `SELECT 1 FROM invitations WHERE invited_by = $1 AND used_at IS NULL AND expires_at > $2`,
      [SERVICE_ACTOR, now.toISOString()],
    )
    if (open) return null
    return invite(tx, { email, roles: ['administrator'], by: SERVICE_ACTOR }, now)
  })
}

/** What an invitation link is for, while it works; `null` when used, expired or unknown. */
export async function invitationOf(
  database: Queryable,
  token: string,
  now: Date = new Date(),
): Promise<{ email: string; roles: Role[]; first: boolean } | null> {
  const [row] = await database.query<{
    email: string
    roles: string[] | string
    invited_by: string
  }>(
    `SELECT email, roles, invited_by FROM invitations
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2`,
    [hashToken(token), now.toISOString()],
  )
  return row
    ? { email: row.email, roles: rolesOf(row.roles), first: row.invited_by === SERVICE_ACTOR }
    : null
}

/**
 * Takes an invitation up (once): the person is created, or given the invitation's roles beside
 * their own; returns them. Called when their sign-in method (passkey) is registered.
 */
export async function acceptInvitation(
  database: Database,
  token: string,
  /**
   * The person's name and editor language; their e-mail address too for the first
   * administrator's link, which the service made before anyone's address was known (other
   * invitations are for the address they were sent to).
   */
  profile: { name: string; language?: EditorLanguage; email?: string },
  now: Date = new Date(),
): Promise<Person> {
  const name = profile.name.trim()
  const chosen = profile.email === undefined ? undefined : normalEmail(profile.email)
  if (name.length === 0 || name.length > 200)
    throw new PeopleError('a name of 1 to 200 characters, please')
  return database.transaction(async (tx) => {
    const [invitation] = await tx.query<{
      email: string
      roles: string[] | string
      invited_by: string
    }>(
      `UPDATE invitations SET used_at = $2
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
       RETURNING email, roles, invited_by`,
      [hashToken(token), now.toISOString()],
    )
    if (!invitation) throw new PeopleError('this invitation link was used already or has expired')
    const email =
      invitation.invited_by === SERVICE_ACTOR ? (chosen ?? invitation.email) : invitation.email
    const [row] = await tx.query<PersonRow>(
      `INSERT INTO people (email, name, roles, language, created_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO UPDATE
         SET roles = ARRAY(SELECT DISTINCT unnest(people.roles || EXCLUDED.roles) ORDER BY 1),
             disabled_at = NULL
       RETURNING email, name, roles, language`,
      [email, name, rolesOf(invitation.roles), profile.language ?? 'en', now.toISOString()],
    )
    if (!row) throw new PeopleError('the person could not be stored')
    return toPerson(row)
  })
}

/**
 * The person the identity provider vouches for, created or updated with the name and roles it
 * gives (it is where roles are given and taken away); `null` when their access was taken away
 * here. Returns whether their roles changed.
 */
export async function providerPerson(
  database: Queryable,
  profile: { email: string; name: string; roles: readonly string[]; account: string },
  now: Date = new Date(),
): Promise<{ person: Person; changed: boolean; approvalsWithdrawn: string[] } | null> {
  const roles = checkRoles(profile.roles)
  const email = normalEmail(profile.email)
  type Row = PersonRow & { disabled_at: unknown; provider_account: string | null }
  const columns = 'email, name, roles, language, disabled_at, provider_account'
  const [bound] = await database.query<Row>(
    `SELECT ${columns} FROM people WHERE provider_account = $1`,
    [profile.account],
  )
  // The provider's account is the person: an address it sends later cannot move them.
  if (bound && bound.email !== email) {
    throw new PeopleError(
      `the identity provider now gives this account the address ${email}, but it signed in as ${bound.email} before: ask an administrator`,
    )
  }
  const [before] = bound
    ? [bound]
    : await database.query<Row>(`SELECT ${columns} FROM people WHERE email = $1`, [email])
  // An address whose person signs in with another account of the provider stays theirs.
  if (before?.provider_account && before.provider_account !== profile.account) {
    throw new PeopleError(
      `${email} belongs to another account of the identity provider: ask an administrator`,
    )
  }
  if (before && before.disabled_at !== null) return null
  const [row] = await database.query<PersonRow>(
    `INSERT INTO people (email, name, roles, language, created_at, provider_account)
     VALUES ($1, $2, $3, 'en', $4, $5)
     ON CONFLICT (email) DO UPDATE SET name = EXCLUDED.name, roles = EXCLUDED.roles,
       provider_account = EXCLUDED.provider_account
     RETURNING email, name, roles, language`,
    [email, profile.name, roles, now.toISOString(), profile.account],
  )
  if (!row) throw new PeopleError('the person could not be stored')
  const changed = !before || [...rolesOf(before.roles)].sort().join() !== [...roles].sort().join()
  // The provider's groups decide the roles at each sign-in: a reviewer no more withdraws.
  const approvalsWithdrawn = roles.includes('reviewer')
    ? []
    : await withdrawApprovals(database, row.email)
  return { person: toPerson(row), changed, approvalsWithdrawn }
}

/** The language a person's editor speaks. */
export async function setLanguage(database: Queryable, email: string, language: EditorLanguage) {
  await database.query('UPDATE people SET language = $2 WHERE email = $1', [
    normalEmail(email),
    language === 'de' ? 'de' : 'en',
  ])
}

export async function personOf(database: Queryable, email: string): Promise<Person | null> {
  const [row] = await database.query<PersonRow>(
    'SELECT email, name, roles, language FROM people WHERE email = $1 AND disabled_at IS NULL',
    [normalEmail(email)],
  )
  return row ? toPerson(row) : null
}

export async function listPeople(database: Queryable): Promise<(Person & { disabled: boolean })[]> {
  const rows = await database.query<PersonRow & { disabled_at: unknown }>(
    'SELECT email, name, roles, language, disabled_at FROM people ORDER BY email',
  )
  return rows.map((row) => ({ ...toPerson(row), disabled: row.disabled_at !== null }))
}

/**
 * Sets a person's roles. An administrator may not take the last administrator's role away (no
 * one could manage people then). Their open sessions end, so the new roles apply at once.
 */
export async function setRoles(
  database: Database,
  email: string,
  roles: readonly string[],
  now: Date = new Date(),
): Promise<Person & { approvalsWithdrawn: string[] }> {
  const checked = checkRoles(roles)
  const address = normalEmail(email)
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [727277])
    if (!checked.includes('administrator')) {
      const [others] = await tx.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM people
         WHERE 'administrator' = ANY (roles) AND disabled_at IS NULL AND email <> $1`,
        [address],
      )
      if (Number(others?.n ?? 0) === 0) {
        throw new PeopleError(
          'someone else must be an administrator before this person stops being one',
        )
      }
    }
    const [row] = await tx.query<PersonRow>(
      'UPDATE people SET roles = $2 WHERE email = $1 RETURNING email, name, roles, language',
      [address, checked],
    )
    if (!row) throw new PeopleError(`no one is registered as ${address}`)
    await tx.query('UPDATE sessions SET revoked_at = $2 WHERE email = $1 AND revoked_at IS NULL', [
      address,
      now.toISOString(),
    ])
    const approvalsWithdrawn = checked.includes('reviewer')
      ? []
      : await withdrawApprovals(tx, address)
    return { ...toPerson(row), approvalsWithdrawn }
  })
}

/**
 * Withdraws the approvals of someone who may no longer approve (their reviewer role or their
 * access taken away): an approval counts only while its reviewer could give it, so each draft
 * they approved goes back to review. The drafts' ids, for the trail.
 */
export async function withdrawApprovals(database: Queryable, email: string): Promise<string[]> {
  const withdrawn = await database.query<{ draft_id: string }>(
    'DELETE FROM approvals WHERE approved_by = $1 RETURNING draft_id',
    [normalEmail(email)],
  )
  const ids = [...new Set(withdrawn.map((row) => row.draft_id))].sort()
  if (ids.length > 0) {
    await database.query(
      `UPDATE drafts SET status = 'pending_review'
       WHERE id = ANY ($1) AND status = 'pending_publish'
         AND NOT EXISTS (SELECT 1 FROM approvals WHERE approvals.draft_id = drafts.id)`,
      [ids],
    )
  }
  return ids
}

/** A new session for a signed-in person: the cookie's token, shown once. */
export async function startSession(
  database: Queryable,
  email: string,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken()
  const expiresAt = new Date(now.getTime() + SESSION_MS)
  await database.query(
    `INSERT INTO sessions (token_hash, email, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $3, $4)`,
    [hashToken(token), normalEmail(email), now.toISOString(), expiresAt.toISOString()],
  )
  return { token, expiresAt }
}

/**
 * The person a session cookie belongs to, while the session stands (not revoked, not expired,
 * not idle for too long, the person not disabled); the session's last use moves to `now`.
 */
export async function sessionPerson(
  database: Queryable,
  token: string,
  now: Date = new Date(),
): Promise<Person | null> {
  const [row] = await database.query<PersonRow>(
    `UPDATE sessions SET last_seen_at = $2
     FROM people
     WHERE sessions.token_hash = $1 AND sessions.email = people.email
       AND sessions.revoked_at IS NULL AND sessions.expires_at > $2
       AND sessions.last_seen_at > $3 AND people.disabled_at IS NULL
     RETURNING people.email, people.name, people.roles, people.language`,
    [hashToken(token), now.toISOString(), new Date(now.getTime() - IDLE_MS).toISOString()],
  )
  return row ? toPerson(row) : null
}

/** Ends one session (signing out). */
export async function endSession(database: Queryable, token: string, now: Date = new Date()) {
  await database.query(
    'UPDATE sessions SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL',
    [hashToken(token), now.toISOString()],
  )
}

/** Takes a person's access away: no sign-in, every session ended. Their history stays. */
export async function disablePerson(
  database: Database,
  email: string,
  now: Date = new Date(),
): Promise<{ approvalsWithdrawn: string[] }> {
  const address = normalEmail(email)
  return database.transaction(async (tx) => {
    await tx.query('UPDATE people SET disabled_at = $2 WHERE email = $1', [
      address,
      now.toISOString(),
    ])
    await tx.query('UPDATE sessions SET revoked_at = $2 WHERE email = $1 AND revoked_at IS NULL', [
      address,
      now.toISOString(),
    ])
    // An invitation still open would bring them back.
    await tx.query('UPDATE invitations SET expires_at = $2 WHERE email = $1 AND used_at IS NULL', [
      address,
      now.toISOString(),
    ])
    return { approvalsWithdrawn: await withdrawApprovals(tx, address) }
  })
}
