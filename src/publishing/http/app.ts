/**
 * The publishing service over HTTP, on a port of its own bound to localhost by default (never
 * the public site's): sign-in (passkeys), the editor (Decap with the service's backend), the
 * editor's protocol, and the signed-in person.
 *
 * What it promises an attacker: sessions live on the server, in an `HttpOnly; Secure;
 * SameSite=Strict` cookie of the `__Host-` kind; every request that is not a read must come
 * from the service's own origin (`Origin`, and `Sec-Fetch-Site` where sent), so no other site
 * can write through a visitor's session; no GET or HEAD changes anything; sign-in is limited per
 * address; bodies are limited and JSON only; every answer carries the service's policy headers;
 * nothing a person types reaches the log.
 */
import { readFile } from 'node:fs/promises'
import { STATUS_CODES } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import rateLimit from '@fastify/rate-limit'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { cmsConfig } from '../../cms/config'
import { createFileStore } from '../../content/file-store'
import { iconSvg } from '../../engine/site-files/web-manifest'
import { loggerOptions } from '../../server/logger'
import { siteTarget } from '../../server/request-path'
import { createStaticHandler, readSitePolicy } from '../../server/static-files'
import { STRICT_TRANSPORT_SECURITY } from '../../shared/http-headers'
import { requestRecordSettled, withRequestRecord } from '../audit/refusal-record'
import { findUnstorable, unstorableMessage } from '../audit/storable'
import { appendAudit } from '../audit/trail'
import { IMAGE_POLICY, IMAGE_TYPES, MANAGE_SCRIPT, manageRoutes } from '../pages/manage'
import {
  EDITOR_START_SCRIPT,
  editorPage,
  invitationPage,
  languageOf,
  providerReturnPage,
  SERVICE_CSS,
  SIGN_IN_SCRIPT,
  signInPage,
} from '../pages/service-pages'
import { createOidc, OIDC_COOKIE, OidcError } from '../people/oidc'
import {
  PasskeyError,
  registrationOptions,
  signInOptions,
  storePasskey,
  verifyRegistration,
  verifySignIn,
} from '../people/passkeys'
import {
  acceptInvitation,
  endSession,
  invitationOf,
  normalEmail,
  PeopleError,
  personOf,
  providerPerson,
  sessionPerson,
  setLanguage,
  startSession,
} from '../people/people'
import type { Person } from '../people/roles'
import type { PublishingService } from '../service'
import { checkDraftId, DraftConflictError, MAIN } from '../workflow/drafts'
import { mayPublishAnything } from '../workflow/four-eyes'
import { BuildFailedError } from '../workflow/releases'
import { createCmsApi, exportTree } from './editor-api'
import { EDITOR_BASE, editorBundle } from './editor-bundle'

export const SESSION_COOKIE = '__Host-publishing-session'
/** Which draft's preview the person opened last: its pages are served at the site's paths. */
export const PREVIEW_COOKIE = '__Host-publishing-preview'

const require = createRequire(import.meta.url)
const DECAP_DIST = dirname(require.resolve('decap-cms'))
/** SimpleWebAuthn's browser bundle (its package's `unpkg` file, beside `script/`). */
const WEBAUTHN_BUNDLE = join(
  dirname(require.resolve('@simplewebauthn/browser')),
  '..',
  'dist',
  'bundle',
  'index.umd.min.js',
)
const BUNDLE_FILE = /^[\w.-]+\.js$/

/** The editor's protocol carries images as base64 (5 MB each, a few to an entry). */
const CMS_BODY_LIMIT = 32 * 1024 * 1024
const BODY_LIMIT = 64 * 1024
/** Sign-in attempts per address and minute. */
const SIGN_IN_LIMIT = 10

/**
 * What the editor may load: its own files only. Decap styles its interface in `style`
 * attributes and elements it writes at run time, which no hash can name.
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

const JSON_TYPE = 'application/json; charset=utf-8'

export interface PublishingAppOptions {
  logLevel?: string
  logStream?: { write(line: string): void }
  trustProxy?: boolean | string
  /** Sign-in attempts per address and minute (tests raise it; 0 turns it off). */
  signInLimit?: number
  /** Bundle the editor's code at start rather than when the editor is first opened. */
  bundleEditor?: boolean
}

