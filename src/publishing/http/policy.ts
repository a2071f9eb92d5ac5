/**
 * The service's policy on every answer, whichever route (or none) made it: its security headers,
 * writes from its own origin only, text the database cannot store refused before any query,
 * and every refusal worded as JSON, the framework's and the HTTP parser's included. A refusal of
 * a signed-in person's write is recorded in the audit trail; an anonymous one is only logged, so
 * nobody without an account can grow the trail.
 */
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { STRICT_TRANSPORT_SECURITY } from '../../shared/http-headers'
import { appendRefusal } from '../audit/refusal-limit'
import { anchorWanted, requestRecordSettled, withRequestRecord } from '../audit/refusal-record'
import { findUnstorable, unstorableMessage } from '../audit/storable'
import { type HttpContext, isRecord, JSON_TYPE, pathOf } from './requests'

/**
 * What the service's pages may load: their own files only. Decap styles its interface in
 * `style` attributes and elements it writes at run time, which no hash can name.
 */
const policy = (script: string, connect = "'self'") =>
  [
    "default-src 'none'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "frame-src 'self' blob:",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ')
const CONTENT_SECURITY_POLICY = policy("'self'")
/**
 * Decap's editor compiles its configuration's schema (ajv) with `new Function`, and reads an
 * image chosen for upload back from its `blob:` address before it sends it.
 */
const EDITOR_CONTENT_SECURITY_POLICY = policy("'self' 'unsafe-eval'", "'self' blob:")
/** An image served on the service's origin, opened on its own, runs nothing (an SVG). */
export const IMAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

const reading = (request: FastifyRequest) => request.method === 'GET' || request.method === 'HEAD'

/** The service's policy headers, for an answer to `path`. */
export function policyHeaders(path: string, https: boolean): Record<string, string> {
  return {
    'content-security-policy':
      path === '/admin/' ? EDITOR_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
    'permissions-policy':
      'publickey-credentials-get=(self), publickey-credentials-create=(self), camera=(), microphone=(), geolocation=()',
    'cache-control': 'no-store',
    ...(https ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {}),
  }
}

/** A refusal of a signed-in person's write, in the trail (`details` say which and why). */
async function recordRefusal(
  context: HttpContext,
  request: FastifyRequest,
  details: Record<string, unknown>,
  subject = pathOf(request),
): Promise<void> {
  if (reading(request)) return
  const person = await context.signedIn(request).catch(() => null)
  if (!person) return
  const { database, clock } = context.service
  await appendRefusal(
    database,
    { actor: person.email, action: 'refusal', subject: subject.slice(0, 200), details },
    clock(),
  )
}

/**
 * A write refused before any route of the service ran (the framework's refusals, a request
 * from another origin), in the trail when a signed-in person sent it.
 */
const recordEarlyRefusal = (
  context: HttpContext,
  request: FastifyRequest,
  code: string,
  status: number,
) => recordRefusal(context, request, { code, status, method: request.method.slice(0, 20) })

/**
 * The framework's own refusals, made before a route is found (a malformed or over-long
 * address), answered as the service answers every other one: Fastify's `frameworkErrors`.
 */
export function frameworkRefusal(context: HttpContext) {
  return async (
    error: { code?: string; statusCode?: number },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400
    await recordEarlyRefusal(context, request, status === 414 ? 'too-long' : 'malformed', status)
    return reply
      .code(status)
      .headers(policyHeaders('', context.https))
      .type(JSON_TYPE)
      .send({
        error:
          status === 414
            ? 'Refused: the address is too long.'
            : 'Refused: the address is malformed.',
      })
  }
}

/**
 * The HTTP parser's refusals (over-long headers, a broken request, a timeout), written to the
 * socket with the policy headers: Fastify's `clientErrorHandler`.
 */
export function clientRefusal(https: boolean) {
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    const [status, text] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Refused: the request’s headers or address are too long.']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Refused: the request took too long.']
          : [400, 'Refused: the request is malformed.']
    const body = JSON.stringify({ error: text })
    const headers = Object.entries({
      ...policyHeaders('', https),
      'content-type': JSON_TYPE,
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n')
    if (socket.writable) {
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}\r\n\r\n${body}`)
    }
    socket.destroy()
  }
}

/** The error handler's refusals: which code the trail records and what the person reads. */
const REFUSALS: Record<number, { code: string; message: string }> = {
  413: { code: 'too-large', message: 'Refused: the request is too large.' },
  415: { code: 'not-json', message: 'Refused: send JSON.' },
  429: { code: 'too-many', message: 'Too many attempts: wait a minute, then try again.' },
}
const MALFORMED = { code: 'malformed', message: 'Refused: the request is malformed.' }

/** Adds the policy's hooks and error handler to the app, before any route. */
export function registerPolicy(app: FastifyInstance, context: HttpContext): void {
  const { service, origin, https } = context

  // JSON only: the service's pages and the editor send nothing else.
  app.removeContentTypeParser('text/plain')

  // Each request keeps a record of whether its refusal is in the trail (../audit/refusal-record.ts):
  // the first hook, so that every later one and the route run inside it.
  app.addHook('onRequest', (_request, _reply, done) => withRequestRecord(done))
  // Any refusal of a signed-in person's write that no route recorded is recorded here.
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode
    if (status < 400 || status >= 500 || status === 401 || requestRecordSettled()) return payload
    let reason = ''
    try {
      reason = String((JSON.parse(String(payload)) as { error?: unknown }).error ?? '')
    } catch {}
    await recordRefusal(context, request, {
      code: 'request',
      status,
      method: request.method.slice(0, 20),
      reason: reason.slice(0, 1000),
    })
    return payload
  })

  // An entry that approves, publishes, rolls back or grants a role is anchored before the
  // answer says it was done (a checkpoint in git); if that fails, the timer tries again.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!anchorWanted()) return payload
    await service.checkpoints.write().catch((error: unknown) => {
      request.log.error({ err: error }, 'the audit trail could not be anchored before the answer')
    })
    return payload
  })

  app.addHook('onSend', async (request, reply) => {
    // A preview's pages carry the site's own policy (set by the static files); the rest the
    // service's, and a drawing of its own (the icon, an avatar) the images' sandbox.
    const drawing = String(reply.getHeader('content-type') ?? '').startsWith('image/svg+xml')
    const headers = {
      ...policyHeaders(pathOf(request), https),
      ...(drawing ? { 'content-security-policy': IMAGE_POLICY } : {}),
    }
    const own = reply.hasHeader('content-security-policy')
    for (const [name, value] of Object.entries(headers)) {
      if (!own || !reply.hasHeader(name)) reply.header(name, value)
    }
    // Nothing of a preview is kept by a browser or proxy: it is a draft.
    if (own) reply.header('cache-control', 'no-store')
  })

  // Writes come from the service's own pages only: another site's page cannot act through a
  // person's session (the cookie is SameSite=Strict besides).
  app.addHook('onRequest', async (request, reply) => {
    if (reading(request)) return
    const from = request.headers.origin
    const site = request.headers['sec-fetch-site']
    if (from !== origin || (site !== undefined && site !== 'same-origin')) {
      await recordEarlyRefusal(context, request, 'wrong-origin', 403)
      return reply
        .code(403)
        .type(JSON_TYPE)
        .send({ error: `Refused: this request did not come from the editor at ${origin}.` })
    }
  })

  app.setErrorHandler(async (error: { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    else await recordEarlyRefusal(context, request, (REFUSALS[status] ?? MALFORMED).code, status)
    const message =
      status >= 500
        ? 'The publishing service failed; the error is logged.'
        : (REFUSALS[status] ?? MALFORMED).message
    return reply.code(status).type(JSON_TYPE).send({ error: message })
  })

  // Text the database cannot store (a NUL character, say) is refused before any query reads or
  // writes it, naming the field; a write refused so is in the trail, by whoever sent it.
  app.addHook('preHandler', async (request, reply) => {
    // A query names each field once: given twice, a field is a list no route expects.
    const repeated = Object.entries((request.query ?? {}) as Record<string, unknown>).find(
      ([, value]) => Array.isArray(value),
    )
    if (repeated) {
      return reply
        .code(400)
        .type(JSON_TYPE)
        .send({ error: `Refused: query.${repeated[0].slice(0, 100)} is given more than once.` })
    }
    const found =
      findUnstorable(request.params, 'path') ??
      findUnstorable(request.query, 'query') ??
      findUnstorable(request.body)
    if (!found) return
    const person = await context.signedIn(request)
    // Recorded for a signed-in person only: nobody without an account can grow the trail.
    if (person && !reading(request)) {
      const action = isRecord(request.body) ? request.body.action : undefined
      await appendRefusal(
        service.database,
        {
          actor: person.email,
          action: 'refusal',
          subject: (request.routeOptions.url ?? pathOf(request)).slice(0, 200),
          details: {
            code: 'unstorable-text',
            field: found.field.slice(0, 200),
            ...(typeof action === 'string' ? { action: action.slice(0, 100) } : {}),
            reason: unstorableMessage(found),
          },
        },
        service.clock(),
      )
    }
    return reply
      .code(400)
      .type(JSON_TYPE)
      .send({ error: unstorableMessage(found, person?.language) })
  })
}
