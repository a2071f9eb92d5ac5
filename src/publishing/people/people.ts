/**
 * The publishing service's people: who they are, their roles, their invitations and their
 * sessions. Tokens (invitation links, session cookies) are random 256-bit values handed out
 * once; the database keeps only their SHA-256, so a copy of it opens no session. Sessions live
 * on the server: they expire (8 hours of absence, 7 days at most), and are revoked one by one,
 * all of a person's at once, or by taking the person's access away.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Database, Queryable } from '../../database/database'
import { appendAudit } from '../audit/trail'
import {
  APPROVING_ROLES,
  approvingRoles,
  type Grant,
  type GrantDecision,
  type GrantState,
  grantNeedsConfirmation,
  mayConfirmGrant,
  mayRefuseGrant,
  rolesGranted,
} from './grants'
import { type EditorLanguage, type Person, ROLES, type Role } from './roles'

/** One change to people, invitations and grants at a time (an advisory lock's key). */
export const PEOPLE_LOCK = 727277

/** How long an invitation link works. */
export const INVITATION_MS = 72 * 60 * 60 * 1000
/** A session ends after this long without a request… */
export const IDLE_MS = 8 * 60 * 60 * 1000
/** …and after this long in any case. */
export const SESSION_MS = 7 * 24 * 60 * 60 * 1000

/** Who acts for the service itself in invitations it makes (the first administrator's). */
export const SERVICE_ACTOR = 'service'

import { InvitationReplacedError, PeopleError } from './people-errors'

export { InvitationReplacedError, PeopleError }

/** What the database keeps of a token handed out: its SHA-256. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
/** A new token to hand out once (a link's, a cookie's): 256 random bits. */
export const newToken = () => randomBytes(32).toString('base64url')

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
    throw new PeopleError('not-email', { email: JSON.stringify(email) })
  }
  return value
}

function checkRoles(roles: readonly string[]): Role[] {
  const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role))
  if (unknown.length) throw new PeopleError('unknown-roles', { roles: unknown.join(', ') })
  if (roles.length === 0) throw new PeopleError('no-role')
  return [...new Set(roles)] as Role[]
}

