/**
 * Who may do what to a draft: the four-eyes rules the publishing service enforces on its side,
 * whatever the browser sends. Pure functions of the person, the draft and its approval, so the
 * rules are read and tested in one place; each refusal says who may do it and why not, in the
 * language the person chose for the editor.
 *
 * - Authors write drafts. Reviewers approve them, or send them back with a comment. Publishers
 *   publish, schedule and roll back. Administrators manage people and roles. One person may
 *   hold several roles.
 * - A draft is approved only once one of its authors has moved it to review (submitted it), and
 *   only as the version they submitted: a draft left in "draft", sent back by a reviewer, or
 *   changed since outside a save (its branch moved by hand) cannot be approved.
 * - An approval is by a reviewer who wrote no commit of the draft, of the version she saw: the
 *   request names the commit she opened, and any other is refused ("the draft changed since you
 *   opened it"). The approval is bound to that commit: any later edit voids it.
 * - A save after submission, by anyone, returns the draft to "draft" (`statusAfterSave`): what
 *   was submitted is no longer what is there, and only its authors say when it is ready again.
 * - Publishing needs a valid approval of a submitted version and a publisher who wrote none of
 *   the draft.
 * - A schedule fires only while the approval it was set on stands: the publisher who set it,
 *   the reviewer who approved and the author who submitted still have access and their roles.
 * - Rolling back alone is an emergency's: a publisher, to the release served just before the
 *   live one, bringing back none of their own text. Any other rollback brings back what later
 *   approved changes removed or replaced: a publisher asks for it, and a reviewer who did not
 *   ask and wrote none of the content coming back confirms it.
 */

import type { EditorLanguage, Person, Role } from '../people/roles'
import { berlinTime } from './berlin-time'

export interface Approval {
  by: string
  /** The draft's commit that was approved. */
  commit: string
  at: string
}

/** An author's moving a draft to review: who, and which of the draft's commits. */
export interface Submission {
  by: string
  commit: string
  at: string
}

export interface Draft {
  /** The draft's id (Decap's collection and slug). */
  id: string
  /** The draft branch's newest commit. */
  head: string
  /** Everyone who wrote a commit of the draft (its authors), by e-mail. */
  writers: readonly string[]
  /** The version one of its authors moved to review; `null` while it is a draft, or sent back. */
  submission: Submission | null
  approval: Approval | null
}

export type Decision = { allowed: true } | { allowed: false; reason: string; code: RefusalCode }

/** A decision that refuses, with its code and reason. */
export type Refusal = Exclude<Decision, { allowed: true }>

export type RefusalCode =
  | 'role'
  | 'own-draft'
  | 'not-approved'
  | 'approval-lapsed'
  | 'approver-wrote'
  | 'not-submitted'
  | 'submission-lapsed'
  | 'not-own-draft'
  | 'not-writer-discard'
  | 'draft-changed'
  | 'version-unknown'
  | 'saved-meanwhile'
  | 'draft-gone'
  | 'file-taken'
  | 'person-gone'
  | 'person-role'
  | 'rollback-steps'
  | 'own-content'
  | 'own-request'
  | 'rollback-stale'

/** Refusals of a request made on a version that is gone, or on a file another draft holds. */
export const CONFLICT_CODES: ReadonlySet<RefusalCode> = new Set([
  'draft-changed',
  'saved-meanwhile',
  'draft-gone',
  'file-taken',
])

/** The roles' names as the editor shows them. */
export const ROLE_NAMES: Record<EditorLanguage, Record<Role, string>> = {
  en: {
    author: 'author',
    reviewer: 'reviewer',
    publisher: 'publisher',
    administrator: 'administrator',
  },
  de: {
    author: 'Redaktion',
    reviewer: 'Prüfung',
    publisher: 'Veröffentlichung',
    administrator: 'Administration',
  },
}

const MESSAGES: Record<
  EditorLanguage,
  Record<RefusalCode, (params: Record<string, string>) => string>
