/**
 * Every text of the publishing service's own pages, in English and German, in one place: the
 * sign-in and invitation pages' (`PAGE_TEXTS`) and the management pages' (`MANAGE_TEXTS`). The
 * editor itself speaks Decap's locales.
 */
import type { AuditAction } from '../audit/trail'
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
  /** The invitation page when its link resets the sign-in of someone who has an account. */
  resetIntro: string
  /** The start page's link to "Your sign-in". */
  yourSignIn: string
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
    resetIntro:
      'An administrator has reset your sign-in: your earlier passkeys no longer work. Create a new passkey on this device. Your account, roles and history stay as they were.',
    yourSignIn: 'Your sign-in: passkeys and sessions',
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
    resetIntro:
      'Die Administration hat Ihre Anmeldung zurückgesetzt: Ihre bisherigen Passkeys funktionieren nicht mehr. Legen Sie auf diesem Gerät einen neuen Passkey an. Ihr Konto, Ihre Rollen und Ihr Verlauf bleiben, wie sie waren.',
    yourSignIn: 'Ihre Anmeldung: Passkeys und Sitzungen',
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
    linkText:
      'The link works once, until {until} (Berlin time). Send it to the person; whoever opens it first signs up with it.',
    copyLink: 'Copy link',
    linkCopied: 'Copied',
    outcomeReplaced: 'replaced by a later schedule',
    outcomePublished: (release: string) => `published as release ${release}`,
    publishConfirm:
      'Publish this draft now? The live site changes within seconds; a publisher can roll it back.',
    discardConfirm: 'Discard this draft? Its changes are lost; the live site stays as it is.',
    rollbackConfirm: (release: string) =>
      `Roll the live site back to the release of ${release}? Every visitor sees that version within seconds.`,
    rollbackAskConfirm: (release: string) =>
      `Ask to roll the live site back to the release of ${release}? A reviewer has to confirm it first.`,
    rolesExplained: 'What each role may do',
    roleDoes: {
      author: 'writes and changes entries and images in the editor, and moves a draft to review.',
      reviewer:
        'reads a draft on the page of changes and approves it or sends it back; never their own text.',
      publisher:
        'publishes an approved draft now or at a time, and rolls the site back; never their own text.',
      administrator:
        'invites people, gives and takes away roles, resets a lost sign-in and reads the audit trail.',
    },
    rolesSaved: 'The roles are saved.',
    disableConfirm: (name: string) =>
      `Take access away from ${name}? They are signed out at once and can come back only with a new invitation.`,
    people: 'People',
    yourSignIn: 'Your sign-in',
    passkeyCount: (n: number) =>
      n === 0 ? 'no passkey: cannot sign in' : n === 1 ? '1 passkey' : `${n} passkeys`,
    resetSignIn: 'Reset sign-in',
    resetHint:
      'For someone who lost their passkey: removes their passkeys, ends their sessions and makes a new link, valid once for 72 hours, to send them. They keep their history; their roles that approve or publish wait for a second administrator’s confirmation, as a new grant does.',
    endSessions: 'End all sessions',
    sessionsEnded: (n: number) => (n === 1 ? '1 session ended.' : `${n} sessions ended.`),
    invite: 'Invite someone',
    email: 'E-mail address',
    roles: 'Roles',
    save: 'Save roles',
    disable: 'Take access away',
    disabled: 'no access',
    sendInvitation: 'Make an invitation link',
    inviteHint:
      'The reviewer’s, publisher’s and administrator’s roles take a second administrator’s confirmation while there are two or more administrators: until then the person does not have them.',
    noAccess:
      'Invite them again to give them access: they come back with the new invitation’s roles only.',
    hasRoles: 'Roles',
    noRoles: 'none',
    unconfirmedMark: 'unconfirmed',
    awaitingMark: 'waiting for a second administrator',
    grants: 'Roles waiting for a second administrator',
    grantsIntro:
      'A grant of the reviewer’s, publisher’s or administrator’s role takes effect once an administrator confirms it who neither proposed it nor is the person it is for. Given while there was only one administrator, it took effect at once and stays unconfirmed until a second one confirms it; refusing it takes the roles away again.',
    noGrants: 'No grant is waiting.',
    unconfirmedNotice: (n: number) =>
      `${n === 1 ? 'One grant' : `${n} grants`} of an approving role took effect without a second administrator’s confirmation (marked “unconfirmed”).`,
    grantFor: (roles: string, who: string) => `${roles} for ${who}`,
    grantProposed: (who: string, when: string, invitation: boolean) =>
      `Proposed by ${who}${invitation ? ' with an invitation' : ''}, ${when}`,
    grantStates: {
      pending: 'Waiting: not in effect yet.',
      unconfirmed: 'In effect, unconfirmed: given by one administrator alone.',
    },
    nobodyCanConfirm:
      'No administrator can confirm it yet: neither the one who proposed it nor the person it is for may.',
    confirm: 'Confirm',
    refuse: 'Refuse',
    withdraw: 'Withdraw',
    audit: 'Audit trail',
    chainOk: (n: number) => `The chain of ${n} entries is intact.`,
    anchored: (anchors: number, last: number) =>
      `It agrees with its ${anchors} anchors in git; the furthest names entry ${last}.`,
    notAnchored: 'No anchor of it in git was found yet.',
    unchecked: (entries: number) =>
      `${entries} keyed entries were not checked: AUDIT_KEY is not set here.`,
    chainBroken: (id: number, reason: string) => `The chain is broken at entry ${id}: ${reason}.`,
    unanchoredYet: (entries: number) =>
      `${entries === 1 ? '1 entry after it is' : `${entries} entries after it are`} not anchored yet (within 10 seconds).`,
    noKey:
      'It cannot be verified: AUDIT_KEY is not set, so no one can tell its entries and anchors from forgeries.',
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
      'What the site served, newest first, as long as its release is kept on disk: what each publication changed, who approved and who published it, and what each rollback brought back.',
    releaseKinds: {
      publish: 'Published',
      schedule: 'Published as scheduled',
      rollback: 'Rolled back',
      recovery: 'Brought up to the repository’s main',
      first: 'The site before the first publication, served',
    },
    releaseBy: (kind: string, who: string) => `${kind} by ${who}`,
    releaseApproved: (who: string) => `approved by ${who}`,
    releaseChanged: 'Changed',
    releaseDeleted: 'Deleted',
    releaseRolledBackTo: (folder: string) => `Serves release ${folder} again.`,
    releaseCommit: 'Commit',
    unreviewed:
      'Also the first to serve content or code that no reviewer here approved (taken in from the bank’s repository):',
    rollBackNow: 'Roll back to this release now (emergency)',
    askRollBack: 'Ask to roll back to this release (a reviewer confirms it)',
    rollbackWaiting: 'A rollback to this release is waiting for a reviewer (above).',
    emergency: 'emergency rollback',
    rollbackAskedBy: (who: string) => `asked for by ${who}`,
    rollbackDid: {
      returns: 'Came back',
      goes: 'Went',
      changes: 'Changed back',
      undoes: 'Publications undone',
    },
    rollbackWould: {
      returns: 'Would come back',
      goes: 'Would go',
      changes: 'Would change back',
      undoes: 'Publications it would undo',
    },
    rollbackWriters: (who: string) => `The content coming back was written by ${who}.`,
    rollbackRequests: 'Rollbacks waiting for a reviewer',
    rollbackRequestsIntro:
      'A rollback further back than the release just before the live one, or one bringing back the text of the publisher who asks for it, is done only once a reviewer who did not ask for it and wrote none of what comes back confirms it. What it would bring back and take away, as it was asked for:',
    rollbackRequestTo: (folder: string) => `Roll back to release ${folder}`,
    rollbackRequestBy: (who: string, when: string) => `Asked for by ${who}, ${when}.`,
    rollbackWhy: 'Why it waits:',
    confirmRollback: 'Confirm and roll back',
    confirmRollbackName: 'confirm it',
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
    linkText:
      'Der Link gilt einmal, bis {until} (Berliner Zeit). Schicken Sie ihn der Person; wer ihn zuerst öffnet, meldet sich damit an.',
    copyLink: 'Link kopieren',
    linkCopied: 'Kopiert',
    outcomeReplaced: 'durch einen späteren Zeitplan ersetzt',
    outcomePublished: (release: string) => `veröffentlicht als ${release}`,
    publishConfirm:
      'Diesen Entwurf jetzt veröffentlichen? Die Website ändert sich innerhalb von Sekunden; eine Person mit der Rolle Veröffentlichung kann es zurücksetzen.',
    discardConfirm:
      'Diesen Entwurf verwerfen? Seine Änderungen gehen verloren; die Website bleibt, wie sie ist.',
    rollbackConfirm: (release: string) =>
      `Die Website auf die Veröffentlichung vom ${release} zurücksetzen? Alle Besucher sehen innerhalb von Sekunden diese Fassung.`,
    rollbackAskConfirm: (release: string) =>
      `Darum bitten, die Website auf die Veröffentlichung vom ${release} zurückzusetzen? Eine Person mit der Rolle Prüfung muss es zuerst bestätigen.`,
    rolesExplained: 'Was jede Rolle darf',
    roleDoes: {
      author:
        'schreibt und ändert Einträge und Bilder im Editor und gibt einen Entwurf zur Prüfung.',
      reviewer:
        'liest einen Entwurf auf der Seite der Änderungen und gibt ihn frei oder zurück; nie den eigenen Text.',
      publisher:
        'veröffentlicht einen freigegebenen Entwurf sofort oder zu einem Zeitpunkt und setzt die Website zurück; nie den eigenen Text.',
      administrator:
        'lädt Personen ein, vergibt und entzieht Rollen, setzt eine verlorene Anmeldung zurück und liest den Prüfpfad.',
    },
    rolesSaved: 'Die Rollen sind gespeichert.',
    disableConfirm: (name: string) =>
      `${name} den Zugang entziehen? Die Person wird sofort abgemeldet und kann nur mit einer neuen Einladung zurückkommen.`,
    people: 'Personen',
    yourSignIn: 'Ihre Anmeldung',
    passkeyCount: (n: number) =>
      n === 0 ? 'kein Passkey: kann sich nicht anmelden' : n === 1 ? '1 Passkey' : `${n} Passkeys`,
    resetSignIn: 'Anmeldung zurücksetzen',
    resetHint:
      'Für jemanden, der seinen Passkey verloren hat: entfernt die Passkeys der Person, beendet ihre Sitzungen und erzeugt einen neuen Link, einmal 72 Stunden lang gültig, den Sie ihr schicken. Der Verlauf bleibt erhalten; Rollen, die freigeben oder veröffentlichen, warten wie eine neue Berechtigung auf die Bestätigung einer zweiten Administratorin oder eines zweiten Administrators.',
    endSessions: 'Alle Sitzungen beenden',
    sessionsEnded: (n: number) => (n === 1 ? '1 Sitzung beendet.' : `${n} Sitzungen beendet.`),
    invite: 'Jemanden einladen',
    email: 'E-Mail-Adresse',
    roles: 'Rollen',
    save: 'Rollen speichern',
    disable: 'Zugang entziehen',
    disabled: 'kein Zugang',
    sendInvitation: 'Einladungslink erzeugen',
    inviteHint:
      'Die Rollen „Prüfung“, „Veröffentlichung“ und „Administration“ brauchen die Bestätigung einer zweiten Administratorin oder eines zweiten Administrators, solange es zwei oder mehr gibt: Bis dahin hat die Person sie nicht.',
    noAccess:
      'Laden Sie die Person erneut ein, um ihr Zugang zu geben: Sie erhält dann nur die Rollen der neuen Einladung.',
    hasRoles: 'Rollen',
    noRoles: 'keine',
    unconfirmedMark: 'unbestätigt',
    awaitingMark: 'wartet auf eine zweite Administratorin oder einen zweiten Administrator',
    grants: 'Rollen, die auf eine zweite Bestätigung warten',
    grantsIntro:
      'Die Vergabe der Rolle „Prüfung“, „Veröffentlichung“ oder „Administration“ wird wirksam, sobald sie eine Administratorin oder ein Administrator bestätigt, die oder der sie weder vorgeschlagen hat noch selbst die Person ist. Wurde sie vergeben, als es nur eine Administratorin oder einen Administrator gab, wurde sie sofort wirksam und bleibt unbestätigt, bis eine zweite Person sie bestätigt; wird sie abgelehnt, werden die Rollen wieder entzogen.',
    noGrants: 'Keine Rechtevergabe wartet.',
    unconfirmedNotice: (n: number) =>
      `${n === 1 ? 'Eine Vergabe' : `${n} Vergaben`} einer freigebenden Rolle ${n === 1 ? 'wurde' : 'wurden'} ohne Bestätigung einer zweiten Administratorin oder eines zweiten Administrators wirksam (als „unbestätigt“ markiert).`,
    grantFor: (roles: string, who: string) => `${roles} für ${who}`,
    grantProposed: (who: string, when: string, invitation: boolean) =>
      `Vorgeschlagen von ${who}${invitation ? ' mit einer Einladung' : ''}, ${when}`,
    grantStates: {
      pending: 'Wartet: noch nicht wirksam.',
      unconfirmed: 'Wirksam, unbestätigt: von einer Person allein vergeben.',
    },
    nobodyCanConfirm:
      'Noch niemand kann sie bestätigen: Weder wer sie vorgeschlagen hat noch die Person selbst darf es.',
    confirm: 'Bestätigen',
    refuse: 'Ablehnen',
    withdraw: 'Zurückziehen',
    audit: 'Prüfpfad',
    chainOk: (n: number) => `Die Kette der ${n} Einträge ist unversehrt.`,
    anchored: (anchors: number, last: number) =>
      `Sie stimmt mit ihren ${anchors} Ankern in git überein; der weiteste nennt Eintrag ${last}.`,
    notAnchored: 'Noch kein Anker in git wurde gefunden.',
    unchecked: (entries: number) =>
      `${entries} mit Schlüssel gesicherte Einträge wurden nicht geprüft: AUDIT_KEY ist hier nicht gesetzt.`,
    chainBroken: (id: number, reason: string) =>
      `Die Kette ist bei Eintrag ${id} unterbrochen: ${reason}.`,
    unanchoredYet: (entries: number) =>
      `${entries === 1 ? '1 Eintrag danach ist' : `${entries} Einträge danach sind`} noch nicht verankert (binnen 10 Sekunden).`,
    noKey:
      'Er ist nicht überprüfbar: AUDIT_KEY ist nicht gesetzt, daher kann niemand seine Einträge und Anker von Fälschungen unterscheiden.',
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
      'Was die Website gezeigt hat, das Neueste zuerst, solange die Veröffentlichung noch vorliegt: was jede Veröffentlichung geändert hat, wer freigegeben und wer veröffentlicht hat, und was jedes Zurücksetzen wiederhergestellt hat.',
    releaseKinds: {
      publish: 'Veröffentlicht',
      schedule: 'Nach Zeitplan veröffentlicht',
      rollback: 'Zurückgesetzt',
      recovery: 'Auf den Stand des Repositorys gebracht',
      first: 'Die Website vor der ersten Veröffentlichung, live geschaltet',
    },
    releaseBy: (kind: string, who: string) => `${kind} von ${who}`,
    releaseApproved: (who: string) => `freigegeben von ${who}`,
    releaseChanged: 'Geändert',
    releaseDeleted: 'Gelöscht',
    releaseRolledBackTo: (folder: string) => `Stellt die Veröffentlichung ${folder} wieder her.`,
    releaseCommit: 'Commit',
    unreviewed:
      'Schaltet außerdem als erste Inhalte oder Code live, die hier niemand geprüft hat (aus dem Repository der Bank übernommen):',
    rollBackNow: 'Jetzt auf diese Veröffentlichung zurücksetzen (Notfall)',
    askRollBack:
      'Zurücksetzen auf diese Veröffentlichung beantragen (eine Prüferin oder ein Prüfer bestätigt es)',
    rollbackWaiting:
      'Ein Zurücksetzen auf diese Veröffentlichung wartet auf eine Prüferin oder einen Prüfer (oben).',
    emergency: 'Zurücksetzung im Notfall',
    rollbackAskedBy: (who: string) => `beantragt von ${who}`,
    rollbackDid: {
      returns: 'Kam zurück',
      goes: 'Entfiel',
      changes: 'Wurde zurückgeändert',
      undoes: 'Rückgängig gemachte Veröffentlichungen',
    },
    rollbackWould: {
      returns: 'Käme zurück',
      goes: 'Entfiele',
      changes: 'Würde zurückgeändert',
      undoes: 'Veröffentlichungen, die es rückgängig machte',
    },
    rollbackWriters: (who: string) => `Die zurückkommenden Inhalte hat ${who} geschrieben.`,
    rollbackRequests: 'Zurücksetzungen, die auf eine Prüfung warten',
    rollbackRequestsIntro:
      'Ein Zurücksetzen weiter zurück als auf die Veröffentlichung direkt vor der aktuellen, oder eines, das Text der beantragenden Person zurückbringt, geschieht erst, wenn eine Prüferin oder ein Prüfer es bestätigt, die oder der es nicht beantragt und nichts von dem Zurückkommenden geschrieben hat. Was es zurückbrächte und entfernte, wie beim Antrag ermittelt:',
    rollbackRequestTo: (folder: string) => `Zurücksetzen auf die Veröffentlichung ${folder}`,
    rollbackRequestBy: (who: string, when: string) => `Beantragt von ${who}, ${when}.`,
    rollbackWhy: 'Warum es wartet:',
    confirmRollback: 'Bestätigen und zurücksetzen',
    confirmRollbackName: 'es bestätigen',
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
    versionSaved: (version: string, who: string, at: string) =>
      `Fassung ${version}, gespeichert von ${who} am ${at}. Was Sie hier freigeben oder veröffentlichen, ist diese Fassung: Speichert jemand inzwischen eine andere, lehnt der Dienst ab und zeigt Ihnen die neue.`,
    // "nicht" goes before the verb, which ends the action's words: "ihn nicht freigeben".
    mayNot: (action: string, reason: string) => {
      const verb = action.lastIndexOf(' ') + 1
      return `Sie dürfen ${action.slice(0, verb)}nicht ${action.slice(verb)}: ${reason}`
    },
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

