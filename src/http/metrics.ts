/**
 * Prometheus metrics of a service (prom-client), for the operators' Prometheus to scrape. Off
 * unless the operator turns them on, and never open on the public site's port (the publishing
 * service reads the same settings prefixed with `CMS_`):
 *
 * - `METRICS_PORT`: a listener of its own, on `METRICS_HOST` (default 127.0.0.1), that answers
 *   `GET /metrics` and nothing else;
 * - `METRICS_TOKEN`: `GET /metrics` on the service's own port, for a request that carries
 *   `Authorization: Bearer <token>` (at least 32 characters; a 404 for anyone else, so the
 *   address is not even known to exist).
 *
 * Every series is labelled with the service (`site` or `publishing`); no label carries a path,
 * an address, an e-mail or anything else a visitor sends, only values from fixed sets (route
 * templates, status codes, reasons). `docs/operators.md` lists the metrics.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { collectDefaultMetrics, Registry } from 'prom-client'
import { responseKind } from '../shared/http-headers'
import { portSetting, settingOf } from '../shared/setting-values'
import { SettingError } from '../shared/settings-error'
import { type ListenerSetting, listenFailure } from './listeners'

export const METRICS_PATH = '/metrics'
const MIN_TOKEN_LENGTH = 32

export interface MetricsSettings {
  /** `METRICS_PORT`: a listener of its own for `/metrics`. */
  port?: number
  /** `METRICS_HOST`: where that listener binds (default 127.0.0.1, this machine only). */
  host: string
  /** `METRICS_TOKEN`: `/metrics` on the service's own port, behind this bearer token. */
  token?: string
}

/**
 * The metrics settings of a service, or undefined when its metrics are off: the site's server
 * reads `METRICS_*`, the publishing service `CMS_METRICS_*` (each service its own listener, its
 * own target for Prometheus, however the two are run). A wrong value is refused, naming the
 * variable.
 */
export function readMetricsSettings(
  env: NodeJS.ProcessEnv = process.env,
  prefix = '',
): MetricsSettings | undefined {
  const portName = `${prefix}METRICS_PORT`
  const tokenName = `${prefix}METRICS_TOKEN`
  const hostName = `${prefix}METRICS_HOST`
  const token = settingOf(env, tokenName)
  if (!settingOf(env, portName) && !token) return undefined
  const port = portSetting(env, portName, undefined, { min: 1, example: 9464 })
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new SettingError(
      tokenName,
      `must be at least ${MIN_TOKEN_LENGTH} characters (it has ${token.length})`,
      `set a longer token (openssl rand -hex 32 makes one) or unset it`,
    )
  }
  return {
    ...(port ? { port } : {}),
    host: env[hostName] || '127.0.0.1',
    ...(token ? { token } : {}),
  }
}

/** The listener of metrics `settings` ask for, with the names of its settings; none without a port. */
export function metricsListener(
  settings: MetricsSettings | undefined,
  prefix = '',
): ListenerSetting | undefined {
  if (!settings?.port) return undefined
  return {
    port: settings.port,
    host: settings.host,
    portSetting: `${prefix}METRICS_PORT`,
    hostSetting: `${prefix}METRICS_HOST`,
  }
}

/** Seconds: from a static file's 1 ms to a publication's seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export interface ServiceMetrics {
  registry: Registry
  /** HTTP answers, counted by method, route template and status (`recordRequests`). */
  answers: AnswerCounts
}

type AnswerLabels = { method: string; route: string; status: string }

/**
 * HTTP answers by method, route template and status, with their latency: `http_requests_total`
 * and the histogram `http_request_duration_seconds`. Counted in plain numbers, one series a
 * label set found once in a map, and handed to prom-client only when Prometheus scrapes:
 * prom-client's own counter and histogram check and hash their labels at every answer, which
 * took 2.7 µs of each (4 % of a static file's time at 15,000 answers a second).
 */
export class AnswerCounts {
  readonly #series = new Map<
    string,
    { labels: AnswerLabels; count: number; sum: number; buckets: number[] }
  >()

