/**
 * The administrators' screens and their actions (`pages/people.tsx`, `pages/audit.tsx`): people
 * and their roles, invitations, taking access away, confirming or refusing role grants (four
 * eyes: `people/grants.ts`), and the audit trail with its export. Whoever may not is refused,
 * the refusal of a write in the trail; a page refused is a page saying why.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { unanchoredOf, verifyWithAnchors } from '../audit/anchors'
import { appendRefusal } from '../audit/refusal-limit'
import { AUDIT_ACTIONS, type AuditAction, exportAudit, readAudit } from '../audit/trail'
import { auditPage } from '../pages/audit'
import { peoplePage } from '../pages/people'
import { peopleView } from '../pages/people-view'
import { forbiddenPage } from '../pages/sign-in'
import { MANAGE_TEXTS } from '../pages/texts'
import {
  confirmGrant,
  disablePerson,
  invite,
  listGrants,
  listPeople,
  normalEmail,
  PeopleError,
  refuseGrant,
  setRoles,
} from '../people/people'
import { resetSignIn } from '../people/resets'
import type { Person } from '../people/roles'
import { endSessions, passkeyCounts } from '../people/sign-in-keys'
import { type Decision, mayManagePeople, mayReadAudit } from '../workflow/four-eyes'
import { refuseError } from './error-answers'
import { bodyOf, HTML_TYPE, type HttpContext, JSON_TYPE, refuse } from './requests'
import { viewerOf } from './waiting'

/** Entries on one page of the audit trail. */
const AUDIT_PAGE = 200

const rolesFrom = (value: unknown) =>
  (Array.isArray(value) ? value : [value]).filter(
    (role): role is string => typeof role === 'string',
  )

/**
 * The person a request is from, if the rule `decide` allows them; else the refusal is answered
 * (and, for a write, recorded in the trail) and the answer is `null`.
 */
type Gate = (
  request: FastifyRequest,
  reply: FastifyReply,
  decide: (person: Person) => Decision,
  subject: string,
) => Promise<Person | null>

/** `/people`, `/audit` and their actions: administrators only. */
export function registerPeopleRoutes(app: FastifyInstance, context: HttpContext): void {
  const allowed = gate(context)
  registerPeopleActions(app, context, allowed)
  registerAuditRoutes(app, context, allowed)
}

function gate(context: HttpContext): Gate {
  const { service, signedIn } = context
  const { database, clock } = service
  return async (request, reply, decide, subject) => {
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
      await appendRefusal(
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
        .type(HTML_TYPE)
        .send(forbiddenPage(await viewerOf(service, person), decision.reason))
    } else refuse(reply, 403, decision.reason)
    return null
  }
}

