/**
 * Every text of the publishing service's own pages, in English and German, in one place: the
 * sign-in and invitation pages' (`PAGE_TEXTS`) and the management pages' (`MANAGE_TEXTS`). The
 * editor itself speaks Decap's locales.
 */
import type { EditorLanguage } from '../people/roles'

export interface PageTexts {
  signInTitle: string
  signInIntro: string
  signInPasskey: string
  signInProvider: string
  invitationTitle: string
  invitationIntro: string
  name: string
  email: string
  language: string
  createPasskey: string
  waiting: string
  noWebAuthn: string
  signedInAs: string
  openEditor: string
  signOut: string
  saveLanguage: string
  /** The start page's choice of the e-mails about drafts (notices). */
  notices: string
  noticesOn: string
  noticesOff: string
  saveNotices: string
  /** The start page's link to the changes, with the drafts waiting for the person. */
  changesWaiting: (n: number) => string
  /** The editor's page's title. */
  editorTitle: string
}

export const PAGE_TEXTS: Record<EditorLanguage, PageTexts> = {
  en: {
    signInTitle: 'Sign in to publish',
    signInIntro: 'The editors of the Lumora Bank website sign in here.',
    signInPasskey: 'Sign in with a passkey',
    signInProvider: 'Sign in with the bank’s account',
    invitationTitle: 'Welcome',
    invitationIntro:
      'You have been invited to edit the Lumora Bank website. Create a passkey on this device to sign in from now on.',
    name: 'Your name',
    email: 'Your work e-mail address',
    language: 'Language of the editor',
    createPasskey: 'Create passkey',
    waiting: 'Follow your browser’s prompt …',
    noWebAuthn:
      'This browser has no passkeys. Use a current browser, or sign in with the bank’s account.',
    signedInAs: 'Signed in as',
    openEditor: 'Open the editor',
    signOut: 'Sign out',
    saveLanguage: 'Use this language',
    notices: 'E-mails about drafts',
    noticesOn:
      'On: e-mail me when a draft waits for my review or publication, and when mine is approved, sent back, published or its schedule cancelled',
    noticesOff: 'Off: I look on the page of changes myself',
    saveNotices: 'Save this choice',
    changesWaiting: (n) =>
      n === 1 ? 'Changes: 1 draft waits for you' : `Changes: ${n} drafts wait for you`,
    editorTitle: 'Editor',
  },
  de: {
    signInTitle: 'Anmelden zum Veröffentlichen',
    signInIntro:
      'Hier melden sich die Redakteurinnen und Redakteure der Website der Lumora Bank an.',
    signInPasskey: 'Mit Passkey anmelden',
    signInProvider: 'Mit dem Konto der Bank anmelden',
    invitationTitle: 'Willkommen',
    invitationIntro:
      'Sie wurden eingeladen, die Website der Lumora Bank zu bearbeiten. Legen Sie auf diesem Gerät einen Passkey an, um sich künftig damit anzumelden.',
    name: 'Ihr Name',
    email: 'Ihre geschäftliche E-Mail-Adresse',
    language: 'Sprache des Editors',
    createPasskey: 'Passkey anlegen',
    waiting: 'Folgen Sie der Aufforderung Ihres Browsers …',
    noWebAuthn:
      'Dieser Browser kennt keine Passkeys. Verwenden Sie einen aktuellen Browser oder melden Sie sich mit dem Konto der Bank an.',
    signedInAs: 'Angemeldet als',
    openEditor: 'Editor öffnen',
    signOut: 'Abmelden',
    saveLanguage: 'Diese Sprache verwenden',
    notices: 'E-Mails zu Entwürfen',
    noticesOn:
      'An: Mailen Sie mir, wenn ein Entwurf auf meine Prüfung oder Veröffentlichung wartet, und wenn meiner freigegeben, zurückgegeben, veröffentlicht oder sein Zeitplan abgesagt wird',
    noticesOff: 'Aus: Ich sehe selbst auf der Seite der Änderungen nach',
    saveNotices: 'Diese Wahl speichern',
    changesWaiting: (n) =>
      n === 1 ? 'Änderungen: 1 Entwurf wartet auf Sie' : `Änderungen: ${n} Entwürfe warten auf Sie`,
    editorTitle: 'Redaktion',
  },
}

/** The language a request asks for (`Accept-Language`), German or English. */
export function languageOf(acceptLanguage: string | undefined): EditorLanguage {
  const first = (acceptLanguage ?? '').split(',')[0]?.trim().toLowerCase() ?? ''
  return first.startsWith('de') ? 'de' : 'en'
}

