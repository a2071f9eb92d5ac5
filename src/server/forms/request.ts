/**
 * What the forms service reads of a request beyond its fields: whether a browser without our
 * script sent it, in which language, and from which page.
 */
import type { FastifyRequest } from 'fastify'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../shared/languages'

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)

/** A browser without our script (a form post, a link followed): answered with pages. */
export const wantsPage = (request: FastifyRequest) =>
  request.method === 'GET' ||
  (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')

/** The visitor's language: the form's `language` field, else the link's `lang`, else English. */
export function languageOf(request: FastifyRequest): Language {
  const fromBody = (request.body as { language?: unknown } | undefined)?.language
  const fromQuery = (request.query as { lang?: unknown } | undefined)?.lang
  return isLanguage(fromBody) ? fromBody : isLanguage(fromQuery) ? fromQuery : DEFAULT_LANGUAGE
}

/** The page the form was sent from, when the browser says so and it is one of ours. */
export function sameSiteReferer(request: FastifyRequest, siteUrl: string): string | undefined {
  const referer = request.headers.referer
  if (!referer) return undefined
  try {
    const url = new URL(referer)
    const ours = url.origin === new URL(siteUrl).origin || url.host === request.headers.host
    return ours && /^\/(?!\/)/.test(url.pathname) ? url.pathname : undefined
  } catch {
    return undefined
  }
}
