/**
 * The editor's routes: `/admin/` with Decap's prebuilt bundle and ours (bundled once per
 * version of the code), started with the configuration made from main's content for the
 * signed-in person; its protocol at `/api/cms` and the preview beside it. What each does is in
 * the editor's own folder (../editor/, its README says which file is what).
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { createCmsApi } from '../editor/api'
import { EDITOR_BASE, editorCode } from '../editor/bundle'
import { editorConfigs } from '../editor/config'
import { editorPage } from '../pages/editor'
import { type HttpContext, isRecord, JSON_TYPE, refuse } from './requests'
import { viewerOf } from './waiting'

const DECAP_DIST = dirname(createRequire(import.meta.url).resolve('decap-cms'))
const BUNDLE_FILE = /^[\w.-]+\.js$/
/** The editor's protocol carries images as base64 (5 MB each, a few to an entry). */
const CMS_BODY_LIMIT = 32 * 1024 * 1024
const EDITOR_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
}

/** The editor's routes; `bundleNow` starts bundling its code at once, not when first opened. */
export function registerEditor(
  app: FastifyInstance,
  context: HttpContext,
  bundleNow = false,
): void {
  const { service, origin, signedIn } = context
  const { settings } = service
  const code = editorCode(service.buildConfig, join(settings.dir, 'editor'), bundleNow)
  const api = createCmsApi({
    ...service,
    previewUrl: (id) => `${origin}/preview/${id}`,
  })

  const configFor = editorConfigs(service.repo, origin)

  app.get<{ Params: { version: string; name: string } }>(
    `${EDITOR_BASE}:version/assets/:name`,
    async (request, reply) => {
      const built = await code()
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
      return await api.preview(
        files as { path: string; data: unknown }[],
        settings.url,
        person.language,
      )
    } catch (error) {
      return refuse(reply, 400, error instanceof Error ? error.message : String(error))
    }
  })
  app.get('/admin', async (_request, reply) => reply.redirect('/admin/', 301))
  app.get('/admin/', async (request, reply) => {
    const person = await signedIn(request)
    if (!person) return reply.redirect('/sign-in', 303)
    const config = await configFor(person)
    const built = await code()
    const base = `${EDITOR_BASE}${built.version}/`
    return reply.type('text/html; charset=utf-8').send(
      editorPage({
        language: person.language,
        viewer: await viewerOf(service, person),
        config,
        bundle: {
          script: `${base}${built.script}`,
          styles: built.styles.map((style) => `${base}${style}`),
        },
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
}