> = {
  en: {
    role: ({ action, role }) =>
      `Only people with the ${role} role may ${action}, and you do not have it. Ask an administrator.`,
    'own-draft': ({ action }) =>
      `You wrote part of this draft, so you may not ${action} it: a second person must (four-eyes principle).`,
    'not-approved': () =>
      'This draft has not been approved yet: a reviewer who wrote none of it must approve it first.',
    'approval-lapsed': () =>
      'The approval was for an earlier version of this draft; it has been edited since, so it needs to be approved again.',
    'approver-wrote': () =>
      'The person who approved this draft has edited it since; a reviewer who wrote none of it must approve it again.',
    'not-submitted': () =>
      'This draft has not been moved to review by its author, so it cannot be approved or published yet: its author decides when it is ready for review.',
    'submission-lapsed': () =>
      'This draft has changed since its author moved it to review; its author must move this version to review before it can be approved.',
    'not-own-draft': () =>
      'Only someone who wrote part of this draft may move it to review or take it back: its authors decide when it is ready.',
    'not-writer-discard': () =>
      'Only someone who wrote part of this draft, or an administrator, may discard it: it is a colleague’s work. Send it back with a comment instead.',
    'draft-changed': ({ seen, head, by, at }) =>
      `This draft changed after you opened it: you saw version ${seen}, and ${by} saved version ${head} at ${at}. Nothing was done. Reload it to see the new changes, then decide again.`,
    'version-unknown': () =>
      'Which version of this draft did you review? The request named none; reload the draft and decide again.',
    'saved-meanwhile': ({ by, at, head }) =>
      `Not saved: ${by} saved this entry at ${at} (version ${head}), after you opened it, and your save would have overwritten it. Reload the entry to see their change, then make yours again.`,
    'draft-gone': () =>
      'Not saved: the draft you opened was published or discarded after you opened it. Reload the entry to see it as it is now, then make your change again.',
    'file-taken': ({ file, draft }) =>
      `Not saved: ${file} is changed by another draft already, ${draft}, and one file belongs to one draft. Open that draft to change it, or wait until it is published or discarded.`,
    'person-gone': ({ who, part }) =>
      `${who}, who ${part}, no longer has access to the publishing service, so what they did no longer stands under the four-eyes rules.`,
    'person-role': ({ who, part, role }) =>
      `${who}, who ${part}, no longer has the ${role} role, so what they did no longer stands under the four-eyes rules.`,
    'rollback-steps': () =>
      'This is not the release served just before the live one: rolling back to it brings back what later approved changes removed or replaced, so a reviewer who did not ask for it must confirm it.',
    'own-content': () =>
      'You wrote part of the content this rollback brings back: a second person who wrote none of it must decide on it (four-eyes principle).',
    'own-request': () =>
      'You asked for this rollback, so you may not confirm it: a reviewer other than you must (four-eyes principle).',
    'rollback-stale': () =>
      'The live site has changed since this rollback was asked for, so the request no longer says what it would bring back: ask for it again.',
  },
  de: {
    role: ({ action, role }) =>
      `Nur Personen mit der Rolle „${role}“ dürfen ${action}; diese Rolle haben Sie nicht. Fragen Sie die Administration.`,
    'own-draft': ({ action }) =>
      `Sie haben an diesem Entwurf mitgeschrieben und dürfen ihn deshalb nicht ${action}: Das muss eine zweite Person tun (Vier-Augen-Prinzip).`,
    'not-approved': () =>
      'Dieser Entwurf ist noch nicht freigegeben: Eine Prüferin oder ein Prüfer, die oder der nicht daran mitgeschrieben hat, muss ihn zuerst freigeben.',
    'approval-lapsed': () =>
      'Die Freigabe galt einer früheren Fassung dieses Entwurfs; er wurde seither geändert und muss erneut freigegeben werden.',
    'approver-wrote': () =>
      'Wer diesen Entwurf freigegeben hat, hat ihn seither geändert; eine Prüferin oder ein Prüfer, die oder der nicht daran mitgeschrieben hat, muss ihn erneut freigeben.',
    'not-submitted': () =>
      'Dieser Entwurf wurde noch nicht zur Prüfung gegeben und kann deshalb noch nicht freigegeben oder veröffentlicht werden: Wann er bereit ist, entscheiden die Autorinnen und Autoren.',
    'submission-lapsed': () =>
      'Dieser Entwurf wurde geändert, seit er zur Prüfung gegeben wurde; wer ihn geschrieben hat, muss diese Fassung zur Prüfung geben, bevor sie freigegeben werden kann.',
    'not-own-draft': () =>
      'Nur wer an diesem Entwurf mitgeschrieben hat, darf ihn zur Prüfung geben oder zurücknehmen: Wann er bereit ist, entscheiden die Autorinnen und Autoren.',
    'not-writer-discard': () =>
      'Nur wer an diesem Entwurf mitgeschrieben hat, darf ihn verwerfen, sonst nur die Administration: Er ist die Arbeit von Kolleginnen und Kollegen. Geben Sie ihn stattdessen mit einem Kommentar zurück.',
    'draft-changed': ({ seen, head, by, at }) =>
      `Dieser Entwurf wurde geändert, nachdem Sie ihn geöffnet haben: Sie haben Fassung ${seen} gesehen, ${by} hat um ${at} Fassung ${head} gespeichert. Es wurde nichts getan. Laden Sie ihn neu, um die neuen Änderungen zu sehen, und entscheiden Sie dann erneut.`,
    'version-unknown': () =>
      'Welche Fassung dieses Entwurfs haben Sie geprüft? Die Anfrage nannte keine; laden Sie den Entwurf neu und entscheiden Sie erneut.',
    'saved-meanwhile': ({ by, at, head }) =>
      `Nicht gespeichert: ${by} hat diesen Eintrag um ${at} gespeichert (Fassung ${head}), nachdem Sie ihn geöffnet haben, und Ihr Speichern hätte das überschrieben. Laden Sie den Eintrag neu, um die Änderung zu sehen, und nehmen Sie Ihre dann erneut vor.`,
    'draft-gone': () =>
      'Nicht gespeichert: Der Entwurf, den Sie geöffnet haben, wurde seither veröffentlicht oder verworfen. Laden Sie den Eintrag neu, um ihn zu sehen, wie er jetzt ist, und nehmen Sie Ihre Änderung dann erneut vor.',
    'file-taken': ({ file, draft }) =>
      `Nicht gespeichert: ${file} wird schon von einem anderen Entwurf geändert, ${draft}, und eine Datei gehört zu einem Entwurf. Öffnen Sie diesen Entwurf, um sie zu ändern, oder warten Sie, bis er veröffentlicht oder verworfen ist.`,
    'person-gone': ({ who, part }) =>
      `${who}, die oder der ${part}, hat keinen Zugang zum Veröffentlichungsdienst mehr; was diese Person getan hat, gilt deshalb nach dem Vier-Augen-Prinzip nicht mehr.`,
    'person-role': ({ who, part, role }) =>
      `${who}, die oder der ${part}, hat die Rolle „${role}“ nicht mehr; was diese Person getan hat, gilt deshalb nach dem Vier-Augen-Prinzip nicht mehr.`,
    'rollback-steps': () =>
      'Dies ist nicht die Veröffentlichung, die direkt vor der aktuellen live war: Das Zurücksetzen auf sie bringt zurück, was spätere freigegebene Änderungen entfernt oder ersetzt haben; eine Prüferin oder ein Prüfer, die oder der es nicht beantragt hat, muss es deshalb bestätigen.',
    'own-content': () =>
      'Sie haben an Inhalten mitgeschrieben, die dieses Zurücksetzen zurückbringt: Darüber muss eine zweite Person entscheiden, die nicht daran mitgeschrieben hat (Vier-Augen-Prinzip).',
    'own-request': () =>
      'Sie haben dieses Zurücksetzen beantragt und dürfen es deshalb nicht bestätigen: Das muss eine andere Prüferin oder ein anderer Prüfer tun (Vier-Augen-Prinzip).',
    'rollback-stale': () =>
      'Die Website hat sich geändert, seit dieses Zurücksetzen beantragt wurde; der Antrag sagt deshalb nicht mehr, was es zurückbrächte: Beantragen Sie es erneut.',
  },
}

