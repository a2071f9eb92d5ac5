/**
 * Who may change how a person signs in with passkeys: the rules of "Your sign-in" (a person's
 * own passkeys and sessions) and of an administrator's reset, as pure functions beside the
 * workflow's (`../workflow/four-eyes.ts`) and the grants' (`grants.ts`), in their style.
 * `sign-in-keys.ts` and `resets.ts` ask them inside the transaction that records the outcome.
 *
 * - A person manages their own passkeys only: the service looks a passkey up among theirs.
 * - Adding a passkey with a session needs a recent sign-in (`RECENT_SIGN_IN_MS`): a session
 *   taken over (a browser left open) must not plant a lasting way in.
 * - The last passkey is removed only when its person confirms that they will need an
 *   administrator's reset to sign in again once their sessions end: a passkey on a stolen
 *   phone must be revocable at once, and nobody is locked out by a slip of the mouse.
 * - The service never ends up with no administrator able to sign in: neither the last
 *   administrator's last passkey nor a reset of the only other one is allowed, as
 *   `npm run cms -- first-administrator` helps only while nobody exists at all.
 * - An administrator resets someone else's sign-in, never their own: a session alone (perhaps
 *   not theirs) would otherwise swap the account's passkeys for a link it holds.
 * - Ending sessions: one's own at any time; anyone's, by an administrator.
 */
import { type Decision, mayManagePeople } from '../workflow/four-eyes'
import type { EditorLanguage, Person } from './roles'

/** How recently a session must have been signed in to add a passkey with it. */
export const RECENT_SIGN_IN_MS = 15 * 60_000
/** The longest name of a passkey. */
export const PASSKEY_NAME_LENGTH = 60

export type SignInRefusalCode =
  | 'not-recent'
  | 'last-passkey'
  | 'last-administrator'
  | 'own-reset'
  | 'no-access'
  | 'unknown-passkey'
  | 'ceremony-not-yours'

/** A decision on a sign-in: the workflow's refusals (the administrator's role) or its own. */
export type SignInDecision = Decision | { allowed: false; reason: string; code: SignInRefusalCode }

const MESSAGES: Record<EditorLanguage, Record<SignInRefusalCode, string>> = {
  en: {
    'not-recent':
      'To add a passkey, sign out and sign in again first: a passkey is added within 15 minutes of signing in.',
    'last-passkey':
      'This is your only passkey: without it you can sign in again only after an administrator resets your sign-in. Tick the box to confirm, or add another passkey first.',
    'last-administrator':
      'No other administrator could sign in then: add a passkey, or give someone else the administrator’s role, first.',
    'own-reset':
      'You cannot reset your own sign-in: ask another administrator. Add or remove your passkeys on “Your sign-in”.',
    'no-access':
      'This person has no access: invite them again with the roles they should have instead.',
    'unknown-passkey': 'You have no such passkey: it was removed, or is not yours.',
    'ceremony-not-yours': 'This passkey request was made for someone else: start again.',
  },
  de: {
    'not-recent':
      'Um einen Passkey hinzuzufügen, melden Sie sich zuerst ab und wieder an: Ein Passkey wird innerhalb von 15 Minuten nach der Anmeldung hinzugefügt.',
    'last-passkey':
      'Das ist Ihr einziger Passkey: Ohne ihn können Sie sich erst wieder anmelden, nachdem die Administration Ihre Anmeldung zurückgesetzt hat. Bestätigen Sie das mit dem Kästchen, oder fügen Sie zuerst einen weiteren Passkey hinzu.',
    'last-administrator':
      'Dann könnte sich niemand sonst mit Administrationsrechten anmelden: Fügen Sie zuerst einen Passkey hinzu oder geben Sie einer anderen Person die Rolle „Administration“.',
    'own-reset':
      'Ihre eigene Anmeldung können Sie nicht zurücksetzen: Bitten Sie eine andere Administratorin oder einen anderen Administrator darum. Ihre Passkeys fügen Sie unter „Ihre Anmeldung“ hinzu oder entfernen sie dort.',
    'no-access':
      'Diese Person hat keinen Zugang: Laden Sie sie stattdessen mit den Rollen, die sie haben soll, erneut ein.',
    'unknown-passkey':
      'Einen solchen Passkey haben Sie nicht: Er wurde entfernt oder gehört nicht Ihnen.',
    'ceremony-not-yours':
      'Diese Passkey-Anfrage wurde für eine andere Person gestellt: Beginnen Sie von vorn.',
  },
}

const refuse = (person: Person, code: SignInRefusalCode): SignInDecision => ({
  allowed: false,
  code,
  reason: MESSAGES[person.language][code],
})

const allowed: SignInDecision = { allowed: true }

/** A refusal by its code, in the person's language: for what is found only in the database. */
export const signInRefusal = (person: Person, code: SignInRefusalCode) => refuse(person, code)

/** Adding a passkey with a session: one signed in within `RECENT_SIGN_IN_MS`. */
export function mayAddPasskey(person: Person, sessionStarted: Date, now: Date): SignInDecision {
  return now.getTime() - sessionStarted.getTime() <= RECENT_SIGN_IN_MS
    ? allowed
    : refuse(person, 'not-recent')
}

/**
 * Removing one of one's own passkeys. `passkeys`: how many they have; `confirmedLast`: they
 * ticked that they will need a reset; `otherAdministrators`: administrators other than them
 * who can sign in (not disabled, with a passkey).
 */
export function mayRemovePasskey(
  person: Person,
  state: { passkeys: number; confirmedLast: boolean; otherAdministrators: number },
): SignInDecision {
  if (state.passkeys > 1) return allowed
  if (person.roles.includes('administrator') && state.otherAdministrators === 0) {
    return refuse(person, 'last-administrator')
  }
  return state.confirmedLast ? allowed : refuse(person, 'last-passkey')
}

/**
 * Resetting `target`'s sign-in (their passkeys removed, their sessions ended, a new link): an
 * administrator, for someone else who has access, while another administrator than the target
 * can still sign in (`otherAdministrators`, the target not counted).
 */
export function mayResetSignIn(
  person: Person,
  target: { email: string; disabled: boolean },
  otherAdministrators: number,
): SignInDecision {
  const role = mayManagePeople(person)
  if (!role.allowed) return role
  if (target.email === person.email) return refuse(person, 'own-reset')
  if (target.disabled) return refuse(person, 'no-access')
  if (otherAdministrators === 0) return refuse(person, 'last-administrator')
  return allowed
}

/** Ending every session of `email`: their own, or anyone's by an administrator. */
export function mayEndSessions(person: Person, email: string): SignInDecision {
  return email === person.email ? allowed : mayManagePeople(person)
}
