/**
 * How many connections the server takes (finding 10): never more than its open files allow,
 * however high `MAX_CONNECTIONS`, so that pages are still served at the limit; and `/readyz`
 * says so while it is saturated. Against the real process, started with few open files.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  connectionLimit,
  DESCRIPTORS_KEPT,
  descriptorLimit,
  SATURATED_FOR_MS,
  trustedProxies,
} from '../../../src/http/connection-limits'
import { type ServerProcess, spawnFormsServer } from '../../support/forms'
import { sendRaw } from '../../support/raw-http'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const OPEN_FILES = DESCRIPTORS_KEPT + 64
const LIMIT = 32

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

describe('the connection limit', () => {
  it('reads the soft limit of open files', () => {
    const limits = [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63499                63499                processes ',
      'Max open files            1024                 524288               files     ',
    ].join('\n')
    expect(descriptorLimit(limits)).toBe(1024)
    expect(descriptorLimit(limits.replace('1024 ', 'unlimited'))).toBeUndefined()
    expect(descriptorLimit()).toBeGreaterThan(0)
  })

  it('leaves room for the files of the answers and everything else', () => {
    expect(connectionLimit(1024, 20_000)).toBe(1024)
    expect(connectionLimit(1024, 1024)).toBe((1024 - DESCRIPTORS_KEPT) / 2)
    expect(connectionLimit(1024, OPEN_FILES)).toBe(LIMIT)
    expect(connectionLimit(1024, 100)).toBe(1)
    expect(connectionLimit(50, undefined)).toBe(50)
  })
})

describe('the proxies whose connections are not limited per client', () => {
  it('are those TRUST_PROXY names, as Fastify reads it', () => {
    const none = trustedProxies(undefined)
    expect(none('127.0.0.1')).toBe(false)
    expect(trustedProxies(true)('192.0.2.1')).toBe(true)
    const some = trustedProxies('10.0.0.0/8, 192.0.2.7,loopback, 2001:db8::/32')
    expect(['10.1.2.3', '192.0.2.7', '::ffff:192.0.2.7', '127.0.0.1', '::1'].map(some)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ])
    expect(['192.0.2.8', '11.0.0.1', '2001:db9::1'].map(some)).toEqual([false, false, false])
    expect(some('2001:db8:5::1')).toBe(true)
  })
})

describe(`a server that may open ${OPEN_FILES} files`, () => {
  let scratch: string
  let server: ServerProcess
  let port: number
  let output = ''

  beforeAll(async () => {
    scratch = await temporaryFolder('connection-limits-')
    await mkdir(join(scratch, 'site', 'en'), { recursive: true })
    await writeFile(join(scratch, 'site', 'en', 'index.html'), '<title>English home</title>')
    server = await spawnFormsServer(
      { DATA_DIR: join(scratch, 'data'), OUT_DIR: join(scratch, 'site'), DATABASE_URL: '' },
      { openFiles: OPEN_FILES },
    )
    server.child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    port = Number(new URL(server.origin).port)
  }, 30_000)
  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL')
    if (scratch) await removeFolder(scratch)
  })

  const get = (target: string) =>
    sendRaw(port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)

  it('takes no more connections than its files allow, serves pages at the limit, and is not ready while saturated', async () => {
    expect((await get('/readyz')).status).toBe(200)
    // More connections than the files allow, each with a request begun.
    const sockets: Socket[] = []
    const closed = new Set<Socket>()
    for (let count = 0; count < OPEN_FILES; count++) {
      const socket = connect(port, '127.0.0.1')
      socket.on('error', () => {})
      socket.on('close', () => closed.add(socket))
      socket.write('GET /en/ HTTP/1.1\r\n')
      sockets.push(socket)
    }
    try {
      await sleep(500)
      const held = sockets.filter((socket) => !closed.has(socket))
      expect(held.length).toBeLessThanOrEqual(LIMIT)
      expect(held.length).toBeGreaterThan(LIMIT / 2)
      // Room for two: a page, and the probe of a load balancer.
      for (const socket of held.slice(0, 2)) socket.destroy()
      await sleep(100)
      const page = await get('/en/')
      expect(page.status).toBe(200)
      expect(page.body).toContain('English home')
      const ready = await get('/readyz')
      expect(ready.status).toBe(503)
      expect(JSON.parse(ready.body).failing).toEqual(['connections'])
    } finally {
      for (const socket of sockets) socket.destroy()
    }
    await sleep(SATURATED_FOR_MS + 500)
    expect((await get('/readyz')).status).toBe(200)
    expect(output).toContain('connections over the limit refused')
  }, 30_000)
})