/** A row of `people` as read for the rules. */
export interface PersonRow {
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

/** A row of `people` as the rules see the person. */
export const toPerson = (row: PersonRow): Person => ({
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

/** The roles of `roles` in their usual order (author, reviewer, publisher, administrator). */
const inOrder = (roles: Iterable<Role>): Role[] => {
  const set = new Set(roles)
  return ROLES.filter((role) => set.has(role))
}

const sameRoles = (a: readonly Role[], b: readonly Role[]) =>
  inOrder(a).join() === inOrder(b).join()

/** How many administrators can sign in: counted before a grant, to know if it waits. */
export async function administratorCount(tx: Queryable): Promise<number> {
  const [row] = await tx.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM people
     WHERE 'administrator' = ANY (roles) AND disabled_at IS NULL`,
  )
  return Number(row?.n ?? 0)
}

/** A grant recorded: pending (waits for a second administrator) or unconfirmed (in effect). */
export interface ProposedGrant {
  id: number
  roles: Role[]
  state: 'pending' | 'unconfirmed'
}

/**
 * Records the grant of approving `roles` to `email` by `by` and its trail entry (`grant`):
 * pending while two or more administrators could sign in before the decision
 * (`grantNeedsConfirmation`), else in effect unconfirmed. The caller gives the person the
 * roles when it is in effect.
 */
export async function proposeGrant(
  tx: Queryable,
  grant: { email: string; roles: Role[]; by: string; via: Grant['via'] },
  /** The administrators who could sign in before this decision (`administratorCount`). */
  administrators: number,
  now: Date,
): Promise<ProposedGrant> {
  const waits = grantNeedsConfirmation(grant.roles, administrators)
  const [row] = await tx.query<{ id: string | number }>(
    `INSERT INTO role_grants (email, roles, via, proposed_by, proposed_at, state)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      grant.email,
      grant.roles,
      grant.via,
      grant.by,
      now.toISOString(),
      waits ? 'pending' : 'granted',
    ],
  )
  const proposed: ProposedGrant = {
    id: Number(row?.id),
    roles: grant.roles,
    state: waits ? 'pending' : 'unconfirmed',
  }
  await appendAudit(
    tx,
    {
      actor: grant.by,
      action: 'grant',
      subject: grant.email,
      details: {
        grant: proposed.id,
        roles: grant.roles,
        via: grant.via,
        state: proposed.state,
        administrators,
        ...(waits
          ? {}
          : { unconfirmed: 'in effect without a second administrator: only one can sign in' }),
      },
    },
    now,
    tx,
  )
  return proposed
}

/**
 * Closes grants of `email` still waiting for a second administrator's word (`close.ids`, or
 * every one that waits), each with its trail entry (`grant-withdraw`): `replaced` by a newer
 * decision, or `withdrawn` when the person's access or roles were taken away. Their roles are
 * not touched.
 */
async function closeWaitingGrants(
  tx: Queryable,
  email: string,
  state: 'replaced' | 'withdrawn',
  close: { by: string; reason: string; ids?: readonly number[] },
  now: Date,
): Promise<void> {
  const closed = await tx.query<{ id: string | number; roles: string[] | string }>(
    `UPDATE role_grants SET state = $2, closed_by = $3, closed_at = $4
     WHERE email = $1 AND (state = 'pending' OR (state = 'granted' AND confirmed_by IS NULL))
       AND ($5::bigint[] IS NULL OR id = ANY ($5))
     RETURNING id, roles`,
    [email, state, close.by, now.toISOString(), close.ids ?? null],
  )
  for (const grant of closed.sort((a, b) => Number(a.id) - Number(b.id))) {
    await appendAudit(
      tx,
      {
        actor: close.by,
        action: 'grant-withdraw',
        subject: email,
        details: { grant: Number(grant.id), roles: rolesOf(grant.roles), reason: close.reason },
      },
      now,
      tx,
    )
  }
}

/** An invitation made: the link's token (shown once), and the grant of its approving roles. */
export interface Invitation {
  token: string
  expiresAt: Date
  grant?: ProposedGrant
}

/**
 * An invitation for `email` with `roles`; the link's token, shown once. It replaces the
 * address's open invitation (that link then says so), and its approving roles are a grant
 * (`proposeGrant`): what the person gets is read from it when they take the invitation up.
 * Recorded in the trail (`invite`, `invite-replace`, `grant`), but for the first
 * administrator's, which the service makes before anyone exists.
 */
export async function invite(
  database: Database,
  options: { email: string; roles: readonly string[]; by: string },
  now: Date = new Date(),
): Promise<Invitation> {
  const email = normalEmail(options.email)
  const roles = checkRoles(options.roles)
  return database.transaction((tx) => inviteIn(tx, { email, roles, by: options.by }, now))
}

async function inviteIn(
  tx: Queryable,
  { email, roles, by }: { email: string; roles: Role[]; by: string },
  now: Date,
): Promise<Invitation> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
  // An invitation adds a way to sign in: for someone who has one, it would let whoever holds
  // the link act as them. Their roles are changed on the people page instead.
  const [existing] = await tx.query(
    'SELECT 1 FROM people WHERE email = $1 AND disabled_at IS NULL',
    [email],
  )
  if (existing) {
    throw new PeopleError('can-sign-in', { email })
  }
  const recorded = by !== SERVICE_ACTOR
  // One open invitation per address: the newer replaces the older, whose link then says so.
  const replaced = await tx.query<{
    invited_by: string
    created_at: Date | string
    expires_at: Date | string
    roles: string[] | string
  }>(
    `UPDATE invitations SET replaced_at = $2
     WHERE email = $1 AND used_at IS NULL AND replaced_at IS NULL
     RETURNING invited_by, created_at, expires_at, roles`,
    [email, now.toISOString()],
  )
  if (recorded) {
    for (const old of replaced.filter((row) => new Date(row.expires_at) > now)) {
      await appendAudit(
        tx,
        {
          actor: by,
          action: 'invite-replace',
          subject: email,
          details: {
            invitedBy: old.invited_by,
            invitedAt: new Date(old.created_at).toISOString(),
            roles: rolesOf(old.roles),
          },
        },
        now,
        tx,
      )
    }
    // This invitation's decision replaces any earlier one on the address's roles not yet
    // confirmed, and the grants of someone whose access was taken away: they come back with
    // this invitation's roles only.
    await closeWaitingGrants(
      tx,
      email,
      'replaced',
      { by, reason: 'replaced by a newer invitation' },
      now,
    )
    await tx.query(
      `UPDATE role_grants SET state = 'replaced', closed_by = $2, closed_at = $3
       WHERE email = $1 AND state = 'granted'`,
      [email, by, now.toISOString()],
    )
  }
  const approving = approvingRoles(roles)
  const grant =
    recorded && approving.length > 0
      ? await proposeGrant(
          tx,
          { email, roles: approving, by, via: 'invitation' },
          await administratorCount(tx),
          now,
        )
      : undefined
  const token = newToken()
  const expiresAt = new Date(now.getTime() + INVITATION_MS)
  await tx.query(
    `INSERT INTO invitations
       (token_hash, email, roles, invited_by, created_at, expires_at, grant_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      hashToken(token),
      email,
      roles,
      by,
      now.toISOString(),
      expiresAt.toISOString(),
      grant?.id ?? null,
    ],
  )
  if (recorded) {
    await appendAudit(
      tx,
      {
        actor: by,
        action: 'invite',
        subject: email,
        details: {
          roles,
          ...(grant ? { grant: grant.id } : {}),
          ...(grant?.state === 'pending' ? { pending: grant.roles } : {}),
        },
      },
      now,
      tx,
    )
  }
  return { token, expiresAt, ...(grant ? { grant } : {}) }
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
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    if (await hasPeople(tx)) return null
    const [open] = await tx.query(
      `SELECT 1 FROM invitations
       WHERE invited_by = $1 AND used_at IS NULL AND replaced_at IS NULL AND expires_at > $2`,
      [SERVICE_ACTOR, now.toISOString()],
    )
    if (open) return null
    return inviteIn(
      tx,
      { email: normalEmail(email), roles: ['administrator'], by: SERVICE_ACTOR },
      now,
    )
  })
}

interface InvitationRow {
  email: string
  roles: string[] | string
  invited_by: string
  grant_id: string | number | null
  used_at: unknown
  replaced_at: unknown
  expires_at: Date | string
  /** A reset of the sign-in of someone who exists (`resets.ts`), not an invitation. */
  reset?: boolean
}

/**
 * What an invitation gives now: its roles that need nobody's confirmation (the author's, or
 * all of the first administrator's), and its grant's roles once in effect; the grant's roles
 * that still wait, apart.
 */
async function invitationRoles(
  tx: Queryable,
  invitation: InvitationRow,
): Promise<{ roles: Role[]; pending: Role[] }> {
  const asked = rolesOf(invitation.roles)
  if (invitation.invited_by === SERVICE_ACTOR) return { roles: asked, pending: [] }
  const base = asked.filter((role) => !APPROVING_ROLES.includes(role))
  // Made before grants existed: its approving roles become a grant when it is taken up.
  if (invitation.grant_id === null) return { roles: base, pending: approvingRoles(asked) }
  const [grant] = await tx.query<{ state: GrantState; roles: string[] | string }>(
    'SELECT state, roles FROM role_grants WHERE id = $1',
    [invitation.grant_id],
  )
  if (grant?.state === 'granted') {
    return { roles: inOrder([...base, ...rolesOf(grant.roles)]), pending: [] }
  }
  return { roles: base, pending: grant?.state === 'pending' ? rolesOf(grant.roles) : [] }
}

const INVITATION_COLUMNS =
  'email, roles, invited_by, grant_id, used_at, replaced_at, expires_at, reset'

/** Where an invitation link stands: open, replaced by a newer one, or used, expired or unknown. */
export async function invitationStatus(
  database: Queryable,
  token: string,
  now: Date = new Date(),
): Promise<'open' | 'replaced' | 'closed'> {
  const [row] = await database.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE token_hash = $1`,
    [hashToken(token)],
  )
  if (!row) return 'closed'
  if (row.replaced_at !== null) return 'replaced'
  return row.used_at === null && new Date(row.expires_at) > now ? 'open' : 'closed'
}

