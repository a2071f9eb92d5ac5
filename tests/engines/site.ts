/**
 * What the cross-engine scenarios browse: the built site served by `npm start` (with the forms
 * service and the trackers' test IDs, as the Playwright suite has it), behind a front of the
 * tests' own that puts the problem probe (`probe.js`) first in every page; and a proxy that
 * every request to another host goes through, which records the host and answers nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, request, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { join, resolve } from 'node:path'
import { E2E_TRACKING } from '../e2e/support/env'

const ROOT = resolve(import.meta.dirname, '../..')
export const PROBE_PATH = '/__engine-probe.js'
const PROBE = readFileSync(join(import.meta.dirname, 'probe.js'), 'utf8')

export interface Site {
  /** The front's origin, e.g. `http://localhost:4175`. */
  origin: string
  /** The proxy for other hosts (`http://127.0.0.1:…`). */
  proxy: string
  /** The hosts other than the site that a browser asked for, in order, since `clearHosts`. */
  hosts(): string[]
  clearHosts(): void
  /**
   * The site unreachable (every connection cut, as a lost network cuts them) or back: the same
   * for every engine, where only Chromium's driver can take a browser offline.
   */
  setOffline(offline: boolean): void
  /** How many requests for the site were cut while it was unreachable. */
  cut(): number
  /** The site's requests not yet answered in full, with their age: what a stuck page waits for. */
  inFlight(): string[]
  /** Where `npm start` writes the mails it would send (no SMTP_URL). */
  outbox: string
  close(): Promise<void>
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((done, fail) => {
    server.once('error', fail)
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      done(typeof address === 'object' && address ? address.port : 0)
    })
  })
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const ok = await fetch(url).then(
      (response) => response.status < 500,
      () => false,
    )
    if (ok) return
    if (Date.now() > end) throw new Error(`${url} did not answer within ${timeoutMs} ms`)
    await new Promise((done) => setTimeout(done, 200))
  }
}

/** Puts the probe first in a page's head. */
function withProbe(html: string): string {
  return html.replace(/<head([^>]*)>/i, `<head$1><script src="${PROBE_PATH}"></script>`)
}

/** The cookie that asks the front for pages without their scripts (a visitor whose scripts are blocked). */
export const NO_SCRIPT_COOKIE = 'engine-no-script'

/** The page as a visitor whose scripts never run gets it: no script, no module preload. */
function withoutScripts(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '')
}

/**
 * A page asked for by a frame (`Sec-Fetch-Dest: iframe`, or the front's frame page as referrer) may be framed by the front's own
 * pages: the narrow-layout check puts pages in frames narrower than WebKitGTK's window can be.
 */
function framable(headers: IncomingMessage['headers']): IncomingMessage['headers'] {
  const { 'x-frame-options': _frame, ...rest } = headers
  const policy = rest['content-security-policy']
  if (typeof policy === 'string') {
    rest['content-security-policy'] = policy.replace(
      /frame-ancestors [^;]*/,
      "frame-ancestors 'self'",
    )
  }
  return rest
}

/** A page of the front's own: `src` in a frame `width` pixels wide. */
export const FRAME_PATH = '/__engine-frame'
function framePage(url: URL): string {
  const width = Number(url.searchParams.get('width') ?? 320)
  const src = url.searchParams.get('src') ?? '/en/'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>frame</title></head><body style="margin:0"><iframe title="page" src="${src.replace(/"/g, '')}" style="border:0;width:${width}px;height:700px"></iframe></body></html>`
}

const DATA_DIR = '.cache/engines-data'

