/**
 * The HTML of the service's pages beside the editor: people and roles, the audit trail, the
 * changes waiting to go live, schedules and releases (their routes: `http/manage-routes.ts`).
 * Each page is plain HTML that works by keyboard; its actions are forms whose buttons come
 * disabled until `/_publishing/manage.js` posts them as JSON. A page offers each person what the
 * rules allow them; the routes check again whatever a page offered.
 */
import { escapeHtml } from '../../shared/html'
import type { verifyWithAnchors } from '../audit/anchors'
import type { AuditAction, AuditEntry } from '../audit/trail'
import { changeAnchor } from '../notices/notices'
import { waitingFor } from '../notices/waiting'
import { type EditorLanguage, type Person, ROLES, type Role } from '../people/roles'
import type { FileReview } from '../review/compare'
import { berlinTime } from '../workflow/berlin-time'
import { type DraftView, MEDIA_DRAFTS } from '../workflow/drafts'
import {
  type Decision,
  mayApprove,
  mayPublish,
  mayRequestChanges,
  ROLE_NAMES,
  shortVersion,
} from '../workflow/four-eyes'
import type { RollbackChanges } from '../workflow/rollbacks'
import type { Schedule } from '../workflow/schedules'
import type { PeopleView, PersonRowView } from './people-view'
import type { ReleasesView } from './releases-view'
import { fileReviewHtml } from './review'
import { layout } from './service-pages'
import { MANAGE_TEXTS } from './texts'

type Texts = (typeof MANAGE_TEXTS)[EditorLanguage]

/** Longer text is not shown on the page of changes (the editor shows it). */
const SOURCE_SHOWN_BYTES = 200 * 1024
const MANAGE_SCRIPTS = ['/_publishing/manage.js']

export { berlinTime }

/** The service's pages; `waiting`: the drafts waiting for the person (notices/waiting.ts). */
export const serviceNav = (language: EditorLanguage, waiting = 0) => {
  const t = MANAGE_TEXTS[language]
  return `<nav aria-label="Service"><a href="/admin/">${t.editor}</a> · <a href="/changes">${t.changesWaiting(waiting)}</a> · <a href="/releases">${t.releases}</a> · <a href="/schedules">${t.schedules}</a> · <a href="/people">${t.people}</a> · <a href="/audit">${t.audit}</a> · <a href="/me/sign-in">${t.yourSignIn}</a></nav>`
}
const nav = serviceNav

/** A page the person's roles do not open, saying why. */
export function forbiddenPage(language: EditorLanguage, reason: string): string {
  return layout(language, '403', `<h1>403</h1><p>${escapeHtml(reason)}</p>${nav(language)}`)
}

/**
 * People and their roles, each changeable, the grants that wait for a second administrator
 * (with Confirm and Refuse where the rules let the viewer), and the form that makes an
 * invitation link. The data comes from `peopleView` (`people-view.ts`).
 */
