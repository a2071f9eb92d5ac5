/**
 * The files the forms service's pages load (pages.tsx): their stylesheet, `/api/pages.css` (the
 * site's design tokens and Inter's faces, then `pages.css`; see ../http/site-styles.ts), and Inter's
 * two files under `/api/fonts/`. The service's policy lets its pages load styles and fonts from
 * the site's own origin only (`style-src 'self'; font-src 'self'`), so they come from here,
 * wherever the service runs: beside the site (`npm start`), or alone behind nginx, which passes
 * all of `/api/` to it.
 *
 * GET and HEAD only (the app answers other methods 405); reading them changes nothing. The
 * stylesheet is made once per process, when first asked for.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ROOT } from '../engine/config'
import { INTER_FILES, INTER_LATIN, interFile, siteStylesheet } from '../http/site-styles'

/** Where the pages' stylesheet is served. */
export const PAGES_STYLESHEET = '/api/pages.css'
/** Where Inter's files are served (the stylesheet's `@font-face` rules name them here). */
export const PAGES_FONT_PATH = '/api/fonts/'
/** The face the pages preload: their text is English or German, Latin throughout. */
export const PAGES_PRELOADED_FONT = `${PAGES_FONT_PATH}${INTER_LATIN}`
/** The page stylesheet's source, in the project. */
const OWN_STYLES = 'src/forms/pages.css'

/**
 * One name, not one that hashes the content, and cached for five minutes: in a rolling
 * upgrade a page of one instance may ask another for its stylesheet, which then must still
 * answer under the old name; any version of the stylesheet styles any version of the pages
 * well enough for those minutes. The pages are rare (forms sent without script, e-mails'
 * links), so a revalidation now and then (answered 304 by its ETag) costs nothing worth a
 * year's cache.
 */
export const PAGES_STYLESHEET_CACHE = 'public, max-age=300'
/** Inter's files change only with their package: a day, as the publishing service's. */
export const PAGES_FONT_CACHE = 'public, max-age=86400'

interface Stylesheet {
  body: string
  etag: string
}

let made: Promise<Stylesheet> | undefined

/** The pages' stylesheet and its ETag, made from the project's files once per process. */
export function pagesStylesheet(): Promise<Stylesheet> {
  if (!made) {
    const making = siteStylesheet(ROOT, OWN_STYLES, PAGES_FONT_PATH).then((body) => ({
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    }))
    // A failure is not kept: the next request tries again.
    making.catch(() => {
      if (made === making) made = undefined
    })
    made = making
  }
  return made
}

/**
 * Whether the client's copy is `etag` (RFC 9110, 13.1.2: weak comparison, and `*` for any copy
 * of a resource that exists).
 */
function hasCopy(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match']
  if (!header) return false
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag)
}

const notFound = (reply: FastifyReply) =>
  reply.code(404).send({ ok: false, errors: [{ field: '', code: 'unknown' }] })

/** `GET /api/pages.css` and `GET /api/fonts/{file}` (HEAD too, as for every GET route). */
export async function pageFileRoutes(app: FastifyInstance): Promise<void> {
  app.get(PAGES_STYLESHEET, async (request, reply) => {
    const { body, etag } = await pagesStylesheet()
    reply.header('cache-control', PAGES_STYLESHEET_CACHE).header('etag', etag)
    if (hasCopy(request, etag)) return reply.code(304).send()
    return reply.type('text/css; charset=utf-8').send(body)
  })

  app.get<{ Params: { name: string } }>(`${PAGES_FONT_PATH}:name`, async (request, reply) => {
    const { name } = request.params
    if (!INTER_FILES.has(name)) return notFound(reply)
    return reply
      .header('cache-control', PAGES_FONT_CACHE)
      .type('font/woff2')
      .send(await readFile(interFile(name)))
  })
}
