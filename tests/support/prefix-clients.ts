/**
 * Clients from many IPv6 /64s of one /56, with real source addresses: run inside a network
 * namespace of its own (`tests/unit/http/client-prefixes.test.ts` starts it with `unshare
 * -rn`, the addresses below on its `lo`), it starts the server process (`serve()`, what `npm
 * start` runs) there and prints, as one JSON line, how the server answered them.
 */
import { connect, type Socket } from 'node:net'
import { pathToFileURL } from 'node:url'
import { spawnFormsServer } from './forms'
import { sendRaw } from './raw-http'

/** The server's address, in a /48 of its own. */
export const SERVER_ADDRESS = '2001:db8:ffff::1'
/** The `index`th client (1 to 255): each in a /64 of its own, all in 2001:db8:0::/56. */
export const clientAddress = (index: number) => `2001:db8:0:${index.toString(16)}::1`
/** A client in another /48. */
export const ELSEWHERE = '2001:db8:1::1'
/** The clients the namespace has, besides ELSEWHERE. */
export const CLIENTS = 60

export interface PrefixResults {
  /** Connections held of 20, each from another /64 of the /56. */
  heldFromPrefix: number
  /** Connections held of 6 from one address. */
  heldFromOne: number
  /** The status of a page asked for from another /48 meanwhile. */
  elsewhere: number
  /** The statuses of one form post from each of 20 /64s of the /56, in turn. */
  forms: number[]
  formsElsewhere: number
  /** The statuses of one CSP report from each of the 60 /64s, in turn. */
  reports: number[]
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

async function main(): Promise<PrefixResults> {
  const server = await spawnFormsServer({
    DATA_DIR: process.env.PREFIX_DATA_DIR,
    OUT_DIR: process.env.PREFIX_SITE_DIR,
    DATABASE_URL: '',
    HOST: '::',
    MAX_CONNECTIONS_PER_CLIENT: '4',
    FORMS_RATE_LIMIT: '2',
  })
  const port = Number(new URL(server.origin).port)
  const from = (localAddress: string) => ({ port, host: SERVER_ADDRESS, localAddress })
  /** How many of connections from `addresses` (each with a request begun) the server holds. */
  const held = async (addresses: string[]) => {
    const closed = new Set<Socket>()
    const sockets = addresses.map((localAddress) => {
      const socket = connect({ port, host: SERVER_ADDRESS, localAddress })
      socket.on('error', () => {})
      socket.on('close', () => closed.add(socket))
      socket.write('GET /en/ HTTP/1.1\r\n')
      return socket
    })
    await sleep(500)
    return { count: sockets.length - closed.size, sockets }
  }
  const post = (localAddress: string, target: string, type: string, body: string) =>
    sendRaw(
      from(localAddress),
      `POST ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    ).then((answer) => answer.status)
  try {
    const range = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => clientAddress(from + index))
    const prefix = await held(range(1, 20))
    const elsewhere = await sendRaw(
      from(ELSEWHERE),
      'GET /en/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    )
    for (const socket of prefix.sockets) socket.destroy()
    await sleep(200)
    const one = await held(Array(6).fill(clientAddress(1)))
    for (const socket of one.sockets) socket.destroy()
    const forms: number[] = []
    for (const address of range(21, 20)) {
      forms.push(await post(address, '/api/forms/newsletter', 'application/json', '{}'))
    }
    const formsElsewhere = await post(ELSEWHERE, '/api/forms/newsletter', 'application/json', '{}')
    const report = JSON.stringify({
      'csp-report': {
        'document-uri': 'http://localhost/en/',
        'effective-directive': 'script-src-elem',
        'blocked-uri': 'https://evil.example/x.js',
      },
    })
    const reports: number[] = []
    for (const address of range(1, CLIENTS)) {
      reports.push(await post(address, '/api/csp-report', 'application/csp-report', report))
    }
    return {
      heldFromPrefix: prefix.count,
      heldFromOne: one.count,
      elsewhere: elsewhere.status,
      forms,
      formsElsewhere,
      reports,
    }
  } finally {
    server.child.kill('SIGKILL')
  }
}

// Run as a program (the test imports the addresses only).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`RESULTS ${JSON.stringify(await main())}`)
  process.exit(0)
}
