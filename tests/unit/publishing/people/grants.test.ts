/**
 * The rules of role grants under four eyes (`people/grants.ts`): which roles take a second
 * administrator, when a grant waits, who may confirm or refuse it, and what a refused
 * administrator reads, in their editor's language.
 */
import { describe, expect, it } from 'vitest'
import {
  approvingRoles,
  type Grant,
  grantAwaitsConfirmation,
  grantNeedsConfirmation,
  mayConfirmGrant,
  mayRefuseGrant,
  rolesGranted,
} from '../../../../src/publishing/people/grants'
import { ada, person } from '../../../support/people'

const anna = person('anna@bank.example', ['administrator'])
const bob = person('bob@bank.example', ['administrator'])
const carl = person('carl@bank.example', ['administrator'], 'de')

/** Anna's grant of the reviewer's role to Rita, waiting. */
const grant = (changes: Partial<Grant> = {}): Grant => ({
  id: 7,
  email: 'rita@bank.example',
  roles: ['reviewer'],
  proposedBy: anna.email,
  proposedAt: '2026-11-26T09:00:00Z',
  via: 'role-change',
  state: 'pending',
  confirmedBy: null,
  live: true,
  ...changes,
})

describe('which grants wait for a second administrator', () => {
  it('counts the reviewer’s, publisher’s and administrator’s roles as approving, not the author’s', () => {
    expect(approvingRoles(['author', 'administrator', 'reviewer'])).toEqual([
      'reviewer',
      'administrator',
    ])
    expect(rolesGranted(['author', 'reviewer'], ['reviewer', 'publisher', 'author'])).toEqual([
      'publisher',
    ])
    expect(rolesGranted(['reviewer', 'publisher'], ['author'])).toEqual([])
  })

  it('makes an approving role wait while two or more administrators can sign in', () => {
    const table: [Parameters<typeof grantNeedsConfirmation>, boolean][] = [
      [[['reviewer'], 2], true],
      [[['publisher'], 3], true],
      [[['administrator'], 2], true],
      [[['reviewer'], 1], false],
      [[['administrator'], 0], false],
      [[['author'], 5], false],
      [[[], 5], false],
    ]
    for (const [args, waits] of table)
      expect(grantNeedsConfirmation(...args), `${args}`).toBe(waits)
  })

  it('waits for a word while pending or in effect unconfirmed, and while it concerns someone', () => {
    expect(grantAwaitsConfirmation(grant())).toBe(true)
    expect(grantAwaitsConfirmation(grant({ state: 'granted' }))).toBe(true)
    expect(grantAwaitsConfirmation(grant({ state: 'granted', confirmedBy: bob.email }))).toBe(false)
    for (const state of ['refused', 'withdrawn', 'replaced'] as const) {
      expect(grantAwaitsConfirmation(grant({ state })), state).toBe(false)
    }
    expect(grantAwaitsConfirmation(grant({ live: false }))).toBe(false)
  })
})

describe('who may confirm or refuse a grant', () => {
  it('lets an administrator confirm who neither proposed it nor is the person it is for', () => {
    expect(mayConfirmGrant(bob, grant())).toEqual({ allowed: true })
    expect(mayConfirmGrant(bob, grant({ state: 'granted' }))).toEqual({ allowed: true })
    expect(mayConfirmGrant(anna, grant())).toMatchObject({
      allowed: false,
      code: 'own-grant',
      reason:
        'You proposed this grant, so you may not confirm it: another administrator must (four-eyes principle).',
    })
    expect(mayConfirmGrant(bob, grant({ email: bob.email }))).toMatchObject({
      allowed: false,
      code: 'grant-for-self',
    })
    expect(mayConfirmGrant(ada, grant())).toMatchObject({ allowed: false, code: 'role' })
  })

  it('confirms nothing closed, moot or confirmed already', () => {
    for (const changes of [
      { state: 'refused' as const },
      { state: 'replaced' as const },
      { live: false },
      { state: 'granted' as const, confirmedBy: carl.email },
    ]) {
      expect(mayConfirmGrant(bob, grant(changes)), JSON.stringify(changes)).toMatchObject({
        allowed: false,
        code: 'grant-closed',
      })
    }
  })

  it('lets any administrator refuse a grant that waits, the person it is for and its proposer too', () => {
    expect(mayRefuseGrant(bob, grant())).toEqual({ allowed: true })
    expect(mayRefuseGrant(anna, grant())).toEqual({ allowed: true })
    expect(mayRefuseGrant(bob, grant({ email: bob.email, state: 'granted' }))).toEqual({
      allowed: true,
    })
    expect(mayRefuseGrant(bob, grant({ state: 'withdrawn' }))).toMatchObject({
      code: 'grant-closed',
    })
    expect(mayRefuseGrant(ada, grant())).toMatchObject({ code: 'role' })
  })

  it('speaks German to an administrator who chose it', () => {
    expect(mayConfirmGrant(carl, grant({ proposedBy: carl.email }))).toMatchObject({
      reason:
        'Sie haben diese Rechtevergabe vorgeschlagen und dürfen sie deshalb nicht bestätigen: Das muss eine andere Administratorin oder ein anderer Administrator tun (Vier-Augen-Prinzip).',
    })
    expect(mayConfirmGrant(carl, grant({ email: carl.email }))).toMatchObject({
      code: 'grant-for-self',
      reason: expect.stringMatching(/^Diese Rechtevergabe gilt Ihnen selbst/),
    })
  })
})
