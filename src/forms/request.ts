/**
 * What the forms service reads of a request beyond its fields: whether a browser without our
 * script sent it, in which language, and from which page.
 */
import type { FastifyRequest } from 'fastify'
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../shared/languages'

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)

/** A browser without our script (a form post, a link followed): answered with pages. */
export const wantsPage = (request: FastifyRequest) =>
  request.method === 'GET' ||
  (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')

/**
 * The visitor's language: the form's `language` field, else the link's `lang`, else the first
 * of ours the browser asks for (`Accept-Language`, for an answer given before the body is
 * read), else English.
 */
export function languageOf(request: FastifyRequest): Language {
  const fromBody = (request.body as { language?: unknown } | undefined)?.language
  const fromQuery = (request.query as { lang?: unknown } | undefined)?.lang
  if (isLanguage(fromBody)) return fromBody
  if (isLanguage(fromQuery)) return fromQuery
  const asked = String(request.headers['accept-language'] ?? '')
    .split(',')
    .map((part) => part.trim().slice(0, 2).toLowerCase())
    .find(isLanguage)
  return asked ?? DEFAULT_LANGUAGE
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

/**
 * Whether a browser sent this request from another site: a page elsewhere posting a form of
 * ours for each of its visitors. Browsers say where a request comes from (`Sec-Fetch-Site`,
 * else `Origin` in older ones); a request that says neither comes from no page (a mail provider's one-click
 * unsubscribe, a command-line client) and is held to the limits per address and mailbox.
 * The site's own origin is `SITE_URL`'s, or the one the request was sent to (the host it names).
 */
export function fromAnotherSite(request: FastifyRequest, siteUrl: string): boolean {
  const fetchSite = request.headers['sec-fetch-site']
  // Every current engine says where a request comes from; its word settles it (an `Origin`
  // may be `null` on our own pages under a strict referrer policy).
  if (fetchSite !== undefined) return fetchSite !== 'same-origin' && fetchSite !== 'none'
  const origin = request.headers.origin
  if (origin === undefined) return false
  return origin !== new URL(siteUrl).origin && origin !== `${request.protocol}://${request.host}`
}
