/**
 * Role grants under four eyes, on the embedded database: one open invitation per address, the
 * roles an invitation gives read from the administrators' decision when it is taken up, a
 * person whose access was taken away coming back with nothing of their old access, and the
 * reviewer's, publisher's and administrator's roles given only once a second administrator
 * confirms (or marked unconfirmed while there is only one). Each thing a review playing a
 * hostile insider found is one test here.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import { readAudit, verifyAudit } from '../../../../src/publishing/audit/trail'
import {
  acceptInvitation,
  confirmGrant,
  disablePerson,
  invitationOf,
  invite,
  listGrants,
  personOf,
  refuseGrant,
  sessionPerson,
  setRoles,
  startSession,
  unconfirmedGrants,
} from '../../../../src/publishing/people/people'
import type { Role } from '../../../../src/publishing/people/roles'
import { mayApprove, mayPublish } from '../../../../src/publishing/workflow/four-eyes'
import { addPeople, person } from '../../../support/people'
import { openPublishingDatabase, type TestDatabase } from '../../../support/publishing'

const T0 = new Date('2026-11-26T09:00:00Z')
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000)

const anna = person('anna@bank.example', ['administrator', 'author'])
const bob = person('bob@bank.example', ['administrator'])
const carl = person('carl@bank.example', ['administrator'])

/** A draft Anna wrote and moved to review, as the rules see it. */
const annasDraft = {
  id: 'pages/about',
  head: 'c1',
  writers: [anna.email],
  submission: { by: anna.email, commit: 'c1', at: T0.toISOString() },
  approval: null,
}

