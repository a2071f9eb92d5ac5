/**
 * The signed-in person as the editor asks for them: who they are (Decap's user), the language
 * they chose, and a drawing of their initials for an avatar.
 */
import type { FastifyInstance } from 'fastify'
import { noticesOn, setNotices } from '../notices/notices'
import { setLanguage } from '../people/people'
import { type HttpContext, isRecord, refuse } from './requests'

export function registerMe(app: FastifyInstance, { service, signedIn }: HttpContext): void {
  app.get('/api/me', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    return {
      name: person.name,
      login: person.email,
      email: person.email,
      roles: person.roles,
      language: person.language,
      notices: await noticesOn(service.database, person.email),
      avatar_url: '/api/me/avatar.svg',
    }
  })
  // The e-mails about drafts (notices/): on or off, by the person only, recorded in the trail.
  app.post('/api/me/notices', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const value = isRecord(request.body) ? request.body.notices : undefined
    const on =
      value === true || value === 'on'
        ? true
        : value === false || value === 'off'
          ? false
          : undefined
    if (on === undefined) return refuse(reply, 422, 'The e-mails are on or off.')
    await setNotices(service.database, person, on, service.clock())
    return { notices: on }
  })
  app.post('/api/me/language', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return refuse(reply, 401, 'Please sign in again.')
    const language = isRecord(request.body) ? request.body.language : undefined
    if (language !== 'en' && language !== 'de') {
      return refuse(reply, 422, 'The editor speaks English (en) or German (de).')
    }
    await setLanguage(service.database, person.email, language)
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
}
