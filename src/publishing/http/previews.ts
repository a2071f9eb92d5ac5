/**
 * A draft as a whole site: `/preview/<draft>` builds it (previews.ts in the workflow) and sends
 * the person to its page; from then on, the site's own paths on the service's origin serve that
 * preview's pages and files to whoever opened it, or main's images (for the preview beside the
 * editor). Whatever is neither is refused: 404, or 405 for a write.
 */
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { siteTarget } from '../../http/request-path'
import { createStaticHandler, readSitePolicy } from '../../http/static-files'
import { checkDraftId, MAIN } from '../workflow/drafts'
import { refuseError } from './error-answers'
import { IMAGE_POLICY } from './policy'
import { withPreviewBanner } from './preview-banner'
import { cookieOf, type HttpContext, refuse } from './requests'

/** Which draft's preview the person opened last: its pages are served at the site's paths. */
export const PREVIEW_COOKIE = '__Host-publishing-preview'
/** Previews whose static handlers are kept (each reads its site's policy once). */
const KEPT_SITES = 8

/** The images the site takes, by extension: what a draft's or main's image is served as. */
export const IMAGE_TYPES: Record<string, string> = {
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
}

/** `/preview/…`, and the not-found handler that serves the opened preview's files. */
export function registerPreviews(app: FastifyInstance, context: HttpContext): void {
  const { service, https, signedIn } = context
  const sites = new Map<string, ReturnType<typeof createStaticHandler>>()
  const siteAt = async (folder: string) => {
    let handle = sites.get(folder)
    if (!handle) {
      handle = createStaticHandler(folder, await readSitePolicy(folder))
      sites.set(folder, handle)
      if (sites.size > KEPT_SITES) sites.delete(sites.keys().next().value as string)
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
        const folder = await service.previews.siteOf(checkDraftId(id), person.email)
        const draft = await service.drafts.get(id)
        if (!folder || !draft) return refuse(reply, 404, `There is no draft ${id} to preview.`)
        reply.header(
          'set-cookie',
          `${PREVIEW_COOKIE}=${encodeURIComponent(id)}; Path=/; HttpOnly; Secure; SameSite=Strict`,
        )
        const file = draft.files.find((path) => path.startsWith('content/')) ?? ''
        return reply.redirect(await service.previews.pageOf(folder, file), 303)
      } catch (error) {
        return refuseError(reply, error, person.language)
      }
    },
  )
  /** A page or file of the preview the person opened last, or `undefined`. */
  const fromPreview = async (request: FastifyRequest) => {
    const id = cookieOf(request, PREVIEW_COOKIE) ?? ''
    const person = id ? await signedIn(request) : null
    if (!person) return undefined
    const folder = await Promise.resolve()
      .then(() => service.previews.siteOf(checkDraftId(id), person.email))
      .catch(() => null)
    if (!folder) return undefined
    const target = siteTarget(request.url)
    if (!target.ok) return undefined
    const site = await siteAt(folder)
    const answer = await site(request.method, target.path, request.headers, https)
    if (answer.status !== 200 || !answer.headers['content-type']?.startsWith('text/html')) {
      return answer
    }
    // A page: read as it is (not compressed), said to be a preview, sent afresh.
    const plain = await site(
      request.method,
      target.path,
      { ...request.headers, 'accept-encoding': 'identity' },
      https,
    )
    answer.body?.destroy()
    if (!plain.body) return plain
    const chunks: Buffer[] = []
    for await (const chunk of plain.body) chunks.push(Buffer.from(chunk))
    const body = Buffer.from(withPreviewBanner(Buffer.concat(chunks).toString('utf8')))
    const {
      etag: _etag,
      'content-encoding': _encoding,
      'last-modified': _modified,
      ...headers
    } = plain.headers
    return {
      ...plain,
      headers: { ...headers, 'content-length': String(body.length), 'cache-control': 'no-store' },
      body: Readable.from([body]),
    }
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
    const reading = request.method === 'GET' || request.method === 'HEAD'
    if (reading) {
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
    return refuse(reply, reading ? 404 : 405, reading ? 'Not found' : 'Method not allowed')
  })
}