/**
 * What an invitation link is for, while it works; `null` when used, replaced, expired or
 * unknown. Its roles are those it gives now (`pending`: those that wait for a second
 * administrator, when any).
 */
export async function invitationOf(
  database: Queryable,
  token: string,
  now: Date = new Date(),
): Promise<{
  email: string
  roles: Role[]
  first: boolean
  pending?: Role[]
  /** A reset of this person's sign-in: their name, and the roles they keep. */
  reset?: { name: string }
} | null> {
  const [row] = await database.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM invitations
     WHERE token_hash = $1 AND used_at IS NULL AND replaced_at IS NULL AND expires_at > $2`,
    [hashToken(token), now.toISOString()],
  )
  if (!row) return null
  if (row.reset) {
    const person = await personOf(database, row.email)
    return person
      ? {
          email: person.email,
          roles: [...person.roles],
          first: false,
          reset: { name: person.name },
        }
      : null
  }
  const { roles, pending } = await invitationRoles(database, row)
  return {
    email: row.email,
    roles,
    first: row.invited_by === SERVICE_ACTOR,
    ...(pending.length ? { pending } : {}),
  }
}

/**
 * Takes an invitation up (once): the person is created with the roles the administrators'
 * decision gives now (`invitationRoles`: the invitation's grant as it stands, never the link's
 * own say), and returns them. Someone who can sign in already is refused: an invitation would
 * add a way in to their account. Someone whose access was taken away comes back with those
 * roles only, none of their old passkeys and no old session (recorded: `role-change`). Called
 * when their sign-in method (passkey) is registered.
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
  if (name.length === 0 || name.length > 200) throw new PeopleError('name-length')
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const [invitation] = await tx.query<InvitationRow>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE token_hash = $1`,
      [hashToken(token)],
    )
    if (invitation?.replaced_at != null) throw new InvitationReplacedError()
    if (!invitation || invitation.used_at !== null || new Date(invitation.expires_at) <= now) {
      throw new PeopleError('invitation-used')
    }
    // A reset keeps the person as they are: it is taken up by `acceptReset` (resets.ts).
    if (invitation.reset) throw new PeopleError('reset-adds-no-one')
    await tx.query('UPDATE invitations SET used_at = $2 WHERE token_hash = $1', [
      hashToken(token),
      now.toISOString(),
    ])
    const email =
      invitation.invited_by === SERVICE_ACTOR ? (chosen ?? invitation.email) : invitation.email
    const [before] = await tx.query<PersonRow & { disabled_at: unknown }>(
      'SELECT email, name, roles, language, disabled_at FROM people WHERE email = $1 FOR UPDATE',
      [email],
    )
    if (before && before.disabled_at === null) {
      throw new PeopleError('invitation-adds-no-way-in', { email })
    }
    const given = await invitationRoles(tx, invitation)
    let roles = given.roles
    if (invitation.grant_id === null && given.pending.length > 0) {
      const grant = await proposeGrant(
        tx,
        { email, roles: given.pending, by: invitation.invited_by, via: 'invitation' },
        await administratorCount(tx),
        now,
      )
      if (grant.state === 'unconfirmed') roles = inOrder([...roles, ...grant.roles])
    }
    const language = profile.language ?? 'en'
    if (!before) {
      const [row] = await tx.query<PersonRow>(
        `INSERT INTO people (email, name, roles, language, created_at)
         VALUES ($1, $2, $3, $4, $5)
         RETURNING email, name, roles, language`,
        [email, name, roles, language, now.toISOString()],
      )
      if (!row) throw new PeopleError('not-stored')
      return toPerson(row)
    }
    // Back after their access was taken away: this invitation's roles, and nothing of before.
    const [row] = await tx.query<PersonRow>(
      `UPDATE people SET name = $2, roles = $3, language = $4, disabled_at = NULL
       WHERE email = $1 RETURNING email, name, roles, language`,
      [email, name, roles, language],
    )
    if (!row) throw new PeopleError('not-stored')
    const passkeys = await tx.query<{ id: string }>(
      'DELETE FROM passkeys WHERE email = $1 RETURNING id',
      [email],
    )
    const sessions = await tx.query(
      `UPDATE sessions SET revoked_at = $2 WHERE email = $1 AND revoked_at IS NULL
       RETURNING token_hash`,
      [email, now.toISOString()],
    )
    await appendAudit(
      tx,
      {
        actor: email,
        action: 'role-change',
        subject: email,
        details: {
          access: 'restored by invitation',
          roles,
          rolesBefore: rolesOf(before.roles),
          passkeysRevoked: passkeys.map((passkey) => passkey.id).sort(),
          sessionsEnded: sessions.length,
        },
      },
      now,
      tx,
    )
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
    throw new PeopleError('provider-address', { email, before: bound.email })
  }
  const [before] = bound
    ? [bound]
    : await database.query<Row>(`SELECT ${columns} FROM people WHERE email = $1`, [email])
  // An address whose person signs in with another account of the provider stays theirs.
  if (before?.provider_account && before.provider_account !== profile.account) {
    throw new PeopleError('provider-other-account', { email })
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
  if (!row) throw new PeopleError('not-stored')
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
 * Sets a person's roles, as administrator `by` decided. An administrator may not take the last
 * administrator's role away (no one could manage people then). Roles taken away (and the
 * author's given) take effect at once; approving roles given are a grant (`proposeGrant`),
 * pending while two or more administrators can sign in: the person gets them when another
 * confirms (`confirmGrant`). This decision replaces a pending grant of other roles, and
 * unconfirmed grants whose roles are all taken away lapse. Their open sessions end, so the new
 * roles apply at once. Someone whose access was taken away is invited again instead.
 * Recorded (`role-change`, `grant`, `grant-withdraw`) in the same transaction.
 */
export async function setRoles(
  database: Database,
  email: string,
  roles: readonly string[],
  now: Date = new Date(),
  by: string = SERVICE_ACTOR,
): Promise<Person & { approvalsWithdrawn: string[]; pending: Role[]; grant?: ProposedGrant }> {
  const checked = checkRoles(roles)
  const address = normalEmail(email)
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const [before] = await tx.query<PersonRow & { disabled_at: unknown }>(
      'SELECT email, name, roles, language, disabled_at FROM people WHERE email = $1 FOR UPDATE',
      [address],
    )
    if (!before) throw new PeopleError('unknown-person', { email: address })
    if (before.disabled_at !== null) {
      throw new PeopleError('no-access', { email: address })
    }
    if (!checked.includes('administrator')) {
      const [others] = await tx.query<{ n: string | number }>(
        `SELECT count(*) AS n FROM people
         WHERE 'administrator' = ANY (roles) AND disabled_at IS NULL AND email <> $1`,
        [address],
      )
      if (Number(others?.n ?? 0) === 0) {
        throw new PeopleError('last-administrator')
      }
    }
    const granted = rolesGranted(rolesOf(before.roles), checked)
    const administrators = await administratorCount(tx)
    const waits = grantNeedsConfirmation(granted, administrators)
    const effective = waits ? checked.filter((role) => !granted.includes(role)) : checked
    // A pending grant of the same roles stands; one of others is replaced by this decision.
    const [pending] = await tx.query<{ id: string | number; roles: string[] | string }>(
      `SELECT id, roles FROM role_grants WHERE email = $1 AND state = 'pending'`,
      [address],
    )
    const kept = pending !== undefined && waits && sameRoles(rolesOf(pending.roles), granted)
    if (pending && !kept) {
      await closeWaitingGrants(
        tx,
        address,
        'replaced',
        { by, reason: 'replaced by a newer change of roles', ids: [Number(pending.id)] },
        now,
      )
    }
    const [row] = await tx.query<PersonRow>(
      'UPDATE people SET roles = $2 WHERE email = $1 RETURNING email, name, roles, language',
      [address, effective],
    )
    if (!row) throw new PeopleError('unknown-person', { email: address })
    await tx.query('UPDATE sessions SET revoked_at = $2 WHERE email = $1 AND revoked_at IS NULL', [
      address,
      now.toISOString(),
    ])
    const approvalsWithdrawn = effective.includes('reviewer')
      ? []
      : await withdrawApprovals(tx, address)
    // An unconfirmed grant none of whose roles the person still has needs no confirmation.
    const lapsed = await tx.query<{ id: string | number }>(
      `SELECT id FROM role_grants
       WHERE email = $1 AND state = 'granted' AND confirmed_by IS NULL AND NOT (roles && $2)`,
      [address, effective],
    )
    if (lapsed.length > 0) {
      await closeWaitingGrants(
        tx,
        address,
        'withdrawn',
        { by, reason: 'its roles were taken away', ids: lapsed.map((grant) => Number(grant.id)) },
        now,
      )
    }
    await appendAudit(
      tx,
      {
        actor: by,
        action: 'role-change',
        subject: address,
        details: {
          roles: effective,
          ...(waits ? { pending: granted } : {}),
          ...(approvalsWithdrawn.length ? { approvalsWithdrawn } : {}),
        },
      },
      now,
      tx,
    )
    const grant =
      granted.length > 0 && !kept
        ? await proposeGrant(
            tx,
            { email: address, roles: granted, by, via: 'role-change' },
            administrators,
            now,
          )
        : undefined
    return {
      ...toPerson(row),
      approvalsWithdrawn,
      pending: waits ? granted : [],
      ...(grant ? { grant } : {}),
    }
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

/**
 * Takes a person's access away: no sign-in, every session ended, their open invitation ended
 * and their grants that wait for a second administrator withdrawn. Their history stays.
 * Recorded (`role-change`, `grant-withdraw`) as administrator `by`, in the same transaction.
 */
export async function disablePerson(
  database: Database,
  email: string,
  now: Date = new Date(),
  by: string = SERVICE_ACTOR,
): Promise<{ approvalsWithdrawn: string[] }> {
  const address = normalEmail(email)
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
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
    const approvalsWithdrawn = await withdrawApprovals(tx, address)
    await closeWaitingGrants(
      tx,
      address,
      'withdrawn',
      { by, reason: 'their access was taken away' },
      now,
    )
    await appendAudit(
      tx,
      {
        actor: by,
        action: 'role-change',
        subject: address,
        details: { disabled: true, ...(approvalsWithdrawn.length ? { approvalsWithdrawn } : {}) },
      },
      now,
      tx,
    )
    return { approvalsWithdrawn }
  })
}

