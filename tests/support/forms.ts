/**
 * What the forms service's tests run against: a real SMTP server (smtp-server) that keeps
 * every mail it receives, and the databases the service supports: PGlite always, PostgreSQL
 * when `TEST_DATABASE_URL` names a server (CI starts one; `CI=true` without it is an error).
 */

import { type ChildProcess, spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import PostalMime, { type Email } from 'postal-mime'
import { SMTPServer } from 'smtp-server'
import type { Database } from '../../src/database/database'
import type { SenderOptions } from '../../src/forms/sender'
import { openFormsService } from '../../src/forms/service'
import type { StoreOptions } from '../../src/forms/store'
import type { ServiceMetrics } from '../../src/http/metrics'
import type { TransportSettings } from '../../src/http/transport'
import { createApp } from '../../src/server/app'
import { createSchema } from './schema'
import { removeFolder, temporaryFolder } from './temporary-folder'

export const FIXTURE_CONTENT = resolve(import.meta.dirname, '../fixtures/forms-content')
/** The real content store: what the built site's forms come from. */
export const SITE_CONTENT = resolve(import.meta.dirname, '../../content')
export const SITE_URL = 'https://www.lumora-bank.example'

export interface Inbox {
  url: string
  mails: Email[]
  /** Resolves once `count` mails have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Email[]>
  /** How many mails each recipient received. */
  countByRecipient(): Map<string, number>
  /** Stops listening and hangs up on every client (an SMTP outage); `start` listens again. */
  stop(): Promise<void>
  start(): Promise<void>
  /** Holds every mail at RCPT TO until `release` (a slow server): held mails are not received. */
  hold(): void
  /**
   * Takes every mail (it is received, in `mails`) but holds the answer to its data until
   * `release`: the sender cannot know it was delivered.
   */
  holdReplies(): void
  release(): void
  close(): Promise<void>
}

export async function startSmtp(options: { rejectRecipients?: boolean } = {}): Promise<Inbox> {
  const mails: Email[] = []
  const waiting = new Set<() => void>()
  let held: (() => void)[] | undefined
  let repliesHeld: (() => void)[] | undefined
  const create = () => {
    const created = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      disableReverseLookup: true,
      logger: false,
      // Stopping hangs up on pooled clients after 50 ms instead of 30 s.
      closeTimeout: 50,
      onRcptTo(address, _session, callback) {
        if (held) {
          held.push(() => callback())
          return
        }
        if (!options.rejectRecipients) return callback()
        const error = new Error(`550 5.1.1 <${address.address}>: no such user`) as Error & {
          responseCode: number
        }
        error.responseCode = 550
        callback(error)
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          PostalMime.parse(Buffer.concat(chunks)).then(
            (mail) => {
              mails.push(mail)
              for (const wake of waiting) wake()
              if (repliesHeld) repliesHeld.push(() => callback())
              else callback()
            },
            (error: Error) => callback(error),
          )
        })
      },
    })
    // A client that hangs up (a service stopped mid-send) is no failure of the test's server.
    created.on('error', () => {})
    return created
  }
  let server = create()
  let port = 0
  const listen = () =>
    new Promise<void>((done, fail) => {
      server.server.once('error', fail)
      server.listen(port, '127.0.0.1', () => {
        server.server.off('error', fail)
        const address = server.server.address()
        port = typeof address === 'object' && address ? address.port : 0
        done()
      })
    })
  const stop = () => new Promise<void>((done) => server.close(() => done()))
  await listen()
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor(count, timeoutMs = 5000) {
      return new Promise((done, fail) => {
        const check = () => {
          if (mails.length < count) return
          waiting.delete(check)
          clearTimeout(timer)
          done(mails)
        }
        const timer = setTimeout(() => {
          waiting.delete(check)
          fail(new Error(`expected ${count} mails, received ${mails.length}`))
        }, timeoutMs)
        waiting.add(check)
        check()
      })
    },
    countByRecipient() {
      const counts = new Map<string, number>()
      for (const mail of mails) {
        const to = mail.to?.[0]?.address ?? ''
        counts.set(to, (counts.get(to) ?? 0) + 1)
      }
      return counts
    },
    stop,
    async start() {
      server = create()
      await listen()
    },
    hold() {
      held ??= []
    },
    holdReplies() {
      repliesHeld ??= []
    },
    release() {
      const waiting = [...(held ?? []), ...(repliesHeld ?? [])]
      held = undefined
      repliesHeld = undefined
      for (const go of waiting) go()
    },
    close: stop,
  }
}