const ACTIONS: Record<EditorLanguage, Record<string, string>> = {
  en: {
    write: 'write drafts',
    approve: 'approve',
    'request-changes': 'send drafts back',
    publish: 'publish',
    schedule: 'schedule publishing',
    rollback: 'roll back a release',
    'confirm-rollback': 'confirm a rollback',
    'cancel-schedule': 'cancel a scheduled publication',
    'manage-people': 'manage people and roles',
    'read-audit': 'read the audit trail',
  },
  de: {
    write: 'Entwürfe schreiben',
    approve: 'freigeben',
    'request-changes': 'Entwürfe zurückgeben',
    publish: 'veröffentlichen',
    schedule: 'Veröffentlichungen planen',
    rollback: 'eine Veröffentlichung zurücknehmen',
    'confirm-rollback': 'ein Zurücksetzen bestätigen',
    'cancel-schedule': 'eine geplante Veröffentlichung absagen',
    'manage-people': 'Personen und Rollen verwalten',
    'read-audit': 'den Prüfpfad lesen',
  },
}

/**
 * What one may not do to a draft one wrote, as the refusal's sentence ends ("… so you may not
 * schedule it", "… dürfen ihn deshalb nicht zur Veröffentlichung einplanen").
 */
const OWN_DRAFT_ACTIONS: Record<
  EditorLanguage,
  Record<'approve' | 'publish' | 'schedule', string>
