/**
 * The forms service under load on loopback: autocannon sends newsletter sign-ups (each a new
 * address: a subscriber, two tokens, a proof row and a confirmation e-mail to a local SMTP
 * sink) over 50 connections to the service running as its own process, as `npm start` runs
 * it. Reported per database: sign-ups per second and latency percentiles.
 */
import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { openDatabase, quoteIdentifier } from '../src/server/forms/database'
import { spawnFormsServer, startSmtp, stopFormsServer } from '../tests/support/forms'

export interface FormsLoadResult {
  database: 'pglite' | 'postgresql'
  connections: number
  seconds: number
  signUpsPerSecond: number
  latencyMs: { p50: number; p90: number; p99: number; max: number }
  non2xx: number
  errors: number
  mails: number
}

async function loadRun(
  database: FormsLoadResult['database'],
  env: NodeJS.ProcessEnv,
  seconds: number,
): Promise<FormsLoadResult> {
  const inbox = await startSmtp()
  const dataDir = join(tmpdir(), `forms-bench-${randomBytes(6).toString('hex')}`)
  const server = await spawnFormsServer({
    ...env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SMTP_URL: inbox.url,
  })
  const { origin } = server
  let counter = 0
  const body = () =>
    JSON.stringify({
      email: `load${counter++}@example.com`,
      topics: ['services'],
      consent: 'yes',
      version: 'v1',
      language: 'en',
    })
  try {
    const result = await autocannon({
      url: `${origin}/api/forms/newsletter`,
      connections: 50,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      ],
    })
    return {
      database,
      connections: 50,
      seconds,
      signUpsPerSecond: Math.round(result.requests.average),
      latencyMs: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      non2xx: result.non2xx,
      errors: result.errors,
      mails: inbox.mails.length,
    }
  } finally {
    await stopFormsServer(server)
    await inbox.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** PGlite always; PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server. */
export async function formsLoad(seconds = 10): Promise<FormsLoadResult[]> {
  const results = [await loadRun('pglite', { DATABASE_URL: '' }, seconds)]
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (url) {
    const schema = `bench_${randomBytes(6).toString('hex')}`
    const admin = await openDatabase({ url, poolSize: 1, migrate: false })
    await admin.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`)
    try {
      const scoped = new URL(url)
      scoped.searchParams.set('options', `-c search_path=${schema}`)
      results.push(await loadRun('postgresql', { DATABASE_URL: scoped.toString() }, seconds))
    } finally {
      await admin.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await admin.close()
    }
  } else {
    console.log('forms load on PostgreSQL skipped: set BENCH_DATABASE_URL to a server')
  }
  return results
}

export const formatFormsLoad = (result: FormsLoadResult) =>
  `forms service on ${result.database}: ${result.signUpsPerSecond} sign-ups/s at ${result.connections} connections, latency p50 ${result.latencyMs.p50} ms, p90 ${result.latencyMs.p90} ms, p99 ${result.latencyMs.p99} ms (max ${result.latencyMs.max}); ${result.non2xx} non-2xx, ${result.errors} errors, ${result.mails} mails received`