/** The databases to run every service test against. */
export function databases(): { name: 'pglite' | 'postgresql'; url?: string }[] {
  const url = process.env.TEST_DATABASE_URL
  if (!url && process.env.CI) {
    throw new Error('CI must test against PostgreSQL: set TEST_DATABASE_URL (see .ci/run)')
  }
  return url ? [{ name: 'pglite' }, { name: 'postgresql', url }] : [{ name: 'pglite' }]
}

export interface TestService {
  app: Awaited<ReturnType<typeof createApp>>
  inbox: Inbox
  database: Database
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>
  /** Empties every table and the inbox: a fresh start without a new database. */
  reset(): Promise<void>
  /** The service's readiness check of its mail (see FormsService.mailReady). */
  mailReady(): Promise<void>
  close(): Promise<void>
}

/**
 * A forms service on a fresh database (PGlite in memory, or a new PostgreSQL schema) sending
 * to a fresh SMTP server.
 */
export async function startService(
  database: { url?: string },
  options: StoreOptions & {
    rateLimit?: number
    smtpUrl?: string
    /** The built site to serve beside the service (browser tests); none by default. */
    root?: string
    /** The content store whose forms it serves (the fixture's by default). */
    contentDir?: string
    /** Collects the service's log lines (silent otherwise). */
    logs?: string[]
    /** The SMTP server refuses every recipient. */
    rejectRecipients?: boolean
    /** `TRUST_PROXY`: the client is the address `X-Forwarded-For` names. */
    trustProxy?: boolean
    /** The sender's timing (retries after 5 s by default). */
    /** The server's timeouts and connection limit (the defaults otherwise). */
    transport?: TransportSettings
    /** `MAIL_OUTAGE_MINUTES` (15 by default). */
    mailOutageMinutes?: number
    /** The operators' metrics, counted into its registry (served with `token`). */
    metrics?: { metrics: ServiceMetrics; token?: string }
    sender?: Pick<
      SenderOptions,
      'batchSize' | 'pollMs' | 'leaseMs' | 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts'
    >
  } = {},
): Promise<TestService> {
  const inbox = await startSmtp({ rejectRecipients: options.rejectRecipients })
  const dataDir = await temporaryFolder('forms-test-')
  const schema = database.url ? await createSchema(database.url, 'test') : undefined
  const service = await openFormsService(
    {
      contentDir: options.contentDir ?? FIXTURE_CONTENT,
      siteUrl: SITE_URL,
      databaseUrl: database.url,
      // PGlite in memory: no dataDir for the database itself.
      dataDir,
      smtpUrl: options.smtpUrl ?? inbox.url,
      mailFrom: 'Test <test@lumora-bank.example>',
      rateLimit: options.rateLimit ?? 0,
      ...(options.mailOutageMinutes ? { mailOutageMinutes: options.mailOutageMinutes } : {}),
    },
    {
      ...options,
      schema: schema?.name,
      memory: !database.url,
      ...(options.metrics ? { registry: options.metrics.metrics.registry } : {}),
    },
  )
  const app = await createApp({
    root: options.root ?? dataDir,
    logLevel: options.logs ? 'info' : 'silent',
    ...(options.logs ? { logStream: { write: (line: string) => options.logs?.push(line) } } : {}),
    forms: service.options,
    ...(options.trustProxy ? { trustProxy: true } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  })
  service.startSender(app.log)
  return {
    app,
    inbox,
    database: service.database,
    query: (sql, params) => service.database.query(sql, params),
    mailReady: () => service.mailReady(),
    async reset() {
      // The mails of the test before are sent (or not) before anything is emptied.
      await service.sender.stop()
      await service.database.query(
        'TRUNCATE subscribers, subscriber_tokens, subscription_events, mail_jobs, survey_responses, consent_records, mailbox_quota, client_quota',
      )
      inbox.mails.length = 0
      service.startSender(app.log)
    },
    async close() {
      await app.close()
      await service.close()
      await inbox.close()
      await schema?.drop()
      await removeFolder(dataDir)
    },
  }
}

/** Polls `check` until it finds rows (or is true); fails after `timeoutMs`. */
export async function until<T>(
  check: () => Promise<T>,
  timeoutMs = 5000,
  everyMs = 20,
): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const found = await check()
    if (Array.isArray(found) ? found.length > 0 : Boolean(found)) return found
    if (Date.now() > end) throw new Error(`nothing found within ${timeoutMs} ms`)
    await new Promise((done) => setTimeout(done, everyMs))
  }
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: Email | undefined, prefix: string): string {
  if (!mail) throw new Error(`expected a mail with a ${prefix} link; there is none`)
  const found = (mail.text ?? '').match(/https?:\/\/\S+/g)?.find((link) => link.includes(prefix))
  if (!found) throw new Error(`no ${prefix} link in the mail:\n${mail.text}`)
  return found
}

