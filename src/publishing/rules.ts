/**
 * Who may do what to a draft: the four-eyes rules the publishing service enforces on its side,
 * whatever the browser sends. Pure functions of the person, the draft and its approval, so the
 * rules are read and tested in one place; each refusal says who may do it and why not, in the
 * language the person chose for the editor.
 *
 * - Authors write drafts. Reviewers approve them, or send them back with a comment. Publishers
 *   publish, schedule and roll back. Administrators manage people and roles. One person may
 *   hold several roles.
 * - An approval is by a reviewer who wrote no commit of the draft, and is bound to the draft's
 *   commit at that moment: any later edit voids it.
 * - Publishing needs a valid approval and a publisher who wrote none of the draft.
 */

export const ROLES = ['author', 'reviewer', 'publisher', 'administrator'] as const
export type Role = (typeof ROLES)[number]

export type EditorLanguage = 'en' | 'de'

export interface Person {
  /** The person's e-mail address: their id in the trail and in commits. */
  email: string
  name: string
  roles: readonly Role[]
  language: EditorLanguage
}

export interface Approval {
  by: string
  /** The draft's commit that was approved. */
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
  approval: Approval | null
}

export type Decision = { allowed: true } | { allowed: false; reason: string; code: RefusalCode }

export type RefusalCode =
  | 'role'
  | 'own-draft'
  | 'not-approved'
  | 'approval-lapsed'
  | 'approver-wrote'

/** The roles' names as the editor shows them. */
export const ROLE_NAMES: Record<EditorLanguage, Record<Role, string>> = {
  en: {
    author: 'author',
    reviewer: 'reviewer',
    publisher: 'publisher',
    administrator: 'administrator',
  },
  de: {
    author: 'Autorschaft',
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
    'manage-people': 'manage people and roles',
  },
  de: {
    write: 'Entwürfe schreiben',
    approve: 'freigeben',
    'request-changes': 'Entwürfe zurückgeben',
    publish: 'veröffentlichen',
    schedule: 'Veröffentlichungen planen',
    rollback: 'eine Veröffentlichung zurücknehmen',
    'manage-people': 'Personen und Rollen verwalten',
  },
}

const refuse = (
  person: Person,
  code: RefusalCode,
  params: Record<string, string> = {},
): Decision => ({ allowed: false, code, reason: MESSAGES[person.language][code](params) })

const allowed: Decision = { allowed: true }

function needsRole(person: Person, role: Role, action: string): Decision | undefined {
  if (person.roles.includes(role)) return undefined
  return refuse(person, 'role', {
    role: ROLE_NAMES[person.language][role],
    action: ACTIONS[person.language][action] ?? action,
  })
}

/** Whether an approval still stands: for the draft's current commit, by someone who wrote none of it. */
export function approvalStands(draft: Draft): boolean {
  return (
    draft.approval !== null &&
    draft.approval.commit === draft.head &&
    !draft.writers.includes(draft.approval.by)
  )
}

/** Saving (or uploading, or deleting in) a draft: any author. */
export function mayWrite(person: Person): Decision {
  return needsRole(person, 'author', 'write') ?? allowed
}

/** Approving a draft: a reviewer who wrote none of it. */
export function mayApprove(person: Person, draft: Draft): Decision {
  return (
    needsRole(person, 'reviewer', 'approve') ??
    (draft.writers.includes(person.email)
      ? refuse(person, 'own-draft', { action: ACTIONS[person.language].approve ?? 'approve' })
      : allowed)
  )
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
    return refuse(person, 'own-draft', { action: ACTIONS[person.language][action] ?? action })
  }
  if (draft.approval === null) return refuse(person, 'not-approved')
  if (draft.approval.commit !== draft.head) return refuse(person, 'approval-lapsed')
  if (draft.writers.includes(draft.approval.by)) return refuse(person, 'approver-wrote')
  return allowed
}

/** Rolling back to an earlier release: a publisher. */
export function mayRollBack(person: Person): Decision {
  return needsRole(person, 'publisher', 'rollback') ?? allowed
}

/** Inviting people and changing roles: an administrator. */
export function mayManagePeople(person: Person): Decision {
  return needsRole(person, 'administrator', 'manage-people') ?? allowed
}