> = {
  en: { approve: 'approve', publish: 'publish', schedule: 'schedule' },
  de: {
    approve: 'freigeben',
    publish: 'veröffentlichen',
    schedule: 'zur Veröffentlichung einplanen',
  },
}

const refuseIn = (
  language: EditorLanguage,
  code: RefusalCode,
  params: Record<string, string> = {},
): Refusal => ({ allowed: false, code, reason: MESSAGES[language][code](params) })

const refuse = (person: Person, code: RefusalCode, params: Record<string, string> = {}) =>
  refuseIn(person.language, code, params)

/** A refusal by its code, in the person's language: for what the rules find only afterwards. */
export const refusalOf = (
  person: Person,
  code: Exclude<RefusalCode, 'role' | 'own-draft'>,
  params: Record<string, string> = {},
) => refuse(person, code, params)

/** The short form of a version (a commit) people see and compare: its first 7 characters. */
export const shortVersion = (commit: string) => commit.slice(0, 7)

/**
 * Who saved the version of a draft that is there now, and when: what a refusal of an older
 * version tells the person who acted on it.
 */
export interface VersionSaved {
  /** Their address. */
  by: string
  /** Their name when they saved it (git's author name), what people are shown. */
  name?: string
  at: string
}

/** Who saved a version, as people read it: by name, by address when there is none. */
export const savedByName = (saved: VersionSaved) => saved.name?.trim() || saved.by

/**
 * Whether a request acts on the version of the draft that is there now: `seen` is the version
 * (a commit, or its short form of at least 7 characters) the person opened. A request that names
 * none is refused too: nobody decides on a version the service cannot tell she saw.
 */
export function sawCurrent(
  person: Person,
  draft: Draft,
  seen: string | undefined,
  saved: VersionSaved,
): Decision {
  if (seen === undefined || seen === '') return refuse(person, 'version-unknown')
  if (seen.length >= 7 && /^[0-9a-f]+$/.test(seen) && draft.head.startsWith(seen)) return allowed
  return refuse(person, 'draft-changed', {
    seen: shortVersion(seen.slice(0, 40)),
    head: shortVersion(draft.head),
    by: savedByName(saved),
    at: berlinTime(saved.at, person.language),
  })
}

/**
 * Saving on top of what the person opened: `startedFrom` is the draft's version the editor
 * loaded (`null`: there was no draft, the entry as it is live). Anything else there now means
 * someone saved in between, and this save would overwrite their change unseen.
 */
export function maySaveOn(
  person: Person,
  current: { head: string; saved: VersionSaved } | null,
  startedFrom: string | null,
): Decision {
  if ((current?.head ?? null) === startedFrom) return allowed
  if (current === null) return refuse(person, 'draft-gone')
  return refuse(person, 'saved-meanwhile', {
    by: savedByName(current.saved),
    at: berlinTime(current.saved.at, person.language),
    head: shortVersion(current.head),
  })
}

/**
 * One file belongs to one draft: a save to draft `id` may not change a file another draft
 * changes (`others`: each other draft's id and files), whatever name the entry is opened by.
 */
export function mayTakeFiles(
  person: Person,
  id: string,
  paths: readonly string[],
  others: readonly { id: string; files: readonly string[] }[],
): Decision {
  for (const other of others) {
    if (other.id === id) continue
    const file = paths.find((path) => other.files.includes(path))
    if (file) return refuse(person, 'file-taken', { file, draft: other.id })
  }
  return allowed
}

/**
 * A draft's status after a save: always "draft", whoever saves and whatever it was. A version in
 * review or approved is a version someone decided on; the one saved now is not it, and only its
 * authors decide when it is ready for review again (`maySubmit`).
 */
export function statusAfterSave(_before: 'draft' | 'pending_review' | 'pending_publish'): 'draft' {
  return 'draft'
}

const allowed: Decision = { allowed: true }