/** The texts of "Your sign-in" (`/me/sign-in`): a person's passkeys and sessions. */
export const OWN_SIGN_IN_TEXTS = {
  en: {
    title: 'Your sign-in',
    passkeys: 'Passkeys',
    passkeysIntro:
      'You sign in with any of these passkeys. Add one on a new phone or computer before you give the old one away, and remove a passkey you no longer have.',
    provider: 'You sign in with the bank’s account: passkeys are off. Your sessions are below.',
    unnamed: 'Passkey without a name',
    added: (when: string) => `Added ${when}`,
    lastUsed: (when: string | null) => (when ? `last used ${when}` : 'not used to sign in yet'),
    newName: 'New name',
    rename: 'Rename',
    remove: 'Remove',
    confirmLast:
      'This is my only passkey. Once my sessions end, I can sign in again only after an administrator resets my sign-in.',
    add: 'Add a passkey',
    addName: 'Name of the new passkey (for example “work laptop” or “new phone”)',
    addHint:
      'Your browser asks you to create the passkey, on this device or on a phone. Within 15 minutes of signing in only: otherwise sign out and in again first.',
    sessions: 'Sessions',
    otherSessions: (n: number) =>
      n === 0
        ? 'You are signed in here only.'
        : n === 1
          ? 'You are signed in here and in one other place (another browser or device).'
          : `You are signed in here and in ${n} other places (other browsers or devices).`,
    endOthers: 'End my other sessions',
    endOthersHint:
      'Every other browser or device signed in as you is signed out at its next step. Do this after removing a lost passkey.',
  },
  de: {
    title: 'Ihre Anmeldung',
    passkeys: 'Passkeys',
    passkeysIntro:
      'Sie melden sich mit einem dieser Passkeys an. Fügen Sie auf einem neuen Telefon oder Computer einen hinzu, bevor Sie das alte Gerät abgeben, und entfernen Sie einen Passkey, den Sie nicht mehr haben.',
    provider:
      'Sie melden sich mit dem Konto der Bank an: Passkeys sind ausgeschaltet. Ihre Sitzungen finden Sie unten.',
    unnamed: 'Passkey ohne Namen',
    added: (when: string) => `Hinzugefügt am ${when}`,
    lastUsed: (when: string | null) =>
      when ? `zuletzt verwendet am ${when}` : 'noch nicht zur Anmeldung verwendet',
    newName: 'Neuer Name',
    rename: 'Umbenennen',
    remove: 'Entfernen',
    confirmLast:
      'Das ist mein einziger Passkey. Sobald meine Sitzungen enden, kann ich mich erst wieder anmelden, nachdem die Administration meine Anmeldung zurückgesetzt hat.',
    add: 'Passkey hinzufügen',
    addName: 'Name des neuen Passkeys (zum Beispiel „Arbeitslaptop“ oder „neues Telefon“)',
    addHint:
      'Ihr Browser fordert Sie auf, den Passkey anzulegen, auf diesem Gerät oder auf einem Telefon. Nur innerhalb von 15 Minuten nach der Anmeldung: Melden Sie sich sonst zuerst ab und wieder an.',
    sessions: 'Sitzungen',
    otherSessions: (n: number) =>
      n === 0
        ? 'Sie sind nur hier angemeldet.'
        : n === 1
          ? 'Sie sind hier und an einer weiteren Stelle angemeldet (in einem anderen Browser oder auf einem anderen Gerät).'
          : `Sie sind hier und an ${n} weiteren Stellen angemeldet (in anderen Browsern oder auf anderen Geräten).`,
    endOthers: 'Meine anderen Sitzungen beenden',
    endOthersHint:
      'Jeder andere Browser und jedes andere Gerät, das unter Ihrem Namen angemeldet ist, wird bei seinem nächsten Schritt abgemeldet. Tun Sie das, nachdem Sie einen verlorenen Passkey entfernt haben.',
  },
} satisfies Record<EditorLanguage, unknown>

