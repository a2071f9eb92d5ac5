/**
 * The service's pages beside the editor: people and roles (administrators), the audit trail and
 * its export (administrators), and the releases with rollback (publishers). Each page is plain
 * HTML that works by keyboard; its actions are JSON posts from `/_publishing/manage.js`, checked
 * again here whatever the page offered, each refusal a message naming who may do it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { escapeHtml } from '../../shared/html'
import { verifyWithAnchors } from '../audit/anchors'
import {
  AUDIT_ACTIONS,
  type AuditAction,
  appendAudit,
  exportAudit,
  readAudit,
} from '../audit/trail'
import { refusal, unrecorded } from '../http/editor-api'
import {
  disablePerson,
  invite,
  listPeople,
  normalEmail,
  PeopleError,
  setRoles,
} from '../people/people'
import { type EditorLanguage, type Person, ROLES } from '../people/roles'
import type { PublishingService } from '../service'
import { type DraftView, MEDIA_DRAFTS, RefusedError } from '../workflow/drafts'
import {
  type Decision,
  mayApprove,
  mayManagePeople,
  mayPublish,
  mayRequestChanges,
  mayRollBack,
  ROLE_NAMES,
} from '../workflow/four-eyes'
import { berlinLocal, fromBerlinTime, ScheduleError } from '../workflow/schedules'
import { layout } from './service-pages'

const JSON_TYPE = 'application/json; charset=utf-8'
/** Entries on one page of the audit trail. */
const AUDIT_PAGE = 200
/** An image served on the service's origin, opened on its own, runs nothing (an SVG). */
export const IMAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
/** The images the site takes, by extension: what a draft's or main's image is served as. */
export const IMAGE_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
}

/** Files a reviewer reads as text: entries and drawings. */
const TEXT_FILE = /\.(ya?ml|md|svg|json)$/i
/** Longer text is not shown on the page of changes (the editor shows it). */
const SOURCE_SHOWN_BYTES = 200 * 1024

const TEXTS = {
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

const BERLIN = {
  en: new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'medium',
  }),
  de: new Intl.DateTimeFormat('de-DE', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'medium',
    timeStyle: 'medium',
  }),
}
/** A moment as people at the bank read it: Berlin time, with the zone named. */
export const berlinTime = (iso: string, language: EditorLanguage) =>
  `${BERLIN[language].format(new Date(iso))} (Berlin)`

const nav = (language: EditorLanguage) => {
  const t = TEXTS[language]
  return `<nav aria-label="Service"><a href="/admin/">${t.editor}</a> · <a href="/changes">${t.changes}</a> · <a href="/releases">${t.releases}</a> · <a href="/schedules">${t.schedules}</a> · <a href="/people">${t.people}</a> · <a href="/audit">${t.audit}</a></nav>`
}

export interface ManageOptions {
  service: PublishingService
  signedIn(request: FastifyRequest): Promise<Person | null>
}

