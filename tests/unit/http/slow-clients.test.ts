/**
 * Clients that never finish, against the real server process (`serve()`, what
 * `npm start` runs) with short timeouts: a body that stops halfway, headers sent a byte at a
 * time, a connection that sends nothing (closed without a word), one kept alive after its answer, an answer nobody
 * reads, more connections than allowed, and SIGTERM while such a client holds a connection and a
 * sign-up is in flight. Every one ends within its timeout, answered (408, or 503 when the
 * service stops) with the headers when there is a request to answer.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, truncate, writeFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/database/open'
import { readTransportSettings, TRANSPORT_DEFAULTS } from '../../../src/http/transport'
import {
  type Inbox,
  type ServerProcess,
  signUp,
  spawnFormsServer,
  startSmtp,
  stopFormsServer,
} from '../../support/forms'
import { removeFolder } from '../../support/temporary-folder'

const REQUEST_SECONDS = 1.5
const HEADERS_SECONDS = 1
const KEEP_ALIVE_SECONDS = 1
const IDLE_SECONDS = 2
const SHUTDOWN_SECONDS = 1
const MAX_CONNECTIONS = 12
/**
 * A file larger than what the sockets' buffers may hold (Linux lets a receive buffer grow to
 * 32 MB), so that its answer stalls unread.
 */
const BIG_FILE_BYTES = 128 * 1024 * 1024

const scratch = join(tmpdir(), `slow-clients-${randomBytes(6).toString('hex')}`)
const env: NodeJS.ProcessEnv = {
  DATA_DIR: join(scratch, 'data'),
  OUT_DIR: join(scratch, 'site'),
  DATABASE_URL: '',
  REQUEST_TIMEOUT_SECONDS: String(REQUEST_SECONDS),
  HEADERS_TIMEOUT_SECONDS: String(HEADERS_SECONDS),
  KEEP_ALIVE_TIMEOUT_SECONDS: String(KEEP_ALIVE_SECONDS),
  IDLE_TIMEOUT_SECONDS: String(IDLE_SECONDS),
  SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_SECONDS),
  MAX_CONNECTIONS: String(MAX_CONNECTIONS),
}

/** A connection written by hand: what it received, and when the server closed it. */
interface Connection {
  socket: Socket
  received(): string
  /** Resolves with the milliseconds from opening to the server's close. */
  closed: Promise<number>
}

function open(port: number): Promise<Connection> {
  return new Promise((done, fail) => {
    const started = Date.now()
    const chunks: Buffer[] = []
    const socket = connect(port, '127.0.0.1')
    const closed = new Promise<number>((closedAt) =>
      socket.on('close', () => closedAt(Date.now() - started)),
    )
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', () => {})
    socket.once('connect', () =>
      done({ socket, received: () => Buffer.concat(chunks).toString('latin1'), closed }),
    )
    socket.once('error', fail)
  })
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** Fails with `what` unless `promise` settles within `ms`. */
function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`${what}: nothing within ${ms} ms`)), ms)
    }),
  ])
}

/** The status line and header names of an answer, as received. */
function answerOf(text: string) {
  const head = text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase()
  return { status: Number(/^http\/1\.1 (\d{3})/.exec(head)?.[1]), head }
}

function expectPolicyHeaders(head: string, what: string) {
  expect(head, what).toContain('content-security-policy:')
  expect(head, what).toContain('x-content-type-options: nosniff')
  expect(head, what).toContain('x-frame-options: deny')
  expect(head, what).toContain('referrer-policy:')
}

/** A POST's head declaring `length` bytes of body, and the first bytes of it. */
const partialPost = (target: string, type: string, length = 200) =>
  `POST ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n{"email":`

let inbox: Inbox

beforeAll(async () => {
  inbox = await startSmtp()
  env.SMTP_URL = inbox.url
  await mkdir(join(scratch, 'site', 'en'), { recursive: true })
  await writeFile(join(scratch, 'site', 'en', 'index.html'), '<title>English home</title>')
  // Sparse: zeros that take no room on disk.
  await writeFile(join(scratch, 'site', 'big.bin'), '')
  await truncate(join(scratch, 'site', 'big.bin'), BIG_FILE_BYTES)
})

