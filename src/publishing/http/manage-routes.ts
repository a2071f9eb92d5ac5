/**
 * The routes of the service's pages beside the editor (their HTML: `pages/manage.ts`): people
 * and roles (administrators), the audit trail and its export (administrators), the changes
 * waiting to go live, schedules, and releases with rollback (publishers). Each action is a JSON
 * post, checked here by the rules whatever the page offered, each refusal a message naming who
 * may do it; a refused write is in the audit trail.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { verifyWithAnchors } from '../audit/anchors'
import {
  AUDIT_ACTIONS,
  type AuditAction,
  appendAudit,
  exportAudit,
  readAudit,
} from '../audit/trail'
import {
  auditPage,
  type ChangedFile,
  changesPage,
  forbiddenPage,
  peoplePage,
  releasesPage,
  schedulesPage,
} from '../pages/manage'
import {
  disablePerson,
  invite,
  listPeople,
  normalEmail,
  PeopleError,
  setRoles,
} from '../people/people'
import { type DraftView, RefusedError } from '../workflow/drafts'
import { type Decision, mayManagePeople, mayRollBack, type Person } from '../workflow/four-eyes'
import { berlinLocal, fromBerlinTime, ScheduleError } from '../workflow/schedules'
import { refusal, unrecorded } from './editor-api'
import { IMAGE_POLICY } from './policy'
import { IMAGE_TYPES } from './previews'
import { type HttpContext, isRecord, JSON_TYPE, refuse } from './requests'

/** Entries on one page of the audit trail. */
const AUDIT_PAGE = 200
/** Files a reviewer reads as text: entries and drawings. */
const TEXT_FILE = /\.(ya?ml|md|svg|json)$/i
const HTML_TYPE = 'text/html; charset=utf-8'

const bodyOf = (request: FastifyRequest) => (isRecord(request.body) ? request.body : {})
const rolesFrom = (value: unknown) =>
  (Array.isArray(value) ? value : [value]).filter(
    (role): role is string => typeof role === 'string',
  )

export function registerManageRoutes(app: FastifyInstance, context: HttpContext): void {
  const { service, signedIn } = context
  const { database, clock, publisher } = service

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
      reply.code(403).type(HTML_TYPE).send(forbiddenPage(person.language, decision.reason))
    } else refuse(reply, 403, decision.reason)
    return null
  }

  // ——— people ———
  app.get('/people', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return
    return reply.type(HTML_TYPE).send(peoplePage(person.language, await listPeople(database)))
  })
  app.post('/api/people/invite', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return
    const { email, roles } = bodyOf(request)
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
    const { email, roles } = bodyOf(request)
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
      const email = normalEmail(String(bodyOf(request).email ?? ''))
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
      // Against the anchors in the service's repository (the remote's are `verify`'s: a page
      // that fetched them would write refs on a GET).
      const { check } = await verifyWithAnchors(database, service.repo)
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
      return reply
        .type(HTML_TYPE)
        .send(auditPage(person.language, { check, shown, action, pageSize: AUDIT_PAGE }))
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

  // ——— changes: every draft, with the actions the person's roles allow ———
  /** A text file of a draft as a reviewer reads it: a new one whole, a changed one as a diff. */
  const sourceOf = async (draft: DraftView, file: string, kind: 'added' | 'changed') =>
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
  /** A draft's files as the page of changes lists them. */
  const filesOf = (draft: DraftView) =>
    Promise.all(
      draft.files.map(async (path): Promise<ChangedFile> => {
        const kind = draft.deletes.includes(path)
          ? 'deleted'
          : draft.adds.includes(path)
            ? 'added'
            : 'changed'
        if (kind === 'deleted' || !TEXT_FILE.test(path)) return { path, kind }
        return { path, kind, source: await sourceOf(draft, path, kind) }
      }),
    )
  app.get('/changes', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const drafts: DraftView[] = []
    for (const id of await service.drafts.ids()) {
      const draft = await service.drafts.get(id)
      if (draft) drafts.push(draft)
    }
    const listed = await Promise.all(
      drafts.map(async (draft) => ({ draft, files: await filesOf(draft) })),
    )
    return reply.type(HTML_TYPE).send(changesPage(person, listed))
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
      const fields = bodyOf(request)
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
    return reply.type(HTML_TYPE).send(schedulesPage(person.language, { ready, schedules, soon }))
  })
  app.post('/api/schedules', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const { draft, at } = bodyOf(request)
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
      const id = Number(bodyOf(request).id)
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
    const releases = await publisher.list()
    return reply
      .type(HTML_TYPE)
      .send(releasesPage(person.language, releases, mayRollBack(person).allowed))
  })
  app.post('/api/releases/rollback', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    try {
      const release = await publisher.rollBack(person, String(bodyOf(request).folder ?? ''))
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
