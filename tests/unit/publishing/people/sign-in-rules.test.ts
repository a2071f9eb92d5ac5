/** The rules of a person's own sign-in and of an administrator's reset, as pure functions. */
import { describe, expect, it } from 'vitest'
import {
  mayAddPasskey,
  mayEndSessions,
  mayRemovePasskey,
  mayResetSignIn,
  RECENT_SIGN_IN_MS,
} from '../../../../src/publishing/people/sign-in-rules'
import { ada, person } from '../../../support/people'

const anna = person('anna@bank.example', ['administrator'])
const bob = person('bob@bank.example', ['administrator'], 'de')
const code = (decision: { allowed: boolean; code?: string }) =>
  decision.allowed ? 'allowed' : decision.code

describe('sign-in rules', () => {
  it('adds a passkey within RECENT_SIGN_IN_MS of signing in only', () => {
    const now = new Date('2026-12-01T10:00:00Z')
    const at = (ms: number) => new Date(now.getTime() - ms)
    expect(code(mayAddPasskey(ada, at(RECENT_SIGN_IN_MS), now))).toBe('allowed')
    expect(code(mayAddPasskey(ada, at(RECENT_SIGN_IN_MS + 1), now))).toBe('not-recent')
  })

  it.each([
    [ada, 2, false, 0, 'allowed'],
    [ada, 1, false, 0, 'last-passkey'],
    [ada, 1, true, 0, 'allowed'],
    [anna, 2, false, 0, 'allowed'],
    [anna, 1, true, 0, 'last-administrator'],
    [anna, 1, false, 1, 'last-passkey'],
    [anna, 1, true, 1, 'allowed'],
  ] as const)(
    'removing: %o with %i passkeys, confirmed %s, %i other administrators: %s',
    (who, passkeys, confirmedLast, otherAdministrators, expected) => {
      expect(code(mayRemovePasskey(who, { passkeys, confirmedLast, otherAdministrators }))).toBe(
        expected,
      )
    },
  )

  it.each([
    [ada, 'rita@bank.example', false, 1, 'role'],
    [anna, 'anna@bank.example', false, 1, 'own-reset'],
    [anna, 'ada@bank.example', true, 1, 'no-access'],
    [anna, 'bob@bank.example', false, 0, 'last-administrator'],
    [anna, 'ada@bank.example', false, 1, 'allowed'],
  ] as const)(
    'resetting: %o resets %s (disabled %s, %i other administrators): %s',
    (who, email, disabled, others, expected) => {
      expect(code(mayResetSignIn(who, { email, disabled }, others))).toBe(expected)
    },
  )

  it('ends one’s own sessions, and anyone’s as an administrator', () => {
    expect(code(mayEndSessions(ada, ada.email))).toBe('allowed')
    expect(code(mayEndSessions(ada, anna.email))).toBe('role')
    expect(code(mayEndSessions(bob, ada.email))).toBe('allowed')
  })

  it('says why in the person’s language', () => {
    const refused = mayResetSignIn(bob, { email: bob.email, disabled: false }, 1)
    expect(refused.allowed ? '' : refused.reason).toMatch(/^Ihre eigene Anmeldung/)
  })
})