/** The bar every signed-in screen shares (`screen.tsx`). */
export const BAR_TEXTS = {
  en: {
    product: 'Publishing',
    navigation: 'Publishing',
    skip: 'Skip to the content',
    editor: 'Editor',
    changes: 'Changes',
    releases: 'Releases',
    schedules: 'Schedules',
    people: 'People',
    audit: 'Audit trail',
    waitingForYou: (n: number) => `(${n} waiting for you)`,
    yourSignIn: 'Your sign-in:',
    otherLanguage: 'Deutsch',
    signOut: 'Sign out',
    confirmTitle: 'Are you sure?',
    confirmYes: 'Yes, go ahead',
    confirmNo: 'Cancel',
    /** What manage.js says when the service does not answer a screen's form. */
    noAnswer: 'The publishing service did not answer: please try again in a moment.',
    /** manage.js's button after a refusal because the screen is out of date (409). */
    showNewVersion: 'Show the new version',
  },
  de: {
    product: 'Redaktion',
    navigation: 'Redaktion',
    skip: 'Zum Inhalt springen',
    editor: 'Editor',
    changes: 'Änderungen',
    releases: 'Veröffentlichungen',
    schedules: 'Zeitpläne',
    people: 'Personen',
    audit: 'Prüfpfad',
    waitingForYou: (n: number) => (n === 1 ? '(1 wartet auf Sie)' : `(${n} warten auf Sie)`),
    yourSignIn: 'Ihre Anmeldung:',
    otherLanguage: 'English',
    signOut: 'Abmelden',
    confirmTitle: 'Sind Sie sicher?',
    confirmYes: 'Ja, fortfahren',
    confirmNo: 'Abbrechen',
    noAnswer: 'Der Redaktionsdienst hat nicht geantwortet: Bitte versuchen Sie es gleich erneut.',
    showNewVersion: 'Neue Fassung zeigen',
  },
} satisfies Record<EditorLanguage, unknown>

