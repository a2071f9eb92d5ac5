/**
 * What the people page shows an administrator, as data: each person with the roles they have,
 * those given unconfirmed and those waiting for a second administrator, and each grant that
 * waits with what the viewer may do about it (the rules of `people/grants.ts`). The page's
 * markup (`people.tsx`, `peoplePage`) only renders this, so another renderer can take it over.
 */
import {
  type GrantDecision,
  grantAwaitsConfirmation,
  mayConfirmGrant,
  mayRefuseGrant,
} from '../people/grants'
import type { listPeople, WaitingGrant } from '../people/people'
import type { Person, Role } from '../people/roles'

export interface PersonRowView {
  email: string
  name: string
  /** The roles they have now (what the rules see). */
  roles: readonly Role[]
  /** Of those, the ones given by one administrator alone, not confirmed yet. */
  unconfirmed: readonly Role[]
  /** Roles granted to them that wait for a second administrator: not theirs yet. */
  pending: readonly Role[]
  disabled: boolean
  /** How many passkeys they have; `null` while the identity provider signs people in. */
  passkeys: number | null
  /** Whether the viewer is offered to reset their sign-in (`mayResetSignIn` decides). */
  resettable: boolean
}

export interface GrantView {
  id: number
  email: string
  /** The person's name, once they exist (an invitation not taken up yet has none). */
  name: string | null
  roles: readonly Role[]
  proposedBy: string
  proposedAt: string
  via: WaitingGrant['via']
  awaiting: WaitingGrant['awaiting']
  /** Whether the viewer may confirm it, and why not. */
  confirm: GrantDecision
  /** Whether the viewer may refuse it (`withdraw`: as the one who proposed it). */
  refuse: GrantDecision
  withdraw: boolean
  /** Whether an administrator could confirm it now, neither its proposer nor its person. */
  confirmable: boolean
}

export interface PeopleView {
  people: PersonRowView[]
  grants: GrantView[]
  /** How many grants are in effect without a second administrator's confirmation. */
  unconfirmed: number
}

/** The people page's data for `viewer`, from the people and the grants that wait. */
export function peopleView(
  viewer: Person,
  people: Awaited<ReturnType<typeof listPeople>>,
  grants: readonly WaitingGrant[],
  /** Each person's passkeys, counted; none while the identity provider signs people in. */
  passkeys?: ReadonlyMap<string, number>,
): PeopleView {
  const waiting = grants.filter(grantAwaitsConfirmation)
  const administrators = people.filter(
    (someone) => !someone.disabled && someone.roles.includes('administrator'),
  )
  const of = (email: string, awaiting: WaitingGrant['awaiting']) =>
    waiting
      .filter((grant) => grant.email === email && grant.awaiting === awaiting)
      .flatMap((grant) => grant.roles)
  return {
    people: people.map((someone) => ({
      email: someone.email,
      name: someone.name,
      roles: someone.roles,
      unconfirmed: of(someone.email, 'unconfirmed').filter((role) => someone.roles.includes(role)),
      pending: of(someone.email, 'pending'),
      disabled: someone.disabled,
      passkeys: passkeys ? (passkeys.get(someone.email) ?? 0) : null,
      resettable: passkeys !== undefined && !someone.disabled && someone.email !== viewer.email,
    })),
    grants: waiting.map((grant) => ({
      id: grant.id,
      email: grant.email,
      name: people.find((someone) => someone.email === grant.email)?.name ?? null,
      roles: grant.roles,
      proposedBy: grant.proposedBy,
      proposedAt: grant.proposedAt,
      via: grant.via,
      awaiting: grant.awaiting,
      confirm: mayConfirmGrant(viewer, grant),
      refuse: mayRefuseGrant(viewer, grant),
      withdraw: grant.proposedBy === viewer.email,
      confirmable: administrators.some(
        (someone) => someone.email !== grant.proposedBy && someone.email !== grant.email,
      ),
    })),
    unconfirmed: waiting.filter((grant) => grant.awaiting === 'unconfirmed').length,
  }
}
