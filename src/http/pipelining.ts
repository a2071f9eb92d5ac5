/**
 * Pipelined requests, taken in turn: on each connection the app is given one request at a
 * time, the next only once the answer before it has been handed to the connection and the
 * connection's send buffer is under its high-water mark. A client that sends many requests at
 * once and never reads its answers therefore has one answer made for it (one file open, one
 * body in memory), not one for each request it sent: Node hands every request of a chunk it
 * read to the app at once, and queues their answers in memory, each with its file open.
 *
 * At most `PIPELINE_DEPTH` requests wait on a connection: the last of them is answered with
 * `Connection: close`, those sent after it are never answered (a client that pipelines must
 * send them again on a new connection, RFC 9112 9.3.2), and a connection that sends as many
 * again is closed at once. Nothing is kept of a connection once it is closed: its waiting
 * requests were never given to the app, and the answer under way is destroyed with it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** Requests that may wait on one connection behind the one being answered (apt sends 10). */
export const PIPELINE_DEPTH = 32

interface Turns {
  /** Whether the app is answering a request of the connection. */
  busy: boolean
  waiting: [IncomingMessage, ServerResponse][]
  /** Requests received past `PIPELINE_DEPTH`, never answered; undefined until there is one. */
  discarded?: number
}

export interface PipelineEvents {
  /** A request is given to the app (the requests of a connection in the order sent). */
  onTurn?(request: IncomingMessage, response: ServerResponse): void
  /** A connection sent more than `PIPELINE_DEPTH` requests before reading their answers. */
  onOverflow?(socket: Socket, closed: boolean): void
}

/** `handler` (the app's) given each connection's requests in turn; see above. */
export function inTurn(handler: RequestListener, events: PipelineEvents = {}): RequestListener {
  const connections = new WeakMap<Socket, Turns>()
  const give = (turns: Turns, request: IncomingMessage, response: ServerResponse) => {
    turns.busy = true
    const socket = request.socket
    // Emitted once the answer is handed to the connection (or cut off with it).
    response.once('close', () => {
      if (socket.destroyed) {
        turns.waiting.length = 0
        return
      }
      if (socket.writableNeedDrain) socket.once('drain', () => next(turns))
      else next(turns)
    })
    events.onTurn?.(request, response)
    handler(request, response)
  }
  const next = (turns: Turns) => {
    turns.busy = false
    const waiting = turns.waiting.shift()
    if (waiting && !waiting[0].socket.destroyed) give(turns, ...waiting)
  }
  return (request, response) => {
    const socket = request.socket
    let turns = connections.get(socket)
    if (!turns) {
      turns = { busy: false, waiting: [] }
      connections.set(socket, turns)
    }
    if (socket.destroyed) return
    if (turns.discarded !== undefined) {
      turns.discarded++
      if (turns.discarded >= PIPELINE_DEPTH) {
        socket.destroy()
        events.onOverflow?.(socket, true)
      }
      return
    }
    if (!turns.busy) return give(turns, request, response)
    if (turns.waiting.length < PIPELINE_DEPTH) {
      turns.waiting.push([request, response])
      return
    }
    // One too many: the last one waiting ends the connection; this one and those after it
    // are never answered.
    const last = turns.waiting.at(-1)
    if (last) last[1].shouldKeepAlive = false
    turns.discarded = 1
    events.onOverflow?.(socket, false)
  }
}
