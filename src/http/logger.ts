/**
 * The logger of both services, the site's server (with the forms service) and the publishing
 * service: one set-up, so what a log line may hold is decided in one place. A request is logged
 * by its method and path only: no query (links carry tokens), no address of the visitor, no
 * header (cookies), and no more of the path than the site's own addresses need (a client
 * chooses it; a line must not grow with it).
 *
 * Lines are JSON for a log collector, or, on a terminal, lines a person reads (pino-pretty).
 * Those are made in-process and written synchronously, as pino's own JSON lines are, so the
 * bounded shutdown stays bounded and the last lines before the process exits are not lost
 * (a worker-thread transport would hold them in flight).
 */
import type { FastifyServerOptions } from 'fastify'
import { build } from 'pino-pretty'
import { choiceSetting } from '../shared/setting-values'

/** The longest path a log line repeats (the site's own are far shorter). */
const LOGGED_PATH_LENGTH = 200
/** The longest method a log line repeats (a client may send any token). */
const LOGGED_METHOD_LENGTH = 20

export type LogFormat = 'json' | 'pretty'

/** Where log lines go instead of stdout as JSON (tests read them; a terminal's are pretty). */
export interface LogStream {
  write(line: string): void
}

/**
 * `LOG_FORMAT`: `json` or `pretty`; unset, lines a person reads on a terminal and JSON
 * anywhere else (a log collector, CI, a test reading the output).
 */
export function logFormatOf(
  env: NodeJS.ProcessEnv = process.env,
  terminal: boolean = Boolean(process.stdout.isTTY),
): LogFormat {
  return choiceSetting(env, 'LOG_FORMAT', ['json', 'pretty'], terminal ? 'pretty' : 'json')
}

/** pino's levels, the quietest last. */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const

/** `LOG_LEVEL`: one of pino's levels (`info` by default). */
export function logLevelOf(env: NodeJS.ProcessEnv = process.env): string {
  return choiceSetting(env, 'LOG_LEVEL', LOG_LEVELS, 'info')
}

/** The stream for lines in `format`; none for JSON, which pino writes to stdout itself. */
export function logStreamFor(format: LogFormat): LogStream | undefined {
  if (format === 'json') return undefined
  // One line per event, its details after the message; colours only on a terminal (pino-pretty's
  // default); `sync`: each line written before write() returns.
  return build({
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
  })
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