/** `/people` and the administrators' actions on people and their grants. */
function registerPeopleActions(app: FastifyInstance, context: HttpContext, allowed: Gate): void {
  const { service } = context
  const { database, clock } = service

  app.get('/people', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return reply
    const now = clock()
    // Passkeys and their resets are off while the bank's identity provider signs people in.
    const passkeys = service.settings.oidc ? undefined : await passkeyCounts(database)
    const view = peopleView(
      person,
      await listPeople(database),
      await listGrants(database, now),
      passkeys,
    )
    return reply.type(HTML_TYPE).send(peoplePage(await viewerOf(service, person), view))
  })
  // Each action records itself (and its grants) in the trail, in its own transaction.
  app.post('/api/people/invite', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return reply
    const { email, roles } = bodyOf(request)
    try {
      const invitation = await invite(
        database,
        { email: String(email ?? ''), roles: rolesFrom(roles), by: person.email },
        clock(),
      )
      return {
        link: `${service.settings.url}/invitation#${invitation.token}`,
        expiresAt: invitation.expiresAt.toISOString(),
        ...(invitation.grant ? { grant: invitation.grant } : {}),
      }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
  app.post('/api/people/roles', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return reply
    const { email, roles } = bodyOf(request)
    try {
      const changed = await setRoles(
        database,
        String(email ?? ''),
        rolesFrom(roles),
        clock(),
        person.email,
      )
      return {
        email: changed.email,
        roles: changed.roles,
        pending: changed.pending,
        ...(changed.grant ? { grant: changed.grant } : {}),
      }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
  app.post('/api/people/disable', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return reply
    try {
      const email = normalEmail(String(bodyOf(request).email ?? ''))
      if (email === person.email) throw new PeopleError('own-access')
      await disablePerson(database, email, clock(), person.email)
      return { email, disabled: true }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
  // A way back in for someone who lost their passkeys (`people/resets.ts`): their passkeys
  // removed, their sessions ended, a new link; the same person, roles and history.
  app.post('/api/people/reset-sign-in', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return reply
    try {
      const email = normalEmail(String(bodyOf(request).email ?? ''))
      const { decision, link, waiting } = await resetSignIn(database, person, email, clock())
      if (!decision.allowed || !link) {
        return refuse(reply, 403, decision.allowed ? 'Refused.' : decision.reason)
      }
      return {
        email,
        link: `${service.settings.url}/invitation#${link.token}`,
        expiresAt: link.expiresAt.toISOString(),
        // The approving roles, back only once a second administrator confirms them.
        waiting: waiting ?? [],
      }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
  // Every session of a person ends: each is refused at its next request.
  app.post('/api/people/end-sessions', async (request, reply) => {
    const person = await allowed(request, reply, mayManagePeople, 'people')
    if (!person) return reply
    try {
      const email = normalEmail(String(bodyOf(request).email ?? ''))
      const { decision, ended } = await endSessions(database, person, email, {}, clock())
      if (!decision.allowed) return refuse(reply, 403, decision.reason)
      return { email, ended, done: MANAGE_TEXTS[person.language].sessionsEnded(ended) }
    } catch (error) {
      return refuseError(reply, error, person.language)
    }
  })
  // A grant's confirmation or refusal: the rules (`mayConfirmGrant`, `mayRefuseGrant`) are
  // asked in the transaction that records the outcome, a refusal included.
  for (const [path, act] of [
    ['confirm', confirmGrant],
    ['refuse', refuseGrant],
  ] as const) {
    app.post(`/api/people/grants/${path}`, async (request, reply) => {
      const person = await allowed(request, reply, mayManagePeople, 'people')
      if (!person) return reply
      const id = Number(bodyOf(request).id)
      try {
        const decision = await act(database, id, person, clock())
        if (!decision.allowed) return refuse(reply, 403, decision.reason)
        return { id, [path === 'confirm' ? 'confirmed' : 'refused']: true }
      } catch (error) {
        return refuseError(reply, error, person.language)
      }
    })
  }
}

/** `/audit` and its exports. */
function registerAuditRoutes(app: FastifyInstance, context: HttpContext, allowed: Gate): void {
  const { service } = context
  const { database } = service

  app.get<{ Querystring: { action?: string; before?: string } }>(
    '/audit',
    async (request, reply) => {
      const person = await allowed(request, reply, mayReadAudit, 'audit')
      if (!person) return reply
      // Against the anchors in the service's repository (the remote's are `verify`'s: a page
      // that fetched them would write refs on a GET).
      const { check, outcome } = await verifyWithAnchors(database, service.repo)
      const now = service.clock()
      service.metrics.auditVerified(outcome.kind, await unanchoredOf(database, outcome, now), now)
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
      return reply.type(HTML_TYPE).send(
        auditPage(await viewerOf(service, person), {
          check,
          outcome,
          shown,
          action,
          pageSize: AUDIT_PAGE,
          names: new Map(
            (await listPeople(database)).map((someone) => [someone.email, someone.name]),
          ),
        }),
      )
    },
  )
  for (const format of ['csv', 'json'] as const) {
    app.get(`/audit.${format}`, async (request, reply) => {
      const person = await allowed(request, reply, mayReadAudit, 'audit')
      if (!person) return reply
      return reply
        .type(format === 'csv' ? 'text/csv; charset=utf-8' : JSON_TYPE)
        .header('content-disposition', `attachment; filename="audit-trail.${format}"`)
        .send(await exportAudit(database, format))
    })
  }
}