/** The audit trail's words for its actions, its columns and its filter (`audit.tsx`). */
export const AUDIT_TEXTS = {
  en: {
    filter: 'Show only',
    everything: 'every action',
    show: 'Show',
    service: 'the service itself',
    details: 'Details',
    noEntries: 'No entry of this kind yet.',
    commit: 'commit',
    detailNames: {
      reason: 'reason',
      code: 'rule',
      files: 'files',
      at: 'time',
      name: 'name',
      via: 'by way of',
      passkey: 'passkey',
      grant: 'grant',
      comment: 'comment',
      to: 'to',
      status: 'status',
      state: 'state',
      schedule: 'schedule',
      roles: 'roles',
      replaced: 'replaced',
      outcome: 'outcome',
      notices: 'e-mails',
      method: 'method',
      message: 'message',
      kind: 'kind',
      discarded: 'discarded',
      disabled: 'access taken away',
      approvalsWithdrawn: 'approvals withdrawn',
      unconfirmed: 'unconfirmed',
      commits: 'commits',
      commit: 'commit',
      author: 'author',
      authors: 'authors',
      access: 'access',
      administrators: 'administrators',
      anchors: 'anchors',
      approvedBy: 'approved by',
      by: 'by',
      codes: 'rules',
      count: 'count',
      createdBy: 'made by',
      draft: 'draft',
      draftId: 'draft',
      emergency: 'emergency',
      field: 'field',
      folder: 'release',
      from: 'from',
      head: 'version',
      invitedAt: 'invited at',
      invitedBy: 'invited by',
      lacks: 'lacks',
      live: 'live',
      path: 'path',
      proposedBy: 'proposed by',
      passkeysRemoved: 'passkeys removed',
      passkeysRevoked: 'passkeys revoked',
      recoveredAfterCrash: 'recovered after a crash',
      remote: 'repository',
      request: 'request',
      rolesBefore: 'roles before',
      rolesKept: 'roles kept',
      scheduledBy: 'scheduled by',
      sessionsEnded: 'sessions ended',
      targetCommit: 'target commit',
      until: 'until',
      was: 'was',
      whenDue: 'when due',
    } as Record<string, string>,
    actions: {
      'sign-in': 'signed in',
      'sign-out': 'signed out',
      'sign-in-refused': 'sign-in refused',
      invite: 'invited someone',
      'invite-replace': 'replaced an invitation',
      'role-change': 'changed roles',
      grant: 'proposed a role',
      'grant-confirm': 'confirmed a role',
      'grant-refuse': 'refused a role',
      'grant-withdraw': 'withdrew a role',
      'passkey-add': 'added a passkey',
      'passkey-rename': 'renamed a passkey',
      'passkey-remove': 'removed a passkey',
      'sign-in-reset': 'reset a sign-in',
      'sessions-end': 'ended sessions',
      save: 'saved a draft',
      delete: 'deleted an entry (as a draft)',
      upload: 'uploaded an image (as a draft)',
      submit: 'moved a draft to review',
      approve: 'approved a draft',
      'request-changes': 'sent a draft back',
      comment: 'commented',
      publish: 'published',
      'publish-failed': 'publication failed',
      rollback: 'rolled back',
      'rollback-request': 'asked for a rollback',
      'take-in': 'took in the bank’s repository',
      'unreviewed-live': 'unreviewed content went live',
      recovery: 'caught up with the repository',
      'first-release': 'served the first release',
      schedule: 'scheduled a publication',
      'schedule-cancel': 'cancelled a schedule',
      'schedule-fired': 'published as scheduled',
      refusal: 'refused: a rule said no',
      'audit-key': 'the trail’s key changed',
      'notice-setting': 'changed their e-mails',
      restore: 'restored from a backup',
      'restore-gap': 'a backup’s gap recorded',
    },
  },
  de: {
    filter: 'Nur anzeigen',
    everything: 'alle Aktionen',
    show: 'Anzeigen',
    service: 'der Dienst selbst',
    details: 'Einzelheiten',
    noEntries: 'Noch kein Eintrag dieser Art.',
    commit: 'Commit',
    detailNames: {
      reason: 'Grund',
      code: 'Regel',
      files: 'Dateien',
      at: 'Zeitpunkt',
      name: 'Name',
      via: 'über',
      passkey: 'Passkey',
      grant: 'Berechtigung',
      comment: 'Kommentar',
      to: 'an',
      status: 'Status',
      state: 'Zustand',
      schedule: 'Zeitplan',
      roles: 'Rollen',
      replaced: 'ersetzt',
      outcome: 'Ergebnis',
      notices: 'E-Mails',
      method: 'Methode',
      message: 'Meldung',
      kind: 'Art',
      discarded: 'verworfen',
      disabled: 'Zugang entzogen',
      approvalsWithdrawn: 'Freigaben zurückgezogen',
      unconfirmed: 'unbestätigt',
      commits: 'Commits',
      commit: 'Commit',
      author: 'Autor',
      authors: 'Autoren',
      access: 'Zugang',
      administrators: 'Administration',
      anchors: 'Anker',
      approvedBy: 'freigegeben von',
      by: 'von',
      codes: 'Regeln',
      count: 'Anzahl',
      createdBy: 'angelegt von',
      draft: 'Entwurf',
      draftId: 'Entwurf',
      emergency: 'Notfall',
      field: 'Feld',
      folder: 'Veröffentlichung',
      from: 'von',
      head: 'Fassung',
      invitedAt: 'eingeladen am',
      invitedBy: 'eingeladen von',
      lacks: 'fehlt',
      live: 'live',
      path: 'Pfad',
      proposedBy: 'vorgeschlagen von',
      passkeysRemoved: 'Passkeys entfernt',
      passkeysRevoked: 'Passkeys widerrufen',
      recoveredAfterCrash: 'nach einem Absturz wiederhergestellt',
      remote: 'Repository',
      request: 'Anfrage',
      rolesBefore: 'Rollen vorher',
      rolesKept: 'Rollen behalten',
      scheduledBy: 'geplant von',
      sessionsEnded: 'Sitzungen beendet',
      targetCommit: 'Ziel-Commit',
      until: 'bis',
      was: 'war',
      whenDue: 'fällig am',
    } as Record<string, string>,
    actions: {
      'sign-in': 'angemeldet',
      'sign-out': 'abgemeldet',
      'sign-in-refused': 'Anmeldung abgelehnt',
      invite: 'jemanden eingeladen',
      'invite-replace': 'eine Einladung ersetzt',
      'role-change': 'Rollen geändert',
      grant: 'eine Rolle vorgeschlagen',
      'grant-confirm': 'eine Rolle bestätigt',
      'grant-refuse': 'eine Rolle abgelehnt',
      'grant-withdraw': 'eine Rolle zurückgezogen',
      'passkey-add': 'einen Passkey hinzugefügt',
      'passkey-rename': 'einen Passkey umbenannt',
      'passkey-remove': 'einen Passkey entfernt',
      'sign-in-reset': 'eine Anmeldung zurückgesetzt',
      'sessions-end': 'Sitzungen beendet',
      save: 'einen Entwurf gespeichert',
      delete: 'einen Eintrag gelöscht (als Entwurf)',
      upload: 'ein Bild hochgeladen (als Entwurf)',
      submit: 'einen Entwurf zur Prüfung gegeben',
      approve: 'einen Entwurf freigegeben',
      'request-changes': 'einen Entwurf zurückgegeben',
      comment: 'kommentiert',
      publish: 'veröffentlicht',
      'publish-failed': 'Veröffentlichung fehlgeschlagen',
      rollback: 'zurückgesetzt',
      'rollback-request': 'eine Rücksetzung erbeten',
      'take-in': 'das Repository der Bank übernommen',
      'unreviewed-live': 'ungeprüfter Inhalt ging live',
      recovery: 'mit dem Repository gleichgezogen',
      'first-release': 'die erste Veröffentlichung bereitgestellt',
      schedule: 'eine Veröffentlichung geplant',
      'schedule-cancel': 'einen Zeitplan abgesagt',
      'schedule-fired': 'wie geplant veröffentlicht',
      refusal: 'abgelehnt: eine Regel sagte nein',
      'audit-key': 'der Schlüssel des Prüfpfads wechselte',
      'notice-setting': 'E-Mail-Einstellung geändert',
      restore: 'aus einer Sicherung wiederhergestellt',
      'restore-gap': 'eine Lücke der Sicherung vermerkt',
    },
  },
} satisfies Record<
  EditorLanguage,
  { actions: Record<AuditAction, string> } & Record<string, unknown>
>