  constructor(registry: Registry) {
    const all = () => [...this.#series.values()]
    const counter = {
      name: 'http_requests_total',
      help: 'HTTP answers, by method, route template and status code.',
      type: 'counter',
      aggregator: 'sum',
    }
    const histogram = {
      name: 'http_request_duration_seconds',
      help: 'Time from a request to its answer, by method, route template and status code.',
      type: 'histogram',
      aggregator: 'sum',
    }
    registry.registerMetric({
      ...counter,
      get: async () => ({
        ...counter,
        values: all().map((series) => ({ labels: series.labels, value: series.count })),
      }),
      reset: () => {},
    } as unknown as Parameters<Registry['registerMetric']>[0])
    registry.registerMetric({
      ...histogram,
      get: async () => ({
        ...histogram,
        values: all().flatMap(({ labels, count, sum, buckets }) => {
          let below = 0
          return [
            ...LATENCY_BUCKETS.map((le, index) => {
              below += buckets[index] ?? 0
              return {
                labels: { le, ...labels },
                value: below,
                metricName: `${histogram.name}_bucket`,
              }
            }),
            {
              labels: { le: '+Inf', ...labels },
              value: count,
              metricName: `${histogram.name}_bucket`,
            },
            { labels, value: sum, metricName: `${histogram.name}_sum` },
            { labels, value: count, metricName: `${histogram.name}_count` },
          ]
        }),
      }),
      reset: () => {},
    } as unknown as Parameters<Registry['registerMetric']>[0])
  }

  /** One answer of `seconds` to a request of these labels. */
  record(method: string, route: string, status: string, seconds: number): void {
    const key = `${method} ${status} ${route}`
    let series = this.#series.get(key)
    if (!series) {
      series = {
        labels: { method, route, status },
        count: 0,
        sum: 0,
        buckets: LATENCY_BUCKETS.map(() => 0),
      }
      this.#series.set(key, series)
    }
    series.count += 1
    series.sum += seconds
    // Counted in its own bucket; the scrape adds them up (Prometheus's buckets count all below).
    const bucket = LATENCY_BUCKETS.findIndex((le) => seconds <= le)
    if (bucket >= 0) series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1
  }
}

/** A registry of the service's own (tests make several), with Node's process metrics. */
export function createMetrics(service: 'site' | 'publishing'): ServiceMetrics {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  collectDefaultMetrics({ register: registry })
  return { registry, answers: new AnswerCounts(registry) }
}

/** The methods a label may name; anything else is counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * A request's route as a label: its route's template (`/api/forms/:form`), never the address
 * it was sent to. The site's catch-all is named by the kind of file (`site:page`,
 * `site:hashed`, …), an address no route took `unmatched`.
 */
export function routeLabel(request: FastifyRequest): string {
  const route = request.routeOptions.url
  if (!route || request.is404) return 'unmatched'
  if (route === '/*') return `site:${responseKind(request.url.split('?')[0] ?? '/')}`
  return route
}

/** Counts every answer of `app` (registered first, so that no answer escapes it). */
export function recordRequests(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.answers.record(
      METHODS.has(request.method) ? request.method : 'other',
      routeLabel(request),
      String(reply.statusCode),
      reply.elapsedTime / 1000,
    )
    done()
  })
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  return Boolean(match?.[1] && timingSafeEqual(digest(match[1]), digest(token)))
}

/**
 * `GET /metrics` on the service's own port, for the bearer of `token` only; anyone else gets
 * what `otherwise` answers (the site's 404 page: nothing tells the address apart).
 */
export function metricsRoute(
  app: FastifyInstance,
  registry: Registry,
  token: string,
  otherwise: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> = async (
    _request,
    reply,
  ) => reply.callNotFound(),
): void {
  app.get(METRICS_PATH, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) return otherwise(request, reply)
    return reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(await registry.metrics())
  })
}

/** A listener of its own that answers `GET /metrics` (and HEAD) and nothing else. */
export async function listenForMetrics(
  registry: Registry,
  settings: { port: number; host: string },
): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n')
      return
    }
    registry.metrics().then(
      (text) => {
        response.writeHead(200, {
          'content-type': registry.contentType,
          'cache-control': 'no-store',
        })
        response.end(request.method === 'HEAD' ? undefined : text)
      },
      () => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Error\n')
      },
    )
  })
  server.requestTimeout = 10_000
  server.headersTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(settings.port, settings.host, () => resolve())
  })
  return server
}

/**
 * Opens the listener `settings` asks for (none without a port) beside `app`, closed with it.
 * Call it before `app` listens: Fastify takes no hook after.
 */
export async function listenBeside(
  app: FastifyInstance,
  registry: Registry,
  settings: MetricsSettings | undefined,
  /** `CMS_` for the publishing service's settings: a port taken is said as theirs. */
  prefix = '',
): Promise<void> {
  const wanted = metricsListener(settings, prefix)
  if (!settings?.port || !wanted) return
  const listener = await listenForMetrics(registry, {
    port: settings.port,
    host: settings.host,
  }).catch((error: unknown) => {
    throw listenFailure(error, wanted)
  })
  app.addHook('onClose', () => new Promise<void>((done) => listener.close(() => done())))
  app.log.info({ host: settings.host, port: settings.port }, 'metrics served for Prometheus')
}