/** A grant that waits for a second administrator, as the people page lists it. */
export interface WaitingGrant extends Grant {
  /** `pending`: not in effect yet; `unconfirmed`: in effect, given by one administrator alone. */
  awaiting: 'pending' | 'unconfirmed'
}

interface GrantRow {
  id: string | number
  email: string
  roles: string[] | string
  via: Grant['via']
  proposed_by: string
  proposed_at: Date | string
  state: GrantState
  confirmed_by: string | null
  live: boolean
}

/**
 * A grant's columns, with whether it still concerns someone (`live`): its person can sign in,
 * or its invitation can still be taken up. `$1` is the time.
 */
const GRANT_COLUMNS = `g.id, g.email, g.roles, g.via, g.proposed_by, g.proposed_at, g.state,
  g.confirmed_by,
  (EXISTS (SELECT 1 FROM people p WHERE p.email = g.email AND p.disabled_at IS NULL)
   OR EXISTS (SELECT 1 FROM invitations i WHERE i.grant_id = g.id AND i.used_at IS NULL
              AND i.replaced_at IS NULL AND i.expires_at > $1)) AS live`

/** Grants that wait for a second administrator's word and still concern someone. */
const WAITING = `(g.state = 'pending' OR (g.state = 'granted' AND g.confirmed_by IS NULL))`

