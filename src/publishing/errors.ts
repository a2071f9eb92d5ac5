/**
 * Every refusal the publishing service words itself, by code: the HTTP status it is answered
 * with and what a person is told, in English and German, in one table (`ERRORS`). An error of
 * the service is a `PublishingError` with a code and the facts its sentences name; the routes
 * and the editor answer it from this table (`http/error-answers.ts`), and nothing recognises an
 * error by the text of its message.
 *
 * The English sentence is the error's message, for the command line and the logs, unless the
 * row says otherwise (`log`: a build's own output, a branch's name). Refusals of requests no
 * screen sends (a malformed draft id or path) are the protocol's: a German reader gets their
 * English words quoted in a German sentence. The rules' refusals come worded in the person's
 * language already (`./workflow/four-eyes.ts`), and are said as they come.
 */
import { CMS_TEXTS, problemsIn } from '../cms/messages'
import type { ContentProblem } from '../content/errors'
import { type EditorLanguage, ROLES, type Role } from './people/roles'
import { ROLE_NAMES } from './workflow/four-eyes'

type Say<P> = (params: P) => string

/** One code's row: its status and sentences. */
interface Row<P> {
  status: number
  en: Say<P>
  de: Say<P>
  /** What the logs read, where it is not the English sentence. */
  log?: Say<P>
  /** Worded in the person's language already (a rule's reason): the same in both columns. */
  worded?: true
}

const row = <P = undefined>(cells: Row<P>): Row<P> => cells

/** English words the service has no German of, in a German sentence. */
export const quotedEnglish = (english: string) => `Der Dienst meldet auf Englisch: „${english}“`

/** A refusal of the protocol (a request no screen sends): its English, quoted in German. */
const protocol = <P = undefined>(status: number, en: Say<P>): Row<P> =>
  row({ status, en, de: (params) => quotedEnglish(en(params)) })

/** A rule's refusal: its reason, in the language the rules said it in. */
const rules = (status: number) =>
  row({
    status,
    en: ({ reason }: { reason: string }) => reason,
    de: ({ reason }) => reason,
    worded: true,
  })

/** A file of the repository that is no regular file. */
export interface SpecialEntry {
  path: string
  mode: string
}

/** What an entry of `mode` is, in the words of a refusal. */
export function kindOfMode(mode: string): string {
  if (mode === '120000') return 'a symbolic link'
  if (mode === '160000') return 'a submodule'
  return `a file of mode ${mode}`
}

/** At most this many special entries are named in a refusal; the rest are counted. */
const NAMED_ENTRIES = 5

interface SpecialEntries {
  /** What holds them, as the sentence begins: `the remote's main`, `the draft`. */
  holder: string
  entries: readonly SpecialEntry[]
  /** What to do, as the sentence ends: `remove it on the remote`. */
  advice: string
}

const specialEntries = row({
  status: 422,
  en: ({ holder, entries, advice }: SpecialEntries) => {
    const named = entries
      .slice(0, NAMED_ENTRIES)
      .map((entry) => `${entry.path} (${kindOfMode(entry.mode)})`)
    const more = entries.length > NAMED_ENTRIES ? ` and ${entries.length - NAMED_ENTRIES} more` : ''
    return `${holder} holds ${named.join(', ')}${more}: the service takes regular files only, no symbolic links or submodules${advice ? `; ${advice}` : ''}`
  },
  de: ({ entries }) =>
    `${entries.map((entry) => entry.path).join(', ')}: Der Dienst nimmt nur gewöhnliche Dateien an, keine symbolischen Links oder Submodule. Bitte wenden Sie sich an die Entwicklung.`,
})

const notBuilt = {
  en: (details: string) => `The site did not build, so nothing was published. ${details}`,
  de: (details: string) =>
    `Die Website wurde nicht gebaut, deshalb wurde nichts veröffentlicht. ${details}`,
}

const noDraft = {
  en: ({ id }: { id: string }) => `there is no draft ${id}`,
  de: ({ id }: { id: string }) =>
    `Einen Entwurf von ${id} gibt es nicht (mehr): Er wurde veröffentlicht oder verworfen.`,
}