export function peoplePage(language: EditorLanguage, view: PeopleView, waiting?: number): string {
  const t = MANAGE_TEXTS[language]
  const names = ROLE_NAMES[language]
  const roleList = (roles: readonly Role[]) =>
    roles.map((role) => escapeHtml(names[role])).join(', ')
  /**
   * The roles' checkboxes, `checked` ticked; those `waiting` for a second administrator are
   * ticked too and say so: saving them again keeps their grant, unticking one replaces it.
   */
  const roleBoxes = (
    prefix: string,
    checked: readonly Role[],
    { waiting = [], hint }: { waiting?: readonly Role[]; hint?: string } = {},
  ) =>
    `<fieldset${hint ? ` aria-describedby="${hint}"` : ''}><legend>${t.roles}</legend>${ROLES.map(
      (role) =>
        `<label><input type="checkbox" name="roles" value="${role}"${checked.includes(role) || waiting.includes(role) ? ' checked' : ''} id="${prefix}-${role}"> ${escapeHtml(names[role])}${waiting.includes(role) ? ` <em>(${t.awaitingMark})</em>` : ''}</label>`,
    ).join(' ')}</fieldset>`
  const held = (someone: PersonRowView) => {
    const roles = someone.roles.map(
      (role) =>
        `${escapeHtml(names[role])}${someone.unconfirmed.includes(role) ? ` <strong class="unconfirmed">(${t.unconfirmedMark})</strong>` : ''}`,
    )
    const pending = someone.pending.length
      ? `; ${roleList(someone.pending)} <em>(${t.awaitingMark})</em>`
      : ''
    const passkeys = someone.passkeys === null ? '' : ` · ${t.passkeyCount(someone.passkeys)}`
    return `<p>${t.hasRoles}: ${roles.length ? roles.join(', ') : t.noRoles}${pending}${passkeys}</p>`
  }
  /** A reset for others (passkeys only; one's own is on "Your sign-in"), and ending sessions. */
  const signInActions = (someone: PersonRowView, index: number, email: string) =>
    `${
      someone.resettable
        ? `<form data-action="/api/people/reset-sign-in" data-show="link">${email}<button class="secondary" type="submit" aria-describedby="person-${index} reset-hint" disabled>${t.resetSignIn}</button></form>`
        : ''
    }<form data-action="/api/people/end-sessions" data-show="done">${email}<button class="secondary" type="submit" aria-describedby="person-${index}" disabled>${t.endSessions}</button></form>`
  const rows = view.people
    .map((someone, index) => {
      const email = `<input type="hidden" name="email" value="${escapeHtml(someone.email)}">`
      const actions = someone.disabled
        ? `<p>${t.noAccess}</p>`
        : `<form data-action="/api/people/roles" data-reload>${email}${roleBoxes(`p${index}`, someone.roles, { waiting: someone.pending })}<button type="submit" aria-describedby="person-${index}" disabled>${t.save}</button></form>
<form data-action="/api/people/disable" data-reload>${email}<button class="secondary" type="submit" aria-describedby="person-${index}" disabled>${t.disable}</button></form>
${signInActions(someone, index, email)}`
      return `<li><h2 id="person-${index}">${escapeHtml(someone.name)} &lt;${escapeHtml(someone.email)}&gt;${someone.disabled ? ` (${t.disabled})` : ''}</h2>
${held(someone)}${actions}</li>`
    })
    .join('\n')
  const grants = view.grants
    .map((grant) => {
      const id = `grant-${grant.id}`
      // By address only: the name is the person's own choice, the address the administrator's.
      const who = grant.email
      const hidden = `<input type="hidden" name="id" value="${grant.id}">`
      const about = `aria-describedby="${id}"`
      const confirm = grant.confirm.allowed
        ? `<form data-action="/api/people/grants/confirm" data-reload>${hidden}<button type="submit" ${about} disabled>${t.confirm}</button></form>`
        : `<p class="why-not">${escapeHtml(grant.confirmable ? grant.confirm.reason : t.nobodyCanConfirm)}</p>`
      const refuse = grant.refuse.allowed
        ? `<form data-action="/api/people/grants/refuse" data-reload>${hidden}<button class="secondary" type="submit" ${about} disabled>${grant.withdraw ? t.withdraw : t.refuse}</button></form>`
        : ''
      return `<li><h3 id="${id}">${escapeHtml(t.grantFor(grant.roles.map((role) => names[role]).join(', '), who))}</h3>
<p>${escapeHtml(t.grantProposed(grant.proposedBy, berlinTime(grant.proposedAt, language), grant.via === 'invitation'))}. <strong${grant.awaiting === 'unconfirmed' ? ' class="unconfirmed"' : ''}>${t.grantStates[grant.awaiting]}</strong></p>
${confirm}${refuse}</li>`
    })
    .join('\n')
  const notice = view.unconfirmed
    ? `<div class="notice" role="note"><p>${escapeHtml(t.unconfirmedNotice(view.unconfirmed))}</p></div>`
    : ''
  return layout(
    language,
    t.people,
    `${nav(language, waiting)}<h1>${t.people}</h1>${notice}
<section aria-labelledby="grants"><h2 id="grants">${t.grants}</h2><p>${t.grantsIntro}</p>
${grants ? `<ul class="grants">${grants}</ul>` : `<p>${t.noGrants}</p>`}</section>
${view.people.some((someone) => someone.resettable) ? `<p id="reset-hint">${t.resetHint}</p>` : ''}
<ul>${rows}</ul>
<h2>${t.invite}</h2>
<form data-action="/api/people/invite" data-show="link"><label for="invite-email">${t.email}</label><input id="invite-email" name="email" type="email" required>${roleBoxes('invite', ['author'], { hint: 'invite-hint' })}<p id="invite-hint">${t.inviteHint}</p><button type="submit" disabled>${t.sendInvitation}</button></form>
<div role="status" id="status"></div>`,
    MANAGE_SCRIPTS,
  )
}