export async function manageRoutes(app: FastifyInstance, { service, signedIn }: ManageOptions) {
  const { database, clock, publisher } = service
  const refuse = (reply: FastifyReply, status: number, error: string) =>
    reply.code(status).type(JSON_TYPE).send({ error })

  /** The signed-in person if `decide` allows them; else the answer is sent (and audited). */
  const allowed = async (
    request: FastifyRequest,
    reply: FastifyReply,
    decide: (person: Person) => Decision,
    subject: string,
  ): Promise<Person | null> => {
    // A read (GET, or HEAD, its twin) changes nothing, a refused one not even the trail.
    const reading = request.method === 'GET' || request.method === 'HEAD'
    const person = await signedIn(request)
    if (!person) {
      if (reading) reply.redirect('/sign-in', 303)
      else refuse(reply, 401, 'Please sign in again.')
      return null
    }
    const decision = decide(person)
    if (decision.allowed) return person
    if (!reading) {
      await appendAudit(
        database,
        {
          actor: person.email,
          action: 'refusal',
          subject,
          details: { code: decision.code, reason: decision.reason },
        },
        clock(),
      )
    }
    if (reading) {
      reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          layout(
            person.language,
            '403',
            `<h1>403</h1><p>${escapeHtml(decision.reason)}</p>${nav(person.language)}`,
          ),
        )
    } else refuse(reply, 403, decision.reason)
    return null
  }

  const body = (request: FastifyRequest) =>
    (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >
  const rolesFrom = (value: unknown) =>
    (Array.isArray(value) ? value : [value]).filter(
      (role): role is string => typeof role === 'string',
    )

  // ——— people ———
  app.get('/people', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return
    const t = TEXTS[person.language]
    const names = ROLE_NAMES[person.language]
    const roleBoxes = (prefix: string, checked: readonly string[]) =>
      `<fieldset><legend>${t.roles}</legend>${ROLES.map(
        (role) =>
          `<label><input type="checkbox" name="roles" value="${role}"${checked.includes(role) ? ' checked' : ''} id="${prefix}-${role}"> ${escapeHtml(names[role])}</label>`,
      ).join(' ')}</fieldset>`
    const rows = (await listPeople(database))
      .map(
        (
          someone,
          index,
        ) => `<li><h2>${escapeHtml(someone.name)} &lt;${escapeHtml(someone.email)}&gt;${someone.disabled ? ` (${t.disabled})` : ''}</h2>
<form data-action="/api/people/roles" data-reload><input type="hidden" name="email" value="${escapeHtml(someone.email)}">${roleBoxes(`p${index}`, someone.roles)}<button type="submit" disabled>${t.save}</button></form>
${someone.disabled ? '' : `<form data-action="/api/people/disable" data-reload><input type="hidden" name="email" value="${escapeHtml(someone.email)}"><button class="secondary" type="submit" disabled>${t.disable}</button></form>`}</li>`,
      )
      .join('\n')
    return reply.type('text/html; charset=utf-8').send(
      layout(
        person.language,
        t.people,
        `${nav(person.language)}<h1>${t.people}</h1>
<ul>${rows}</ul>
<h2>${t.invite}</h2>
<form data-action="/api/people/invite" data-show="link"><label for="invite-email">${t.email}</label><input id="invite-email" name="email" type="email" required>${roleBoxes('invite', ['author'])}<button type="submit" disabled>${t.sendInvitation}</button></form>
<div role="status" id="status"></div>`,
        ['/_publishing/manage.js'],
      ),
    )
  })
  app.post('/api/people/invite', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return
    const { email, roles } = body(request)
    try {
      const invitation = await invite(
        database,
        { email: String(email ?? ''), roles: rolesFrom(roles), by: person.email },
        clock(),
      )
      await appendAudit(
        database,
        {
          actor: person.email,
          action: 'invite',
          subject: normalEmail(String(email)),
          details: { roles: rolesFrom(roles) },
        },
        clock(),
      )
      return {
        link: `${service.settings.url}/invitation#${invitation.token}`,
        expiresAt: invitation.expiresAt.toISOString(),
      }
    } catch (error) {
      if (error instanceof PeopleError) return refuse(reply, 422, error.message)
      throw error
    }
  })
  app.post('/api/people/roles', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return
    const { email, roles } = body(request)
    try {
      const changed = await setRoles(database, String(email ?? ''), rolesFrom(roles), clock())
      await appendAudit(
        database,
        {
          actor: person.email,
          action: 'role-change',
          subject: changed.email,
          details: {
            roles: changed.roles,
            ...(changed.approvalsWithdrawn.length
              ? { approvalsWithdrawn: changed.approvalsWithdrawn }
              : {}),
          },
        },
        clock(),
      )
      return { email: changed.email, roles: changed.roles }
    } catch (error) {
      if (error instanceof PeopleError) return refuse(reply, 422, error.message)
      throw error
    }
  })
  app.post('/api/people/disable', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return
    try {
      const email = normalEmail(String(body(request).email ?? ''))
      if (email === person.email) {
        return refuse(
          reply,
          422,
          'You cannot take your own access away: ask another administrator.',
        )
      }
      const { approvalsWithdrawn } = await disablePerson(database, email, clock())
      await appendAudit(
        database,
        {
          actor: person.email,
          action: 'role-change',
          subject: email,
          details: {
            disabled: true,
            ...(approvalsWithdrawn.length ? { approvalsWithdrawn } : {}),
          },
        },
        clock(),
      )
      return { email, disabled: true }
    } catch (error) {
      if (error instanceof PeopleError) return refuse(reply, 422, error.message)
      throw error
    }
  })

  // ——— the audit trail ———
  app.get<{ Querystring: { action?: string; before?: string } }>(
    '/audit',
    async (request, reply) => {
      const person = await allowed(request, reply, mayManagePeople, 'audit')
      if (!person) return
      const t = TEXTS[person.language]
      // Against the anchors in the service's repository (the remote's are `verify`'s: a page
      // that fetched them would write refs on a GET).
      const { check } = await verifyWithAnchors(database, service.repo)
      const anchored =
        check.ok && check.anchors && check.anchors.checked > 0
          ? ` ${t.anchored(check.anchors.checked, check.anchors.last)}`
          : check.ok
            ? ` ${t.notAnchored}`
            : ''
      const unchecked =
        check.ok && check.unchecked ? ` ${t.unchecked(check.unchecked.entries)}` : ''
      const action = (AUDIT_ACTIONS as readonly string[]).includes(request.query.action ?? '')
        ? (request.query.action as AuditAction)
        : undefined
      // A page at a time, the newest first; the exports hold the whole trail.
      const before = Number(request.query.before)
      const shown = await readAudit(database, {
        newestFirst: true,
        limit: AUDIT_PAGE,
        ...(Number.isSafeInteger(before) && before > 0 ? { beforeId: before } : {}),
        ...(action ? { action } : {}),
      })
      const oldest = shown.at(-1)?.id
      const older =
        shown.length === AUDIT_PAGE && oldest
          ? `<p><a href="/audit?before=${oldest}${action ? `&amp;action=${action}` : ''}">${t.older}</a></p>`
          : ''
      const rows = shown
        .map(
          (entry) =>
            `<tr><td>${entry.id}</td><td>${escapeHtml(berlinTime(entry.at, person.language))}</td><td>${escapeHtml(entry.actor)}</td><td>${escapeHtml(entry.action)}</td><td>${escapeHtml(entry.subject)}</td><td>${escapeHtml(
              [entry.before, entry.after]
                .filter(Boolean)
                .map((commit) => String(commit).slice(0, 12))
                .join(' → '),
            )}</td><td>${escapeHtml(JSON.stringify(entry.details))}</td></tr>`,
        )
        .join('\n')
      return reply.type('text/html; charset=utf-8').send(
        layout(
          person.language,
          t.audit,
          `${nav(person.language)}<h1>${t.audit}</h1>
<p>${escapeHtml(`${check.ok ? t.chainOk(check.entries) : t.chainBroken(check.brokenAt, check.reason)}${anchored}${unchecked}`)}</p>
<p>${t.download}: <a href="/audit.csv" download>CSV</a> · <a href="/audit.json" download>JSON</a></p>
<div class="table" role="region" aria-label="${t.audit}" tabindex="0"><table><caption>${t.audit}</caption><thead><tr><th scope="col">#</th><th scope="col">${t.when}</th><th scope="col">${t.who}</th><th scope="col">${t.what}</th><th scope="col">${t.subject}</th><th scope="col">${t.commits}</th><th scope="col">Details</th></tr></thead><tbody>${rows}</tbody></table></div>${older}`,
        ),
      )
    },
  )
  for (const format of ['csv', 'json'] as const) {
    app.get(`/audit.${format}`, async (request, reply) => {
      const person = await allowed(request, reply, mayManagePeople, 'audit')
      if (!person) return
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : JSON_TYPE)
        .header('content-disposition', `attachment; filename="audit-trail.${format}"`)
        .send(await exportAudit(database, format))
    })
  }

  /**
   * A text file of a draft as a reviewer reads it: a new one as its source, a changed one as
   * what changed against the live version (git's own diff). Long ones are not shown whole.
   */
  const sourceView = async (
    draft: DraftView,
    file: string,
    kind: 'added' | 'changed',
    key: string,
    t: (typeof TEXTS)[EditorLanguage],
  ) => {
    const text =
      kind === 'added'
        ? ((await service.repo.readFile(draft.head, file))?.toString('utf8') ?? '')
        : (
            await service.repo.git([
              'diff',
              '--no-color',
              '--no-ext-diff',
              '-U3',
              draft.base,
              draft.head,
              '--',
              file,
            ])
          )
            .toString('utf8')
            .split('\n')
            // git's header lines name the paths and blobs; the file is named above.
            .filter((line) => !/^(diff --git|index |--- |\+\+\+ )/.test(line))
            .join('\n')
    const body =
      Buffer.byteLength(text) > SOURCE_SHOWN_BYTES
        ? `<p>${escapeHtml(t.sourceTooLong(`${Math.round(Buffer.byteLength(text) / 1024)} KB`))}</p>`
        : `<pre tabindex="0"><code>${escapeHtml(text)}</code></pre>`
    return `<details><summary id="source-${key}">${escapeHtml(kind === 'added' ? t.sourceOf(file) : t.changesOf(file))}</summary>${body}</details>`
  }

  // ——— changes: every draft, with the actions the person's roles allow ———
  const draftsNow = async () => {
    const found: DraftView[] = []
    for (const id of await service.drafts.ids()) {
      const draft = await service.drafts.get(id)
      if (draft) found.push(draft)
    }
    return found
  }
  app.get('/changes', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const t = TEXTS[person.language]
    const has = (role: string) => (person.roles as readonly string[]).includes(role)
    const rows = (
      await Promise.all(
        (
          await draftsNow()
        ).map(async (draft, index) => {
          const media = draft.id.startsWith(`${MEDIA_DRAFTS}/`)
          const deletion = draft.files.length > 0 && draft.deletes.length === draft.files.length
          const hidden = `<input type="hidden" name="id" value="${escapeHtml(draft.id)}">`
          // Every draft has the same buttons: each names its draft to a screen reader.
          const about = `aria-describedby="draft-${index}"`
          const files = (
            await Promise.all(
              draft.files.map(async (file, fileIndex) => {
                const kind = draft.deletes.includes(file)
                  ? 'deleted'
                  : draft.adds.includes(file)
                    ? 'added'
                    : 'changed'
                const image =
                  file.startsWith('public/images/') && kind !== 'deleted'
                    ? `<br><img src="/changes/image?id=${encodeURIComponent(draft.id)}&amp;path=${encodeURIComponent(file)}" alt="${escapeHtml(t.imageOf(file))}" width="240">`
                    : ''
                // A reviewer approves what the files say: text (an entry, a drawing) as its
                // source, a changed one as what changed.
                const source =
                  kind === 'deleted' || !TEXT_FILE.test(file)
                    ? ''
                    : await sourceView(draft, file, kind, `${index}-${fileIndex}`, t)
                return `<li><code>${escapeHtml(file)}</code> (${t.kinds[kind]})${image}${source}</li>`
              }),
            )
          ).join('')
          const comments = draft.comments
            .map(
              (comment) =>
                `<li>${escapeHtml(comment.by)}, ${escapeHtml(berlinTime(comment.at, person.language))}: ${escapeHtml(comment.body)}</li>`,
            )
            .join('')
          // Each person is offered what the rules allow them, and told why not where their role
          // would otherwise allow it: the same rules the service enforces on every request.
          const approval = mayApprove(person, draft)
          const publication = mayPublish(person, draft)
          const whyNot = (decision: Decision, action: keyof typeof t.actionNames) =>
            !decision.allowed && decision.code !== 'role'
              ? `<p class="why-not">${escapeHtml(t.mayNot(t.actionNames[action], decision.reason))}</p>`
              : ''
          const actions = [
            draft.status === 'pending_publish'
              ? ''
              : approval.allowed
                ? `<form data-action="/api/changes/approve" data-reload>${hidden}<button type="submit" ${about} disabled>${t.approve}</button></form>`
                : whyNot(approval, 'approve'),
            mayRequestChanges(person).allowed && draft.status !== 'draft'
              ? `<form data-action="/api/changes/send-back" data-reload>${hidden}<label for="comment-${index}">${t.comment}</label><textarea id="comment-${index}" name="comment" required maxlength="5000"></textarea><button class="secondary" type="submit" ${about} disabled>${t.sendBack}</button></form>`
              : '',
            draft.status !== 'pending_publish'
              ? ''
              : publication.allowed
                ? `<form data-action="/api/changes/publish" data-reload>${hidden}<button type="submit" ${about} disabled>${t.publishNow}</button></form>`
                : whyNot(publication, 'publish'),
            has('author')
              ? `<form data-action="/api/changes/discard" data-reload>${hidden}<button class="secondary" type="submit" ${about} disabled>${t.discard}</button></form>`
              : '',
          ].join('')
          const links = media
            ? ''
            : `<p><a href="/admin/#/collections/${escapeHtml(draft.id.split('/')[0] ?? '')}/entries/${escapeHtml(draft.id.split('/').slice(1).join('/'))}">${t.openInEditor}</a> · <a href="/preview/${escapeHtml(draft.id)}">${t.previewSite}</a></p>`
          return `<li><h2 id="draft-${index}">${escapeHtml(draft.id)}${deletion ? ` (${t.deletion})` : ''}: ${t.statuses[draft.status]}</h2>
<p>${t.by} ${escapeHtml(draft.writers.join(', '))}${draft.submission && draft.status !== 'draft' ? `; ${escapeHtml(t.submittedBy(draft.submission.by))}` : ''}${draft.approval && draft.status === 'pending_publish' ? `; ${t.approvedBy} ${escapeHtml(draft.approval.by)}` : ''}</p>
<ul>${files}</ul>${comments ? `<ul>${comments}</ul>` : ''}${links}${actions}</li>`
        }),
      )
    ).join('\n')
    return reply.type('text/html; charset=utf-8').send(
      layout(
        person.language,
        t.changes,
        `${nav(person.language)}<h1>${t.changes}</h1><p>${t.changesIntro}</p>
${rows ? `<ul class="changes">${rows}</ul>` : `<p>${t.noChanges}</p>`}
<div role="status" id="status"></div>`,
        ['/_publishing/manage.js'],
      ),
    )
  })
  /** An image as a draft has it, for the reviewer to see: never run, only shown. */
  app.get<{ Querystring: { id?: string; path?: string } }>(
    '/changes/image',
    async (request, reply) => {
      const person = await signedIn(request)
      if (!person) return reply.code(401).type(JSON_TYPE).send({ error: 'Please sign in.' })
      const { id = '', path = '' } = request.query
      const draft = await service.drafts.get(id).catch(() => null)
      if (!draft || !path.startsWith('public/images/') || !draft.files.includes(path)) {
        return reply.code(404).type(JSON_TYPE).send({ error: 'The draft has no such image.' })
      }
      const data = await service.repo.readFile(draft.head, path)
      if (!data)
        return reply.code(404).type(JSON_TYPE).send({ error: 'The draft has no such image.' })
      const type = IMAGE_TYPES[path.split('.').at(-1)?.toLowerCase() ?? '']
      if (!type) return reply.code(404).type(JSON_TYPE).send({ error: 'Not an image.' })
      // An SVG opened on its own runs in a sandbox with nothing allowed.
      return reply.type(type).header('content-security-policy', IMAGE_POLICY).send(data)
    },
  )
  const draftAction =
    (work: (person: Person, id: string, fields: Record<string, unknown>) => Promise<unknown>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const person = await signedIn(request)
      if (!person) return refuse(reply, 401, 'Please sign in again.')
      const fields = body(request)
      const id = String(fields.id ?? '')
      try {
        return (await work(person, id, fields)) ?? { done: true }
      } catch (error) {
        const answer = refusal(error)
        // A refusal the rules did not record themselves (no such draft, a comment too long).
        if (unrecorded(error, answer)) {
          await service.drafts.recordRefusal(person, id, {
            code: 'request',
            action: request.url.split('?')[0]?.slice(0, 100) ?? '',
            reason: String((answer.body as { error?: unknown }).error ?? '').slice(0, 1000),
          })
        }
        return reply.code(answer.status).type(JSON_TYPE).send(answer.body)
      }
    }
  app.post(
    '/api/changes/approve',
    draftAction(async (person, id) => {
      await service.drafts.approve(person, id)
    }),
  )
  app.post(
    '/api/changes/send-back',
    draftAction(async (person, id, fields) => {
      await service.drafts.requestChanges(person, id, String(fields.comment ?? ''))
    }),
  )
  app.post(
    '/api/changes/publish',
    draftAction(async (person, id) => {
      const release = await publisher.publish(person, id)
      return { release: release.folder }
    }),
  )
  app.post(
    '/api/changes/discard',
    draftAction(async (person, id) => {
      await service.drafts.discard(person, id)
    }),
  )

  // ——— schedules ———
  app.get('/schedules', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const t = TEXTS[person.language]
    const schedules = await service.schedules.list()
    // A draft with a time set is listed as scheduled (below), not as still waiting for one.
    const scheduled = new Set(
      schedules.filter((schedule) => schedule.state === 'pending').map((s) => s.draftId),
    )
    const ready = []
    for (const id of await service.drafts.ids()) {
      if (scheduled.has(id)) continue
      const draft = await service.drafts.get(id)
      if (draft?.status === 'pending_publish') ready.push(draft)
    }
    const soon = berlinLocal(new Date(clock().getTime() + 3_600_000))
    const readyRows = ready
      .map(
        (
          draft,
          index,
        ) => `<li><strong>${escapeHtml(draft.id)}</strong>${draft.deletes.length > 0 && draft.deletes.length === draft.files.length ? ` (${t.deletion})` : ''}, ${escapeHtml(draft.approval?.by ?? '')}
<form data-action="/api/schedules" data-reload><input type="hidden" name="draft" value="${escapeHtml(draft.id)}"><label for="at-${index}">${t.publishAt}</label><input id="at-${index}" name="at" type="datetime-local" required value="${soon}"><button type="submit" disabled>${t.schedule}</button></form></li>`,
      )
      .join('\n')
    const planned = schedules
      .map(
        (
          schedule,
        ) => `<li><strong>${escapeHtml(schedule.draftId)}</strong>: ${escapeHtml(berlinTime(schedule.at, person.language))}, ${escapeHtml(t.states[schedule.state])}${schedule.outcome ? ` (${escapeHtml(schedule.outcome)})` : ''}, ${escapeHtml(schedule.createdBy)}
${schedule.state === 'pending' ? `<form data-action="/api/schedules/cancel" data-reload><input type="hidden" name="id" value="${schedule.id}"><button class="secondary" type="submit" disabled>${t.cancel}</button></form>` : ''}</li>`,
      )
      .join('\n')
    return reply.type('text/html; charset=utf-8').send(
      layout(
        person.language,
        t.schedules,
        `${nav(person.language)}<h1>${t.schedules}</h1>
<h2>${t.ready}</h2>${readyRows ? `<ul>${readyRows}</ul>` : `<p>${t.noReady}</p>`}
<h2>${t.planned}</h2>${planned ? `<ul>${planned}</ul>` : `<p>${t.noSchedules}</p>`}
<div role="status" id="status"></div>`,
        ['/_publishing/manage.js'],
      ),
    )
  })
  app.post('/api/schedules', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const { draft, at } = body(request)
    try {
      const schedule = await service.schedules.schedule(
        person,
        String(draft ?? ''),
        fromBerlinTime(String(at ?? '')),
      )
      return {
        id: schedule.id,
        at: schedule.at,
        replaced: schedule.replaced.map((old) => ({ id: old.id, at: old.at })),
      }
    } catch (error) {
      if (error instanceof RefusedError) return refuse(reply, 403, error.message)
      if (error instanceof ScheduleError) return refuse(reply, 422, error.message)
      if (error instanceof Error && /^not a draft id/.test(error.message)) {
        return refuse(reply, 422, error.message)
      }
      throw error
    }
  })
  app.post('/api/schedules/cancel', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    try {
      const id = Number(body(request).id)
      if (!Number.isSafeInteger(id))
        return refuse(reply, 422, 'Which schedule? Expected its number.')
      await service.schedules.cancel(person, id)
      return { cancelled: true }
    } catch (error) {
      if (error instanceof RefusedError) return refuse(reply, 403, error.message)
      if (error instanceof ScheduleError) return refuse(reply, 422, error.message)
      throw error
    }
  })

  // ——— releases ———
  app.get('/releases', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const t = TEXTS[person.language]
    const releases = await publisher.list()
    const mayRoll = mayRollBack(person).allowed
    const rows = releases
      .map((release, index) => {
        const heading = `${escapeHtml(berlinTime(release.liveAt, person.language))}${release.live ? ` <strong class="live">(${t.live})</strong>` : ''}`
        const made = [
          t.releaseBy(t.releaseKinds[release.kind], release.madeBy),
          ...(release.approvedBy ? [t.releaseApproved(release.approvedBy)] : []),
        ].join(', ')
        const what =
          release.kind === 'rollback'
            ? `<p>${escapeHtml(t.releaseRolledBackTo(release.subject))}</p>`
            : release.files.length > 0
              ? `<p>${t.releaseChanged} (${escapeHtml(release.subject)}):</p><ul>${release.files.map((file) => `<li><code>${escapeHtml(file)}</code></li>`).join('')}</ul>`
              : ''
        const unreviewed =
          release.unreviewed.length > 0
            ? `<div class="notice"><p>${t.unreviewed}</p><ul>${release.unreviewed
                .map(
                  (taken) =>
                    `<li>${escapeHtml(t.unreviewedCommit(taken.commit.slice(0, 12), taken.author))}: ${taken.files.map((file) => `<code>${escapeHtml(file)}</code>`).join(', ')}</li>`,
                )
                .join('')}</ul></div>`
            : ''
        return `<li aria-labelledby="release-${index}"><h2 id="release-${index}">${heading}</h2>
<p>${escapeHtml(made)}. ${t.releaseCommit} <code>${escapeHtml(release.commit.slice(0, 12))}</code>, <code>${escapeHtml(release.folder)}</code>.</p>
${what}${unreviewed}
${mayRoll && !release.live ? `<form data-action="/api/releases/rollback" data-reload><input type="hidden" name="folder" value="${escapeHtml(release.folder)}"><button type="submit" disabled aria-describedby="release-${index}">${t.rollBack}</button></form>` : ''}</li>`
      })
      .join('\n')
    return reply
      .type('text/html; charset=utf-8')
      .send(
        layout(
          person.language,
          t.releases,
          `${nav(person.language)}<h1>${t.releases}</h1><p>${t.releasesIntro}</p>${rows ? `<ol class="releases">${rows}</ol>` : `<p>${t.noReleases}</p>`}<div role="status" id="status"></div>`,
          ['/_publishing/manage.js'],
        ),
      )
  })
  app.post('/api/releases/rollback', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    try {
      const release = await publisher.rollBack(person, String(body(request).folder ?? ''))
      return { folder: release.folder, commit: release.commit }
    } catch (error) {
      if (error instanceof RefusedError) return refuse(reply, 403, error.message)
      if (error instanceof Error && /no release|not a release/.test(error.message)) {
        return refuse(reply, 404, error.message)
      }
      throw error
    }
  })
}