/** Drafts, their rules and their previews (`workflow/drafts.ts`, `workflow/previews.ts`). */
const DRAFTS = {
  refused: rules(403),
  /** Refused as made on a version that is gone, or on a file another draft holds. */
  'refused-conflict': rules(409),
  'no-draft': row({ status: 404, ...noDraft }),
  'draft-conflict': row({
    status: 409,
    en: ({ id, files }: { id: string; files: readonly string[] }) =>
      `${id} no longer merges: ${files.join(', ')} changed on the live site since the draft began. Open the entry and save it again: it then starts from the live site, with the live site's changes to fields the draft left alone; where both changed a field, the draft's text is kept and a note on the draft names the field.`,
    de: ({ id, files }) =>
      `${id} lässt sich nicht mehr mit der veröffentlichten Website zusammenführen: ${files.join(', ')} wurde dort geändert, seit der Entwurf begann. Öffnen Sie den Eintrag und speichern Sie ihn erneut: Er beginnt dann bei der veröffentlichten Website, mit deren Änderungen an Feldern, die der Entwurf nicht berührt hat; wo beide ein Feld geändert haben, bleibt der Text des Entwurfs, und ein Kommentar am Entwurf nennt das Feld.`,
  }),
  'not-draft-id': protocol(
    400,
    ({ id }: { id: string }) =>
      `not a draft id: ${JSON.stringify(id)} (expected <collection>/<slug>)`,
  ),
  'not-draft-status': protocol(
    400,
    ({ status, expected }: { status: string; expected: string }) =>
      `not a draft status: ${JSON.stringify(status)} (expected ${expected})`,
  ),
  'comment-length': row({
    status: 422,
    en: () => 'a comment of 1 to 5,000 characters, please',
    de: () => 'Bitte schreiben Sie einen Kommentar mit 1 bis 5.000 Zeichen.',
  }),
  'preview-timeout': row({
    status: 503,
    en: ({ id, seconds }: { id: string; seconds: number }) =>
      `The preview of ${id} is not ready after ${seconds} s: it is still being built. Open it again in a minute; if it stays slow, look at the draft's drawings and images.`,
    de: ({ id, seconds }) =>
      `Die Vorschau von ${id} ist nach ${seconds} s nicht fertig: Sie wird noch gebaut. Öffnen Sie sie in einer Minute erneut; bleibt sie langsam, sehen Sie sich die Zeichnungen und Bilder des Entwurfs an.`,
  }),
  'preview-not-built': row({
    status: 422,
    log: ({ details }: { details: string }) => details,
    en: ({ details }) => `The site does not build with this draft. ${details}`,
    de: ({ details }) =>
      `Die Website lässt sich mit diesem Entwurf nicht bauen. ${quotedEnglish(details)}`,
  }),
}

/** Publications, releases and rollbacks (`publication/`). */
const PUBLICATIONS = {
  'not-built': row({
    status: 422,
    log: ({ details }: { details: string }) => details,
    en: ({ details }) => notBuilt.en(details),
    de: ({ details }) => notBuilt.de(quotedEnglish(details)),
  }),
  /** The content checks' problems (`ContentValidationError`), file and field each. */
  'content-invalid': row({
    status: 422,
    en: ({ details }: { details: string; problems: readonly ContentProblem[] }) =>
      notBuilt.en(details),
    de: ({ problems }) =>
      notBuilt.de(
        `Die Inhalte haben ${problems.length === 1 ? 'ein Problem' : `${problems.length} Probleme`}: ${problemsIn(problems, CMS_TEXTS.de)}`,
      ),
  }),
  'publish-busy': row({
    status: 503,
    en: () => 'another publication is under way; try again in a minute',
    de: () =>
      'Gerade läuft eine andere Veröffentlichung; bitte versuchen Sie es in einer Minute erneut.',
  }),
  'publish-overtaken': row({
    status: 503,
    en: () =>
      'this publication took longer than its turn and another process took over; nothing was switched: publish again',
    de: () =>
      'Diese Veröffentlichung hat länger gedauert als vorgesehen, und ein anderer Prozess hat übernommen; es wurde nichts umgeschaltet: Bitte veröffentlichen Sie erneut.',
  }),
  'publish-not-switched': row({
    status: 503,
    en: () =>
      'done on main and in the audit trail, but this process lost its turn before switching the site: the service serves it within a minute',
    de: () =>
      'Veröffentlicht und im Prüfpfad vermerkt, aber dieser Prozess hat die Website nicht mehr selbst umgeschaltet: Der Dienst zeigt die neue Fassung innerhalb einer Minute.',
  }),
  'upstream-conflict': row({
    status: 409,
    en: ({ files }: { files: readonly string[] }) =>
      `the remote's main changed the same files as the published content (${files.join(', ')}): merge it there, then publish again`,
    de: ({ files }) =>
      `Im Repository der Website wurden dieselben Dateien geändert wie in den veröffentlichten Inhalten (${files.join(', ')}): Die Entwicklung muss sie dort zusammenführen; veröffentlichen Sie danach erneut.`,
  }),
  /** The remote's main holds a symbolic link or a submodule: nothing is taken in. */
  'upstream-special-entries': row({ ...specialEntries, status: 409 }),
  'no-release': row({
    status: 404,
    en: ({ folder }: { folder: string }) => `there is no release ${folder} to roll back to`,
    de: ({ folder }) =>
      `Es gibt keine Veröffentlichung ${folder}, auf die sich zurücksetzen ließe.`,
  }),
  'not-release': protocol(
    404,
    ({ folder }: { folder: string }) => `not a release: ${JSON.stringify(folder)}`,
  ),
  'release-not-on-disk': row({
    status: 404,
    en: ({ folder }: { folder: string }) => `there is no release ${folder} on disk`,
    de: ({ folder }) => `Die Veröffentlichung ${folder} liegt nicht mehr auf dem Server.`,
  }),
  'rollback-not-waiting': row({
    status: 409,
    en: ({ id }: { id: number }) => `there is no rollback request ${id} waiting to be confirmed`,
    de: ({ id }) => `Kein Antrag auf Zurücksetzung ${id} wartet auf Bestätigung.`,
  }),
  'rollback-decided': row({
    status: 409,
    en: ({ id }: { id: number }) => `rollback request ${id} was decided meanwhile`,
    de: ({ id }) => `Über den Antrag auf Zurücksetzung ${id} wurde inzwischen entschieden.`,
  }),
}