/** One page of the audit trail, the newest first, with what the chain's check found. */
export function auditPage(
  language: EditorLanguage,
  view: {
    check: Awaited<ReturnType<typeof verifyWithAnchors>>['check']
    outcome: Awaited<ReturnType<typeof verifyWithAnchors>>['outcome']
    shown: readonly AuditEntry[]
    /** The action the page shows only, if any. */
    action: AuditAction | undefined
    /** Entries on a full page: one that is full links to the older ones. */
    pageSize: number
    /** Drafts waiting for the person, for the navigation. */
    waiting?: number
  },
): string {
  const t = MANAGE_TEXTS[language]
  const { check, outcome, shown, action } = view
  const anchored =
    check.ok && check.anchors && check.anchors.checked > 0
      ? ` ${t.anchored(check.anchors.checked, check.anchors.last)}`
      : check.ok
        ? ` ${t.notAnchored}`
        : ''
  const unchecked = check.ok && check.unchecked ? ` ${t.unchecked(check.unchecked.entries)}` : ''
  const unanchored = outcome.kind === 'unanchored' ? ` ${t.unanchoredYet(outcome.unanchored)}` : ''
  const noKey =
    outcome.kind === 'unverifiable' && /^AUDIT_KEY is not set/.test(outcome.reason)
      ? ` ${t.noKey}`
      : ''
  const summary =
    outcome.kind === 'tampered'
      ? t.chainBroken(outcome.brokenAt, outcome.reason)
      : `${t.chainOk(check.entries)}${anchored}${unanchored}${unchecked}${noKey}`
  const oldest = shown.at(-1)?.id
  const older =
    shown.length === view.pageSize && oldest
      ? `<p><a href="/audit?before=${oldest}${action ? `&amp;action=${action}` : ''}">${t.older}</a></p>`
      : ''
  const rows = shown
    .map(
      (entry) =>
        `<tr><td>${entry.id}</td><td>${escapeHtml(berlinTime(entry.at, language))}</td><td>${escapeHtml(entry.actor)}</td><td>${escapeHtml(entry.action)}</td><td>${escapeHtml(entry.subject)}</td><td>${escapeHtml(
          [entry.before, entry.after]
            .filter(Boolean)
            .map((commit) => String(commit).slice(0, 12))
            .join(' → '),
        )}</td><td>${escapeHtml(JSON.stringify(entry.details))}</td></tr>`,
    )
    .join('\n')
  return layout(
    language,
    t.audit,
    `${nav(language, view.waiting)}<h1>${t.audit}</h1>
<p>${escapeHtml(summary)}</p>
<p>${t.download}: <a href="/audit.csv" download>CSV</a> · <a href="/audit.json" download>JSON</a></p>
<div class="table" role="region" aria-label="${t.audit}" tabindex="0"><table><caption>${t.audit}</caption><thead><tr><th scope="col">#</th><th scope="col">${t.when}</th><th scope="col">${t.who}</th><th scope="col">${t.what}</th><th scope="col">${t.subject}</th><th scope="col">${t.commits}</th><th scope="col">Details</th></tr></thead><tbody>${rows}</tbody></table></div>${older}`,
  )
}

/** A file of a draft as the page of changes lists it. */
export interface ChangedFile {
  path: string
  kind: 'added' | 'changed' | 'deleted'
  /** An entry's fields that changed, as its reviewer reads them. */
  review?: FileReview
  /** A drawing's source (an added one) or what changed in it (git's diff), to read. */
  source?: string
}

/**
 * A text file of a draft as a reviewer reads it: a new one as its source, a changed one as
 * what changed against the live version. Long ones are not shown whole.
 */
function sourceView(file: ChangedFile, key: string, t: Texts): string {
  const text = file.source ?? ''
  const bytes = Buffer.byteLength(text)
  const body =
    bytes > SOURCE_SHOWN_BYTES
      ? `<p>${escapeHtml(t.sourceTooLong(`${Math.round(bytes / 1024)} KB`))}</p>`
      : `<pre tabindex="0"><code>${escapeHtml(text)}</code></pre>`
  return `<details><summary id="source-${key}">${escapeHtml(file.kind === 'added' ? t.sourceOf(file.path) : t.changesOf(file.path))}</summary>${body}</details>`
}

/** An image of the live site, as the service shows it to signed-in people. */
const siteImage = (value: string) => `/${value.replace(/^\//, '')}`

