/**
 * "Your sign-in" (`/me/sign-in`, HTML: `pages/own-sign-in.tsx`) and its actions, for the
 * signed-in person and about themselves only: adding a passkey (the invitation's registration
 * ceremony, `people/passkeys.ts`), renaming and removing one of theirs, and ending their other
 * sessions. The rules (`people/sign-in-rules.ts`) are asked where the outcome is recorded;
 * every refusal is in the trail. While the bank's identity provider signs people in, the
 * passkeys' writes are refused (`sign-in.ts`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { appendRefusal } from '../audit/refusal-limit'
import { ownSignInPage } from '../pages/own-sign-in'
import { PasskeyError, registrationOptions, verifyRegistration } from '../people/passkeys'
import type { Person } from '../people/roles'
import {
  addPasskey,
  endSessions,
  listPasskeys,
  otherSessions,
  passkeyName,
  removePasskey,
  renamePasskey,
  sessionStarted,
} from '../people/sign-in-keys'
import { mayAddPasskey, type SignInDecision } from '../people/sign-in-rules'
import { refuseError } from './error-answers'
import { bodyOf, cookieOf, HTML_TYPE, type HttpContext, refuse, SESSION_COOKIE } from './requests'
import { viewerOf } from './waiting'

export function registerOwnSignIn(app: FastifyInstance, context: HttpContext): void {
  const { service, signedIn } = context
  const { database, party, clock } = service
  const passkeysOn = !service.settings.oidc

  /** The signed-in person and their session's cookie, or the refusal sent. */
  const who = async (request: FastifyRequest, reply: FastifyReply) => {
    const person = await signedIn(request)
    const token = cookieOf(request, SESSION_COOKIE)
    if (!person || !token) {
      refuse(reply, 401, 'Please sign in again.')
      return null
    }
    return { person, token }
  }
  /** A decision's refusal as the answer (its entry is in the trail already). */
  const answer = (reply: FastifyReply, decision: SignInDecision, done: object) =>
    decision.allowed ? done : refuse(reply, 403, decision.reason)
  /** Adding needs a recent sign-in: asked at both steps, the refusal recorded here. */
  const recent = async (person: Person, token: string) => {
    const started = await sessionStarted(database, token)
    const decision = mayAddPasskey(person, started ?? new Date(0), clock())
    if (!decision.allowed) {
      await appendRefusal(
        database,
        {
          actor: person.email,
          action: 'refusal',
          subject: person.email,
          details: { code: decision.code, reason: decision.reason, action: 'add' },
        },
        clock(),
      )
    }
    return decision
  }
  const failed = (reply: FastifyReply, person: Person, error: unknown) => {
    if (error instanceof PasskeyError) return refuse(reply, 422, `${error.message}.`)
    return refuseError(reply, error, person.language)
  }

  app.get('/me/sign-in', async (request, reply) => {
    const person = await signedIn(request)
    const token = cookieOf(request, SESSION_COOKIE)
    if (!person || !token) return reply.redirect('/sign-in', 303)
    const page = ownSignInPage(await viewerOf(service, person), {
      passkeys: passkeysOn ? await listPasskeys(database, person.email) : null,
      otherSessions: await otherSessions(database, person.email, token, clock()),
    })
    return reply.type(HTML_TYPE).send(page)
  })

  app.post('/api/me/passkeys/options', async (request, reply) => {
    const me = await who(request, reply)
    if (!me) return reply
    try {
      passkeyName(bodyOf(request).name, true)
      const decision = await recent(me.person, me.token)
      if (!decision.allowed) return refuse(reply, 403, decision.reason)
      return await registrationOptions(database, party, me.person, clock())
    } catch (error) {
      return failed(reply, me.person, error)
    }
  })
  app.post('/api/me/passkeys/add', async (request, reply) => {
    const me = await who(request, reply)
    if (!me) return reply
    const body = bodyOf(request)
    try {
      const name = passkeyName(body.name, true)
      const decision = await recent(me.person, me.token)
      if (!decision.allowed) return refuse(reply, 403, decision.reason)
      const passkey = await verifyRegistration(
        database,
        party,
        body.ceremony,
        body.response as never,
        clock(),
      )
      const added = await addPasskey(database, me.person, passkey, name, clock())
      return answer(reply, added, { added: true })
    } catch (error) {
      return failed(reply, me.person, error)
    }
  })
  app.post('/api/me/passkeys/rename', async (request, reply) => {
    const me = await who(request, reply)
    if (!me) return reply
    const body = bodyOf(request)
    try {
      const name = passkeyName(body.name, true) as string
      const decision = await renamePasskey(
        database,
        me.person,
        String(body.passkey ?? ''),
        name,
        clock(),
      )
      return answer(reply, decision, { renamed: true })
    } catch (error) {
      return failed(reply, me.person, error)
    }
  })
  app.post('/api/me/passkeys/remove', async (request, reply) => {
    const me = await who(request, reply)
    if (!me) return reply
    const body = bodyOf(request)
    const confirmed = body.confirm === 'yes' || body.confirm === true
    const decision = await removePasskey(
      database,
      me.person,
      String(body.passkey ?? ''),
      confirmed,
      clock(),
    )
    return answer(reply, decision, { removed: true })
  })
  app.post('/api/me/sessions/end-others', async (request, reply) => {
    const me = await who(request, reply)
    if (!me) return reply
    const { decision, ended } = await endSessions(
      database,
      me.person,
      me.person.email,
      { keep: me.token },
      clock(),
    )
    return answer(reply, decision, { ended })
  })
}
