/**
 * How long the server waits for a client, and for how many: no request, connection or
 * shutdown waits forever for someone who never finishes.
 *
 * - A request's head must arrive within `HEADERS_TIMEOUT_SECONDS`, the whole request, body
 *   included, within `REQUEST_TIMEOUT_SECONDS`, counted from its first byte however slowly it
 *   trickles (on a new connection from its opening: one that sends nothing is no exception):
 *   past either it is answered 408 (by the app's `clientErrorHandler`) and closed.
 * - A connection kept alive after an answer is closed after `KEEP_ALIVE_TIMEOUT_SECONDS`. One
 *   on which nothing moves for `IDLE_TIMEOUT_SECONDS` (a client that stops reading its answer)
 *   is closed, a request on its way answered 408 first.
 * - At most `MAX_CONNECTIONS` are open at once, fewer when the process may not open enough
 *   files for them (see connection-limits.ts); Node closes any more as they come (logged at
 *   most once a minute).
 * - At most `MAX_CONNECTIONS_PER_CLIENT` from one client, unless it is a trusted proxy.
 * - Pipelined requests are given to the app one at a time per connection, at most
 *   `PIPELINE_DEPTH` waiting, and none while the client leaves its answers unread (see
 *   pipelining.ts).
 * - Shutdown answers the requests in flight, then, `SHUTDOWN_TIMEOUT_SECONDS` after it began,
 *   ends the connections still open: a request not yet received whole is answered 503 (the
 *   service stops), one received whole is being answered and is cut off without a word.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { positiveNumberSetting, wholeNumberSetting } from '../shared/setting-values'
import { SettingError } from '../shared/settings-error'
import { limitConnections, limitPerClient, trustedProxies } from './connection-limits'
import { closeIdle } from './idle-connections'
import { inTurn } from './pipelining'

export interface TransportSettings {
  /** `REQUEST_TIMEOUT_SECONDS`: a whole request, head and body (default 30). */
  requestTimeoutMs: number
  /** `HEADERS_TIMEOUT_SECONDS`: a request's head (default 10, or the request's if shorter). */
  headersTimeoutMs: number
  /** `KEEP_ALIVE_TIMEOUT_SECONDS`: an idle connection kept for the next request (default 5). */
  keepAliveTimeoutMs: number
  /** `IDLE_TIMEOUT_SECONDS`: a connection on which nothing moves (default 60). */
  idleTimeoutMs: number
  /** `MAX_CONNECTIONS`: connections open at once (default 1024). */
  maxConnections: number
  /**
   * `MAX_CONNECTIONS_PER_CLIENT`: connections open at once from one client (default 64; an
   * IPv6 /56 twice as many, a /48 four times; a trusted proxy's are not limited).
   */
  maxConnectionsPerClient: number
  /** `SHUTDOWN_TIMEOUT_SECONDS`: how long shutdown waits for open requests (default 10). */
  shutdownTimeoutMs: number
}

export const TRANSPORT_DEFAULTS: TransportSettings = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 1024,
  maxConnectionsPerClient: 64,
  shutdownTimeoutMs: 10_000,
}

