/**
 * Pipelined requests from clients that never read their answers (finding 7), against the real
 * server process (`serve()`, what `npm start` runs): what the process holds (memory, open
 * files) stays bounded while they wait and is given back when they go, and everyone else is
 * answered meanwhile.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { mkdir, truncate, writeFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PIPELINE_DEPTH } from '../../../src/http/pipelining'
import { type ServerProcess, spawnFormsServer } from '../../support/forms'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** A page too large for many of its answers to fit in the sockets' buffers unread. */
const PAGE_BYTES = 64 * 1024
const BIG_FILE_BYTES = 64 * 1024 * 1024

const openFiles = (pid: number) => readdirSync(`/proc/${pid}/fd`).length
const residentMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

const get = (target: string) => `GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`

/** A connection that writes `data` and never reads (its receive buffer fills, then its window). */
function neverReading(port: number, data: string): Socket {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  socket.pause()
  socket.write(data)
  return socket
}

/** Milliseconds until a new connection's `GET target` is answered, or Infinity after `ms`. */
function answeredIn(port: number, target: string, ms: number): Promise<number> {
  return new Promise((done) => {
    const started = Date.now()
    const socket = connect(port, '127.0.0.1')
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      done(Number.POSITIVE_INFINITY)
    }, ms)
    socket.on('error', () => {})
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
      if (!/^HTTP\/1\.1 200 /.test(received)) return
      clearTimeout(timer)
      socket.destroy()
      done(Date.now() - started)
    })
    socket.write(get(target))
  })
}

/** Waits until `check()` holds (true), polling, for at most `ms`; returns whether it did. */
async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (check()) return true
    await sleep(50)
  }
  return check()
}

let scratch: string
let server: ServerProcess
let port: number
let pid: number

beforeAll(async () => {
  scratch = await temporaryFolder('pipelining-')
  const site = join(scratch, 'site')
  await mkdir(join(site, 'en', 'page'), { recursive: true })
  await writeFile(join(site, 'en', 'index.html'), '<title>English home</title>')
  await writeFile(join(site, 'en', 'page', 'index.html'), 'x'.repeat(PAGE_BYTES))
  // Sparse: zeros that take no room on disk.
  await writeFile(join(site, 'big.bin'), '')
  await truncate(join(site, 'big.bin'), BIG_FILE_BYTES)
  server = await spawnFormsServer({
    DATA_DIR: join(scratch, 'data'),
    OUT_DIR: site,
    DATABASE_URL: '',
  })
  port = Number(new URL(server.origin).port)
  pid = server.child.pid ?? 0
}, 30_000)

afterAll(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL')
  if (scratch) await removeFolder(scratch)
})

describe('pipelined requests nobody reads', () => {
  it('hold no more files or memory than a few answers, answer others meanwhile, and give all back when they go', async () => {
    // Warm: the first answers load code and fill caches.
    expect(await answeredIn(port, '/en/page/', 5000)).toBeLessThan(5000)
    const files = openFiles(pid)
    const memory = residentMb(pid)
    // Bursts deeper than the limit, and bursts within it of a file far larger than the
    // sockets' buffers, from connections that never read.
    const sockets = [
      ...Array.from({ length: 4 }, () => neverReading(port, get('/en/page/').repeat(300))),
      ...Array.from({ length: 4 }, () => neverReading(port, get('/big.bin').repeat(20))),
    ]
    let mostFiles = 0
    let mostMemory = 0
    const answerTimes: number[] = []
    try {
      for (let round = 0; round < 3; round++) {
        answerTimes.push(await answeredIn(port, '/en/', 2000))
        for (let sample = 0; sample < 5; sample++) {
          mostFiles = Math.max(mostFiles, openFiles(pid))
          mostMemory = Math.max(mostMemory, residentMb(pid))
          await sleep(100)
        }
      }
    } finally {
      for (const socket of sockets) socket.destroy()
    }
    // One answer under way per connection at most (an open file each), and no bodies queued.
    expect(mostFiles - files, 'files opened during the bursts').toBeLessThanOrEqual(20)
    expect(mostMemory - memory, 'MB taken during the bursts').toBeLessThan(40)
    for (const time of answerTimes) expect(time, 'another client waited').toBeLessThan(1000)
    // Whatever their answers held is closed with them.
    expect(
      await eventually(() => openFiles(pid) <= files, 3000),
      `open files after the sockets closed: ${openFiles(pid)}, before: ${files}`,
    ).toBe(true)
  }, 30_000)

  it(`answers ${PIPELINE_DEPTH + 1} requests of a deeper pipeline, the last with Connection: close, and closes`, async () => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
    })
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    socket.write(get('/en/').repeat(PIPELINE_DEPTH + 8))
    await Promise.race([closed, sleep(5000)])
    expect(socket.destroyed, 'the connection was closed').toBe(true)
    const answers = received.split(/(?=HTTP\/1\.1 )/)
    expect(answers).toHaveLength(PIPELINE_DEPTH + 1)
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(answers.at(-1)?.toLowerCase()).toContain('connection: close')
    expect(answers.at(-2)?.toLowerCase()).toContain('connection: keep-alive')
  })
})
