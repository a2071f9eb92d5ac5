/**
 * The forms service on its own: `/healthz` and `/readyz` (JSON, never cached, neither limited
 * nor logged per request), `SERVE_STATIC=off` serving `/api/` and nothing of the site, and
 * `npm run serve:api` (`scripts/run.mjs serve-api`) doing the same with the real content.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signUp, spawnFormsServer, stopFormsServer } from '../../support/forms'
import { removeFolder } from '../../support/temporary-folder'

const ROOT = resolve(import.meta.dirname, '../../..')
const scratch = join(tmpdir(), `forms-alone-${randomBytes(6).toString('hex')}`)
const site = join(scratch, 'site')
// One PGlite folder for the three runs, one after the other.
const env = { DATA_DIR: join(scratch, 'data'), OUT_DIR: site, SMTP_URL: '', DATABASE_URL: '' }

const consent = {
  id: '5b0c1f7e-8d1a-4a4b-9f5e-2f1d3c4b5a69',
  categories: { analytics: false, conversion: false },
  trackers: { googleanalytics: false, adwords: false, twitter: false, linkedin: false },
  revision: '1',
  language: 'en',
}

async function health(origin: string) {
  const answers = []
  for (const path of ['/healthz', '/readyz']) {
    const response = await fetch(`${origin}${path}`)
    answers.push({
      path,
      status: response.status,
      cache: response.headers.get('cache-control'),
      type: response.headers.get('content-type'),
      body: await response.json(),
    })
  }
  return answers
}

const HEALTHY = [
  {
    path: '/healthz',
    status: 200,
    cache: 'no-store',
    type: 'application/json; charset=utf-8',
    body: { status: 'ok' },
  },
  {
    path: '/readyz',
    status: 200,
    cache: 'no-store',
    type: 'application/json; charset=utf-8',
    body: { status: 'ready' },
  },
]

describe('the forms service alone', () => {
  beforeAll(async () => {
    await mkdir(site, { recursive: true })
    await writeFile(join(site, 'hello.txt'), 'hello')
  })
  afterAll(async () => {
    await removeFolder(scratch)
  })

  it('serves the site beside the service by default, with the health endpoints', async () => {
    const server = await spawnFormsServer(env)
    try {
      expect(await health(server.origin)).toEqual(HEALTHY)
      expect((await fetch(`${server.origin}/hello.txt`)).status).toBe(200)
      // Never limited: far more checks than FORMS_RATE_LIMIT would allow a form.
      const statuses = await Promise.all(
        Array.from({ length: 30 }, async () => (await fetch(`${server.origin}/readyz`)).status),
      )
      expect(statuses).toEqual(statuses.map(() => 200))
    } finally {
      expect(await stopFormsServer(server)).toBe(0)
    }
  }, 30_000)

  it('serves only /api/ and the health endpoints with SERVE_STATIC=off', async () => {
    const server = await spawnFormsServer({ ...env, SERVE_STATIC: 'off' })
    try {
      expect(await health(server.origin)).toEqual(HEALTHY)
      for (const path of ['/hello.txt', '/', '/en/', '/sw.js']) {
        expect((await fetch(`${server.origin}${path}`)).status, path).toBe(404)
      }
      const response = await fetch(`${server.origin}/api/forms/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(signUp('alone@example.com')),
      })
      expect(response.status).toBe(200)
    } finally {
      expect(await stopFormsServer(server)).toBe(0)
    }
  }, 30_000)

  it('runs as npm run serve:api: no site, the service and its health, health not logged', async () => {
    const child: ChildProcess = spawn(process.execPath, ['scripts/run.mjs', 'serve-api'], {
      cwd: ROOT,
      env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    const origin = await new Promise<string>((done, fail) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const found = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1]
        if (found) done(found)
      })
      child.once('exit', (code) => fail(new Error(`serve-api exited (${code}):\n${output}`)))
    })
    try {
      expect(await health(origin)).toEqual(HEALTHY)
      expect((await fetch(`${origin}/hello.txt`)).status).toBe(404)
      expect((await fetch(`${origin}/en/`)).status).toBe(404)
      const recorded = await fetch(`${origin}/api/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(consent),
      })
      expect(recorded.status).toBe(204)
    } finally {
      await new Promise((done) => {
        child.once('exit', done)
        child.kill('SIGTERM')
      })
    }
    expect(output).toContain('"path":"/api/consent"')
    expect(output).not.toContain('/healthz')
    expect(output).not.toContain('/readyz')
  }, 60_000)
})