function needsRole(person: Person, role: Role, action: string): Decision | undefined {
  if (person.roles.includes(role)) return undefined
  return refuse(person, 'role', {
    role: ROLE_NAMES[person.language][role],
    action: ACTIONS[person.language][action] ?? action,
  })
}

/** Whether the draft as it is now is the version one of its authors moved to review. */
export function submissionStands(draft: Draft): boolean {
  return (
    draft.submission !== null &&
    draft.submission.commit === draft.head &&
    draft.writers.includes(draft.submission.by)
  )
}

/**
 * Whether an approval still stands: for the draft's current commit, which its author submitted,
 * by someone who wrote none of it.
 */
export function approvalStands(draft: Draft): boolean {
  return (
    draft.approval !== null &&
    draft.approval.commit === draft.head &&
    !draft.writers.includes(draft.approval.by) &&
    submissionStands(draft)
  )
}

/** Saving (or uploading, or deleting in) a draft: any author. */
export function mayWrite(person: Person): Decision {
  return needsRole(person, 'author', 'write') ?? allowed
}

/**
 * Discarding a draft: an author who wrote part of it, or an administrator (the drafts of
 * someone who has left must not stay forever). Nobody throws away a colleague's work in
 * progress; a reviewer sends it back instead.
 */
export function mayDiscard(person: Person, draft: Draft): Decision {
  if (person.roles.includes('administrator')) return allowed
  return (
    needsRole(person, 'author', 'write') ??
    (draft.writers.includes(person.email) ? allowed : refuse(person, 'not-writer-discard'))
  )
}

/**
 * Moving a draft to review (submitting it): an author who wrote part of it. Nobody else may
 * decide that someone's draft is ready, least of all a reviewer who would then approve it.
 */
export function maySubmit(person: Person, draft: Draft): Decision {
  return (
    needsRole(person, 'author', 'write') ??
    (draft.writers.includes(person.email) ? allowed : refuse(person, 'not-own-draft'))
  )
}

/** Approving a draft: a reviewer who wrote none of it, of the version its author submitted. */
export function mayApprove(person: Person, draft: Draft): Decision {
  const role = needsRole(person, 'reviewer', 'approve')
  if (role) return role
  if (draft.writers.includes(person.email)) {
    return refuse(person, 'own-draft', { action: OWN_DRAFT_ACTIONS[person.language].approve })
  }
  if (draft.submission === null) return refuse(person, 'not-submitted')
  if (!submissionStands(draft)) return refuse(person, 'submission-lapsed')
  return allowed
}

/** Sending a draft back with a comment: any reviewer (an author may withdraw their own anyway). */
export function mayRequestChanges(person: Person): Decision {
  return needsRole(person, 'reviewer', 'request-changes') ?? allowed
}

/** Publishing (now or at a time): a publisher who wrote none of it, of a draft whose approval stands. */
export function mayPublish(
  person: Person,
  draft: Draft,
  action: 'publish' | 'schedule' = 'publish',
): Decision {
  const role = needsRole(person, 'publisher', action)
  if (role) return role
  if (draft.writers.includes(person.email)) {
    return refuse(person, 'own-draft', { action: OWN_DRAFT_ACTIONS[person.language][action] })
  }
  if (draft.approval === null) return refuse(person, 'not-approved')
  if (draft.approval.commit !== draft.head) return refuse(person, 'approval-lapsed')
  if (draft.writers.includes(draft.approval.by)) return refuse(person, 'approver-wrote')
  if (draft.submission === null) return refuse(person, 'not-submitted')
  if (!submissionStands(draft)) return refuse(person, 'submission-lapsed')
  return allowed
}

/** Whether the person may publish any draft at all (a publisher): what the editor offers. */
export const mayPublishAnything = (person: Person): boolean => person.roles.includes('publisher')

/** A rollback as the rules see it: being asked for, or waiting for a reviewer's confirmation. */
export interface Rollback {
  /** The release to serve again (its folder). */
  target: string
  /**
   * Whether the target is the release served just before the live one: the rollback undoes
   * the last switch of the served site, and nothing further back.
   */
  oneStepBack: boolean
  /** Who wrote the content it brings back (the files it restores or changes), by e-mail. */
  writers: readonly string[]
  /** The publisher who asked for it; absent while it is being asked for. */
  requestedBy?: string
}

/** Asking for a rollback (done at once, or by a reviewer's confirmation): a publisher. */
export function mayRequestRollback(person: Person): Decision {
  return needsRole(person, 'publisher', 'rollback') ?? allowed
}

