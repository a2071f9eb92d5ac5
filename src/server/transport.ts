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
 * - At most `MAX_CONNECTIONS` are open at once; Node closes any more as they come (logged at
 *   most once a minute).
 * - Shutdown answers the requests in flight, then, `SHUTDOWN_TIMEOUT_SECONDS` after it began,
 *   ends the connections still open: a request not yet received whole is answered 503 (the
 *   service stops), one received whole is being answered and is cut off without a word.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

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
  /** `SHUTDOWN_TIMEOUT_SECONDS`: how long shutdown waits for open requests (default 10). */
  shutdownTimeoutMs: number
}

export const TRANSPORT_DEFAULTS: TransportSettings = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
  maxConnections: 1024,
  shutdownTimeoutMs: 10_000,
}

/** The settings from the environment, each checked; the defaults for those not set. */
export function readTransportSettings(env: NodeJS.ProcessEnv = process.env): TransportSettings {
  const seconds = (name: string, fallbackMs: number) => {
    const value = env[name]
    if (value === undefined || value === '') return fallbackMs
    const parsed = Number(value)
    if (!Number.isFinite(parsed) || parsed <= 0) {
      throw new Error(`${name} must be a positive number of seconds; got "${value}"`)
    }
    return Math.max(1, Math.round(parsed * 1000))
  }
  const maxConnections = Number(env.MAX_CONNECTIONS || TRANSPORT_DEFAULTS.maxConnections)
  if (!Number.isInteger(maxConnections) || maxConnections <= 0) {
    throw new Error(`MAX_CONNECTIONS must be a positive whole number; got "${env.MAX_CONNECTIONS}"`)
  }
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
    shutdownTimeoutMs: seconds('SHUTDOWN_TIMEOUT_SECONDS', TRANSPORT_DEFAULTS.shutdownTimeoutMs),
  }
  checkTransportSettings(settings)
  return settings
}

function checkTransportSettings(settings: TransportSettings): void {
  // Node refuses it too, less clearly.
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new Error('HEADERS_TIMEOUT_SECONDS may not be longer than REQUEST_TIMEOUT_SECONDS')
  }
}

/**
 * Fastify's options for `settings`. Node checks the request and header timeouts of open
 * connections every `connectionsCheckingInterval`: here often enough that they are kept to
 * within a quarter of the headers' timeout, and a second.
 */
export function transportOptions(settings: TransportSettings) {
  checkTransportSettings(settings)
  const checkEveryMs = Math.max(10, Math.floor(Math.min(1000, settings.headersTimeoutMs / 4)))
  return {
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    connectionTimeout: settings.idleTimeoutMs,
    http: {
      requestTimeout: settings.requestTimeoutMs,
      headersTimeout: settings.headersTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
    },
  }
}

/** How often the log may say that connections were refused. */
const DROP_LOG_EVERY_MS = 60_000

/** A request given to the app, its answer, and what its connection had read when it ended. */
interface Exchange {
  request: IncomingMessage
  response: ServerResponse
  bytesAtEnd: number
}

/**
 * Limits `app`'s connections, answers a request on a connection gone idle 408 (Node would close
 * it without a word), and bounds the shutdown: from the start of `app.close()`, the connections
 * still open after `settings.shutdownTimeoutMs` are ended, a request on them not yet received
 * whole answered 503 first. `answer(status, target)` writes a raw HTTP answer (`target` the
 * request's when known). Returns whether a connection's request may still be answered (the
 * 408 of a request too slow: not once its answer has begun).
 */
export function limitTransport(
  app: FastifyInstance,
  settings: TransportSettings,
  answer: (status: number, target: string | undefined) => string,
): { mayAnswer(socket: Socket): boolean; underWay(socket: Socket): boolean } {
  const server: Server = app.server
  server.maxConnections = settings.maxConnections
  let droppedSince = 0
  let droppedLoggedAt = Number.NEGATIVE_INFINITY
  server.on('drop', () => {
    droppedSince++
    if (Date.now() - droppedLoggedAt < DROP_LOG_EVERY_MS) return
    app.log.warn({ refused: droppedSince }, 'connections over MAX_CONNECTIONS refused')
    droppedLoggedAt = Date.now()
    droppedSince = 0
  })
  // The open connections, and on each the last request given to the app.
  const sockets = new Set<Socket>()
  const exchanges = new WeakMap<Socket, Exchange>()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const exchange = { request, response, bytesAtEnd: Number.POSITIVE_INFINITY }
    exchanges.set(request.socket, exchange)
    response.once('finish', () => {
      exchange.bytesAtEnd = request.socket.bytesRead
    })
  })
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
  // Nothing moved for IDLE_TIMEOUT_SECONDS: Node would close the connection without a word.
  server.on('timeout', (socket: Socket) => end(socket, 408))
  let deadline: NodeJS.Timeout | undefined
  app.addHook('preClose', async () => {
    deadline = setTimeout(() => {
      app.log.warn({ connections: sockets.size }, 'shutdown timeout: open connections ended')
      for (const socket of sockets) end(socket, 503)
    }, settings.shutdownTimeoutMs)
    deadline.unref()
  })
  app.addHook('onClose', async () => clearTimeout(deadline))
  return {
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
