/**
 * Role grants under four eyes: the rules for giving someone a role that approves, publishes or
 * manages people, as pure functions of the people involved and the grant, beside the
 * workflow's (`../workflow/four-eyes.ts`) and in their style. `people.ts` asks them inside the
 * transaction that records the grant; the people page asks them what to offer.
 *
 * - The reviewer's, publisher's and administrator's roles are *approving* roles: whoever holds
 *   one can let content go live or give roles. Giving one (by invitation or by a change of
 *   roles) is a grant.
 * - While two or more administrators can sign in, a grant waits (pending) until another
 *   administrator confirms it: not the one who proposed it, not the person it is for. Until
 *   then the person does not have the role.
 * - With only one administrator there is nobody to confirm: the grant takes effect at once,
 *   marked unconfirmed in the trail and on the people page, and counted by the metrics (an
 *   alert fires) until a second administrator confirms or refuses it.
 * - Taking roles away needs nobody's confirmation: it takes effect at once.
 */

import { type Decision, mayManagePeople } from '../workflow/four-eyes'
import type { EditorLanguage, Person, Role } from './roles'

/** The roles whose grant takes a second administrator: each lets content go live or gives roles. */
export const APPROVING_ROLES: readonly Role[] = ['reviewer', 'publisher', 'administrator']

/** What became of a grant. */
export type GrantState =
  /** Waits for a second administrator; the person does not have its roles. */
  | 'pending'
  /** In effect: confirmed by a second administrator, or unconfirmed (one administrator). */
  | 'granted'
  /** Refused by another administrator: the roles were never given, or were taken back. */
  | 'refused'
  /** Withdrawn by the one who proposed it, or lapsed (the person's access or roles taken away). */
  | 'withdrawn'
  /** A newer decision on the same person's roles (a new invitation, a change) took its place. */
  | 'replaced'

/** A grant as the rules see it. */
export interface Grant {
  id: number
  /** Whom it is for. */
  email: string
  /** The approving roles it gives. */
  roles: readonly Role[]
  proposedBy: string
  proposedAt: string
  via: 'invitation' | 'role-change' | 'reset'
  state: GrantState
  /** The administrator who confirmed it; `null` while it waits or took effect unconfirmed. */
  confirmedBy: string | null
  /**
   * Whether it still concerns someone: its person can sign in, or its invitation can still be
   * taken up. A grant for someone whose access was taken away, or whose link expired, is moot.
   */
  live: boolean
}

export type GrantRefusalCode = 'grant-closed' | 'own-grant' | 'grant-for-self'

/** A decision on a grant: the workflow's refusals (the administrator's role) or a grant's own. */
export type GrantDecision = Decision | { allowed: false; reason: string; code: GrantRefusalCode }

const MESSAGES: Record<EditorLanguage, Record<GrantRefusalCode, () => string>> = {
  en: {
    'grant-closed': () =>
      'This grant is no longer open: it was confirmed, refused, withdrawn or replaced since, or its person’s access or invitation has ended.',
    'own-grant': () =>
      'You proposed this grant, so you may not confirm it: another administrator must (four-eyes principle).',
    'grant-for-self': () =>
      'This grant is for you, so you may not confirm it: another administrator must (four-eyes principle).',
  },
  de: {
    'grant-closed': () =>
      'Diese Rechtevergabe ist nicht mehr offen: Sie wurde seither bestätigt, abgelehnt, zurückgezogen oder ersetzt, oder der Zugang oder die Einladung der Person ist beendet.',
    'own-grant': () =>
      'Sie haben diese Rechtevergabe vorgeschlagen und dürfen sie deshalb nicht bestätigen: Das muss eine andere Administratorin oder ein anderer Administrator tun (Vier-Augen-Prinzip).',
    'grant-for-self': () =>
      'Diese Rechtevergabe gilt Ihnen selbst, deshalb dürfen Sie sie nicht bestätigen: Das muss eine andere Administratorin oder ein anderer Administrator tun (Vier-Augen-Prinzip).',
  },
}

const refuse = (person: Person, code: GrantRefusalCode): GrantDecision => ({
  allowed: false,
  code,
  reason: MESSAGES[person.language][code](),
})

const allowed: GrantDecision = { allowed: true }

/** The approving roles among `roles`, in the order of `APPROVING_ROLES`. */
export const approvingRoles = (roles: readonly Role[]): Role[] =>
  APPROVING_ROLES.filter((role) => roles.includes(role))

/** What a decision giving `after` to someone holding `before` grants: approving roles they lack. */
export const rolesGranted = (before: readonly Role[], after: readonly Role[]): Role[] =>
  approvingRoles(after).filter((role) => !before.includes(role))

/**
 * Whether giving `roles` waits for a second administrator: it does when they include an
 * approving role and two or more administrators can sign in (`administrators`, counted before
 * the grant). With one, nobody else could confirm: it takes effect, unconfirmed.
 */
export function grantNeedsConfirmation(roles: readonly Role[], administrators: number): boolean {
  return approvingRoles(roles).length > 0 && administrators >= 2
}

/** Whether a grant still waits for a second administrator's word (pending, or unconfirmed). */
export const grantAwaitsConfirmation = (grant: Grant): boolean =>
  grant.live &&
  (grant.state === 'pending' || (grant.state === 'granted' && grant.confirmedBy === null))

/**
 * Confirming a grant: an administrator who neither proposed it nor is the person it is for,
 * while it waits (pending, or in effect unconfirmed) and still concerns someone.
 */
export function mayConfirmGrant(person: Person, grant: Grant): GrantDecision {
  const role = mayManagePeople(person)
  if (!role.allowed) return role
  if (!grantAwaitsConfirmation(grant)) return refuse(person, 'grant-closed')
  if (grant.proposedBy === person.email) return refuse(person, 'own-grant')
  if (grant.email === person.email) return refuse(person, 'grant-for-self')
  return allowed
}

/**
 * Refusing a grant (or, by the one who proposed it, withdrawing it): any administrator, while
 * it waits; one in effect unconfirmed loses its roles. Taking roles away is always safe, so the
 * person it is for may refuse it too.
 */
export function mayRefuseGrant(person: Person, grant: Grant): GrantDecision {
  const role = mayManagePeople(person)
  if (!role.allowed) return role
  if (!grantAwaitsConfirmation(grant)) return refuse(person, 'grant-closed')
  return allowed
}
