/**
 * Static serving at 100 connections on loopback: `npm start`'s server beside nginx with the
 * server block `npm run nginx-config` writes, on the same built site, in one run. Each is
 * asked for the home page and a page-data file as a browser asks (Brotli accepted); reported:
 * requests per second, p99 latency, and nginx's rate over npm start's.
 */
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import autocannon from 'autocannon'
import { freePort } from '../tests/support/free-port'
import { nginxInstalled, startNginx } from '../tests/support/nginx'

const ROOT = resolve(import.meta.dirname, '..')
const CONNECTIONS = 100

export interface ServingResult {
  path: string
  server: 'npm start' | 'nginx'
  requestsPerSecond: number
  p99Ms: number
  non2xx: number
}

export async function load(origin: string, path: string, seconds: number) {
  const result = await autocannon({
    url: `${origin}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { 'accept-encoding': 'br, gzip' },
  })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    non2xx: result.non2xx + result.errors,
  }
}

export async function startNodeServer(
  dist: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ origin: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/static-server.ts', dist], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const found = /LISTENING (\d+)/.exec(String(chunk))
      if (found?.[1]) done(found[1])
    })
    child.once('exit', (code) => fail(new Error(`static server exited with ${code}`)))
  })
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') }
}

export async function servingLoad(dist: string, seconds = 10): Promise<ServingResult[]> {
  if (!nginxInstalled()) {
    console.log('serving: nginx is not installed; npm start measured alone')
  }
  const home = JSON.parse(await readFile(join(dist, 'page-data/en/page-data.json'), 'utf8')) as {
    path: string
  }
  const paths = ['/en/', '/page-data/en/about/page-data.json']
  if (home.path !== '/en/') throw new Error('the built site has no /en/ page data')
  const node = await startNodeServer(dist)
  const nginx = nginxInstalled()
    ? await startNginx({
        root: dist,
        port: await freePort(),
        api: '127.0.0.1:9',
        scratch: '.cache/bench-nginx',
      })
    : undefined
  const results: ServingResult[] = []
  try {
    for (const path of paths) {
      // Warmed up once each, then measured one after the other on the same two cores.
      await load(node.origin, path, 1)
      results.push({ path, server: 'npm start', ...(await load(node.origin, path, seconds)) })
      if (nginx) {
        await load(nginx.origin, path, 1)
        results.push({ path, server: 'nginx', ...(await load(nginx.origin, path, seconds)) })
      }
    }
  } finally {
    node.stop()
    await nginx?.stop()
  }
  return results
}

export function formatServing(results: ServingResult[]): string {
  const lines = results.map(
    (result) =>
      `  ${result.path} ${result.server}: ${result.requestsPerSecond} requests/s, p99 ${result.p99Ms} ms${result.non2xx ? `, ${result.non2xx} failed` : ''}`,
  )
  for (const path of new Set(results.map((result) => result.path))) {
    const node = results.find((result) => result.path === path && result.server === 'npm start')
    const nginx = results.find((result) => result.path === path && result.server === 'nginx')
    if (node && nginx) {
      lines.push(
        `  ${path}: nginx serves ${(nginx.requestsPerSecond / node.requestsPerSecond).toFixed(1)}× as many requests as npm start`,
      )
    }
  }
  return `static serving at ${CONNECTIONS} connections:\n${lines.join('\n')}`
}