/** Schedules (`workflow/schedules.ts`). */
const SCHEDULES = {
  'schedule-time-format': row({
    status: 422,
    en: ({ local }: { local: string }) =>
      `expected a date and time such as 2026-12-01T09:00; got "${local}"`,
    de: ({ local }) => `Erwartet werden Datum und Uhrzeit wie 2026-12-01T09:00, nicht „${local}“.`,
  }),
  'schedule-time-skipped': row({
    status: 422,
    en: ({ local }: { local: string }) =>
      `${local.replace('T', ' ')} does not exist in Berlin (the clocks move forward then)`,
    de: ({ local }) =>
      `${local.replace('T', ' ')} gibt es in Berlin nicht (die Uhren werden dann vorgestellt).`,
  }),
  'schedule-no-draft': row({ status: 422, ...noDraft }),
  'schedule-past': row({
    status: 422,
    en: () => 'the time has passed already: choose a time to come, or publish now',
    de: () =>
      'Dieser Zeitpunkt ist schon vorbei: Wählen Sie einen künftigen, oder veröffentlichen Sie jetzt.',
  }),
  'schedule-taken': row({
    status: 422,
    en: ({ id }: { id: string }) =>
      `${id} was scheduled by someone else at the same moment: reload the page to see when`,
    de: ({ id }) =>
      `${id} wurde im selben Moment von jemand anderem eingeplant: Laden Sie die Seite neu, um zu sehen, wann.`,
  }),
  'schedule-not-pending': row({
    status: 422,
    en: ({ id }: { id: number }) => `schedule ${id} is not pending`,
    de: ({ id }) => `Der Zeitplan ${id} wartet nicht mehr.`,
  }),
  'schedule-draft-gone': row({
    status: 422,
    en: () => 'the draft was published or discarded before its time came',
    de: () => 'Der Entwurf wurde veröffentlicht oder verworfen, bevor sein Zeitpunkt kam.',
  }),
  'schedule-draft-changed': row({
    status: 422,
    en: () =>
      'the draft changed after it was scheduled: schedule it again once it is approved again',
    de: () =>
      'Der Entwurf wurde geändert, nachdem er eingeplant wurde: Planen Sie ihn erneut ein, sobald er wieder freigegeben ist.',
  }),
}

/** The service's repository (`git/repository.ts`) and the CMS's paths. */
const REPOSITORY = {
  /** A branch moved since it was read: someone saved meanwhile. */
  'ref-moved': row({
    status: 409,
    log: ({ ref, expected }: { ref: string; expected: string | null }) =>
      `${ref} moved since it was read (expected ${expected ?? 'no branch'})`,
    en: () => 'Someone saved this entry meanwhile: reload it, then make your change again.',
    de: () =>
      'Jemand hat diesen Eintrag inzwischen gespeichert: Laden Sie ihn neu und nehmen Sie Ihre Änderung dann erneut vor.',
  }),
  'special-entries': specialEntries,
  'unsafe-path': protocol(
    400,
    ({ path }: { path: string }) => `not a path inside the repository: ${JSON.stringify(path)}`,
  ),
  /** A path the CMS's protocol names that is none of the content store's (`CmsPathError`). */
  'cms-path': protocol(400, ({ details }: { details: string }) => details),
}

