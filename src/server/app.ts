/**
 * The HTTP server of `npm start`: the static site, and the forms service under `/api/`. One
 * app factory, so tests and the CLI build the same server.
 */
import { readlink } from 'node:fs/promises'
import { STATUS_CODES } from 'node:http'
import { basename, join } from 'node:path'
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify'
import { pageFileRoutes } from '../forms/page-files'
import { type FormsServiceOptions, formsRoutes } from '../forms/routes'
import { cspReportRoute } from '../http/csp-report'
import { type LogStream, loggerOptions } from '../http/logger'
import { metricsRoute, recordRequests, type ServiceMetrics } from '../http/metrics'
import { absoluteTarget, hostProblem, siteTarget, slashRedirect } from '../http/request-path'
import { createStaticHandler, readSitePolicy, siteMoves } from '../http/static-files'
import { createTransport, TRANSPORT_DEFAULTS, type TransportSettings } from '../http/transport'
import { EMPTY_POLICY, responseHeaders, type SitePolicy } from '../shared/http-headers'
import { REDIRECT_STATUS } from '../shared/redirects'
import { CURRENT } from '../shared/release-layout'

export interface AppOptions {
  /** The built site; without it only `/api/` (and what else is registered) answers. */
  root?: string
  /**
   * The releases folder of the publishing service: while its `current` link exists, the
   * release it points at is served instead of `root`, the link read afresh for every request
   * (a switch takes effect at once, and each answer comes wholly from one release).
   */
  releasesDir?: string
  /**
   * Serve no file of the site (`root`, `releasesDir`), only its moved addresses: each answers
   * 301 to the page's, every other address of a page 404. For a server in front that serves
   * the files and asks here for an address it has none for (nginx: a move published since it
   * loaded its configuration).
   */
  movesOnly?: boolean
  /** pino log level; `silent` in tests. */
  logLevel?: string
  /** Where log lines go (stdout as JSON by default; tests read them). */
  logStream?: LogStream
  /** The forms service; without it `/api/` answers 404 (a static host). */
  forms?: FormsServiceOptions
  /** Trust `X-Forwarded-For` from a proxy in front (`TRUST_PROXY`), for rate limits per address. */
  trustProxy?: boolean | string
  /** Timeouts, the connection limit and the shutdown's bound (see transport.ts). */
  transport?: TransportSettings
  /**
   * The operators' metrics: every answer counted; with `token`, `GET /metrics` answered here
   * to its bearer (see metrics.ts).
   */
  metrics?: { metrics: ServiceMetrics; token?: string }
}

/** A complete HTTP/1.1 answer of `status` with `headers` and a one-line text, for a raw socket. */
function rawAnswer(status: number, headers: Record<string, string>): string {
  const body = `${STATUS_CODES[status] ?? 'Error'}\n`
  const lines = Object.entries({
    ...headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  }).map(([name, value]) => `${name}: ${value}`)
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}