/** A form body as the page's script sends it. */
export const signUp = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  topics: ['services'],
  consent: 'yes',
  version: 'v1',
  language: 'en',
  ...extra,
})

const ROOT = resolve(import.meta.dirname, '../..')

export interface ServerProcess {
  child: ChildProcess
  origin: string
}

/**
 * The forms service as its own process (`tests/support/forms-server.ts`, what `npm start`
 * serves) on the fixture's forms, configured by `env`, without rate limit or hourly mail cap;
 * with `openFiles`, allowed that many open files (`prlimit`, as `ulimit -n` would).
 */
export function spawnFormsServer(
  env: NodeJS.ProcessEnv,
  options: {
    /** The open files the process may have (`prlimit`). */
    openFiles?: number
    /** A command that runs the server's command line, given after it (`unshare … sh -c …`). */
    prefix?: string[]
  } = {},
): Promise<ServerProcess> {
  const node = [process.execPath, '--import', 'tsx', join(ROOT, 'tests/support/forms-server.ts')]
  const limited = options.openFiles
    ? ['prlimit', `--nofile=${options.openFiles}:${options.openFiles}`, '--', ...node]
    : node
  const [command = '', ...args] = [...(options.prefix ?? []), ...limited]
  const child = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      FORMS_RATE_LIMIT: '0',
      CONFIRMATION_MAILS_PER_HOUR: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((done, fail) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const port = /LISTENING (\d+)/.exec(output)?.[1]
      if (port) done({ child, origin: `http://127.0.0.1:${port}` })
    })
    child.once('exit', (code) =>
      fail(new Error(`the forms service exited (${code}) before listening`)),
    )
  })
}

/** Kills a spawned service outright (SIGKILL: no shutdown at all); resolves once it is gone. */
export const killFormsServer = (server: ServerProcess) =>
  new Promise<NodeJS.Signals | null>((done) => {
    server.child.once('exit', (_code, signal) => done(signal))
    server.child.kill('SIGKILL')
  })

/** Stops a spawned service with SIGTERM; resolves with its exit code. */
export const stopFormsServer = (server: ServerProcess) =>
  new Promise<number | null>((done) => {
    server.child.once('exit', (code) => done(code))
    server.child.kill('SIGTERM')
  })
