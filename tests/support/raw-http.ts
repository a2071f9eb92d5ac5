/**
 * HTTP/1.1 as an attacker writes it: bytes on a socket, so that paths, methods and framing reach
 * the server exactly as sent (no client normalises `..`, `//` or escapes on the way).
 */
import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  /** Header names in lower case; a repeated header's values joined by `, `. */
  headers: Record<string, string>
  body: string
  /** The answer as received, head and body (as Latin-1: one character a byte). */
  text: string
}

/** Where a raw request goes (127.0.0.1 unless `host` says), and from which local address. */
export interface RawTarget {
  port: number
  host?: string
  /** The client's address: any of 127.0.0.0/8 on Linux, ::1 for IPv6. */
  localAddress?: string
}

/** Sends `request` (the whole request, CRLFs included) and reads the answer until the server closes. */
export function sendRaw(
  target: number | RawTarget,
  request: string | Buffer,
  timeoutMs = 3000,
): Promise<RawAnswer> {
  const {
    port,
    host = '127.0.0.1',
    localAddress,
  } = typeof target === 'number' ? { port: target } : target
  return new Promise((done, fail) => {
    const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) })
    const chunks: Buffer[] = []
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      // One answer is all we ask for: stop once its body is complete.
      const answer = parse(Buffer.concat(chunks))
      if (answer?.complete) socket.end()
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      const bytes = Buffer.concat(chunks)
      const answer = parse(bytes)
      if (!answer) {
        fail(new Error(`no HTTP answer: ${JSON.stringify(bytes.toString('latin1').slice(0, 200))}`))
      } else done(answer)
    })
    socket.write(request)
  })
}

/**
 * Sends the first `count` bytes of `request` and no more: then waits (`stall`), half-closes
 * (`end`: the client is done sending, and reads on) or resets the connection (`reset`). Resolves
 * with the answer if any, and whether the server closed the connection within `timeoutMs`.
 */
export function sendUnfinished(
  port: number,
  request: Buffer,
  count: number,
  stop: 'stall' | 'end' | 'reset',
  timeoutMs: number,
): Promise<{ answer: RawAnswer | undefined; closedByServer: boolean }> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let closedByServer = true
    const timer = setTimeout(() => {
      closedByServer = false
      socket.destroy()
    }, timeoutMs)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      done({ answer: parse(Buffer.concat(chunks)), closedByServer })
    })
    socket.write(request.subarray(0, count), () => {
      if (stop === 'end') socket.end()
      else if (stop === 'reset') socket.resetAndDestroy()
    })
  })
}

/** A GET (or `method`) of `target` as written, with `Connection: close` and any extra lines. */
export function rawRequest(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body = '',
): string {
  const lines = Object.entries({ host: 'localhost', connection: 'close', ...headers }).map(
    ([name, value]) => `${name}: ${value}`,
  )
  return `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`
}

function parse(bytes: Buffer): (RawAnswer & { complete: boolean }) | undefined {
  const text = bytes.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  if (end === -1) return undefined
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1])
  if (!status) return undefined
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  const bodyBytes = bytes.subarray(end + 4)
  const body = bodyBytes.toString('utf8')
  const length = headers['content-length']
  const complete =
    (length !== undefined && bodyBytes.length >= Number(length)) || status === 304 || status === 204
  return { status, headers, body, text, complete }
}

/**
 * Sends `request` (or the start of one) and then resets the connection (TCP RST, as a client
 * that gives up does), after `afterMs`; resolves once the socket is closed.
 */
export function sendAndReset(
  target: number | RawTarget,
  request: string | Buffer,
  afterMs = 50,
): Promise<void> {
  const {
    port,
    host = '127.0.0.1',
    localAddress,
  } = typeof target === 'number' ? { port: target } : target
  return new Promise((done) => {
    const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) }, () => {
      socket.write(request, () => setTimeout(() => socket.resetAndDestroy(), afterMs))
    })
    socket.on('error', () => {})
    socket.on('close', () => done())
  })
}