/** The settings from the environment, each checked; the defaults for those not set. */
export function readTransportSettings(env: NodeJS.ProcessEnv = process.env): TransportSettings {
  const seconds = (name: string, fallbackMs: number) =>
    Math.max(1, Math.round(positiveNumberSetting(env, name, fallbackMs / 1000, 'seconds') * 1000))
  const count = (name: string, fallback: number) =>
    wholeNumberSetting(env, name, fallback, { min: 1 })
  const maxConnections = count('MAX_CONNECTIONS', TRANSPORT_DEFAULTS.maxConnections)
  const maxConnectionsPerClient = count(
    'MAX_CONNECTIONS_PER_CLIENT',
    TRANSPORT_DEFAULTS.maxConnectionsPerClient,
  )
  const requestTimeoutMs = seconds('REQUEST_TIMEOUT_SECONDS', TRANSPORT_DEFAULTS.requestTimeoutMs)
  const settings: TransportSettings = {
    requestTimeoutMs,
    // Unless set, never longer than the whole request's.
    headersTimeoutMs: seconds(
      'HEADERS_TIMEOUT_SECONDS',
      Math.min(TRANSPORT_DEFAULTS.headersTimeoutMs, requestTimeoutMs),
    ),
    keepAliveTimeoutMs: seconds(
      'KEEP_ALIVE_TIMEOUT_SECONDS',
      TRANSPORT_DEFAULTS.keepAliveTimeoutMs,
    ),
    idleTimeoutMs: seconds('IDLE_TIMEOUT_SECONDS', TRANSPORT_DEFAULTS.idleTimeoutMs),
    maxConnections,
    maxConnectionsPerClient,
    shutdownTimeoutMs: seconds('SHUTDOWN_TIMEOUT_SECONDS', TRANSPORT_DEFAULTS.shutdownTimeoutMs),
  }
  checkTransportSettings(settings)
  return settings
}

function checkTransportSettings(settings: TransportSettings): void {
  // Node refuses it too, less clearly.
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new SettingError(
      'HEADERS_TIMEOUT_SECONDS',
      `may not be longer than REQUEST_TIMEOUT_SECONDS (${settings.headersTimeoutMs / 1000} > ${settings.requestTimeoutMs / 1000})`,
      'shorten it, or lengthen REQUEST_TIMEOUT_SECONDS',
    )
  }
}

/** How often the log may say that a limit was met (with how many times since it last said). */
const LIMIT_LOG_EVERY_MS = 60_000

/** A function to call each time `message` happens: logged at most once a minute, counted. */
function loggedOnceAMinute(app: FastifyInstance, message: string) {
  let since = 0
  let loggedAt = Number.NEGATIVE_INFINITY
  return () => {
    since++
    if (Date.now() - loggedAt < LIMIT_LOG_EVERY_MS) return
    app.log.warn({ times: since }, message)
    loggedAt = Date.now()
    since = 0
  }
}

/** A request given to the app, its answer, and what its connection had read when it ended. */
interface Exchange {
  request: IncomingMessage
  response: ServerResponse
  bytesAtEnd: number
}

/** What the app learns of its connections from `createTransport`. */
export interface Transport {
  /** Fastify's options: the timeouts, and the server that takes pipelined requests in turn. */
  options: ReturnType<typeof fastifyOptions>
  /** Sets the limits on `app`'s server (made with `options`); once, right after it is made. */
  attach(app: FastifyInstance): void
  /**
   * Whether a connection's request may still be answered (the 408 of a request too slow: not
   * once its answer has begun).
   */
  mayAnswer(socket: Socket): boolean
  /** Whether a request is on its way on `socket` and unanswered. */
  underWay(socket: Socket): boolean
}

/**
 * Fastify's options for `settings`, its server made by `serverFactory` with `handler` wrapped.
 * Node checks the request and header timeouts of open connections every
 * `connectionsCheckingInterval`: here often enough that they are kept to within a quarter of
 * the headers' timeout, and a second.
 */
function fastifyOptions(
  settings: TransportSettings,
  wrap: (handler: RequestListener) => RequestListener,
) {
  const checkEveryMs = Math.max(10, Math.floor(Math.min(1000, settings.headersTimeoutMs / 4)))
  return {
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    http: {
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: settings.headersTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
    },
    // What Fastify's own server would be, with the app's handler given each connection's
    // requests in turn, and no socket timeout: idle connections are closed by closeIdle.
    serverFactory: (handler: RequestListener, options: { http?: ServerOptions }) => {
      const server = createServer(options.http ?? {}, wrap(handler))
      server.keepAliveTimeout = settings.keepAliveTimeoutMs
      server.requestTimeout = settings.requestTimeoutMs
      return server
    },
  }
}