/** A cookie's value, or `undefined` when there is none or it is malformed (`%` alone, say). */
const cookieOf = (request: FastifyRequest, name: string): string | undefined => {
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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export async function createPublishingApp(
  service: PublishingService,
  options: PublishingAppOptions = {},
): Promise<FastifyInstance> {
  const { database, party, settings, clock } = service
  const origin = new URL(settings.url).origin
  const https = origin.startsWith('https:')
  // The editor's code, bundled once per version of the code (at start when asked, else when
  // the editor is first opened); the page waits for it.
  let bundling: Promise<Awaited<ReturnType<typeof editorBundle>>> | undefined
  const editorCode = () => {
    bundling ??= editorBundle(service.buildConfig, join(settings.dir, 'editor'))
    bundling.catch(() => {
      bundling = undefined
    })
    return bundling
  }
  if (options.bundleEditor) editorCode().catch(() => {})
  const api = createCmsApi({
    ...service,
    previewUrl: (id) => `${origin}/preview/${id}`,
  })
  /** The service's policy headers, for an answer to `path`. */
  const policyHeaders = (path: string): Record<string, string> => ({
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
  })
  /** A refusal the framework itself makes, answered as the service answers every other one. */
  const frameworkRefusal = async (
    error: { code?: string; statusCode?: number },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400
    await recordRefusal(request, status === 414 ? 'too-long' : 'malformed', status)
    return reply
      .code(status)
      .headers(policyHeaders(''))
      .type(JSON_TYPE)
      .send({
        error:
          status === 414
            ? 'Refused: the address is too long.'
            : 'Refused: the address is malformed.',
      })
  }
  const app = Fastify({
    // Refusals made before a route is found (a malformed or over-long address) and those of the
    // HTTP parser (over-long headers, a broken request) carry the policy headers too.
    frameworkErrors: (error, request, reply) => frameworkRefusal(error, request, reply),
    clientErrorHandler: (error: Error & { code?: string }, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return
      const [status, text] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Refused: the request’s headers or address are too long.']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'Refused: the request took too long.']
            : [400, 'Refused: the request is malformed.']
      const body = JSON.stringify({ error: text })
      const headers = Object.entries({
        ...policyHeaders(''),
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
    },
    logger: loggerOptions({ level: options.logLevel, stream: options.logStream }),
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    return503OnClosing: true,
  })

  // JSON only: the service's pages and the editor send nothing else.
  app.removeContentTypeParser('text/plain')

  // Each request keeps a record of whether its refusal is in the trail (../audit/refusal-record.ts):
  // the first hook, so that every later one and the route run inside it.
  app.addHook('onRequest', (_request, _reply, done) => withRequestRecord(done))
  // Any refusal of a signed-in person's write that no route recorded is recorded here.
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode
    if (request.method === 'GET' || request.method === 'HEAD') return payload
    if (status < 400 || status >= 500 || status === 401 || requestRecordSettled()) return payload
    const person = await signedIn(request).catch(() => null)
    if (!person) return payload
    let reason = ''
    try {
      reason = String((JSON.parse(String(payload)) as { error?: unknown }).error ?? '')
    } catch {}
    await appendAudit(
      database,
      {
        actor: person.email,
        action: 'refusal',
        subject: (request.url.split('?')[0] ?? '').slice(0, 200),
        details: {
          code: 'request',
          status,
          method: request.method.slice(0, 20),
          reason: reason.slice(0, 1000),
        },
      },
      clock(),
    )
    return payload
  })

  app.addHook('onSend', async (request, reply) => {
    // A preview's pages carry the site's own policy (set by the static files); the rest the
    // service's, and a drawing of its own (the icon, an avatar) the images' sandbox.
    const drawing = String(reply.getHeader('content-type') ?? '').startsWith('image/svg+xml')
    const headers = {
      ...policyHeaders(request.url.split('?')[0] ?? ''),
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
    if (request.method === 'GET' || request.method === 'HEAD') return
    const from = request.headers.origin
    const site = request.headers['sec-fetch-site']
    if (from !== origin || (site !== undefined && site !== 'same-origin')) {
      await recordRefusal(request, 'wrong-origin', 403)
      return reply
        .code(403)
        .type(JSON_TYPE)
        .send({ error: `Refused: this request did not come from the editor at ${origin}.` })
    }
  })

  await app.register(rateLimit, { global: false })
  const signInLimit = options.signInLimit ?? SIGN_IN_LIMIT
  const limited =
    signInLimit > 0 ? { config: { rateLimit: { max: signInLimit, timeWindow: 60_000 } } } : {}

  app.setErrorHandler(async (error: { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    else {
      const code =
        status === 413
          ? 'too-large'
          : status === 415
            ? 'not-json'
            : status === 429
              ? 'too-many'
              : 'malformed'
      await recordRefusal(request, code, status)
    }
    const message =
      status === 413
        ? 'Refused: the request is too large.'
        : status === 415
          ? 'Refused: send JSON.'
          : status === 429
            ? 'Too many attempts: wait a minute, then try again.'
            : status >= 500
              ? 'The publishing service failed; the error is logged.'
              : 'Refused: the request is malformed.'
    return reply.code(status).type(JSON_TYPE).send({ error: message })
  })

  /** The signed-in person of a request, or `null`. */
  const signedIn = async (request: FastifyRequest): Promise<Person | null> => {
    const token = cookieOf(request, SESSION_COOKIE)
    return token && !findUnstorable(token) ? sessionPerson(database, token, clock()) : null
  }

  /**
   * A write refused before any route of the service ran (the framework's refusals, a request
   * from another origin), in the trail when a signed-in person sent it. An anonymous one is
   * logged only: nobody without an account can grow the trail.
   */
  const recordRefusal = async (request: FastifyRequest, code: string, status: number) => {
    if (request.method === 'GET' || request.method === 'HEAD') return
    const person = await signedIn(request).catch(() => null)
    if (!person) return
    await appendAudit(
      database,
      {
        actor: person.email,
        action: 'refusal',
        subject: (request.url.split('?')[0] ?? '').slice(0, 200),
        details: { code, status, method: request.method.slice(0, 20) },
      },
      clock(),
    )
  }

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
    const person = await signedIn(request)
    // Recorded for a signed-in person only: nobody without an account can grow the trail.
    if (person && request.method !== 'GET' && request.method !== 'HEAD') {
      const action = isRecord(request.body) ? request.body.action : undefined
      await appendAudit(
        database,
        {
          actor: person.email,
          action: 'refusal',
          subject: (request.routeOptions.url ?? request.url.split('?')[0] ?? '').slice(0, 200),
          details: {
            code: 'unstorable-text',
            field: found.field.slice(0, 200),
            ...(typeof action === 'string' ? { action: action.slice(0, 100) } : {}),
            reason: unstorableMessage(found),
          },
        },
        clock(),
      )
    }
    return reply
      .code(400)
      .type(JSON_TYPE)
      .send({ error: unstorableMessage(found, person?.language) })
  })

  const setSession = async (reply: FastifyReply, email: string) => {
    const session = await startSession(database, email, clock())
    reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${session.token}; Path=/; HttpOnly; Secure; SameSite=Strict; Expires=${session.expiresAt.toUTCString()}`,
    )
  }

  const refuse = (reply: FastifyReply, status: number, error: string) =>
    reply.code(status).type(JSON_TYPE).send({ error })

  // ——— files ———
  const asset = (body: string | Buffer, type: string) => ({ body, type })
  const assets: Record<string, () => Promise<{ body: string | Buffer; type: string }>> = {
    'service.css': async () => asset(SERVICE_CSS, 'text/css; charset=utf-8'),
    'sign-in.js': async () => asset(SIGN_IN_SCRIPT, 'text/javascript; charset=utf-8'),
    'editor-start.js': async () => asset(EDITOR_START_SCRIPT, 'text/javascript; charset=utf-8'),
    'manage.js': async () => asset(MANAGE_SCRIPT, 'text/javascript; charset=utf-8'),
    'webauthn.js': async () =>
      asset(await readFile(WEBAUTHN_BUNDLE), 'text/javascript; charset=utf-8'),
  }
  app.get<{ Params: { name: string } }>('/_publishing/:name', async (request, reply) => {
    const make = Object.hasOwn(assets, request.params.name)
      ? assets[request.params.name]
      : undefined
    if (!make) return refuse(reply, 404, 'Not found')
    const { body, type } = await make()
    return reply.header('cache-control', 'no-cache').type(type).send(body)
  })

  app.get('/icon.svg', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(iconSvg()),
  )

  // ——— sign-in ———
  app.get('/', async (request, reply) =>
    reply.redirect((await signedIn(request)) ? '/admin/' : '/sign-in', 303),
  )
  app.get('/sign-in', async (request, reply) => {
    const person = await signedIn(request)
    const language = person?.language ?? languageOf(request.headers['accept-language'])
    return reply.type('text/html; charset=utf-8').send(
      signInPage(language, {
        passkeys: !oidc,
        provider: Boolean(oidc),
        ...(person ? { signedIn: { name: person.name, email: person.email } } : {}),
      }),
    )
  })
  // ——— the bank's identity provider (OpenID Connect), when configured ———
  const oidc = settings.oidc
    ? createOidc(settings.oidc, `${origin}/sign-in/provider/callback`)
    : undefined
  app.post('/sign-in/provider', limited, async (_request, reply) => {
    if (!oidc)
      return refuse(reply, 404, 'No identity provider is configured: sign in with a passkey.')
    const started = await oidc.start()
    reply.header(
      'set-cookie',
      `${OIDC_COOKIE}=${started.cookie}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=600`,
    )
    return { next: started.url }
  })
  app.get('/sign-in/provider/callback', async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(providerReturnPage(languageOf(request.headers['accept-language']))),
  )
  app.post('/sign-in/provider/callback', limited, async (request, reply) => {
    if (!oidc) return refuse(reply, 404, 'No identity provider is configured.')
    const search = isRecord(request.body) ? String(request.body.search ?? '') : ''
    // The flow's cookie has done its work, whatever the outcome (set-cookie headers add up).
    reply.header('set-cookie', `${OIDC_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`)
    try {
      const profile = await oidc.finish(
        new URL(`${origin}/sign-in/provider/callback${search.startsWith('?') ? search : ''}`),
        cookieOf(request, OIDC_COOKIE),
      )
      const known = await providerPerson(database, profile, clock())
      if (!known) throw new OidcError('your access to the publishing service was taken away')
      if (known.changed || known.approvalsWithdrawn.length > 0) {
        await appendAudit(
          database,
          {
            actor: 'service',
            action: 'role-change',
            subject: known.person.email,
            details: {
              roles: known.person.roles,
              from: 'identity provider',
              ...(known.approvalsWithdrawn.length
                ? { approvalsWithdrawn: known.approvalsWithdrawn }
                : {}),
            },
          },
          clock(),
        )
      }
      await setSession(reply, known.person.email)
      await appendAudit(
        database,
        {
          actor: known.person.email,
          action: 'sign-in',
          subject: known.person.email,
          details: { method: 'oidc', roles: known.person.roles },
        },
        clock(),
      )
      return { next: '/admin/' }
    } catch (error) {
      if (!(error instanceof OidcError || error instanceof PeopleError)) throw error
      await appendAudit(
        database,
        {
          actor: 'unknown',
          action: 'sign-in-refused',
          subject: 'identity provider',
          details: { reason: error.message },
        },
        clock(),
      )
      return refuse(reply, 401, `Not signed in: ${error.message}.`)
    }
  })

  // ——— passkeys, where no provider is configured ———
  app.addHook('onRequest', async (request, reply) => {
    if (!oidc) return
    const path = request.url.split('?')[0] ?? ''
    if (
      request.method === 'POST' &&
      (path === '/sign-in' || path === '/sign-in/options' || path.startsWith('/invitation/'))
    ) {
      return refuse(
        reply,
        403,
        'Sign in with the bank’s account: passkeys are off while an identity provider is configured.',
      )
    }
  })
  app.post('/sign-in/options', limited, async () => signInOptions(database, party, clock()))
  app.post('/sign-in', limited, async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    try {
      const { email } = await verifySignIn(
        database,
        party,
        body.ceremony,
        body.response as never,
        clock(),
      )
      const person = await personOf(database, email)
      if (!person) throw new PasskeyError('this person may no longer sign in')
      await setSession(reply, person.email)
      await appendAudit(
        database,
        {
          actor: person.email,
          action: 'sign-in',
          subject: person.email,
          details: { method: 'passkey' },
        },
        clock(),
      )
      return { next: '/admin/' }
    } catch (error) {
      if (!(error instanceof PasskeyError)) throw error
      await appendAudit(
        database,
        {
          actor: 'unknown',
          action: 'sign-in-refused',
          subject: 'passkey',
          details: { reason: error.message },
        },
        clock(),
      )
      return refuse(reply, 401, `Not signed in: ${error.message}.`)
    }
  })
  app.post('/sign-out', async (request, reply) => {
    const token = cookieOf(request, SESSION_COOKIE)
    const person = await signedIn(request)
    if (token) await endSession(database, token, clock())
    if (person) {
      await appendAudit(
        database,
        { actor: person.email, action: 'sign-out', subject: person.email },
        clock(),
      )
    }
    reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0`,
    )
    if ((request.headers.accept ?? '').includes('application/json')) return { next: '/sign-in' }
    return reply.redirect('/sign-in', 303)
  })

  // ——— invitations ———
  app.get('/invitation', async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(invitationPage(languageOf(request.headers['accept-language']))),
  )
  const invitationFrom = async (body: Record<string, unknown>) => {
    const token = typeof body.token === 'string' ? body.token : ''
    const invitation = token.length <= 100 ? await invitationOf(database, token, clock()) : null
    if (!invitation) {
      throw new PeopleError(
        'This invitation link was used already or has expired: ask an administrator for a new one.',
      )
    }
    return { token, invitation }
  }
  app.post('/invitation/about', limited, async (request, reply) => {
    try {
      const { invitation } = await invitationFrom(isRecord(request.body) ? request.body : {})
      return { first: invitation.first, roles: invitation.roles }
    } catch (error) {
      if (error instanceof PeopleError) return refuse(reply, 410, error.message)
      throw error
    }
  })
  app.post('/invitation/options', limited, async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    try {
      const { invitation } = await invitationFrom(body)
      const name = typeof body.name === 'string' ? body.name.trim() : ''
      if (name.length === 0 || name.length > 200) {
        return refuse(reply, 422, 'Your name, please (1 to 200 characters).')
      }
      const email = invitation.first ? normalEmail(String(body.email ?? '')) : invitation.email
      return registrationOptions(database, party, { email, name }, clock())
    } catch (error) {
      if (error instanceof PeopleError) return refuse(reply, 422, error.message)
      throw error
    }
  })
  app.post('/invitation/accept', limited, async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    try {
      const { token } = await invitationFrom(body)
      const passkey = await verifyRegistration(
        database,
        party,
        body.ceremony,
        body.response as never,
        clock(),
      )
      const language = body.language === 'de' ? 'de' : 'en'
      const person = await acceptInvitation(
        database,
        token,
        { name: String(body.name ?? ''), language, email: passkey.email },
        clock(),
      )
      await storePasskey(database, { ...passkey, email: person.email }, clock())
      await setSession(reply, person.email)
      await appendAudit(
        database,
        {
          actor: person.email,
          action: 'sign-in',
          subject: person.email,
          details: { method: 'passkey', invitation: true, roles: person.roles },
        },
        clock(),
      )
      return { next: '/admin/' }
    } catch (error) {
      if (error instanceof PeopleError) return refuse(reply, 422, error.message)
      if (error instanceof PasskeyError) return refuse(reply, 422, `${error.message}.`)
      throw error
    }
  })

  // ——— the signed-in person ———
  app.get('/api/me', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    return {
      name: person.name,
      login: person.email,
      email: person.email,
      roles: person.roles,
      language: person.language,
      avatar_url: '/api/me/avatar.svg',
    }
  })
  app.post('/api/me/language', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const language = isRecord(request.body) ? request.body.language : undefined
    if (language !== 'en' && language !== 'de') {
      return refuse(reply, 422, 'The editor speaks English (en) or German (de).')
    }
    await setLanguage(database, person.email, language)
    return { language }
  })
  app.get('/api/me/avatar.svg', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const initials = person.name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => word[0]?.toUpperCase() ?? '')
      .join('')
      .replace(/[^\p{L}\p{N}]/gu, '')
    return reply
      .type('image/svg+xml')
      .send(
        `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>${initials}</title><circle cx="16" cy="16" r="16" fill="#0b5fff"/><text x="16" y="21" font-family="sans-serif" font-size="13" fill="#fff" text-anchor="middle">${initials}</text></svg>`,
      )
  })

  // ——— the editor ———
  let documentsAt: { commit: string; documents: Promise<unknown> } | undefined
  /** The content's documents at main's tip, for the editor's reference fields. */
  const documentsOfMain = async () => {
    const commit = (await service.repo.resolve(MAIN)) ?? ''
    if (documentsAt?.commit !== commit) {
      documentsAt = {
        commit,
        documents: (async () => {
          const { mkdtemp, rm } = await import('node:fs/promises')
          const { tmpdir } = await import('node:os')
          const dir = await mkdtemp(join(tmpdir(), 'publishing-config-'))
          try {
            await exportTree(service.repo, commit, dir)
            return (await createFileStore(join(dir, 'content')).read()).documents
          } finally {
            await rm(dir, { recursive: true, force: true })
          }
        })(),
      }
    }
    return documentsAt.documents as Promise<Parameters<typeof cmsConfig>[1]>
  }
  const EDITOR_TYPES: Record<string, string> = {
    '.js': 'text/javascript; charset=utf-8',
    '.css': 'text/css; charset=utf-8',
    '.woff2': 'font/woff2',
  }
  app.get<{ Params: { version: string; name: string } }>(
    '/_publishing/editor/:version/assets/:name',
    async (request, reply) => {
      const built = await editorCode()
      const { version, name } = request.params
      const type = EDITOR_TYPES[extname(name)]
      if (version !== built.version || !type || !/^[\w.-]+$/.test(name)) {
        return refuse(reply, 404, 'Not found')
      }
      const body = await readFile(join(built.dir, 'assets', name)).catch(() => null)
      if (!body) return refuse(reply, 404, 'Not found')
      return reply
        .header('cache-control', 'public, max-age=31536000, immutable')
        .type(type)
        .send(body)
    },
  )
  // The preview beside the editor: the entry as edited, on main's content, as the site shows it.
  app.post('/admin/preview', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const files = isRecord(request.body) ? request.body.files : undefined
    if (!Array.isArray(files)) return refuse(reply, 400, 'expected files')
    try {
      return await api.preview(files as { path: string; data: unknown }[], settings.url)
    } catch (error) {
      return refuse(reply, 400, error instanceof Error ? error.message : String(error))
    }
  })
  app.get('/admin', async (_request, reply) => reply.redirect('/admin/', 301))
  app.get('/admin/', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const generated = cmsConfig(origin, await documentsOfMain())
    const config = {
      ...generated,
      // Comments on drafts (Decap's notes): a reviewer's word to the authors, kept on record.
      collections: (generated.collections as Record<string, unknown>[]).map((collection) => ({
        ...collection,
        editor: { ...((collection.editor as object | undefined) ?? {}), notes: true },
        // Only a publisher is offered Decap's Publish button (the server refuses anyone else).
        publish: collection.publish !== false && mayPublishAnything(person),
      })),
      backend: { name: 'bank', proxy_url: `${origin}/api/cms`, branch: 'main' },
      publish_mode: 'editorial_workflow',
      show_preview_links: false,
      locale: person.language,
    }
    const built = await editorCode()
    const base = `${EDITOR_BASE}${built.version}/`
    return reply.type('text/html; charset=utf-8').send(
      editorPage(person.language, config, {
        script: `${base}${built.script}`,
        styles: built.styles.map((style) => `${base}${style}`),
      }),
    )
  })
  app.get<{ Params: { name: string } }>('/admin/:name', async (request, reply) => {
    if (!BUNDLE_FILE.test(request.params.name)) return refuse(reply, 404, 'Not found')
    const body = await readFile(join(DECAP_DIST, request.params.name)).catch(() => null)
    if (!body) return refuse(reply, 404, 'Not found')
    return reply
      .header('cache-control', 'public, max-age=3600')
      .type('text/javascript; charset=utf-8')
      .send(body)
  })
  app.post('/api/cms', { bodyLimit: CMS_BODY_LIMIT }, async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again: your session has ended.')
    const answer = await api.handle(person, request.body)
    return reply.code(answer.status).type(JSON_TYPE).send(answer.body)
  })

  await app.register(manageRoutes, { service, signedIn })

  // ——— a draft as a whole site ———
  const sites = new Map<string, ReturnType<typeof createStaticHandler>>()
  const siteAt = async (folder: string) => {
    let handle = sites.get(folder)
    if (!handle) {
      handle = createStaticHandler(folder, await readSitePolicy(folder))
      sites.set(folder, handle)
      if (sites.size > 8) sites.delete(sites.keys().next().value as string)
    }
    return handle
  }
  app.get<{ Params: { collection: string; slug: string } }>(
    '/preview/:collection/:slug',
    async (request, reply) => {
      const person = await signedIn(request)
      if (!person) return reply.redirect('/sign-in', 303)
      const id = `${request.params.collection}/${request.params.slug}`
      try {
        const folder = await service.previews.siteOf(checkDraftId(id))
        const draft = await service.drafts.get(id)
        if (!folder || !draft) return refuse(reply, 404, `There is no draft ${id} to preview.`)
        reply.header(
          'set-cookie',
          `${PREVIEW_COOKIE}=${encodeURIComponent(id)}; Path=/; HttpOnly; Secure; SameSite=Strict`,
        )
        const file = draft.files.find((path) => path.startsWith('content/')) ?? ''
        return reply.redirect(await service.previews.pageOf(folder, file), 303)
      } catch (error) {
        if (error instanceof DraftConflictError) return refuse(reply, 409, error.message)
        if (error instanceof BuildFailedError) {
          return refuse(reply, 422, `The site does not build with this draft. ${error.message}`)
        }
        if (error instanceof Error && /^not a draft id/.test(error.message)) {
          return refuse(reply, 400, error.message)
        }
        throw error
      }
    },
  )
  /** A page or file of the preview the person opened last, or `undefined`. */
  const fromPreview = async (request: FastifyRequest) => {
    const id = cookieOf(request, PREVIEW_COOKIE) ?? ''
    if (!id || !(await signedIn(request))) return undefined
    const folder = await Promise.resolve()
      .then(() => service.previews.siteOf(checkDraftId(id)))
      .catch(() => null)
    if (!folder) return undefined
    const target = siteTarget(request.url)
    if (!target.ok) return undefined
    return (await siteAt(folder))(request.method, target.path, request.headers, https)
  }

  /**
   * An image of the live site as main has it, for the preview beside the editor (which shows
   * pages at the site's own paths on the service's origin): signed-in people only.
   */
  const mainImage = async (request: FastifyRequest) => {
    const path = decodeURIComponent(request.url.split('?')[0] ?? '').slice(1)
    const type = IMAGE_TYPES[path.split('.').at(-1)?.toLowerCase() ?? '']
    if (!path.startsWith('images/') || !type || !(await signedIn(request))) return undefined
    const tip = await service.repo.resolve(MAIN)
    const blob = tip ? await service.repo.readBlob(tip, `public/${path}`).catch(() => null) : null
    return blob ? { type, data: blob.data } : undefined
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') {
      const answer = await fromPreview(request)
      const image =
        answer === undefined || answer.status === 404
          ? await mainImage(request).catch(() => undefined)
          : undefined
      if (image) {
        return reply
          .type(image.type)
          .header('content-security-policy', IMAGE_POLICY)
          .send(image.data)
      }
      if (answer) {
        reply.code(answer.status).headers(answer.headers)
        if (answer.status === 304) return reply.removeHeader('content-length').send()
        return reply.send(answer.body ?? '')
      }
    }
    return refuse(
      reply,
      request.method === 'GET' || request.method === 'HEAD' ? 404 : 405,
      request.method === 'GET' || request.method === 'HEAD' ? 'Not found' : 'Method not allowed',
    )
  })
  return app
}
