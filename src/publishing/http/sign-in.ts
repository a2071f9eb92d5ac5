/**
 * Signing in and out: by the bank's identity provider (OpenID Connect) when one is configured,
 * else by passkey. Either way a session lives on the server, named by an `HttpOnly; Secure;
 * SameSite=Strict` cookie of the `__Host-` kind; every sign-in and every refused one is in the
 * audit trail, and attempts are limited per address.
 */
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify'
import { appendAudit } from '../audit/trail'
import { noticesOn } from '../notices/notices'
import { providerReturnPage, signInPage } from '../pages/sign-in'
import { languageOf } from '../pages/texts'
import { createOidc, OIDC_COOKIE, OidcError } from '../people/oidc'
import { PasskeyError, signInOptions, verifySignIn } from '../people/passkeys'
import { endSession, PeopleError, personOf, providerPerson } from '../people/people'
import {
  cookieOf,
  type HttpContext,
  isRecord,
  refuse,
  SESSION_COOKIE,
  setSession,
} from './requests'
import { viewerOf } from './waiting'

/** Where a person goes once signed in. */
const SIGNED_IN = { next: '/admin/' }

/** Starts the person's session and records the sign-in (`details`: how). */
export async function completeSignIn(
  { service }: HttpContext,
  reply: FastifyReply,
  email: string,
  details: { method: 'passkey' | 'oidc'; invitation?: true } & Record<string, unknown>,
) {
  await setSession(service, reply, email)
  await appendAudit(
    service.database,
    { actor: email, action: 'sign-in', subject: email, details },
    service.clock(),
  )
  service.metrics.signIn(details.invitation ? 'invitation' : details.method, 'success')
  return SIGNED_IN
}

/** Records a refused sign-in (`subject`: by which way) and answers 401 with the reason. */
async function refuseSignIn(
  { service }: HttpContext,
  reply: FastifyReply,
  subject: 'identity provider' | 'passkey',
  reason: string,
) {
  await appendAudit(
    service.database,
    { actor: 'unknown', action: 'sign-in-refused', subject, details: { reason } },
    service.clock(),
  )
  service.metrics.signIn(subject === 'passkey' ? 'passkey' : 'oidc', 'refused')
  return refuse(reply, 401, `Not signed in: ${reason}.`)
}

/** The sign-in page, both ways of signing in, and signing out; `limited`: the rate limit. */
export function registerSignIn(
  app: FastifyInstance,
  context: HttpContext,
  limited: RouteShorthandOptions,
): void {
  const { service, origin, signedIn } = context
  const { database, party, settings, clock } = service
  const oidc = settings.oidc
    ? createOidc(settings.oidc, `${origin}/sign-in/provider/callback`)
    : undefined

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
        ...(person
          ? {
              signedIn: {
                viewer: await viewerOf(service, person),
                notices: await noticesOn(database, person.email),
              },
            }
          : {}),
      }),
    )
  })

  // ——— the bank's identity provider (OpenID Connect), when configured ———
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
      return await completeSignIn(context, reply, known.person.email, {
        method: 'oidc',
        roles: known.person.roles,
      })
    } catch (error) {
      if (!(error instanceof OidcError || error instanceof PeopleError)) throw error
      return refuseSignIn(context, reply, 'identity provider', error.message)
    }
  })

  // ——— passkeys, where no provider is configured ———
  app.addHook('onRequest', async (request, reply) => {
    if (!oidc) return
    const path = request.url.split('?')[0] ?? ''
    if (
      request.method === 'POST' &&
      (path === '/sign-in' ||
        path === '/sign-in/options' ||
        path.startsWith('/invitation/') ||
        path.startsWith('/api/me/passkeys/') ||
        path === '/api/people/reset-sign-in')
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
      return await completeSignIn(context, reply, person.email, { method: 'passkey' })
    } catch (error) {
      if (!(error instanceof PasskeyError)) throw error
      return refuseSignIn(context, reply, 'passkey', error.message)
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
}