const toGrant = (row: GrantRow): Grant => ({
  id: Number(row.id),
  email: row.email,
  roles: rolesOf(row.roles),
  via: row.via,
  proposedBy: row.proposed_by,
  proposedAt: new Date(row.proposed_at).toISOString(),
  state: row.state,
  confirmedBy: row.confirmed_by,
  live: row.live === true,
})

/** Grants waiting for a second administrator (pending, or in effect unconfirmed), oldest first. */
export async function listGrants(
  database: Queryable,
  now: Date = new Date(),
): Promise<WaitingGrant[]> {
  const rows = await database.query<GrantRow>(
    `SELECT ${GRANT_COLUMNS} FROM role_grants g WHERE ${WAITING} ORDER BY g.id`,
    [now.toISOString()],
  )
  return rows
    .map(toGrant)
    .filter((grant) => grant.live)
    .map((grant) => ({ ...grant, awaiting: grant.state === 'pending' ? 'pending' : 'unconfirmed' }))
}

/**
 * How many grants are in effect without a second administrator's confirmation and still
 * concern someone: what the metrics report (an alert fires while any is).
 */
export async function unconfirmedGrants(
  database: Queryable,
  now: Date = new Date(),
): Promise<number> {
  const [row] = await database.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM (SELECT ${GRANT_COLUMNS} FROM role_grants g
       WHERE g.state = 'granted' AND g.confirmed_by IS NULL) AS unconfirmed
     WHERE live`,
    [now.toISOString()],
  )
  return Number(row?.n ?? 0)
}

/**
 * Reads grant `id` in `tx` and asks `rule` whether `person` may act on it: a refusal is
 * recorded (`refusal`, with its code and reason) and returned.
 */
async function decideOnGrant(
  tx: Queryable,
  id: number,
  person: Person,
  rule: (person: Person, grant: Grant) => GrantDecision,
  now: Date,
): Promise<{ grant: Grant; decision: GrantDecision }> {
  const [row] = Number.isSafeInteger(id)
    ? await tx.query<GrantRow>(`SELECT ${GRANT_COLUMNS} FROM role_grants g WHERE g.id = $2`, [
        now.toISOString(),
        id,
      ])
    : []
  if (!row) throw new PeopleError('unknown-grant', { id: String(id) })
  const grant = toGrant(row)
  const decision = rule(person, grant)
  if (!decision.allowed) {
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: 'refusal',
        subject: grant.email,
        details: { code: decision.code, reason: decision.reason, grant: grant.id },
      },
      now,
      tx,
    )
  }
  return { grant, decision }
}

/**
 * Confirms grant `id` as administrator `person`, if `mayConfirmGrant` allows: a pending grant
 * takes effect (the person gets its roles), an unconfirmed one is confirmed. Recorded
 * (`grant-confirm`, or the refusal) in the same transaction; returns the decision.
 */
export async function confirmGrant(
  database: Database,
  id: number,
  person: Person,
  now: Date = new Date(),
): Promise<GrantDecision> {
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const { grant, decision } = await decideOnGrant(tx, id, person, mayConfirmGrant, now)
    if (!decision.allowed) return decision
    await tx.query(
      `UPDATE role_grants SET state = 'granted', confirmed_by = $2, confirmed_at = $3
       WHERE id = $1`,
      [grant.id, person.email, now.toISOString()],
    )
    if (grant.state === 'pending') {
      const [holder] = await tx.query<{ roles: string[] | string }>(
        'SELECT roles FROM people WHERE email = $1 AND disabled_at IS NULL FOR UPDATE',
        [grant.email],
      )
      if (holder) {
        await tx.query('UPDATE people SET roles = $2 WHERE email = $1', [
          grant.email,
          inOrder([...rolesOf(holder.roles), ...grant.roles]),
        ])
      }
    }
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: 'grant-confirm',
        subject: grant.email,
        details: {
          grant: grant.id,
          roles: grant.roles,
          proposedBy: grant.proposedBy,
          was: grant.state === 'pending' ? 'pending' : 'unconfirmed',
        },
      },
      now,
      tx,
    )
    return decision
  })
}

/**
 * Refuses grant `id` as administrator `person` (withdraws it, when they proposed it), if
 * `mayRefuseGrant` allows: a pending grant never takes effect; one in effect unconfirmed takes
 * its roles away again (not the last administrator's), ending the person's sessions and, with
 * the reviewer's role, their approvals. Recorded (`grant-refuse` or `grant-withdraw`, or the
 * refusal) in the same transaction; returns the decision.
 */
export async function refuseGrant(
  database: Database,
  id: number,
  person: Person,
  now: Date = new Date(),
): Promise<GrantDecision> {
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const { grant, decision } = await decideOnGrant(tx, id, person, mayRefuseGrant, now)
    if (!decision.allowed) return decision
    const withdrawing = grant.proposedBy === person.email
    let taken: Role[] = []
    let approvalsWithdrawn: string[] = []
    if (grant.state === 'granted') {
      const [holder] = await tx.query<{ roles: string[] | string }>(
        'SELECT roles FROM people WHERE email = $1 AND disabled_at IS NULL FOR UPDATE',
        [grant.email],
      )
      const held = holder ? rolesOf(holder.roles) : []
      taken = grant.roles.filter((role) => held.includes(role))
      const kept = held.filter((role) => !taken.includes(role))
      if (taken.includes('administrator')) {
        const [others] = await tx.query<{ n: string | number }>(
          `SELECT count(*) AS n FROM people
           WHERE 'administrator' = ANY (roles) AND disabled_at IS NULL AND email <> $1`,
          [grant.email],
        )
        if (Number(others?.n ?? 0) === 0) {
          throw new PeopleError('last-administrator')
        }
      }
      if (taken.length > 0) {
        await tx.query('UPDATE people SET roles = $2 WHERE email = $1', [grant.email, kept])
        await tx.query(
          'UPDATE sessions SET revoked_at = $2 WHERE email = $1 AND revoked_at IS NULL',
          [grant.email, now.toISOString()],
        )
        if (taken.includes('reviewer'))
          approvalsWithdrawn = await withdrawApprovals(tx, grant.email)
      }
    }
    await tx.query(
      'UPDATE role_grants SET state = $2, closed_by = $3, closed_at = $4 WHERE id = $1',
      [grant.id, withdrawing ? 'withdrawn' : 'refused', person.email, now.toISOString()],
    )
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: withdrawing ? 'grant-withdraw' : 'grant-refuse',
        subject: grant.email,
        details: {
          grant: grant.id,
          roles: grant.roles,
          proposedBy: grant.proposedBy,
          ...(taken.length ? { rolesTakenAway: taken } : {}),
          ...(approvalsWithdrawn.length ? { approvalsWithdrawn } : {}),
        },
      },
      now,
      tx,
    )
    return decision
  })
}
