/**
 * The forms service under load on loopback: autocannon sends newsletter sign-ups (each a new
 * address: a subscriber, a proof row and a queued confirmation e-mail) over 50 connections to
 * the service running as its own process, as `npm start` runs it, while its sender sends the
 * mails to a local SMTP sink. Reported per database, after a short warm-up load: sign-ups per
 * second and latency percentiles beside the targets, and the sender's mails per second (from
 * the start of the load to the last mail received, the queue drained after the load).
 */

import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import autocannon from 'autocannon'
import { spawnFormsServer, stopFormsServer } from '../tests/support/forms'
import { createSchema } from '../tests/support/schema'
import { removeFolder, temporaryFolder } from '../tests/support/temporary-folder'

const ROOT = resolve(import.meta.dirname, '..')

/** What the issue asks of a sign-up at 50 connections. */
export const FORMS_TARGETS = {
  pglite: { perSecond: 500, p99Ms: 100 },
  postgresql: { perSecond: 1000, p99Ms: 50 },
} as const

export interface FormsLoadResult {
  database: 'pglite' | 'postgresql'
  connections: number
  seconds: number
  signUpsPerSecond: number
  latencyMs: { p50: number; p90: number; p99: number; max: number }
  non2xx: number
  errors: number
  /** Mails the SMTP sink received, one per sign-up once the queue is drained. */
  mails: number
  /** Mails per second, from the start of the load to the last mail received. */
  mailsPerSecond: number
  /** Seconds the queue took to drain after the load stopped. */
  drainSeconds: number
}

/**
 * An SMTP server that only counts, in a process of its own: in the load generator's process
 * it would answer late whenever autocannon keeps that process busy, and parsing the mails (as
 * the tests' inbox does) would cost CPU the measurement needs.
 */
const SINK = `
import { SMTPServer } from 'smtp-server'
const received = []
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  disableReverseLookup: true,
  logger: false,
  closeTimeout: 50,
  onData(stream, _session, callback) {
    stream.resume()
    stream.on('end', () => {
      received.push(Date.now())
      callback()
    })
  },
})
server.on('error', () => {})
server.listen(0, '127.0.0.1', () => process.send({ port: server.server.address().port }))
process.on('message', () =>
  process.send({ count: received.length, first: received[0] ?? 0, last: received.at(-1) ?? 0 }),
)
process.on('disconnect', () => process.exit(0))
`

interface SinkReport {
  count: number
  first: number
  last: number
}

export async function startSink() {
  const child = spawn(process.execPath, ['--input-type=module', '-e', SINK], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const port = await new Promise<number>((done) =>
    child.once('message', (message) => done((message as { port: number }).port)),
  )
  return {
    url: `smtp://127.0.0.1:${port}`,
    report: () =>
      new Promise<SinkReport>((done) => {
        child.once('message', (message) => done(message as SinkReport))
        child.send('report')
      }),
    close: () =>
      new Promise<void>((done) => {
        child.once('exit', () => done())
        child.disconnect()
      }),
  }
}

/** Seconds of load before the measured one. */
const WARM_UP_SECONDS = 3

/** Waits until the sink has received `count` mails (two minutes at most). */
async function waitForMails(sink: Awaited<ReturnType<typeof startSink>>, count: number) {
  const deadline = Date.now() + 120_000
  let report = await sink.report()
  while (report.count < count && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100))
    report = await sink.report()
  }
  return report
}

export async function loadRun(
  database: FormsLoadResult['database'],
  env: NodeJS.ProcessEnv,
  seconds: number,
  /** Started with the measured load (a scraper, say); the function it returns stops it. */
  during: (origin: string) => () => void = () => () => {},
): Promise<FormsLoadResult> {
  const sink = await startSink()
  const dataDir = await temporaryFolder('forms-bench-')
  const server = await spawnFormsServer({
    ...env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SMTP_URL: sink.url,
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
  const load = (duration: number) =>
    autocannon({
      url: `${origin}/api/forms/newsletter`,
      connections: 50,
      duration,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: body() }),
        },
      ],
    })
  try {
    // A first load, not counted: compiling the hot code and growing the database's fresh
    // files made the first seconds several times slower than the rest. Its mails are sent
    // before the measured load starts.
    const warmUp = await load(WARM_UP_SECONDS)
    await waitForMails(sink, warmUp['2xx'])
    const before = await sink.report()
    const loadStart = Date.now()
    const stopDuring = during(origin)
    const result = await load(seconds)
    stopDuring()
    // Every answered sign-up queued one mail: wait for the sender to drain the queue.
    const loadEnd = Date.now()
    const drained = await waitForMails(sink, before.count + result['2xx'])
    const sent = { ...drained, count: drained.count - before.count }
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
      mails: sent.count,
      mailsPerSecond:
        sent.last > loadStart ? Math.round(sent.count / ((sent.last - loadStart) / 1000)) : 0,
      drainSeconds: Math.max(0, Math.round((sent.last - loadEnd) / 100) / 10),
    }
  } finally {
    await stopFormsServer(server)
    await sink.close()
    await removeFolder(dataDir)
  }
}

/** PGlite always; PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) names a server. */
export async function formsLoad(seconds = 10): Promise<FormsLoadResult[]> {
  const results = [await loadRun('pglite', { DATABASE_URL: '' }, seconds)]
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (url) {
    const schema = await createSchema(url, 'bench')
    try {
      results.push(await loadRun('postgresql', { DATABASE_URL: schema.url }, seconds))
    } finally {
      await schema.drop()
    }
  } else {
    console.log('forms load on PostgreSQL skipped: set BENCH_DATABASE_URL to a server')
  }
  return results
}

export const formatFormsLoad = (result: FormsLoadResult) => {
  const target = FORMS_TARGETS[result.database]
  const met =
    result.signUpsPerSecond >= target.perSecond && result.latencyMs.p99 <= target.p99Ms
      ? 'target met'
      : 'TARGET MISSED'
  return `forms service on ${result.database}: ${result.signUpsPerSecond} sign-ups/s at ${result.connections} connections (target ≥ ${target.perSecond}), latency p50 ${result.latencyMs.p50} ms, p90 ${result.latencyMs.p90} ms, p99 ${result.latencyMs.p99} ms (target ≤ ${target.p99Ms}; max ${result.latencyMs.max}): ${met}; ${result.non2xx} non-2xx, ${result.errors} errors; sender: ${result.mails} mails at ${result.mailsPerSecond}/s, queue drained ${result.drainSeconds} s after the load`
}
