/**
 * The signed-in person as the editor asks for them: who they are (Decap's user), the language
 * they chose, and a drawing of their initials for an avatar.
 */
import type { FastifyInstance } from 'fastify'
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
