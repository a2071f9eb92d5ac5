/**
 * Accepting an invitation: the link's token (in the address's fragment, never sent in a GET)
 * names the invitation; the person gives a name, makes a passkey and is signed in. The first
 * administrator's invitation asks for the e-mail address too. A link a newer invitation
 * replaced says so (one open invitation per address); the roles it gives are the
 * administrators' decision as it stands (`acceptInvitation`).
 */
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify'
import { invitationPage } from '../pages/sign-in'
import { languageOf } from '../pages/texts'
import {
  PasskeyError,
  registrationOptions,
  storePasskey,
  verifyRegistration,
} from '../people/passkeys'
import {
  acceptInvitation,
  InvitationReplacedError,
  invitationOf,
  invitationStatus,
  normalEmail,
  PeopleError,
} from '../people/people'
import { acceptReset } from '../people/resets'
import { refuseError } from './error-answers'
import { type HttpContext, isRecord, refuse } from './requests'
import { completeSignIn } from './sign-in'

/** The invitation page and its three steps; `limited`: the sign-in's rate limit. */
export function registerInvitations(
  app: FastifyInstance,
  context: HttpContext,
  limited: RouteShorthandOptions,
): void {
  const { database, party, clock } = context.service
  /** The browser's language: the person has no account, or is not signed in, yet. */
  const languageIn = (request: FastifyRequest) => languageOf(request.headers['accept-language'])

  app.get('/invitation', async (request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .send(invitationPage(languageOf(request.headers['accept-language']))),
  )
  /**
   * The invitation a request's token names, while it works; else a `PeopleError` saying
   * whether a newer invitation replaced it or it was used or expired (answered in the
   * browser's language): gone (410) to a page that asks `about` it, refused (422) to one that
   * uses it.
   */
  const invitationFrom = async (request: FastifyRequest, about = false) => {
    const body = isRecord(request.body) ? request.body : {}
    const token = typeof body.token === 'string' && body.token.length <= 100 ? body.token : ''
    const invitation = token ? await invitationOf(database, token, clock()) : null
    if (!invitation) throw await closedInvitation(token, about)
    return { token, invitation }
  }
  const closedInvitation = async (token: string, about = false) => {
    const replaced = token && (await invitationStatus(database, token, clock())) === 'replaced'
    if (about) return new PeopleError(replaced ? 'invitation-replaced-gone' : 'invitation-gone')
    return new PeopleError(replaced ? 'invitation-replaced' : 'invitation-used')
  }
  app.post('/invitation/about', limited, async (request, reply) => {
    try {
      const { invitation } = await invitationFrom(request, true)
      return {
        first: invitation.first,
        roles: invitation.roles,
        ...(invitation.pending ? { pending: invitation.pending } : {}),
        ...(invitation.reset ? { reset: true } : {}),
      }
    } catch (error) {
      return refuseError(reply, error, languageIn(request))
    }
  })
  app.post('/invitation/options', limited, async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    try {
      const { invitation } = await invitationFrom(request)
      // A reset's person exists: the passkey is theirs, under the name they have.
      if (invitation.reset) {
        const { email, reset } = invitation
        return await registrationOptions(database, party, { email, name: reset.name }, clock())
      }
      const name = typeof body.name === 'string' ? body.name.trim() : ''
      if (name.length === 0 || name.length > 200) throw new PeopleError('name-length')
      const email = invitation.first ? normalEmail(String(body.email ?? '')) : invitation.email
      return registrationOptions(database, party, { email, name }, clock())
    } catch (error) {
      return refuseError(reply, error, languageIn(request))
    }
  })
  app.post('/invitation/accept', limited, async (request, reply) => {
    const body = isRecord(request.body) ? request.body : {}
    try {
      const { token, invitation } = await invitationFrom(request)
      const passkey = await verifyRegistration(
        database,
        party,
        body.ceremony,
        body.response as never,
        clock(),
      )
      if (invitation.reset) {
        // Back in after a reset: the same person, their roles and history as they were.
        const person = await acceptReset(database, token, passkey, clock()).catch(
          async (error: unknown) => {
            throw error instanceof InvitationReplacedError ? await closedInvitation(token) : error
          },
        )
        return await completeSignIn(context, reply, person.email, {
          method: 'passkey',
          reset: true,
          roles: person.roles,
        })
      }
      const language = body.language === 'de' ? 'de' : 'en'
      const person = await acceptInvitation(
        database,
        token,
        { name: String(body.name ?? ''), language, email: passkey.email },
        clock(),
      ).catch(async (error: unknown) => {
        // Replaced between the check and now: the link says so.
        throw error instanceof InvitationReplacedError ? await closedInvitation(token) : error
      })
      await storePasskey(database, { ...passkey, email: person.email }, clock())
      return await completeSignIn(context, reply, person.email, {
        method: 'passkey',
        invitation: true,
        roles: person.roles,
      })
    } catch (error) {
      if (error instanceof PeopleError || error instanceof PasskeyError) {
        context.service.metrics.signIn('invitation', 'refused')
      }
      if (error instanceof PasskeyError) return refuse(reply, 422, `${error.message}.`)
      return refuseError(reply, error, languageIn(request))
    }
  })
}
