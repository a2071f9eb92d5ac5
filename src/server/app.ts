/**
 * The HTTP server of `npm start`: the static site, and the forms service under `/api/`. One
 * app factory, so tests and the CLI build the same server.
 */
import { createHash } from 'node:crypto'
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { EMPTY_POLICY, responseHeaders, type SitePolicy } from '../shared/http-headers'
import { cspReportRoute } from './csp-report'
import { SERVICE_PAGE_CSS } from './forms/pages'
import { type FormsServiceOptions, formsRoutes } from './forms/routes'
import { createStaticHandler, readSitePolicy } from './static-files'

export interface AppOptions {
  /** The built site; without it only `/api/` (and what else is registered) answers. */
  root?: string
  /** pino log level; `silent` in tests. */
  logLevel?: string
  /** Where log lines go (stdout by default; tests read them). */
  logStream?: { write(line: string): void }
  /** The forms service; without it `/api/` answers 404 (a static host). */
  forms?: FormsServiceOptions
  /** Trust `X-Forwarded-For` from a proxy in front (`TRUST_PROXY`), for rate limits per address. */
  trustProxy?: boolean | string
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      ...(options.logStream ? { stream: options.logStream } : {}),
      // Requests are logged by method and path only: no query (links carry tokens), no
      // address of the visitor.
      serializers: {
        req: (request: { method: string; url: string }) => ({
          method: request.method,
          path: request.url.split('?')[0],
        }),
      },
    },
    // Page and asset reads are not worth a log line each; the forms service's calls are.
    logController: new LogController({
      disableRequestLogging: (request) => request.method === 'GET' || request.method === 'HEAD',
    }),
    return503OnClosing: true,
    trustProxy: options.trustProxy ?? false,
  })
  const policy: SitePolicy = options.root ? await readSitePolicy(options.root) : EMPTY_POLICY
  const serviceStyleHash = `sha256-${createHash('sha256').update(SERVICE_PAGE_CSS).digest('base64')}`
  // Every answer of the service (under /api/, its health, anything when no site is served)
  // carries the service's headers, whoever answered it; the static files set their own (their
  // kind depends on the file).
  app.addHook('onSend', async (request, reply) => {
    const ofService =
      !options.root || /^\/(api\/|healthz$|readyz$)/.test(request.url.split('?')[0] ?? '')
    if (!ofService) return
    reply.headers(
      responseHeaders('api', policy, { https: request.protocol === 'https', serviceStyleHash }),
    )
  })
  await app.register(cspReportRoute)
  if (options.forms) await app.register(formsRoutes, options.forms)
  if (!options.root) return app
  const handle = createStaticHandler(options.root, policy)
  app.route({
    method: ['GET', 'HEAD'],
    url: '/*',
    async handler(request, reply) {
      const url = new URL(request.url, 'http://localhost')
      let pathname: string
      try {
        pathname = decodeURIComponent(url.pathname)
      } catch {
        return reply.code(400).type('text/plain').send('Malformed address')
      }
      const response = await handle(
        request.method,
        pathname,
        request.headers,
        request.protocol === 'https',
      )
      if (response.status === 301 && response.headers.location) {
        response.headers.location += url.search
      }
      reply.code(response.status).headers(response.headers)
      return reply.send(response.body ?? '')
    },
  })
  return app
}
