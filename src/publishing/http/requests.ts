/**
 * What every part of the service's HTTP layer reads from a request and answers with: the
 * session's cookie and the person it names, a refusal as JSON. One place, so that a session is
 * read and a refusal is worded the same way by the sign-in, the editor and the pages beside it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { findUnstorable } from '../audit/storable'
import { sessionPerson, startSession } from '../people/people'
import type { Person } from '../people/roles'
import type { PublishingService } from '../service'

export const SESSION_COOKIE = '__Host-publishing-session'
export const JSON_TYPE = 'application/json; charset=utf-8'
export const HTML_TYPE = 'text/html; charset=utf-8'

/** What the parts of the HTTP layer share: the service and how to know who is signed in. */
export interface HttpContext {
  service: PublishingService
  /** The service's own origin (`https://cms.bank.example`): writes come from here only. */
  origin: string
  /** Whether the service is reached over HTTPS (then it sends `Strict-Transport-Security`). */
  https: boolean
  /** The signed-in person of a request, or `null`. */
  signedIn(request: FastifyRequest): Promise<Person | null>
}

/** A cookie's value, or `undefined` when there is none or it is malformed (`%` alone, say). */
export const cookieOf = (request: FastifyRequest, name: string): string | undefined => {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key !== name) continue
    try {
      return decodeURIComponent(value.join('='))
    } catch {
      return undefined
    }
  }
  return undefined
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A request's JSON body as fields (none when it is not an object). */
export const bodyOf = (request: FastifyRequest) => (isRecord(request.body) ? request.body : {})

/** A request's path without its query, as the trail records it. */
export const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? ''

/** A refusal: the status and one sentence saying why, as JSON. */
export const refuse = (reply: FastifyReply, status: number, error: string) =>
  reply.code(status).type(JSON_TYPE).send({ error })

/** Reads the session cookie of a request: the person it names, or `null`. */
export function sessionReader(service: PublishingService): HttpContext['signedIn'] {
  return async (request) => {
    const token = cookieOf(request, SESSION_COOKIE)
    return token && !findUnstorable(token)
      ? sessionPerson(service.database, token, service.clock())
      : null
  }
}

/** Starts a session for `email` and sets its cookie on the answer. */
export async function setSession(service: PublishingService, reply: FastifyReply, email: string) {
  const session = await startSession(service.database, email, service.clock())
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${session.token}; Path=/; HttpOnly; Secure; SameSite=Strict; Expires=${session.expiresAt.toUTCString()}`,
  )
}