/** A link that works no more: used already or expired, or replaced by a newer one. */
const invitationUsed = {
  en: () =>
    'This invitation link was used already or has expired: ask an administrator for a new one.',
  de: () =>
    'Dieser Einladungslink wurde schon verwendet oder ist abgelaufen: Bitten Sie die Administration um einen neuen.',
}
const invitationReplaced = {
  en: () =>
    'This invitation link was replaced by a newer invitation for the same address: use the newest link you were sent, or ask an administrator for one.',
  de: () =>
    'Dieser Einladungslink wurde durch eine neuere Einladung für dieselbe Adresse ersetzt: Verwenden Sie den neuesten Link, den Sie erhalten haben, oder bitten Sie die Administration um einen.',
}

const roleNames = (language: EditorLanguage, roles: readonly string[]) =>
  roles.map((role) => ROLE_NAMES[language][role as Role] ?? role).join(', ')

/** People, their invitations and sign-ins (`people/people.ts`, `people/resets.ts`). */
const PEOPLE = {
  'not-email': row({
    status: 422,
    en: ({ email }: { email: string }) => `Not an e-mail address: ${email}.`,
    de: ({ email }) => `Keine E-Mail-Adresse: ${email}.`,
  }),
  'unknown-roles': row({
    status: 422,
    en: ({ roles }: { roles: string }) =>
      `Unknown roles: ${roles} (known: ${roleNames('en', ROLES)}).`,
    de: ({ roles }) => `Unbekannte Rollen: ${roles} (bekannt: ${roleNames('de', ROLES)}).`,
  }),
  'no-role': row({
    status: 422,
    en: () => 'A person needs at least one role: tick one.',
    de: () => 'Eine Person braucht mindestens eine Rolle: Kreuzen Sie eine an.',
  }),
  'can-sign-in': row({
    status: 422,
    en: ({ email }: { email: string }) =>
      `${email} can sign in already: change their roles instead, or reset their sign-in if they lost their passkey.`,
    de: ({ email }) =>
      `${email} kann sich schon anmelden: Ändern Sie stattdessen die Rollen, oder setzen Sie die Anmeldung zurück, falls der Passkey verloren ist.`,
  }),
  'name-length': row({
    status: 422,
    en: () => 'Your name, please (1 to 200 characters).',
    de: () => 'Bitte Ihren Namen (1 bis 200 Zeichen).',
  }),
  /** A link that works no more, used to sign up: refused. */
  'invitation-used': row({ status: 422, ...invitationUsed }),
  'invitation-replaced': row({ status: 422, ...invitationReplaced }),
  /** The same link, asked about (what it invites to): gone. */
  'invitation-gone': row({ status: 410, ...invitationUsed }),
  'invitation-replaced-gone': row({ status: 410, ...invitationReplaced }),
  'reset-adds-no-one': row({
    status: 422,
    en: () => 'This link resets a sign-in: it adds no person.',
    de: () => 'Dieser Link setzt eine Anmeldung zurück: Er fügt keine Person hinzu.',
  }),
  'invitation-adds-no-way-in': row({
    status: 422,
    en: ({ email }: { email: string }) =>
      `${email} can sign in already: an invitation adds no way in to an account; ask an administrator.`,
    de: ({ email }) =>
      `${email} kann sich schon anmelden: Eine Einladung gibt keinem Konto einen weiteren Zugang; fragen Sie die Administration.`,
  }),
  'not-stored': row({
    status: 422,
    en: () => 'The person could not be stored: try again.',
    de: () => 'Die Person konnte nicht gespeichert werden: Versuchen Sie es erneut.',
  }),
  'provider-address': row({
    status: 422,
    en: ({ email, before }: { email: string; before: string }) =>
      `The identity provider now gives this account the address ${email}, but it signed in as ${before} before: ask an administrator.`,
    de: ({ email, before }) =>
      `Der Identitätsanbieter gibt diesem Konto jetzt die Adresse ${email}, es hat sich zuvor aber als ${before} angemeldet: Fragen Sie die Administration.`,
  }),
  'provider-other-account': row({
    status: 422,
    en: ({ email }: { email: string }) =>
      `${email} belongs to another account of the identity provider: ask an administrator.`,
    de: ({ email }) =>
      `${email} gehört zu einem anderen Konto des Identitätsanbieters: Fragen Sie die Administration.`,
  }),
  'unknown-person': row({
    status: 422,
    en: ({ email }: { email: string }) => `No one is registered as ${email}.`,
    de: ({ email }) => `Niemand ist als ${email} registriert.`,
  }),
  'no-access': row({
    status: 422,
    en: ({ email }: { email: string }) =>
      `${email} has no access: invite them again with the roles they should have.`,
    de: ({ email }) =>
      `${email} hat keinen Zugang: Laden Sie die Person erneut ein, mit den Rollen, die sie haben soll.`,
  }),
  'last-administrator': row({
    status: 422,
    en: () => 'Someone else must be an administrator before this person stops being one.',
    de: () =>
      'Eine andere Person muss die Rolle „Administration“ haben, bevor diese Person sie abgibt.',
  }),
  'own-access': row({
    status: 422,
    en: () => 'You cannot take your own access away: ask another administrator.',
    de: () =>
      'Ihren eigenen Zugang können Sie nicht entziehen: Bitten Sie eine andere Person der Administration darum.',
  }),
  'unknown-grant': row({
    status: 422,
    en: ({ id }: { id: string }) => `There is no change of roles ${id}.`,
    de: ({ id }) => `Es gibt keine Rollenänderung ${id}.`,
  }),
  /** A reset's link that works no more, used to sign in again: refused. */
  'reset-used': row({
    status: 422,
    en: () => 'This link was used already or has expired: ask an administrator for a new one.',
    de: () =>
      'Dieser Link wurde schon verwendet oder ist abgelaufen: Bitten Sie die Administration um einen neuen.',
  }),
  'passkey-someone-else': row({
    status: 422,
    en: () => 'This passkey was made for someone else: start again.',
    de: () => 'Dieser Passkey wurde für eine andere Person erstellt: Beginnen Sie neu.',
  }),
  'no-access-any-more': row({
    status: 422,
    en: ({ email }: { email: string }) => `${email} has no access any more: ask an administrator.`,
    de: ({ email }) => `${email} hat keinen Zugang mehr: Fragen Sie die Administration.`,
  }),
  'passkey-name-length': row({
    status: 422,
    en: ({ max }: { max: string }) => `A passkey's name has 1 to ${max} characters.`,
    de: ({ max }) => `Der Name eines Passkeys hat 1 bis ${max} Zeichen.`,
  }),
}

