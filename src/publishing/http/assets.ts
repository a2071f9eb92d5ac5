/**
 * The service's own files: its scripts and stylesheet (browser-bundle.ts), SimpleWebAuthn's
 * browser bundle for the passkey ceremonies, and the bank's icon. Each page loads them from
 * here, so the service's policy needs no inline script.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { iconSvg } from '../../engine/site-files/web-manifest'
import { INTER_FILES, interFile } from '../../http/site-styles'
import { FONT_PATH, SERVICE_FILE_NAMES, serviceFiles } from './browser-bundle'
import { type HttpContext, refuse } from './requests'

/** SimpleWebAuthn's browser bundle (its package's `unpkg` file, beside `script/`). */
const WEBAUTHN_BUNDLE = join(
  dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')),
  '..',
  'dist',
  'bundle',
  'index.umd.min.js',
)

/** `/_publishing/<name>` and `/icon.svg`; `prepareNow` makes the scripts at once. */
export function registerAssets(
  app: FastifyInstance,
  { service }: HttpContext,
  prepareNow = false,
): void {
  const root = service.buildConfig.root
  if (prepareNow) serviceFiles(root).catch(() => {})
  app.get<{ Params: { name: string } }>('/_publishing/:name', async (request, reply) => {
    const { name } = request.params
    const file =
      name === 'webauthn.js'
        ? { body: await readFile(WEBAUTHN_BUNDLE), type: 'text/javascript; charset=utf-8' }
        : SERVICE_FILE_NAMES.has(name)
          ? (await serviceFiles(root)).get(name)
          : undefined
    if (!file) return refuse(reply, 404, 'Not found')
    return reply.header('cache-control', 'no-cache').type(file.type).send(file.body)
  })

  app.get<{ Params: { name: string } }>(`${FONT_PATH}:name`, async (request, reply) => {
    const { name } = request.params
    if (!INTER_FILES.has(name)) return refuse(reply, 404, 'Not found')
    return reply
      .header('cache-control', 'public, max-age=86400')
      .type('font/woff2')
      .send(await readFile(interFile(name)))
  })

  app.get('/icon.svg', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(iconSvg()),
  )
}