/** One draft on the page of changes: its files, comments, links and the person's actions. */
function draftItem(
  person: Person,
  draft: DraftView,
  files: readonly ChangedFile[],
  index: number,
): string {
  const t = MANAGE_TEXTS[person.language]
  const has = (role: string) => (person.roles as readonly string[]).includes(role)
  const media = draft.id.startsWith(`${MEDIA_DRAFTS}/`)
  const deletion = draft.files.length > 0 && draft.deletes.length === draft.files.length
  const hidden = `<input type="hidden" name="id" value="${escapeHtml(draft.id)}">`
  // A decision is on the version shown here: the service refuses it if another is there now.
  const version = `<input type="hidden" name="version" value="${escapeHtml(draft.head)}">`
  // Every draft has the same buttons: each names its draft to a screen reader.
  const about = `aria-describedby="draft-${index}"`
  const fileItems = files
    .map((file, fileIndex) => {
      const image =
        file.path.startsWith('public/images/') && file.kind !== 'deleted'
          ? `<br><img src="/changes/image?id=${encodeURIComponent(draft.id)}&amp;path=${encodeURIComponent(file.path)}" alt="${escapeHtml(t.imageOf(file.path))}" width="240">`
          : ''
      // A reviewer approves what the files say: text (an entry, a drawing) as its source, a
      // changed one as what changed.
      const source = file.source === undefined ? '' : sourceView(file, `${index}-${fileIndex}`, t)
      const review = file.review
        ? fileReviewHtml(file.review, person.language, {
            before: siteImage,
            after: (value) => {
              const path = `public/${value.replace(/^\//, '')}`
              return draft.files.includes(path)
                ? `/changes/image?id=${encodeURIComponent(draft.id)}&path=${encodeURIComponent(path)}`
                : siteImage(value)
            },
          })
        : ''
      return `<li class="file"><h3><code>${escapeHtml(file.path)}</code> (${t.kinds[file.kind]})</h3>${image}${review}${source}</li>`
    })
    .join('')
  const comments = draft.comments
    .map(
      (comment) =>
        `<li>${escapeHtml(comment.by)}, ${escapeHtml(berlinTime(comment.at, person.language))}: ${escapeHtml(comment.body)}</li>`,
    )
    .join('')
  // Each person is offered what the rules allow them, and told why not where their role would
  // otherwise allow it: the same rules the service enforces on every request.
  const approval = mayApprove(person, draft)
  const publication = mayPublish(person, draft)
  const whyNot = (decision: Decision, action: keyof Texts['actionNames']) =>
    !decision.allowed && decision.code !== 'role'
      ? `<p class="why-not">${escapeHtml(t.mayNot(t.actionNames[action], decision.reason))}</p>`
      : ''
  const actions = [
    draft.status === 'pending_publish'
      ? ''
      : approval.allowed
        ? `<form data-action="/api/changes/approve" data-reload>${hidden}${version}<button type="submit" ${about} disabled>${t.approve}</button></form>`
        : whyNot(approval, 'approve'),
    mayRequestChanges(person).allowed && draft.status !== 'draft'
      ? `<form data-action="/api/changes/send-back" data-reload>${hidden}<label for="comment-${index}">${t.comment}</label><textarea id="comment-${index}" name="comment" required maxlength="5000"></textarea><button class="secondary" type="submit" ${about} disabled>${t.sendBack}</button></form>`
      : '',
    draft.status !== 'pending_publish'
      ? ''
      : publication.allowed
        ? `<form data-action="/api/changes/publish" data-reload>${hidden}${version}<button type="submit" ${about} disabled>${t.publishNow}</button></form>`
        : whyNot(publication, 'publish'),
    has('author')
      ? `<form data-action="/api/changes/discard" data-reload>${hidden}<button class="secondary" type="submit" ${about} disabled>${t.discard}</button></form>`
      : '',
  ].join('')
  const links = media
    ? ''
    : `<p><a href="/admin/#/collections/${escapeHtml(draft.id.split('/')[0] ?? '')}/entries/${escapeHtml(draft.id.split('/').slice(1).join('/'))}">${t.openInEditor}</a> · <a href="/preview/${escapeHtml(draft.id)}">${t.previewSite}</a></p>`
  return `<li id="${escapeHtml(changeAnchor(draft.id))}"><h2 id="draft-${index}">${escapeHtml(draft.id)}${deletion ? ` (${t.deletion})` : ''}: ${t.statuses[draft.status]}</h2>
<p class="version">${escapeHtml(t.versionSaved(shortVersion(draft.head), draft.saved.by, berlinTime(draft.saved.at, person.language)))}</p>
<p>${t.by} ${escapeHtml(draft.writers.join(', '))}${draft.submission && draft.status !== 'draft' ? `; ${escapeHtml(t.submittedBy(draft.submission.by))}` : ''}${draft.approval && draft.status === 'pending_publish' ? `; ${t.approvedBy} ${escapeHtml(draft.approval.by)}` : ''}</p>
<ul>${fileItems}</ul>${comments ? `<ul>${comments}</ul>` : ''}${links}${actions}</li>`
}