/**
 * Rolling back at once, alone (an emergency): a publisher, to the release served just before
 * the live one, bringing back none of their own text. Anything else brings back what later
 * approved changes removed or replaced, and waits for a reviewer (`mayConfirmRollback`).
 */
export function mayRollBack(person: Person, rollback: Rollback): Decision {
  const role = needsRole(person, 'publisher', 'rollback')
  if (role) return role
  if (!rollback.oneStepBack) return refuse(person, 'rollback-steps')
  if (rollback.writers.includes(person.email)) return refuse(person, 'own-content')
  return allowed
}

/**
 * Confirming a rollback a publisher asked for (it is then done): a reviewer who did not ask
 * for it and wrote none of the content it brings back.
 */
export function mayConfirmRollback(person: Person, rollback: Rollback): Decision {
  const role = needsRole(person, 'reviewer', 'confirm-rollback')
  if (role) return role
  if (rollback.requestedBy === person.email) return refuse(person, 'own-request')
  if (rollback.writers.includes(person.email)) return refuse(person, 'own-content')
  return allowed
}

/**
 * Whether what someone did still stands: they have access and hold the role they did it in.
 * `part` is what they did, as the message says it (`approved it`).
 */
function standsBy(
  language: EditorLanguage,
  who: string,
  role: Role,
  part: string,
  people: ReadonlyMap<string, Person>,
): Decision | undefined {
  const now = people.get(who)
  if (!now) return refuseIn(language, 'person-gone', { who, part })
  if (!now.roles.includes(role)) {
    return refuseIn(language, 'person-role', {
      who: now.name || who,
      part,
      role: ROLE_NAMES[language][role],
    })
  }
  return undefined
}

const PARTS: Record<
  EditorLanguage,
  Record<'scheduled' | 'approved' | 'submitted' | 'requested', string>
> = {
  en: {
    scheduled: 'scheduled it',
    approved: 'approved it',
    submitted: 'moved it to review',
    requested: 'asked for it',
  },
  de: {
    scheduled: 'sie eingeplant hat',
    approved: 'ihn freigegeben hat',
    submitted: 'ihn zur Prüfung gegeben hat',
    requested: 'es beantragt hat',
  },
}

/**
 * Whether a schedule may fire now (in `language`, for the trail and the draft's authors): the
 * draft's approval stands under the rules as they apply at this moment. The publisher who set
 * it, the reviewer who approved and the author who submitted the draft still have access
 * (`people`: everyone who has, by e-mail, as they are now) and hold those roles; and the
 * publisher may publish the draft as it is (`mayPublish`).
 */
export function mayFireSchedule(
  language: EditorLanguage,
  scheduledBy: string,
  draft: Draft,
  people: ReadonlyMap<string, Person>,
): Decision {
  const parts = PARTS[language]
  const publisher = standsBy(language, scheduledBy, 'publisher', parts.scheduled, people)
  if (publisher) return publisher
  if (draft.approval === null) return refuseIn(language, 'not-approved')
  const approver = standsBy(language, draft.approval.by, 'reviewer', parts.approved, people)
  if (approver) return approver
  if (draft.submission === null) return refuseIn(language, 'not-submitted')
  const submitter = standsBy(language, draft.submission.by, 'author', parts.submitted, people)
  if (submitter) return submitter
  const scheduler = people.get(scheduledBy) as Person
  return mayPublish({ ...scheduler, language }, draft)
}

/**
 * Whether a rollback request still stands when a reviewer confirms it: the publisher who asked
 * still has access and the publisher role.
 */
export function requestStands(
  language: EditorLanguage,
  requestedBy: string,
  people: ReadonlyMap<string, Person>,
): Decision {
  return standsBy(language, requestedBy, 'publisher', PARTS[language].requested, people) ?? allowed
}

/** Cancelling a scheduled publication: a publisher. */
export function mayCancelSchedule(person: Person): Decision {
  return needsRole(person, 'publisher', 'cancel-schedule') ?? allowed
}

/** Inviting people and changing roles: an administrator. */
export function mayManagePeople(person: Person): Decision {
  return needsRole(person, 'administrator', 'manage-people') ?? allowed
}

/** Reading the audit trail, on its page or as an export: an administrator. */
export function mayReadAudit(person: Person): Decision {
  return needsRole(person, 'administrator', 'read-audit') ?? allowed
}
