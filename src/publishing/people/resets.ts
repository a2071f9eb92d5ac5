/**
 * A way back in for someone who lost their passkeys: an administrator resets their sign-in.
 * Their passkeys are removed and their sessions ended at once, and a link (an invitation marked
 * as a reset, valid as long as an invitation) lets them make a new passkey. They stay the same
 * person: the same address, name, roles, grants, approvals and history in the trail; nothing
 * is taken away but their ways in. The rules are `sign-in-rules.ts` (`mayResetSignIn`); the
 * reset, each refusal and the link taken up are in the trail.
 */
import type { Database } from '../../database/database'
import { appendAudit } from '../audit/trail'
import { approvingRoles } from './grants'
import type { NewPasskey } from './passkeys'
import {
  administratorCount,
  hashToken,
  INVITATION_MS,
  InvitationReplacedError,
  newToken,
  normalEmail,
  PEOPLE_LOCK,
  PeopleError,
  type PersonRow,
  proposeGrant,
  toPerson,
} from './people'
import type { Person, Role } from './roles'
import {
  otherAdministrators,
  passkeyRef,
  recordSignInRefusal,
  storeAndRecordPasskey,
} from './sign-in-keys'
import { mayResetSignIn, type SignInDecision } from './sign-in-rules'

/** A reset made: its link's token (shown once to the administrator) and when it expires. */
export interface ResetLink {
  token: string
  expiresAt: Date
}

/**
 * Resets `email`'s sign-in as administrator `person`, if `mayResetSignIn` allows: removes
 * their passkeys, ends their sessions, replaces any open invitation or reset link of theirs,
 * and makes a new reset link. Recorded (`sign-in-reset`, `invite-replace`, or the refusal) in
 * one transaction.
 */
export async function resetSignIn(
  database: Database,
  person: Person,
  email: string,
  now: Date = new Date(),
): Promise<{ decision: SignInDecision; link?: ResetLink; waiting?: Role[] }> {
  const address = normalEmail(email)
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const [target] = await tx.query<PersonRow & { disabled_at: unknown }>(
      'SELECT email, name, roles, language, disabled_at FROM people WHERE email = $1 FOR UPDATE',
      [address],
    )
    if (!target) throw new PeopleError('unknown-person', { email: address })
    const decision = mayResetSignIn(
      person,
      { email: address, disabled: target.disabled_at !== null },
      await otherAdministrators(tx, address),
    )
    if (!decision.allowed) {
      await recordSignInRefusal(tx, person, address, decision, { action: 'reset-sign-in' }, now)
      return { decision }
    }
    const passkeys = await tx.query<{ id: string; name: string | null }>(
      'DELETE FROM passkeys WHERE email = $1 RETURNING id, name',
      [address],
    )
    const sessions = await tx.query(
      `UPDATE sessions SET revoked_at = $2 WHERE email = $1 AND revoked_at IS NULL
       RETURNING token_hash`,
      [address, now.toISOString()],
    )
    // One open link per address: this one replaces an earlier reset's, whose link says so.
    const replaced = await tx.query<{
      invited_by: string
      created_at: Date | string
      expires_at: Date | string
      reset: boolean
    }>(
      `UPDATE invitations SET replaced_at = $2
       WHERE email = $1 AND used_at IS NULL AND replaced_at IS NULL
       RETURNING invited_by, created_at, expires_at, reset`,
      [address, now.toISOString()],
    )
    for (const old of replaced.filter((row) => new Date(row.expires_at) > now)) {
      await appendAudit(
        tx,
        {
          actor: person.email,
          action: 'invite-replace',
          subject: address,
          details: {
            invitedBy: old.invited_by,
            invitedAt: new Date(old.created_at).toISOString(),
            ...(old.reset ? { reset: true } : {}),
          },
        },
        now,
        tx,
      )
    }
    const token = newToken()
    const expiresAt = new Date(now.getTime() + INVITATION_MS)
    const { roles } = toPerson(target)
    // Whoever takes the link up holds the person's roles: the approving ones wait for a second
    // administrator, as a grant does (in effect at once, unconfirmed, where only one can sign
    // in). The administrator who reset the sign-in may not confirm it.
    const approving = approvingRoles(roles)
    const grant =
      approving.length > 0
        ? await proposeGrant(
            tx,
            { email: address, roles: approving, by: person.email, via: 'reset' },
            // Those who could sign in and confirm it: not the person whose passkeys just went.
            (await administratorCount(tx)) - (roles.includes('administrator') ? 1 : 0),
            now,
          )
        : undefined
    const kept =
      grant?.state === 'pending' ? roles.filter((role) => !approving.includes(role)) : roles
    if (kept !== roles) {
      await tx.query('UPDATE people SET roles = $2 WHERE email = $1', [address, kept])
    }
    await tx.query(
      `INSERT INTO invitations (token_hash, email, roles, invited_by, created_at, expires_at, reset)
       VALUES ($1, $2, $3, $4, $5, $6, true)`,
      [hashToken(token), address, kept, person.email, now.toISOString(), expiresAt.toISOString()],
    )
    await appendAudit(
      tx,
      {
        actor: person.email,
        action: 'sign-in-reset',
        subject: address,
        details: {
          passkeysRemoved: passkeys
            .map((passkey) => ({ passkey: passkeyRef(passkey.id), name: passkey.name }))
            .sort((a, b) => a.passkey.localeCompare(b.passkey)),
          sessionsEnded: sessions.length,
          rolesKept:
            grant?.state === 'pending' ? roles.filter((role) => !approving.includes(role)) : roles,
          ...(grant
            ? { grant: grant.id, rolesWaiting: grant.state === 'pending' ? approving : [] }
            : {}),
          linkExpires: expiresAt.toISOString(),
        },
      },
      now,
      tx,
    )
    return {
      decision,
      link: { token, expiresAt },
      waiting: grant?.state === 'pending' ? approving : [],
    }
  })
}

/**
 * Takes a reset link up (once) with the new passkey its ceremony checked: the passkey is
 * stored for the same person, who keeps their name, roles and history (`passkey-add`, via the
 * reset link). Refused when the link was replaced, used or expired, or the person's access was
 * taken away since.
 */
export async function acceptReset(
  database: Database,
  token: string,
  passkey: NewPasskey,
  now: Date = new Date(),
): Promise<Person> {
  return database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [PEOPLE_LOCK])
    const [link] = await tx.query<{
      email: string
      used_at: unknown
      replaced_at: unknown
      expires_at: Date | string
      reset: boolean
    }>(
      'SELECT email, used_at, replaced_at, expires_at, reset FROM invitations WHERE token_hash = $1',
      [hashToken(token)],
    )
    if (link?.replaced_at != null) throw new InvitationReplacedError()
    if (!link?.reset || link.used_at !== null || new Date(link.expires_at) <= now) {
      throw new PeopleError('reset-used')
    }
    if (passkey.email !== link.email) {
      throw new PeopleError('passkey-someone-else')
    }
    const [row] = await tx.query<PersonRow>(
      `SELECT email, name, roles, language FROM people
       WHERE email = $1 AND disabled_at IS NULL FOR UPDATE`,
      [link.email],
    )
    if (!row) throw new PeopleError('no-access-any-more', { email: link.email })
    await tx.query('UPDATE invitations SET used_at = $2 WHERE token_hash = $1', [
      hashToken(token),
      now.toISOString(),
    ])
    await storeAndRecordPasskey(tx, passkey, { name: null, via: 'reset link' }, now)
    return toPerson(row)
  })
}