/** Every draft waiting to go live, with the actions the person's roles allow. */
export function changesPage(
  person: Person,
  drafts: readonly { draft: DraftView; files: readonly ChangedFile[] }[],
): string {
  const t = MANAGE_TEXTS[person.language]
  const rows = drafts
    .map(({ draft, files }, index) => draftItem(person, draft, files, index))
    .join('\n')
  return layout(
    person.language,
    t.changes,
    `${nav(
      person.language,
      waitingFor(
        person,
        drafts.map(({ draft }) => draft),
      ),
    )}<h1>${t.changes}</h1><p>${t.changesIntro}</p>
${rows ? `<ul class="changes">${rows}</ul>` : `<p>${t.noChanges}</p>`}
<div role="status" id="status" data-reload="${escapeHtml(t.showNewVersion)}"></div>`,
    MANAGE_SCRIPTS,
  )
}

/** Approved drafts to schedule (`soon`: the time offered), and the schedules made. */
export function schedulesPage(
  language: EditorLanguage,
  view: {
    ready: readonly DraftView[]
    schedules: readonly Schedule[]
    soon: string
    /** Drafts waiting for the person, for the navigation. */
    waiting?: number
  },
): string {
  const t = MANAGE_TEXTS[language]
  const readyRows = view.ready
    .map(
      (
        draft,
        index,
      ) => `<li><strong>${escapeHtml(draft.id)}</strong>${draft.deletes.length > 0 && draft.deletes.length === draft.files.length ? ` (${t.deletion})` : ''}, ${escapeHtml(draft.approval?.by ?? '')}
<form data-action="/api/schedules" data-reload><input type="hidden" name="draft" value="${escapeHtml(draft.id)}"><label for="at-${index}">${t.publishAt}</label><input id="at-${index}" name="at" type="datetime-local" required value="${view.soon}"><button type="submit" disabled>${t.schedule}</button></form></li>`,
    )
    .join('\n')
  const planned = view.schedules
    .map(
      (
        schedule,
      ) => `<li><strong>${escapeHtml(schedule.draftId)}</strong>: ${escapeHtml(berlinTime(schedule.at, language))}, ${escapeHtml(t.states[schedule.state])}${schedule.outcome ? ` (${escapeHtml(schedule.outcome)})` : ''}, ${escapeHtml(schedule.createdBy)}
${schedule.state === 'pending' ? `<form data-action="/api/schedules/cancel" data-reload><input type="hidden" name="id" value="${schedule.id}"><button class="secondary" type="submit" disabled>${t.cancel}</button></form>` : ''}</li>`,
    )
    .join('\n')
  return layout(
    language,
    t.schedules,
    `${nav(language, view.waiting)}<h1>${t.schedules}</h1>
<h2>${t.ready}</h2>${readyRows ? `<ul>${readyRows}</ul>` : `<p>${t.noReady}</p>`}
<h2>${t.planned}</h2>${planned ? `<ul>${planned}</ul>` : `<p>${t.noSchedules}</p>`}
<div role="status" id="status"></div>`,
    MANAGE_SCRIPTS,
  )
}

/**
 * What a rollback brought back and took away (`done`), or would (a request), and whose work:
 * lists of files and drafts.
 */
function rollbackChangesView(changes: RollbackChanges, t: Texts, done: boolean): string {
  const labels = done ? t.rollbackDid : t.rollbackWould
  const list = (label: string, items: readonly string[]) =>
    items.length > 0
      ? `<p>${label}:</p><ul>${items.map((item) => `<li><code>${escapeHtml(item)}</code></li>`).join('')}</ul>`
      : ''
  return [
    list(labels.returns, changes.returns),
    list(labels.goes, changes.goes),
    list(labels.changes, changes.changes),
    list(labels.undoes, changes.publications),
    changes.writers.length > 0
      ? `<p>${escapeHtml(t.rollbackWriters(changes.writers.join(', ')))}</p>`
      : '',
  ].join('')
}

/**
 * The releases, the live one first, each with the rollback the rules offer the person (at once
 * in an emergency, or asked for); then the rollbacks waiting for a reviewer, with a confirm
 * button for who may confirm them (`releasesView` in `releases-view.ts` decides).
 */
