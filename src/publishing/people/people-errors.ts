/**
 * What the service says when a request about people cannot be done (an address that is none,
 * an invitation used already, the last administrator): one sentence per case, in English and
 * German, so that a German screen shows German. The English one is the error's message, for the
 * command line and the logs; a screen shows `PeopleError.in(language)`.
 */
import { ROLE_NAMES } from '../workflow/four-eyes'
import { type EditorLanguage, ROLES, type Role } from './roles'

type Params = Record<string, string>

const roleNames = (language: EditorLanguage, roles: readonly string[]) =>
  roles.map((role) => ROLE_NAMES[language][role as Role] ?? role).join(', ')

const EN = {
  'not-email': ({ email }: Params) => `Not an e-mail address: ${email}.`,
  'unknown-roles': ({ roles }: Params) =>
    `Unknown roles: ${roles} (known: ${roleNames('en', ROLES)}).`,
  'no-role': () => 'A person needs at least one role: tick one.',
  'can-sign-in': ({ email }: Params) =>
    `${email} can sign in already: change their roles instead, or reset their sign-in if they lost their passkey.`,
  'name-length': () => 'Your name, please (1 to 200 characters).',
  'invitation-used': () =>
    'This invitation link was used already or has expired: ask an administrator for a new one.',
  'invitation-replaced': () =>
    'This invitation link was replaced by a newer invitation for the same address: use the newest link you were sent, or ask an administrator for one.',
  'reset-adds-no-one': () => 'This link resets a sign-in: it adds no person.',
  'invitation-adds-no-way-in': ({ email }: Params) =>
    `${email} can sign in already: an invitation adds no way in to an account; ask an administrator.`,
  'not-stored': () => 'The person could not be stored: try again.',
  'provider-address': ({ email, before }: Params) =>
    `The identity provider now gives this account the address ${email}, but it signed in as ${before} before: ask an administrator.`,
  'provider-other-account': ({ email }: Params) =>
    `${email} belongs to another account of the identity provider: ask an administrator.`,
  'unknown-person': ({ email }: Params) => `No one is registered as ${email}.`,
  'no-access': ({ email }: Params) =>
    `${email} has no access: invite them again with the roles they should have.`,
  'last-administrator': () =>
    'Someone else must be an administrator before this person stops being one.',
  'own-access': () => 'You cannot take your own access away: ask another administrator.',
  'unknown-grant': ({ id }: Params) => `There is no change of roles ${id}.`,
  'reset-used': () =>
    'This link was used already or has expired: ask an administrator for a new one.',
  'passkey-someone-else': () => 'This passkey was made for someone else: start again.',
  'no-access-any-more': ({ email }: Params) =>
    `${email} has no access any more: ask an administrator.`,
  'passkey-name-length': ({ max }: Params) => `A passkey's name has 1 to ${max} characters.`,
}

const DE: Record<keyof typeof EN, (params: Params) => string> = {
  'not-email': ({ email }: Params) => `Keine E-Mail-Adresse: ${email}.`,
  'unknown-roles': ({ roles }: Params) =>
    `Unbekannte Rollen: ${roles} (bekannt: ${roleNames('de', ROLES)}).`,
  'no-role': () => 'Eine Person braucht mindestens eine Rolle: Kreuzen Sie eine an.',
  'can-sign-in': ({ email }: Params) =>
    `${email} kann sich schon anmelden: Ändern Sie stattdessen die Rollen, oder setzen Sie die Anmeldung zurück, falls der Passkey verloren ist.`,
  'name-length': () => 'Bitte Ihren Namen (1 bis 200 Zeichen).',
  'invitation-used': () =>
    'Dieser Einladungslink wurde schon verwendet oder ist abgelaufen: Bitten Sie die Administration um einen neuen.',
  'invitation-replaced': () =>
    'Dieser Einladungslink wurde durch eine neuere Einladung für dieselbe Adresse ersetzt: Verwenden Sie den neuesten Link, den Sie erhalten haben, oder bitten Sie die Administration um einen.',
  'reset-adds-no-one': () => 'Dieser Link setzt eine Anmeldung zurück: Er fügt keine Person hinzu.',
  'invitation-adds-no-way-in': ({ email }: Params) =>
    `${email} kann sich schon anmelden: Eine Einladung gibt keinem Konto einen weiteren Zugang; fragen Sie die Administration.`,
  'not-stored': () => 'Die Person konnte nicht gespeichert werden: Versuchen Sie es erneut.',
  'provider-address': ({ email, before }: Params) =>
    `Der Identitätsanbieter gibt diesem Konto jetzt die Adresse ${email}, es hat sich zuvor aber als ${before} angemeldet: Fragen Sie die Administration.`,
  'provider-other-account': ({ email }: Params) =>
    `${email} gehört zu einem anderen Konto des Identitätsanbieters: Fragen Sie die Administration.`,
  'unknown-person': ({ email }: Params) => `Niemand ist als ${email} registriert.`,
  'no-access': ({ email }: Params) =>
    `${email} hat keinen Zugang: Laden Sie die Person erneut ein, mit den Rollen, die sie haben soll.`,
  'last-administrator': () =>
    'Eine andere Person muss die Rolle „Administration“ haben, bevor diese Person sie abgibt.',
  'own-access': () =>
    'Ihren eigenen Zugang können Sie nicht entziehen: Bitten Sie eine andere Person der Administration darum.',
  'unknown-grant': ({ id }: Params) => `Es gibt keine Rollenänderung ${id}.`,
  'reset-used': () =>
    'Dieser Link wurde schon verwendet oder ist abgelaufen: Bitten Sie die Administration um einen neuen.',
  'passkey-someone-else': () =>
    'Dieser Passkey wurde für eine andere Person erstellt: Beginnen Sie neu.',
  'no-access-any-more': ({ email }: Params) =>
    `${email} hat keinen Zugang mehr: Fragen Sie die Administration.`,
  'passkey-name-length': ({ max }: Params) => `Der Name eines Passkeys hat 1 bis ${max} Zeichen.`,
}

const MESSAGES: Record<EditorLanguage, typeof DE> = { en: EN, de: DE }

export type PeopleErrorCode = keyof typeof EN

/** Every case the service says. */
export const PEOPLE_ERROR_CODES = Object.keys(EN) as PeopleErrorCode[]

/** A request about people the service cannot do, and why, in either language. */
export class PeopleError extends Error {
  override readonly name: string = 'PeopleError'
  readonly code: PeopleErrorCode
  readonly params: Params

  constructor(code: PeopleErrorCode, params: Params = {}) {
    super(MESSAGES.en[code](params))
    this.code = code
    this.params = params
  }

  /** The sentence in `language`, for the screen of a person who reads it. */
  in(language: EditorLanguage): string {
    return MESSAGES[language][this.code](this.params)
  }
}

/** An invitation link a newer invitation for the same address replaced. */
export class InvitationReplacedError extends PeopleError {
  constructor() {
    super('invitation-replaced')
  }
}
