/**
 * Connections on which nothing moves: no byte read from the client, none of the answer taken
 * by it. Node's own socket timeout cannot bound them: when it fires while a write is still
 * going on, it lets the timeout pass once more if the write's queue changed since the write
 * began, which a large answer's always has, so a client that stops reading one was closed after
 * twice `IDLE_TIMEOUT_SECONDS` (and a second more). Here each open connection is looked at a few
 * times a timeout, and one that has not moved since `idleMs` ago is handed to `onIdle`.
 */
import type { Socket } from 'node:net'

/** How often the connections are looked at: a quarter of the timeout, and at least a second. */
const checkEveryMs = (idleMs: number) => Math.max(10, Math.min(1000, Math.floor(idleMs / 4)))

/**
 * What has moved on `socket` so far: bytes read, bytes whose write the system finished, and
 * the bytes still queued in the system (which shrink as the client reads a large write; Node's
 * timeout reads the same figure).
 */
function progressOf(socket: Socket): string {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: number } })._handle
  return `${socket.bytesRead} ${socket.bytesWritten - socket.writableLength} ${handle?.writeQueueSize ?? 0}`
}

/** Watches `sockets` (the open connections) until `stop()`; see above. */
export function closeIdle(
  sockets: ReadonlySet<Socket>,
  idleMs: number,
  onIdle: (socket: Socket) => void,
): { stop(): void } {
  const seen = new WeakMap<Socket, { progress: string; since: number }>()
  const timer = setInterval(() => {
    const now = Date.now()
    for (const socket of sockets) {
      const progress = progressOf(socket)
      const last = seen.get(socket)
      if (!last || last.progress !== progress) seen.set(socket, { progress, since: now })
      else if (now - last.since >= idleMs) onIdle(socket)
    }
  }, checkEveryMs(idleMs))
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
