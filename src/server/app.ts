/**
 * The HTTP server of `npm start`: the static site, and the forms service under `/api/`. One
 * app factory, so tests and the CLI build the same server.
 */
import Fastify, { type FastifyInstance, LogController } from 'fastify'
import { type FormsServiceOptions, formsRoutes } from './forms/routes'
import { createStaticHandler } from './static-files'

export interface AppOptions {
  /** The built site. */
  root: string
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
  if (options.forms) await app.register(formsRoutes, options.forms)
  const handle = createStaticHandler(options.root)
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
      const response = await handle(request.method, pathname, request.headers)
      if (response.status === 301 && response.headers.location) {
        response.headers.location += url.search
      }
      reply.code(response.status).headers(response.headers)
      return reply.send(response.body ?? '')
    },
  })
  return app
}