/** The management pages' texts: people, audit trail, changes, schedules, releases. */
export const MANAGE_TEXTS = {
  en: {
    people: 'People',
    invite: 'Invite someone',
    email: 'E-mail address',
    roles: 'Roles',
    save: 'Save roles',
    disable: 'Take access away',
    disabled: 'no access',
    sendInvitation: 'Make an invitation link',
    audit: 'Audit trail',
    chainOk: (n: number) => `The chain of ${n} entries is intact.`,
    anchored: (anchors: number, last: number) =>
      `It agrees with its ${anchors} anchors in git; the furthest names entry ${last}.`,
    notAnchored: 'No anchor of it in git was found yet.',
    unchecked: (entries: number) =>
      `${entries} keyed entries were not checked: AUDIT_KEY is not set here.`,
    chainBroken: (id: number, reason: string) => `The chain is broken at entry ${id}: ${reason}.`,
    download: 'Download',
    older: 'Older entries',
    releases: 'Releases',
    live: 'live',
    rollBack: 'Roll back to this release',
    when: 'When',
    who: 'Who',
    what: 'What',
    subject: 'Subject',
    commits: 'Commits',
    editor: 'Editor',
    noReleases: 'Nothing has been published through the service yet.',
    releasesIntro:
      'The live release first, then the earlier ones kept on disk, newest first: what each changed, who approved and who published it.',
    releaseKinds: {
      publish: 'Published',
      schedule: 'Published as scheduled',
      rollback: 'Rolled back',
      recovery: 'Brought up to the repository’s main',
    },
    releaseBy: (kind: string, who: string) => `${kind} by ${who}`,
    releaseApproved: (who: string) => `approved by ${who}`,
    releaseChanged: 'Changed',
    releaseRolledBackTo: (folder: string) => `Serves release ${folder} again.`,
    releaseCommit: 'Commit',
    unreviewed:
      'Also the first to serve content or code that no reviewer here approved (taken in from the bank’s repository):',
    unreviewedCommit: (commit: string, author: string) => `up to commit ${commit}, by ${author}`,
    schedules: 'Schedules',
    ready: 'Ready to publish',
    noReady: 'No draft is approved and waiting.',
    publishAt: 'Publish at (Berlin time)',
    schedule: 'Schedule',
    planned: 'Planned and past',
    cancel: 'Cancel',
    noSchedules: 'Nothing is scheduled.',
    changes: 'Changes',
    /** The navigation's link to the changes, with the drafts waiting for the person. */
    changesWaiting: (n: number) => (n > 0 ? `Changes (${n} waiting for you)` : 'Changes'),
    changesIntro:
      'Every draft waiting to go live: entries (open them in the editor), deletions and images uploaded on their own.',
    noChanges: 'No change is waiting.',
    statuses: { draft: 'draft', pending_review: 'in review', pending_publish: 'approved, ready' },
    kinds: { added: 'new', changed: 'changed', deleted: 'deleted' },
    by: 'written by',
    approvedBy: 'approved by',
    openInEditor: 'Open in the editor',
    previewSite: 'Preview as a whole site',
    approve: 'Approve',
    sendBack: 'Send back',
    comment: 'Comment for the authors',
    publishNow: 'Publish now',
    discard: 'Discard',
    deletion: 'deletion',
    imageOf: (path: string) => `Image ${path} as the draft has it`,
    submittedBy: (who: string) => `moved to review by ${who}`,
    showNewVersion: 'Show the new version',
    versionSaved: (version: string, who: string, at: string) =>
      `Version ${version}, saved by ${who} on ${at}. What you approve or publish here is this version: if someone saves another meanwhile, the service refuses and shows you the new one.`,
    mayNot: (action: string, reason: string) => `You may not ${action}: ${reason}`,
    actionNames: { approve: 'approve it', publish: 'publish it' },
    sourceOf: (path: string) => `Source of ${path}, as the draft has it`,
    changesOf: (path: string) => `What the draft changes in ${path} (− live, + draft)`,
    sourceTooLong: (size: string) => `Too long to show here (${size}); open it in the editor.`,
    states: {
      pending: 'waiting',
      firing: 'publishing',
      done: 'published',
      failed: 'not published',
      cancelled: 'cancelled',
    },
  },
  de: {
    people: 'Personen',
    invite: 'Jemanden einladen',
    email: 'E-Mail-Adresse',
    roles: 'Rollen',
    save: 'Rollen speichern',
    disable: 'Zugang entziehen',
    disabled: 'kein Zugang',
    sendInvitation: 'Einladungslink erzeugen',
    audit: 'Prüfpfad',
    chainOk: (n: number) => `Die Kette der ${n} Einträge ist unversehrt.`,
    anchored: (anchors: number, last: number) =>
      `Sie stimmt mit ihren ${anchors} Ankern in git überein; der weiteste nennt Eintrag ${last}.`,
    notAnchored: 'Noch kein Anker in git wurde gefunden.',
    unchecked: (entries: number) =>
      `${entries} mit Schlüssel gesicherte Einträge wurden nicht geprüft: AUDIT_KEY ist hier nicht gesetzt.`,
    chainBroken: (id: number, reason: string) =>
      `Die Kette ist bei Eintrag ${id} unterbrochen: ${reason}.`,
    download: 'Herunterladen',
    older: 'Ältere Einträge',
    releases: 'Veröffentlichungen',
    live: 'live',
    rollBack: 'Auf diese Veröffentlichung zurücksetzen',
    when: 'Wann',
    who: 'Wer',
    what: 'Was',
    subject: 'Gegenstand',
    commits: 'Commits',
    editor: 'Editor',
    noReleases: 'Über den Dienst wurde noch nichts veröffentlicht.',
    releasesIntro:
      'Zuerst die live geschaltete Veröffentlichung, dann die früheren, die noch vorliegen, die neueste zuerst: was jede geändert hat, wer freigegeben und wer veröffentlicht hat.',
    releaseKinds: {
      publish: 'Veröffentlicht',
      schedule: 'Nach Zeitplan veröffentlicht',
      rollback: 'Zurückgesetzt',
      recovery: 'Auf den Stand des Repositorys gebracht',
    },
    releaseBy: (kind: string, who: string) => `${kind} von ${who}`,
    releaseApproved: (who: string) => `freigegeben von ${who}`,
    releaseChanged: 'Geändert',
    releaseRolledBackTo: (folder: string) => `Stellt die Veröffentlichung ${folder} wieder her.`,
    releaseCommit: 'Commit',
    unreviewed:
      'Schaltet außerdem als erste Inhalte oder Code live, die hier niemand geprüft hat (aus dem Repository der Bank übernommen):',
    unreviewedCommit: (commit: string, author: string) => `bis Commit ${commit}, von ${author}`,
    schedules: 'Zeitpläne',
    ready: 'Bereit zur Veröffentlichung',
    noReady: 'Kein Entwurf ist freigegeben und wartet.',
    publishAt: 'Veröffentlichen am (Berliner Zeit)',
    schedule: 'Einplanen',
    planned: 'Geplant und vergangen',
    cancel: 'Abbrechen',
    noSchedules: 'Nichts ist eingeplant.',
    changes: 'Änderungen',
    changesWaiting: (n: number) =>
      n === 1
        ? 'Änderungen (1 wartet auf Sie)'
        : n > 1
          ? `Änderungen (${n} warten auf Sie)`
          : 'Änderungen',
    changesIntro:
      'Jeder Entwurf, der auf Veröffentlichung wartet: Einträge (im Editor öffnen), Löschungen und einzeln hochgeladene Bilder.',
    noChanges: 'Keine Änderung wartet.',
    statuses: {
      draft: 'Entwurf',
      pending_review: 'in Prüfung',
      pending_publish: 'freigegeben, bereit',
    },
    kinds: { added: 'neu', changed: 'geändert', deleted: 'gelöscht' },
    by: 'geschrieben von',
    approvedBy: 'freigegeben von',
    submittedBy: (who: string) => `zur Prüfung gegeben von ${who}`,
    showNewVersion: 'Neue Fassung zeigen',
    versionSaved: (version: string, who: string, at: string) =>
      `Fassung ${version}, gespeichert von ${who} am ${at}. Was Sie hier freigeben oder veröffentlichen, ist diese Fassung: Speichert jemand inzwischen eine andere, lehnt der Dienst ab und zeigt Ihnen die neue.`,
    mayNot: (action: string, reason: string) => `Sie dürfen ${action} nicht: ${reason}`,
    actionNames: { approve: 'ihn freigeben', publish: 'ihn veröffentlichen' },
    sourceOf: (path: string) => `Quelltext von ${path}, wie ihn der Entwurf hat`,
    changesOf: (path: string) => `Was der Entwurf in ${path} ändert (− veröffentlicht, + Entwurf)`,
    sourceTooLong: (size: string) =>
      `Zu lang, um ihn hier zu zeigen (${size}); öffnen Sie ihn im Editor.`,
    openInEditor: 'Im Editor öffnen',
    previewSite: 'Vorschau der ganzen Website',
    approve: 'Freigeben',
    sendBack: 'Zurückgeben',
    comment: 'Kommentar für die Autorinnen und Autoren',
    publishNow: 'Jetzt veröffentlichen',
    discard: 'Verwerfen',
    deletion: 'Löschung',
    imageOf: (path: string) => `Bild ${path}, wie es der Entwurf hat`,
    states: {
      pending: 'wartet',
      firing: 'wird veröffentlicht',
      done: 'veröffentlicht',
      failed: 'nicht veröffentlicht',
      cancelled: 'abgebrochen',
    },
  },
} satisfies Record<EditorLanguage, unknown>