afterAll(async () => {
  await inbox?.close()
  await removeFolder(scratch)
})

describe('clients that never finish', () => {
  let server: ServerProcess
  let port: number

  beforeAll(async () => {
    server = await spawnFormsServer(env)
    port = Number(new URL(server.origin).port)
  }, 30_000)
  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL')
  })

  it('answers a body that stops halfway with 408 and the headers within the request timeout, on every route that reads one', async () => {
    const targets: [string, string][] = [
      ['/api/forms/newsletter', 'application/json'],
      ['/api/forms/survey', 'application/x-www-form-urlencoded'],
      ['/api/consent', 'application/json'],
      ['/api/csp-report', 'application/csp-report'],
      ['/api/subscriptions/unsubscribe?token=x', 'multipart/form-data; boundary=x'],
      ['/api/subscriptions/confirm?token=x', 'application/x-www-form-urlencoded'],
    ]
    await Promise.all(
      targets.map(async ([target, type]) => {
        const connection = await open(port)
        connection.socket.write(partialPost(target, type))
        const after = await within(
          (REQUEST_SECONDS + 2) * 1000,
          connection.closed,
          `${target}: the connection was not closed`,
        )
        expect(after, target).toBeGreaterThanOrEqual(REQUEST_SECONDS * 1000 - 100)
        const { status, head } = answerOf(connection.received())
        expect(status, target).toBe(408)
        expect(head, target).toContain('connection: close')
        expectPolicyHeaders(head, target)
      }),
    )
  })

  it('answers a body sent a byte at a time with 408 once the whole request took too long', async () => {
    const connection = await open(port)
    connection.socket.write(partialPost('/api/consent', 'application/json', 1000))
    const drip = setInterval(() => connection.socket.writable && connection.socket.write('x'), 200)
    try {
      await within((REQUEST_SECONDS + 2) * 1000, connection.closed, 'a dripped body')
    } finally {
      clearInterval(drip)
    }
    expect(answerOf(connection.received()).status).toBe(408)
  })

  it('answers what it refuses before reading the body (a page, another site) at once, and closes', async () => {
    for (const [request, expected] of [
      [partialPost('/en/', 'application/json'), 405],
      [
        partialPost('/api/forms/newsletter', 'application/json').replace(
          'Host: localhost\r\n',
          'Host: localhost\r\nOrigin: https://evil.example\r\n',
        ),
        403,
      ],
    ] as const) {
      const connection = await open(port)
      connection.socket.write(request)
      await within(1000, connection.closed, `${expected}: the connection was not closed`)
      const { status, head } = answerOf(connection.received())
      expect(status).toBe(expected)
      expectPolicyHeaders(head, String(expected))
      // One answer to one request: no 408 after it.
      expect(connection.received().match(/HTTP\/1\.1 /g)).toHaveLength(1)
    }
  })

  it('answers headers that never end with 408 and the headers within the headers timeout', async () => {
    const connection = await open(port)
    connection.socket.write('GET /en/ HTTP/1.1\r\nHost: localhost\r\n')
    const drip = setInterval(
      () => connection.socket.writable && connection.socket.write('X-A: b\r\n'),
      150,
    )
    let after: number
    try {
      after = await within((HEADERS_SECONDS + 1.5) * 1000, connection.closed, 'slow headers')
    } finally {
      clearInterval(drip)
    }
    expect(after).toBeGreaterThanOrEqual(HEADERS_SECONDS * 1000 - 100)
    const { status, head } = answerOf(connection.received())
    expect(status).toBe(408)
    expectPolicyHeaders(head, 'slow headers')
  })

  it('closes a connection kept alive after its answer, and one that never sends anything without a word', async () => {
    const kept = await open(port)
    kept.socket.write('GET /en/ HTTP/1.1\r\nHost: localhost\r\n\r\n')
    await sleep(200)
    const answered = kept.received()
    expect(answerOf(answered).status).toBe(200)
    expect(answered.toLowerCase()).toContain(`keep-alive: timeout=${KEEP_ALIVE_SECONDS}`)
    await within((KEEP_ALIVE_SECONDS + 2) * 1000, kept.closed, 'an idle kept-alive connection')
    expect(kept.received()).toBe(answered)
    const silent = await open(port)
    const after = await within((HEADERS_SECONDS + 1.5) * 1000, silent.closed, 'a silent connection')
    expect(after).toBeGreaterThanOrEqual(HEADERS_SECONDS * 1000 - 100)
    // Nothing to answer: a browser's connection opened ahead of need would take a 408 written
    // there for the answer to the request it sends next.
    expect(silent.received()).toBe('')
  })

  it('ends an answer nobody reads once nothing has moved for the idle timeout, not twice that', async () => {
    const reader = await open(port)
    reader.socket.write('GET /big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n')
    reader.socket.pause()
    // The sockets' buffers fill within a moment; from then on nothing moves. (Node's own
    // timeout let it pass once more, a write being under way at the first.) A paused socket
    // sees its end once it reads what it holds.
    await sleep((IDLE_SECONDS + 0.8) * 1000)
    let bytes = 0
    reader.socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length
    })
    reader.socket.resume()
    await within(1000, reader.closed, 'an answer nobody reads')
    expect(bytes).toBeLessThan(BIG_FILE_BYTES / 4)
  })

  it('keeps an answer read slowly, however long it takes, as long as it moves', async () => {
    const reader = await open(port)
    reader.socket.write('GET /big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n')
    reader.socket.pause()
    // A little read every half idle timeout: the answer moves, slowly.
    const started = Date.now()
    while (Date.now() - started < (IDLE_SECONDS * 2 + 1) * 1000) {
      await sleep((IDLE_SECONDS * 1000) / 2)
      reader.socket.read(256 * 1024)
    }
    expect(reader.socket.destroyed, 'closed while its answer moved').toBe(false)
    reader.socket.destroy()
  })

  it(`takes ${MAX_CONNECTIONS} connections at once and closes any more at once`, async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open(port)))
    // Each has started a request, so that the server has seen every one.
    for (const connection of held) connection.socket.write('GET /en/ HTTP/1.1\r\n')
    await sleep(200)
    const extra = await open(port)
    await within(1000, extra.closed, 'a connection over the limit')
    expect(extra.received()).toBe('')
    for (const connection of held) connection.socket.destroy()
    await sleep(200)
    const again = await open(port)
    again.socket.write('GET /en/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    await within(2000, again.closed, 'a connection under the limit')
    expect(answerOf(again.received()).status).toBe(200)
  })
})