describe('role grants', () => {
  let database: Database
  let opened: TestDatabase

  beforeEach(async () => {
    opened = await openPublishingDatabase({})
    database = opened.database
  })

  afterEach(async () => {
    await opened.close()
  })

  const rolesOf = async (email: string) => (await personOf(database, email))?.roles ?? null
  const trail = async () =>
    (await readAudit(database, { limit: 10_000 })).map(({ actor, action, subject, details }) => ({
      actor,
      action,
      subject,
      details,
    }))

  it('finding 1: a newer invitation replaces the open one, whose link then says so, and it is recorded', async () => {
    await addPeople(database, [anna], T0)
    const first = await invite(
      database,
      { email: 'rita@bank.example', roles: ['author'], by: anna.email },
      T0,
    )
    const second = await invite(
      database,
      { email: 'Rita@Bank.example', roles: ['author', 'reviewer'], by: anna.email },
      later(1),
    )
    // The first link no longer works, and says why; nobody takes the account over with it.
    expect(await invitationOf(database, first.token, later(2))).toBeNull()
    await expect(
      acceptInvitation(database, first.token, { name: 'Rita' }, later(2)),
    ).rejects.toThrow(/replaced by a newer invitation/)
    const rita = await acceptInvitation(database, second.token, { name: 'Rita' }, later(3))
    expect(rita.roles).toEqual(['author', 'reviewer'])
    await expect(
      acceptInvitation(database, first.token, { name: 'Mallory' }, later(4)),
    ).rejects.toThrow(/replaced by a newer invitation/)
    expect(await rolesOf('rita@bank.example')).toEqual(['author', 'reviewer'])
    expect(await trail()).toEqual([
      {
        actor: anna.email,
        action: 'invite',
        subject: 'rita@bank.example',
        details: { roles: ['author'] },
      },
      {
        actor: anna.email,
        action: 'invite-replace',
        subject: 'rita@bank.example',
        details: { invitedBy: anna.email, invitedAt: T0.toISOString(), roles: ['author'] },
      },
      // One administrator: the reviewer's role is given at once, and marked unconfirmed.
      {
        actor: anna.email,
        action: 'grant',
        subject: 'rita@bank.example',
        details: expect.objectContaining({
          roles: ['reviewer'],
          state: 'unconfirmed',
          via: 'invitation',
        }),
      },
      {
        actor: anna.email,
        action: 'invite',
        subject: 'rita@bank.example',
        details: expect.objectContaining({ roles: ['author', 'reviewer'] }),
      },
    ])
    expect(await verifyAudit(database)).toMatchObject({ ok: true })
  })

  it('finding 1: an invitation left open for someone who can sign in adds no way in and no role', async () => {
    await addPeople(database, [anna, person('rita@bank.example', ['author'])], T0)
    // A leftover the service no longer makes (two open links for one address, from before).
    await database.query(
      `INSERT INTO invitations (token_hash, email, roles, invited_by, created_at, expires_at)
       VALUES (encode(sha256('leftover'::bytea), 'hex'), 'rita@bank.example', '{administrator}',
               'anna@bank.example', $1, $2)`,
      [T0.toISOString(), later(60).toISOString()],
    )
    await expect(
      acceptInvitation(database, 'leftover', { name: 'Mallory' }, later(1)),
    ).rejects.toThrow(/can sign in already/)
    expect(await rolesOf('rita@bank.example')).toEqual(['author'])
  })

  it('finding 2: a leftover older invitation does not raise roles an administrator lowered since', async () => {
    await addPeople(database, [anna], T0)
    const older = await invite(
      database,
      { email: 'rita@bank.example', roles: ['author', 'reviewer'], by: anna.email },
      T0,
    )
    const newer = await invite(
      database,
      { email: 'rita@bank.example', roles: ['author', 'reviewer'], by: anna.email },
      later(1),
    )
    await acceptInvitation(database, newer.token, { name: 'Rita' }, later(2))
    await setRoles(database, 'rita@bank.example', ['author'], later(3), anna.email)
    await expect(
      acceptInvitation(database, older.token, { name: 'Rita' }, later(4)),
    ).rejects.toThrow(/replaced by a newer invitation/)
    expect(await rolesOf('rita@bank.example')).toEqual(['author'])
  })

  it('finding 3: someone whose access was taken away comes back with the new invitation’s roles only, no old passkey and no old session', async () => {
    await addPeople(database, [anna, person('paul@bank.example', ['author', 'publisher'])], T0)
    await database.query(
      `INSERT INTO passkeys (id, email, public_key, counter, transports, created_at)
       VALUES ('pauls-old-passkey', 'paul@bank.example', 'AAAA', 0, '{}', $1)`,
      [T0.toISOString()],
    )
    const session = await startSession(database, 'paul@bank.example', T0)
    await disablePerson(database, 'paul@bank.example', later(1), anna.email)
    // The session ended then; one that survived somehow (a restore) must not come back either.
    await database.query('UPDATE sessions SET revoked_at = NULL')
    const again = await invite(
      database,
      { email: 'paul@bank.example', roles: ['author'], by: anna.email },
      later(2),
    )
    const paul = await acceptInvitation(database, again.token, { name: 'Paul' }, later(3))
    expect(paul.roles).toEqual(['author'])
    expect(await rolesOf('paul@bank.example')).toEqual(['author'])
    expect(await database.query('SELECT id FROM passkeys')).toEqual([])
    expect(await sessionPerson(database, session.token, later(4))).toBeNull()
    expect((await trail()).at(-1)).toEqual({
      actor: 'paul@bank.example',
      action: 'role-change',
      subject: 'paul@bank.example',
      details: {
        access: 'restored by invitation',
        roles: ['author'],
        rolesBefore: ['author', 'publisher'],
        passkeysRevoked: ['pauls-old-passkey'],
        sessionsEnded: 1,
      },
    })
  })

  it('finding 4: with two administrators, a second identity invited as reviewer and publisher gets neither until the other administrator confirms', async () => {
    await addPeople(database, [anna, bob], T0)
    const invitation = await invite(
      database,
      { email: 'anna.private@mail.example', roles: ['reviewer', 'publisher'], by: anna.email },
      T0,
    )
    expect(invitation.grant).toMatchObject({ state: 'pending', roles: ['reviewer', 'publisher'] })
    const second = await acceptInvitation(database, invitation.token, { name: 'Anna P.' }, later(1))
    expect(second.roles).toEqual([])
    expect(mayApprove(second, annasDraft)).toMatchObject({ allowed: false, code: 'role' })
    expect(mayPublish(second, annasDraft)).toMatchObject({ allowed: false, code: 'role' })

    const [grant] = await listGrants(database, later(2))
    expect(grant).toMatchObject({
      email: 'anna.private@mail.example',
      roles: ['reviewer', 'publisher'],
      proposedBy: anna.email,
      state: 'pending',
    })
    const id = grant?.id ?? 0
    // Neither the one who proposed it nor the one it is for confirms it.
    expect(await confirmGrant(database, id, anna, later(3))).toMatchObject({
      allowed: false,
      code: 'own-grant',
    })
    expect(
      await confirmGrant(
        database,
        id,
        person('anna.private@mail.example', ['administrator']),
        later(3),
      ),
    ).toMatchObject({ allowed: false, code: 'grant-for-self' })
    expect(await rolesOf('anna.private@mail.example')).toEqual([])
    const refusals = (await trail()).filter((entry) => entry.action === 'refusal')
    expect(refusals.map((entry) => [entry.actor, entry.details.code])).toEqual([
      [anna.email, 'own-grant'],
      ['anna.private@mail.example', 'grant-for-self'],
    ])

    expect(await confirmGrant(database, id, bob, later(4))).toMatchObject({ allowed: true })
    const confirmed = (await personOf(database, 'anna.private@mail.example')) ?? second
    expect([...confirmed.roles].sort()).toEqual(['publisher', 'reviewer'])
    expect(mayApprove(confirmed, annasDraft)).toEqual({ allowed: true })
    expect(await listGrants(database, later(5))).toEqual([])
    expect((await trail()).at(-1)).toMatchObject({
      actor: bob.email,
      action: 'grant-confirm',
      subject: 'anna.private@mail.example',
      details: { grant: id, roles: ['reviewer', 'publisher'], proposedBy: anna.email },
    })
    expect(await verifyAudit(database)).toMatchObject({ ok: true })
  })

  it('finding 4: a role change that gives an approving role waits for the second administrator; taking roles away does not', async () => {
    await addPeople(database, [anna, bob, person('rita@bank.example', ['author'])], T0)
    const session = await startSession(database, 'rita@bank.example', T0)
    const proposed = await setRoles(
      database,
      'rita@bank.example',
      ['author', 'reviewer'],
      later(1),
      anna.email,
    )
    expect(proposed.roles).toEqual(['author'])
    expect(proposed.pending).toEqual(['reviewer'])
    expect(await rolesOf('rita@bank.example')).toEqual(['author'])
    // Only the roles she has count wherever the rules are asked.
    expect((await sessionPerson(database, session.token, later(2)))?.roles ?? []).not.toContain(
      'reviewer',
    )
    const [grant] = await listGrants(database, later(2))
    // Refused: withdrawn by no one but recorded as refused, and she never had the role.
    expect(await refuseGrant(database, grant?.id ?? 0, bob, later(3))).toMatchObject({
      allowed: true,
    })
    expect(await rolesOf('rita@bank.example')).toEqual(['author'])
    expect(await confirmGrant(database, grant?.id ?? 0, carl, later(4))).toMatchObject({
      allowed: false,
      code: 'grant-closed',
    })
    // Taking a role away is at once.
    await setRoles(database, 'rita@bank.example', ['author', 'reviewer'], later(5), anna.email)
    const [again] = await listGrants(database, later(5))
    await confirmGrant(database, again?.id ?? 0, bob, later(6))
    expect(await rolesOf('rita@bank.example')).toEqual(['author', 'reviewer'])
    expect(
      (await setRoles(database, 'rita@bank.example', ['author'], later(7), anna.email)).roles,
    ).toEqual(['author'])
    const actions = (await trail()).map((entry) => entry.action)
    expect(actions).toEqual([
      'role-change',
      'grant',
      'grant-refuse',
      'refusal',
      'role-change',
      'grant',
      'grant-confirm',
      'role-change',
    ])
  })

  it('keeps a pending grant when the same roles are saved again, and replaces it by another decision', async () => {
    await addPeople(database, [anna, bob, person('rita@bank.example', ['author'])], T0)
    const first = await setRoles(
      database,
      'rita@bank.example',
      ['author', 'reviewer'],
      later(1),
      anna.email,
    )
    // Bob saves her roles as the page shows them, the waiting one ticked: the grant stands.
    const again = await setRoles(
      database,
      'rita@bank.example',
      ['author', 'reviewer'],
      later(2),
      bob.email,
    )
    expect(again.grant).toBeUndefined()
    expect(again.pending).toEqual(['reviewer'])
    expect(
      (await listGrants(database, later(2))).map((grant) => [grant.id, grant.proposedBy]),
    ).toEqual([[first.grant?.id, anna.email]])
    // Unticking it is another decision: the grant is replaced, and recorded.
    await setRoles(database, 'rita@bank.example', ['author'], later(3), bob.email)
    expect(await listGrants(database, later(3))).toEqual([])
    expect((await trail()).at(-2)).toMatchObject({
      actor: bob.email,
      action: 'grant-withdraw',
      details: { grant: first.grant?.id, reason: 'replaced by a newer change of roles' },
    })
    expect(await confirmGrant(database, first.grant?.id ?? 0, carl, later(4))).toMatchObject({
      code: 'grant-closed',
    })
    expect(await rolesOf('rita@bank.example')).toEqual(['author'])
  })

  it('gives the role at once while there is one administrator, marked unconfirmed until a second one confirms', async () => {
    await addPeople(database, [anna], T0)
    const invitation = await invite(
      database,
      { email: 'anna.private@mail.example', roles: ['reviewer', 'publisher'], by: anna.email },
      T0,
    )
    expect(invitation.grant).toMatchObject({ state: 'unconfirmed' })
    const second = await acceptInvitation(database, invitation.token, { name: 'A' }, later(1))
    expect([...second.roles].sort()).toEqual(['publisher', 'reviewer'])
    expect(await unconfirmedGrants(database, later(1))).toBe(1)
    // Anna makes Bob an administrator: unconfirmed too (she is the only one).
    await addPeople(database, [person('bob@bank.example', ['author'])], T0)
    await setRoles(database, bob.email, ['administrator'], later(2), anna.email)
    expect(await rolesOf(bob.email)).toEqual(['administrator'])
    expect(await unconfirmedGrants(database, later(2))).toBe(2)
    const grants = await listGrants(database, later(2))
    expect(grants.map((grant) => [grant.email, grant.awaiting])).toEqual([
      ['anna.private@mail.example', 'unconfirmed'],
      [bob.email, 'unconfirmed'],
    ])
    // Bob confirms the earlier grant; his own waits for a third administrator.
    const [earlier, his] = grants
    expect(await confirmGrant(database, earlier?.id ?? 0, bob, later(3))).toEqual({
      allowed: true,
    })
    expect(await confirmGrant(database, his?.id ?? 0, bob, later(3))).toMatchObject({
      code: 'grant-for-self',
    })
    expect(await unconfirmedGrants(database, later(3))).toBe(1)
    // Refusing a grant already in effect takes its roles away.
    await refuseGrant(database, his?.id ?? 0, anna, later(4))
    expect(await rolesOf(bob.email)).toEqual([])
    expect(await unconfirmedGrants(database, later(4))).toBe(0)
  })

  it('counts no grant of an invitation nobody can take up any more, nor one of a person whose access was taken away', async () => {
    await addPeople(database, [anna], T0)
    await invite(
      database,
      { email: 'rita@bank.example', roles: ['reviewer'] as Role[], by: anna.email },
      T0,
    )
    expect(await unconfirmedGrants(database, later(1))).toBe(1)
    expect(await unconfirmedGrants(database, later(73 * 60))).toBe(0)
    const paul = await invite(
      database,
      { email: 'paul@bank.example', roles: ['publisher'], by: anna.email },
      T0,
    )
    await acceptInvitation(database, paul.token, { name: 'Paul' }, later(1))
    expect(await unconfirmedGrants(database, later(2))).toBe(2)
    await disablePerson(database, 'paul@bank.example', later(3), anna.email)
    expect(await unconfirmedGrants(database, later(4))).toBe(1)
  })
})