/**
 * The transport of an app: Fastify's `options`, then, once `attach`ed, its connections limited,
 * a request on a connection gone idle answered 408 (Node would close it without a word), and
 * the shutdown bounded: from the start of `app.close()`, the connections still open after
 * `settings.shutdownTimeoutMs` are ended, a request on them not yet received whole answered 503
 * first. `answer(status, target)` writes a raw HTTP answer (`target` the request's when known);
 * `trustProxy` is Fastify's option (`TRUST_PROXY`): a trusted proxy's connections are not
 * limited per client.
 */
export function createTransport(
  settings: TransportSettings,
  answer: (status: number, target: string | undefined) => string,
  trustProxy?: boolean | string,
): Transport {
  checkTransportSettings(settings)
  // The open connections, and on each the last request given to the app.
  const sockets = new Set<Socket>()
  const exchanges = new WeakMap<Socket, Exchange>()
  let overflowed = () => {}
  const options = fastifyOptions(settings, (handler) =>
    inTurn(handler, {
      onTurn(request, response) {
        const exchange = { request, response, bytesAtEnd: Number.POSITIVE_INFINITY }
        exchanges.set(request.socket, exchange)
        response.once('finish', () => {
          exchange.bytesAtEnd = request.socket.bytesRead
        })
      },
      onOverflow: (_socket, closed) => closed || overflowed(),
    }),
  )
  /**
   * The request on `socket` that is on its way and unanswered (a head, or a body the app
   * waits for), as its target when known (`''` when not), or undefined when there is none: a
   * connection that has sent nothing since its last answer, or one whose answer has begun.
   */
  const unanswered = (socket: Socket): string | undefined => {
    const exchange = exchanges.get(socket)
    if (!exchange) return socket.bytesRead > 0 ? '' : undefined
    const { request, response } = exchange
    if (response.writableFinished) return socket.bytesRead > exchange.bytesAtEnd ? '' : undefined
    return response.headersSent || request.complete ? undefined : (request.url ?? '')
  }
  const end = (socket: Socket, status: number) => {
    const target = socket.writable ? unanswered(socket) : undefined
    if (target !== undefined) socket.write(answer(status, target || undefined))
    socket.destroy()
  }
  return {
    options,
    attach(app) {
      const server: Server = app.server
      limitConnections(
        app,
        server,
        settings.maxConnections,
        () => sockets.size,
        loggedOnceAMinute(app, 'connections over the limit refused'),
      )
      limitPerClient(
        server,
        settings.maxConnectionsPerClient,
        trustedProxies(trustProxy),
        loggedOnceAMinute(app, 'connections over MAX_CONNECTIONS_PER_CLIENT refused'),
      )
      overflowed = loggedOnceAMinute(app, 'pipelined requests over the limit: connection closed')
      server.on('connection', (socket: Socket) => {
        sockets.add(socket)
        socket.once('close', () => sockets.delete(socket))
      })
      // Nothing moved for IDLE_TIMEOUT_SECONDS (see idle-connections.ts), or a kept-alive
      // connection's timeout (Node's): Node would close it without a word.
      const idle = closeIdle(sockets, settings.idleTimeoutMs, (socket) => end(socket, 408))
      server.on('timeout', (socket: Socket) => end(socket, 408))
      let deadline: NodeJS.Timeout | undefined
      app.addHook('preClose', async () => {
        deadline = setTimeout(() => {
          app.log.warn({ connections: sockets.size }, 'shutdown timeout: open connections ended')
          for (const socket of sockets) end(socket, 503)
        }, settings.shutdownTimeoutMs)
        deadline.unref()
      })
      app.addHook('onClose', async () => {
        clearTimeout(deadline)
        idle.stop()
      })
    },
    underWay: (socket) => unanswered(socket) !== undefined,
    mayAnswer(socket) {
      if (!socket.writable) return false
      const exchange = exchanges.get(socket)
      // No answer begun; or the one given, and the next request's head is what is late.
      if (!exchange?.response.headersSent) return true
      return exchange.response.writableFinished && exchange.request.complete
    },
  }
}