describe('SIGTERM while a client never finishes', () => {
  it('ends within the shutdown timeout: the sign-up in flight is answered and kept, the rest refused (503) with the headers', async () => {
    // A database of its own: the other server may not have let go of its own yet.
    const dataDir = join(scratch, 'shutdown')
    const server = await spawnFormsServer({ ...env, DATA_DIR: dataDir })
    const port = Number(new URL(server.origin).port)
    try {
      // A body that trickles in: never idle, and Node stops timing requests once the server
      // closes.
      const stuck = await open(port)
      stuck.socket.write(partialPost('/api/forms/survey', 'application/json', 10_000))
      const drip = setInterval(() => stuck.socket.writable && stuck.socket.write('x'), 300)
      stuck.closed.then(() => clearInterval(drip))
      // A sign-up whose body is on its way when the signal comes.
      const body = JSON.stringify(signUp('in-flight@example.com'))
      const signing = await open(port)
      signing.socket.write(
        `POST /api/forms/newsletter HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      )
      // A head that trickles in, never finished.
      const slowHead = await open(port)
      slowHead.socket.write('GET /en/ HTTP/1.1\r\nHost: localhost\r\n')
      const headDrip = setInterval(
        () => slowHead.socket.writable && slowHead.socket.write('X-A: b\r\n'),
        300,
      )
      slowHead.closed.then(() => clearInterval(headDrip))
      // A request whose head is finished once the service stops.
      const late = await open(port)
      late.socket.write('GET /en/ HTTP/1.1\r\nHost: localhost\r\n')
      await sleep(100)
      const started = Date.now()
      const exited = stopFormsServer(server)
      await sleep(200)
      signing.socket.write(body.slice(10))
      late.socket.write('\r\n')
      const code = await within((SHUTDOWN_SECONDS + 5) * 1000, exited, 'the process did not end')
      expect(code).toBe(0)
      expect(Date.now() - started).toBeLessThan((SHUTDOWN_SECONDS + 4) * 1000)
      await signing.closed
      const signed = answerOf(signing.received())
      expect(signed.status).toBe(200)
      expect(signing.received()).toContain('"ok":true')
      await stuck.closed
      const refused = answerOf(stuck.received())
      expect(refused.status).toBe(503)
      expectPolicyHeaders(refused.head, 'shutdown')
      await slowHead.closed
      const unfinishedHead = answerOf(slowHead.received())
      expect(unfinishedHead.status).toBe(503)
      expectPolicyHeaders(unfinishedHead.head, 'a head unfinished at shutdown')
      await late.closed
      const turnedAway = answerOf(late.received())
      expect(turnedAway.status).toBe(503)
      expect(turnedAway.head).toContain('connection: close')
      expectPolicyHeaders(turnedAway.head, 'a request while stopping')
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL')
    }
    const database = await openDatabase({ dataDir: join(dataDir, 'db') })
    try {
      const rows = await database.query<{ email: string }>('SELECT email FROM subscribers')
      expect(rows.map((row) => row.email)).toContain('in-flight@example.com')
    } finally {
      await database.close()
    }
  }, 60_000)
})

describe('the settings', () => {
  it('defaults every timeout and the limit, takes seconds with fractions, and refuses what makes no sense', () => {
    expect(readTransportSettings({})).toEqual(TRANSPORT_DEFAULTS)
    expect(
      readTransportSettings({
        REQUEST_TIMEOUT_SECONDS: '1.5',
        MAX_CONNECTIONS: '20',
        MAX_CONNECTIONS_PER_CLIENT: '8',
      }),
    ).toEqual({
      ...TRANSPORT_DEFAULTS,
      requestTimeoutMs: 1500,
      headersTimeoutMs: 1500,
      maxConnections: 20,
      maxConnectionsPerClient: 8,
    })
    const refused: [NodeJS.ProcessEnv, RegExp][] = [
      [{ REQUEST_TIMEOUT_SECONDS: '0' }, /REQUEST_TIMEOUT_SECONDS: must be a positive number/],
      [{ HEADERS_TIMEOUT_SECONDS: '-1' }, /HEADERS_TIMEOUT_SECONDS: must be/],
      [{ KEEP_ALIVE_TIMEOUT_SECONDS: 'soon' }, /KEEP_ALIVE_TIMEOUT_SECONDS: must be/],
      [{ IDLE_TIMEOUT_SECONDS: 'Infinity' }, /IDLE_TIMEOUT_SECONDS: must be/],
      [{ SHUTDOWN_TIMEOUT_SECONDS: '0' }, /SHUTDOWN_TIMEOUT_SECONDS: must be/],
      [{ MAX_CONNECTIONS: '1.5' }, /MAX_CONNECTIONS: must be/],
      [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS: must be/],
      [{ MAX_CONNECTIONS_PER_CLIENT: '-2' }, /MAX_CONNECTIONS_PER_CLIENT: must be/],
      [
        { HEADERS_TIMEOUT_SECONDS: '40' },
        /HEADERS_TIMEOUT_SECONDS: may not be longer than REQUEST_TIMEOUT_SECONDS/,
      ],
    ]
    for (const [env, message] of refused) {
      expect(() => readTransportSettings(env), JSON.stringify(env)).toThrow(message)
    }
  })
})
