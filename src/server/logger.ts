/**
 * The logger of both services, the site's server (with the forms service) and the publishing
 * service: one set-up, so what a log line may hold is decided in one place. A request is logged
 * by its method and path only: no query (links carry tokens), no address of the visitor, no
 * header (cookies), and no more of the path than the site's own addresses need (a client
 * chooses it; a line must not grow with it).
 */
import type { FastifyServerOptions } from 'fastify'

/** The longest path a log line repeats (the site's own are far shorter). */
const LOGGED_PATH_LENGTH = 200
/** The longest method a log line repeats (a client may send any token). */
const LOGGED_METHOD_LENGTH = 20

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void
}

/** The logger options of a service's Fastify app: level, destination, serializers. */
export function loggerOptions(options: {
  level?: string | undefined
  stream?: LogStream | undefined
}): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: options.level ?? 'info',
    ...(options.stream ? { stream: options.stream } : {}),
    serializers: {
      req: (request: { method: string; url: string }) => ({
        method: request.method.slice(0, LOGGED_METHOD_LENGTH),
        path: (request.url.split('?')[0] ?? '').slice(0, LOGGED_PATH_LENGTH),
      }),
    },
  }
}