/** The order `Allow` names methods in. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

/** The paths a route's address (`/api/forms/:form`) stands for. */
function routePattern(url: string): RegExp {
  const segments = url
    .split('/')
    .map((segment) =>
      segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
  return new RegExp(`^${segments.join('/')}$`)
}

/** One served folder's policy and file handler, made once per folder. */
interface ServedSite {
  policy: SitePolicy
  handle: ReturnType<typeof createStaticHandler>
  /** The address a request path moved to (the site's `_redirects.json`), or undefined. */
  movedTo: ReturnType<typeof siteMoves>
}

/**
 * The folder to serve for each request: the release `current` points at while there is one,
 * else the fixed root. Sites are kept by folder (a few: releases switch back and forth).
 */
function siteSource(root: string | undefined, releasesDir: string | undefined) {
  const sites = new Map<string, Promise<ServedSite>>()
  const siteAt = (folder: string) => {
    let site = sites.get(folder)
    if (!site) {
      site = readSitePolicy(folder).then((policy) => ({
        policy,
        handle: createStaticHandler(folder, policy),
        movedTo: siteMoves(folder),
      }))
      sites.set(folder, site)
      site.catch(() => sites.delete(folder))
      if (sites.size > 8) sites.delete(sites.keys().next().value as string)
    }
    return site
  }
  return async (): Promise<ServedSite | undefined> => {
    if (releasesDir) {
      const release = await readlink(join(releasesDir, CURRENT)).catch(() => undefined)
      if (release) return siteAt(join(releasesDir, basename(release)))
    }
    return root ? siteAt(root) : undefined
  }
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const serves = Boolean(options.root || options.releasesDir)
  const currentSite = siteSource(options.root, options.releasesDir)
  // The policy of the site served last, for answers no file of it makes (errors, 405); a
  // service that serves no file keeps its own.
  let policy: SitePolicy =
    (options.movesOnly ? undefined : (await currentSite())?.policy) ?? EMPTY_POLICY
  const isService = (url: string) =>
    !serves || /^\/(api\/|healthz$|readyz$)/.test(url.split('?')[0] ?? '')
  /** The headers of an answer the site writes itself: a page's, or the service's. */
  const headersFor = (url: string, https: boolean) =>
    isService(url)
      ? responseHeaders('api', policy, { https })
      : responseHeaders('page', policy, { https })
  // The connections' limits (see transport.ts); a raw answer has the service's headers, or a
  // page's for a page's request.
  const transport = createTransport(
    options.transport ?? TRANSPORT_DEFAULTS,
    (status, target) => rawAnswer(status, headersFor(target ?? '/api/', false)),
    options.trustProxy,
  )
  const serverOptions = transport.options
  // Set once the app begins to close: every request from then on is answered 503 and closed.
  let closing = false
  const app = Fastify({
    ...serverOptions,
    // Method and path only, never a visitor's data (see logger.ts).
    logger: loggerOptions({ level: options.logLevel, stream: options.logStream }),
    // Page and asset reads are not worth a log line each; the forms service's calls are.
    logController: new LogController({
      disableRequestLogging: (request) => request.method === 'GET' || request.method === 'HEAD',
    }),
    // Answered below with the headers (Fastify's own 503 has none).
    return503OnClosing: false,
    trustProxy: options.trustProxy ?? false,
    // A request without Host is refused below, with the headers (Node's own 400 has none).
    http: { ...serverOptions.http, requireHostHeader: false },
    // An absolute-form target is read as its path and query, the host it names standing for the
    // Host header (RFC 9112, 3.2.2 and 3.3); anything else is left as sent.
    rewriteUrl: (raw) => {
      const absolute = absoluteTarget(raw.url ?? '')
      if (!absolute) return raw.url ?? ''
      raw.headers.host = absolute.host
      return absolute.target
    },
    // An address Fastify cannot route (a malformed escape): answered without echoing it.
    frameworkErrors: (_error, request, reply) => {
      ;(reply as FastifyReply)
        .code(400)
        .headers(headersFor(request.url, request.protocol === 'https'))
        .type('text/plain; charset=utf-8')
        .send('Malformed address')
    },
    // What Node refuses before there is a request (bad framing, headers too large, too slow):
    // a short answer with the service's headers, since no page or file is involved.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return
      const status =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? 431
            : error.code === 'HPE_INVALID_VERSION'
              ? 505
              : 400
      // Not when an answer to this request has begun (it was refused before its body came):
      // one request, one answer. Nor a 408 on a connection that has sent nothing yet: a
      // browser opens some ahead of need, and would read a stray 408 there as the answer to
      // the next request it sends (nginx, too, closes those without a word).
      const silent = status === 408 && !transport.underWay(socket)
      if (!silent && transport.mayAnswer(socket)) {
        socket.write(rawAnswer(status, headersFor('/api/', false)))
      }
      socket.destroy(error)
    },
  })
  // First, so that every answer is counted, those the hooks below give too.
  if (options.metrics) recordRequests(app, options.metrics.metrics)
  transport.attach(app)
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return
    const path = request.url.split('?')[0]
    reply.code(503).header('connection', 'close')
    if (path === '/healthz' || path === '/readyz') return reply.send({ status: 'unavailable' })
    if (isService(request.url)) return reply.send({ ok: false, reason: 'unavailable' })
    return reply.type('text/plain; charset=utf-8').send('Service unavailable\n')
  })
  // Node answers `Expect: 100-continue` with 100 before the app sees the request, even for a
  // body the route refuses unread (too large, from another site, another method): here the
  // request goes to the app as any other, and 100 is sent once its body is to be read.
  app.server.on('checkContinue', (request, response) => {
    app.server.emit('request', request, response)
  })
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.headers.expect?.toLowerCase() !== '100-continue') return payload
    const length = Number(request.headers['content-length'])
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0
    // Refused unread by the body's parser (413): no 100 invites the body first.
    if (!(length > limit)) reply.raw.writeContinue()
    return payload
  })
  // Node answers an expectation other than 100-continue itself (417), without headers.
  app.server.on('checkExpectation', (request, response) => {
    response.writeHead(417, {
      ...headersFor(request.url ?? '/', false),
      'content-type': 'text/plain; charset=utf-8',
      connection: 'close',
    })
    response.end(`${STATUS_CODES[417]}\n`)
  })
  // A version of HTTP other than 1.0 and 1.1 in the request line (`HTTP/2.0`, `HTTP/0.9`,
  // which Node's parser takes; it refuses others, answered 505 by clientErrorHandler above).
  app.addHook('onRequest', async (request, reply) => {
    const version = request.raw.httpVersion
    if (version === '1.1' || version === '1.0') return
    return reply
      .code(505)
      .header('connection', 'close')
      .type('text/plain; charset=utf-8')
      .send(`${STATUS_CODES[505]}\n`)
  })
  // A request that is none of HTTP/1.1 (RFC 9112, 3.2): no Host, two, or one naming no host; or
  // a target that is neither a path nor `*` (an absolute one is a path by now).
  app.addHook('onRequest', async (request, reply) => {
    const problem =
      hostProblem(request.raw.rawHeaders, request.raw.httpVersion) ??
      (request.url.startsWith('/') || request.url === '*' ? undefined : 'no path')
    if (!problem) return
    request.log.info({ problem }, 'request refused')
    return reply
      .code(400)
      .header('connection', 'close')
      .type('text/plain; charset=utf-8')
      .send('Bad request')
  })
  // The service's routes and their methods, for the 405 of another method: its catch-alls
  // (`/api/*`, and the site's `/*`) name no resource and are left out.
  const serviceRoutes: { path: RegExp; methods: string[] }[] = []
  app.addHook('onRoute', (route) => {
    if (route.url.endsWith('*') || !isService(route.url)) return
    const methods = [route.method].flat()
    serviceRoutes.push({
      path: routePattern(route.url),
      methods: methods.includes('GET') ? [...methods, 'HEAD'] : methods,
    })
  })
  // Another method is refused naming those the address takes, before any body is read: a
  // route of the service's, whichever catch-all (or none) the router found for it; a page's
  // (GET and HEAD).
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url
    if (route && !route.endsWith('*') && !request.is404) return
    const path = request.url.split('?')[0] ?? ''
    const allowed = new Set(
      !isService(request.url)
        ? ['GET', 'HEAD']
        : serviceRoutes.flatMap((known) => (known.path.test(path) ? known.methods : [])),
    )
    if (allowed.size === 0 || allowed.has(request.method)) return
    return reply
      .code(405)
      .header('allow', METHODS.filter((method) => allowed.has(method)).join(', '))
      .type('text/plain; charset=utf-8')
      .send('Method not allowed')
  })
  // Every answer carries the headers of its kind, whoever wrote it: the service's under /api/
  // and its health (always theirs), a page's for whatever else has none of its own (the static
  // files set theirs, which depend on the file; Fastify's own 404s and errors set none).
  app.addHook('onSend', async (request, reply) => {
    // An answer given before the request's body came whole (refused before it was read), or
    // while the app closes, ends its connection: no waiting for the rest, nor for another.
    if (closing || request.raw.complete === false) reply.header('connection', 'close')
    if (!isService(request.url) && reply.hasHeader('content-security-policy')) return
    // A route of the service may choose one on purpose (the links' button pages choose their
    // referrer policy); the rest are the kind's.
    for (const [name, value] of Object.entries(
      headersFor(request.url, request.protocol === 'https'),
    )) {
      if (!reply.hasHeader(name)) reply.header(name, value)
    }
  })
  // Errors of the routes outside the forms service (which answers its own): a 4xx is the
  // client's and logged as a code only (Fastify's own line carried the error's stack); a 5xx is
  // ours and logged whole.
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    else request.log.info({ code: error.code ?? String(status) }, 'request refused')
    return reply
      .code(status)
      .type('text/plain; charset=utf-8')
      .send(`${STATUS_CODES[status] ?? 'Error'}\n`)
  })
  await app.register(cspReportRoute)
  if (options.forms) {
    await app.register(formsRoutes, options.forms)
    // Beside the forms' routes, not among them: those answer `no-store`, the pages' files are
    // cached (page-files.ts).
    await app.register(pageFileRoutes)
  }
  const metricsToken = options.metrics?.token
  if (!serves) {
    if (options.metrics && metricsToken) {
      metricsRoute(app, options.metrics.metrics.registry, metricsToken)
    }
    return app
  }
  const siteRoute = async (request: FastifyRequest, reply: FastifyReply) => {
    // The service's paths are no files, whether or not the service runs here.
    if (isService(request.url)) {
      return reply.code(404).send({ ok: false, errors: [{ field: '', code: 'unknown' }] })
    }
    const target = siteTarget(request.url)
    // An address the site never writes is not looked up (see request-path.ts); it gets the
    // 404 page like any unknown address, or 400 when it cannot be decoded.
    const pathname = target.ok ? target.path : target.status === 404 ? '/404' : undefined
    if (pathname === undefined) {
      return reply.code(400).type('text/plain; charset=utf-8').send('Malformed address')
    }
    const site = await currentSite()
    if (options.movesOnly) {
      const moved = target.ok ? await site?.movedTo(pathname) : undefined
      if (moved) return reply.code(REDIRECT_STATUS).header('location', moved).send()
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n')
    }
    if (!site) {
      return reply.code(503).type('text/plain; charset=utf-8').send('No site is published yet')
    }
    policy = site.policy
    const response = await site.handle(
      request.method,
      pathname,
      request.headers,
      request.protocol === 'https',
    )
    if (response.status === 301 && target.ok && !response.moved) {
      response.headers.location = slashRedirect(target)
    }
    reply.code(response.status).headers(response.headers)
    // A 304 has no body, and no length of one.
    if (response.status === 304) return reply.removeHeader('content-length').send()
    return reply.send(response.body ?? '')
  }
  app.route({ method: ['GET', 'HEAD'], url: '/*', handler: siteRoute })
  if (options.metrics && metricsToken) {
    metricsRoute(app, options.metrics.metrics.registry, metricsToken, siteRoute)
  }
  // Pages are read, never written: other methods are refused (405) by a hook above.
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).type('text/plain; charset=utf-8').send('Not found'),
  )
  return app
}