/** THE table: every code the service refuses with, its status and its sentences. */
export const ERRORS = { ...DRAFTS, ...PUBLICATIONS, ...SCHEDULES, ...REPOSITORY, ...PEOPLE }

type Table = typeof ERRORS
export type ErrorCode = keyof Table
export type ErrorParams<C extends ErrorCode> = Table[C] extends Row<infer P> ? P : never
/** The facts an error of code `C` names, or none. */
type ParamsArgument<C extends ErrorCode> = C extends ErrorCode
  ? [ErrorParams<C>] extends [undefined]
    ? []
    : [params: ErrorParams<C>]
  : never

/** Every code, in the table's order. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[]
export const PEOPLE_ERROR_CODES = Object.keys(PEOPLE) as (keyof typeof PEOPLE)[]
export type PeopleErrorCode = keyof typeof PEOPLE

const rowOf = <C extends ErrorCode>(code: C) => ERRORS[code] as Row<ErrorParams<C>>

/** Whether code's sentences come worded in the person's language already (a rule's reason). */
export const wordedAlready = (code: ErrorCode): boolean => rowOf(code).worded === true

/** A refusal of the service, by its code, with the facts its sentences name. */
export class PublishingError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C
  readonly params: ErrorParams<C>

  constructor(code: C, ...[params]: ParamsArgument<C>) {
    const cells = rowOf(code)
    super((cells.log ?? cells.en)(params as ErrorParams<C>))
    this.code = code
    this.params = params as ErrorParams<C>
  }

  /** The HTTP status it is answered with. */
  get status(): number {
    return rowOf(this.code).status
  }

  /** The sentence in `language`, for the screen of a person who reads it. */
  in(language: EditorLanguage): string {
    return rowOf(this.code)[language](this.params)
  }
}