export function releasesPage(
  language: EditorLanguage,
  view: ReleasesView,
  waitingForPerson?: number,
): string {
  const t = MANAGE_TEXTS[language]
  const rows = view.releases
    .map((release, index) => {
      const heading = `${escapeHtml(berlinTime(release.liveAt, language))}${release.live ? ` <strong class="live">(${t.live})</strong>` : ''}${release.rollback?.emergency ? ` <strong class="emergency">(${t.emergency})</strong>` : ''}`
      const made = [
        t.releaseBy(t.releaseKinds[release.kind], release.madeBy),
        ...(release.approvedBy ? [t.releaseApproved(release.approvedBy)] : []),
        ...(release.rollback?.requestedBy ? [t.rollbackAskedBy(release.rollback.requestedBy)] : []),
      ].join(', ')
      const what =
        release.kind === 'rollback'
          ? `<p>${escapeHtml(t.releaseRolledBackTo(release.subject))}</p>${release.rollback?.changes ? rollbackChangesView(release.rollback.changes, t, true) : ''}`
          : (
              [
                [t.releaseChanged, release.files],
                [t.releaseDeleted, release.deleted],
              ] as const
            )
              .filter(([, files]) => files.length > 0)
              .map(
                ([label, files]) =>
                  `<p>${label} (${escapeHtml(release.subject)}):</p><ul>${files.map((file) => `<li><code>${escapeHtml(file)}</code></li>`).join('')}</ul>`,
              )
              .join('')
      const unreviewed =
        release.unreviewed.length > 0
          ? `<div class="notice"><p>${t.unreviewed}</p><ul>${release.unreviewed
              .map(
                (taken) =>
                  `<li>${escapeHtml(t.unreviewedCommit(taken.commit.slice(0, 12), taken.author))}: ${taken.files.map((file) => `<code>${escapeHtml(file)}</code>`).join(', ')}</li>`,
              )
              .join('')}</ul></div>`
          : ''
      const rollback = (label: string) =>
        `<form data-action="/api/releases/rollback" data-reload><input type="hidden" name="folder" value="${escapeHtml(release.folder)}"><button type="submit" disabled aria-describedby="release-${index}">${label}</button></form>`
      const offer =
        release.offer === 'emergency'
          ? rollback(t.rollBackNow)
          : release.offer === 'request'
            ? rollback(t.askRollBack)
            : release.offer === 'waiting'
              ? `<p>${t.rollbackWaiting}</p>`
              : ''
      return `<li aria-labelledby="release-${index}"><h2 id="release-${index}">${heading}</h2>
<p>${escapeHtml(made)}. ${t.releaseCommit} <code>${escapeHtml(release.commit.slice(0, 12))}</code>, <code>${escapeHtml(release.folder)}</code>.</p>
${what}${unreviewed}
${offer}</li>`
    })
    .join('\n')
  const requests = view.requests
    .map(
      (
        request,
      ) => `<li aria-labelledby="request-${request.id}"><h3 id="request-${request.id}">${escapeHtml(t.rollbackRequestTo(request.folder))}</h3>
<p>${escapeHtml(t.rollbackRequestBy(request.requestedBy, berlinTime(request.requestedAt, language)))}</p>
<p>${t.rollbackWhy} ${escapeHtml(request.reason)}</p>
${rollbackChangesView(request.changes, t, false)}
${
  request.confirm.allowed
    ? `<form data-action="/api/releases/confirm" data-reload><input type="hidden" name="id" value="${request.id}"><button type="submit" disabled aria-describedby="request-${request.id}">${t.confirmRollback}</button></form>`
    : request.confirm.whyNot
      ? `<p class="why-not">${escapeHtml(t.mayNot(t.confirmRollbackName, request.confirm.whyNot))}</p>`
      : ''
}</li>`,
    )
    .join('\n')
  const waiting = requests
    ? `<h2>${t.rollbackRequests}</h2><p>${t.rollbackRequestsIntro}</p><ul class="rollback-requests">${requests}</ul>`
    : ''
  return layout(
    language,
    t.releases,
    `${nav(language, waitingForPerson)}<h1>${t.releases}</h1><p>${t.releasesIntro}</p>${waiting}${rows ? `<ol class="releases">${rows}</ol>` : `<p>${t.noReleases}</p>`}<div role="status" id="status"></div>`,
    MANAGE_SCRIPTS,
  )
}
