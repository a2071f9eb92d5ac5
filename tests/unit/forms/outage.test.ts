/**
 * PostgreSQL going away under the running service, through a TCP proxy the test cuts and
 * restores: a form post answers 503 with the visitor's language's message (JSON and the page
 * without script), nothing is half-written, `/readyz` says so, and the service recovers by
 * itself when the database is back; a server that terminates the service's connections
 * (57P01, as on a failover) costs no more than a 503.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/database/open'
import { FORM_MESSAGES } from '../../../src/shared/forms/messages'
import {
  databases,
  type Inbox,
  type ServerProcess,
  signUp,
  spawnFormsServer,
  startSmtp,
  stopFormsServer,
  until,
} from '../../support/forms'
import { startProxy, type TcpProxy } from '../../support/forms-proxy'
import { createSchema, type Schema } from '../../support/schema'

const postgres = databases().find((database) => database.url)

describe.skipIf(!postgres)('PostgreSQL unreachable', () => {
  let inbox: Inbox
  let proxy: TcpProxy
  let server: ServerProcess
  /** What the service logs (at LOG_LEVEL=warn): its warnings and errors. */
  let output = ''
  let schema: Schema
  let application = ''
  const admin = () => openDatabase({ url: postgres?.url, poolSize: 1 })

  beforeAll(async () => {
    inbox = await startSmtp()
    const direct = new URL(postgres?.url ?? '')
    proxy = await startProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    schema = await createSchema(postgres?.url ?? '', 'outage')
    application = `forms_${schema.name}`
    const viaProxy = new URL(schema.url)
    viaProxy.host = `127.0.0.1:${proxy.port}`
    viaProxy.searchParams.set('application_name', application)
    server = await spawnFormsServer({ DATABASE_URL: viaProxy.toString(), SMTP_URL: inbox.url })
    server.child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
  })
  afterAll(async () => {
    await proxy.restore().catch(() => {})
    if (server) await stopFormsServer(server)
    await proxy.close()
    await inbox.close()
    await schema?.drop()
  })

  const json = (email: string) =>
    fetch(`${server.origin}/api/forms/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signUp(email)),
    })
  const noScript = (email: string) =>
    fetch(`${server.origin}/api/forms/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email,
        topics: 'services',
        consent: 'yes',
        version: 'v1',
        language: 'de',
        website: '',
      }).toString(),
      redirect: 'manual',
    })
  const ready = async () => {
    const response = await fetch(`${server.origin}/readyz`)
    return { status: response.status, body: await response.json() }
  }
  /** What the service stored, read past the proxy. */
  const stored = async () => {
    const db = await admin()
    try {
      const [row] = await db.query<{ subscribers: number; events: number; jobs: number }>(
        `SELECT (SELECT count(*)::int FROM ${schema.name}.subscribers) AS subscribers,
           (SELECT count(*)::int FROM ${schema.name}.subscription_events) AS events,
           (SELECT count(*)::int FROM ${schema.name}.mail_jobs) AS jobs`,
      )
      return row
    } finally {
      await db.close()
    }
  }

  it('answers 503 in the visitor’s language, stores nothing, and recovers without a restart', async () => {
    expect((await json('before@example.com')).status).toBe(200)
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } })
    await inbox.waitFor(1)

    await proxy.cut()
    const refused = await json('during@example.com')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('cache-control')).toBe('no-store')
    expect(await refused.json()).toEqual({ ok: false, reason: 'unavailable' })
    const page = await noScript('waehrend@example.com')
    expect(page.status).toBe(503)
    expect(page.headers.get('content-type')).toContain('text/html')
    const html = await page.text()
    expect(html).toContain('<html lang="de">')
    expect(html).toContain(FORM_MESSAGES.de.failed.unavailable.slice(0, 40))
    expect(await ready()).toEqual({
      status: 503,
      body: { status: 'unavailable', failing: ['database'] },
    })
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200)
    expect(await stored()).toEqual({ subscribers: 1, events: 1, jobs: 1 })
    // An outage is an error in the log, as it was before a visitor's hang-up stopped being one.
    const outage = output.split('\n').filter((line) => line.includes('database unavailable'))
    expect(outage.length).toBeGreaterThan(0)
    for (const line of outage) expect(line).toContain('"level":50')

    await proxy.restore()
    await until(async () => (await ready()).status === 200)
    expect((await json('during@example.com')).status).toBe(200)
    const redirected = await noScript('waehrend@example.com')
    expect(redirected.status).toBe(303)
    expect(redirected.headers.get('location')).toBe('/de/newsletter-success/')
    await inbox.waitFor(3)
    expect(await stored()).toEqual({ subscribers: 3, events: 3, jobs: 3 })
  })

  it('survives the server terminating its connections (57P01)', async () => {
    const db = await admin()
    try {
      const [terminated] = await db.query<{ n: number }>(
        `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
         WHERE application_name = $1`,
        [application],
      )
      expect(terminated?.n).toBeGreaterThan(0)
    } finally {
      await db.close()
    }
    const answers: { status: number; body: unknown }[] = []
    for (let index = 0; index < 5; index++) {
      const response = await json(`after${index}@example.com`)
      answers.push({ status: response.status, body: await response.json() })
    }
    for (const answer of answers) {
      expect([
        { status: 200, body: { ok: true, redirect: '/en/newsletter-success/' } },
        { status: 503, body: { ok: false, reason: 'unavailable' } },
      ]).toContainEqual(answer)
    }
    expect(answers.at(-1)?.status).toBe(200)
    const delivered = answers.filter((answer) => answer.status === 200).length
    await inbox.waitFor(3 + delivered)
  })
})