export async function startSite(port = Number(process.env.ENGINES_PORT ?? 4175)): Promise<Site> {
  const upstreamPort = port + 1
  const server: ChildProcess = spawn(process.execPath, ['scripts/run.mjs', 'start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      // Vitest's NODE_ENV=test is not the site's: it is built and served as in production.
      NODE_ENV: 'production',
      ...E2E_TRACKING,
      PORT: String(upstreamPort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: DATA_DIR,
      // Three engines post the forms from one address within a minute, and every run signs up
      // six addresses from it into a data folder kept between runs.
      FORMS_RATE_LIMIT: '0',
      CONFIRMATION_MAILS_PER_CLIENT: '0',
      PUBLISHING: 'off',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<void>((done) => server.once('exit', () => done()))
  await waitForHttp(`http://127.0.0.1:${upstreamPort}/healthz`, 300_000)

  let offline = false
  let cut = 0
  const pending = new Map<IncomingMessage, number>()
  const front = createServer((incoming, outgoing) => {
    pending.set(incoming, Date.now())
    outgoing.on('close', () => pending.delete(incoming))
    if (offline) {
      cut++
      incoming.socket.destroy()
      return
    }
    if (incoming.url?.startsWith(FRAME_PATH)) {
      outgoing.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      })
      outgoing.end(framePage(new URL(incoming.url, 'http://localhost')))
      return
    }
    if (incoming.url === PROBE_PATH) {
      outgoing.writeHead(200, {
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'no-store',
      })
      outgoing.end(PROBE)
      return
    }
    const headers = { ...incoming.headers, 'accept-encoding': 'identity' }
    const forwarded = request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        path: incoming.url,
        method: incoming.method,
        headers,
        // A connection of its own per request: none is left half-closed by going offline.
        agent: false,
      },
      (answer: IncomingMessage) => {
        const type = String(answer.headers['content-type'] ?? '')
        // WebKitGTK sends no Sec-Fetch-Dest: the front's frame page is the referrer there.
        const framed =
          incoming.headers['sec-fetch-dest'] === 'iframe' ||
          (incoming.headers.referer ?? '').includes(FRAME_PATH)
        const answerHeaders = framed ? framable(answer.headers) : answer.headers
        if (!type.startsWith('text/html') || incoming.method === 'HEAD') {
          outgoing.writeHead(answer.statusCode ?? 502, answerHeaders)
          answer.pipe(outgoing)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const html = Buffer.concat(chunks).toString('utf8')
          const noScript = (incoming.headers.cookie ?? '').includes(`${NO_SCRIPT_COOKIE}=1`)
          const body = Buffer.from(noScript ? withoutScripts(html) : withProbe(html))
          const { 'content-length': _length, etag: _etag, ...rest } = answerHeaders
          outgoing.writeHead(answer.statusCode ?? 502, {
            ...rest,
            'content-length': String(body.length),
          })
          outgoing.end(body)
        })
      },
    )
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502)
      outgoing.end()
    })
    incoming.pipe(forwarded)
  })
  await listen(front, port)

  // Other hosts: a request is recorded by its host and refused; nothing leaves the machine.
  const seen: string[] = []
  const proxied = new Map<IncomingMessage, number>()
  const proxy = createServer((incoming, outgoing) => {
    let target: URL | undefined
    try {
      target = new URL(incoming.url ?? '')
    } catch {
      target = undefined
    }
    // WebKitGTK sends even the site through its proxy: this machine's own are passed on.
    if (target && (target.hostname === 'localhost' || target.hostname === '127.0.0.1')) {
      proxied.set(incoming, Date.now())
      outgoing.on('close', () => proxied.delete(incoming))
      if (offline) {
        cut++
        incoming.socket.destroy()
        return
      }
      const forwarded = request(
        {
          host: '127.0.0.1',
          port: Number(target.port || 80),
          path: `${target.pathname}${target.search}`,
          method: incoming.method,
          headers: incoming.headers,
          agent: false,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
        },
      )
      forwarded.on('error', () => {
        if (!outgoing.headersSent) outgoing.writeHead(502)
        outgoing.end()
      })
      incoming.pipe(forwarded)
      return
    }
    seen.push(target?.host ?? String(incoming.headers.host))
    outgoing.writeHead(403).end()
  })
  proxy.on('connect', (incoming: IncomingMessage, socket: Socket) => {
    seen.push((incoming.url ?? '').replace(/:443$/, ''))
    socket.on('error', () => {})
    socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n')
  })
  const proxyPort = await listen(proxy)
  return {
    origin: `http://localhost:${port}`,
    proxy: `http://127.0.0.1:${proxyPort}`,
    hosts: () => [...seen],
    clearHosts: () => {
      seen.length = 0
    },
    setOffline: (value) => {
      offline = value
      if (value) front.closeAllConnections()
    },
    cut: () => cut,
    inFlight: () =>
      [...proxied, ...pending].map(
        ([incoming, at]) => `${incoming.method} ${incoming.url} (${Date.now() - at} ms)`,
      ),
    outbox: join(ROOT, DATA_DIR, 'outbox'),
    async close() {
      front.closeAllConnections()
      proxy.closeAllConnections()
      await new Promise((done) => front.close(done))
      await new Promise((done) => proxy.close(done))
      server.kill('SIGTERM')
      await exited
    },
  }
}