/**
 * The management pages' script: each `form[data-action]` posts its fields as JSON; the answer
 * is shown in the status line (an invitation's link in full, to copy), or the page reloads.
 */
export const MANAGE_SCRIPT = `'use strict'
;(() => {
  const status = document.getElementById('status')
  for (const form of document.querySelectorAll('form[data-action]')) {
    const buttons = form.querySelectorAll('button')
    form.addEventListener('submit', async (event) => {
      event.preventDefault()
      const data = new FormData(form)
      const fields = {}
      for (const [name, value] of data) {
        if (name === 'roles') (fields.roles ||= []).push(value)
        else fields[name] = value
      }
      if (form.querySelector('[name=roles]') && !fields.roles) fields.roles = []
      // One request at a time from a form: a second press waits for the answer.
      for (const button of buttons) button.disabled = true
      const response = await fetch(form.dataset.action, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(fields),
      }).catch(() => undefined)
      for (const button of buttons) button.disabled = false
      if (!response) {
        status.textContent = status.dataset.offline || 'The service did not answer.'
        return
      }
      const answer = await response.json().catch(() => ({}))
      if (!response.ok) {
        status.textContent = answer.error || response.statusText
        return
      }
      if (form.dataset.show && answer[form.dataset.show]) {
        status.textContent = answer[form.dataset.show]
        return
      }
      if (form.hasAttribute('data-reload')) location.reload()
    })
    // The buttons come disabled: pressed before this script ran, a form would be sent as a
    // plain GET of the page and nothing would happen.
    for (const button of buttons) button.disabled = false
  }
})()
`
