/**
 * A wrong or missing setting stops every program (`node scripts/run.mjs <name>`, as the npm
 * scripts and a container run them) with exit code 78 and exactly one line on standard error
 * that names the setting, says what is wrong and what to do: no stack trace, no log line, no
 * password repeated, and nothing started before it (nothing on standard output, no data folder
 * made). Each case runs the real program with the setting wrong.
 *
 * A port this user may not bind (EACCES) is not among them: the tests run as root, whom no port
 * is refused. The cases that need the PostgreSQL server (a wrong password, a database that is
 * not there) run when `TEST_DATABASE_URL` names one; a role that may not create the tables
 * when `TEST_DATABASE_SERVICE_URL` names the service's own role too.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { quoteIdentifier } from '../../../src/database/database'
import { openDatabase } from '../../../src/database/open'
import { ROOT } from '../../../src/engine/config'
import { CONFIG_EXIT_CODE, failureOf, SettingError } from '../../../src/shared/settings-error'
import { freePort } from '../../support/free-port'
import { createSchema, type Schema } from '../../support/schema'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** At most this many programs at once: each loads its libraries (two shared cores). */
const AT_ONCE = 3
let running = 0
const waiting: (() => void)[] = []

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((go) => waiting.push(go))
  running++
  try {
    return await work()
  } finally {
    running--
    waiting.shift()?.()
  }
}

let scratch = ''
/** A regular file: a folder under it can be neither made nor written, whoever runs the test. */
let file = ''
/** A port another process (this one) listens on, on 127.0.0.1. */
let heldPort = 0
let holder: Server | undefined

/** Settings every run starts from: its own folders, any free port, no PostgreSQL, no SMTP. */
function baseEnv(data: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: data,
    OUT_DIR: join(scratch, 'dist'),
    BUILD_CACHE_DIR: join(scratch, 'cache'),
    DATABASE_URL: '',
    DATABASE_OWNER_URL: '',
    SMTP_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    CMS_PORT: '0',
    CMS_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
  }
}

/** `node scripts/run.mjs <program> …args` with `env` over the base settings. */
function run(program: string, args: string[], env: NodeJS.ProcessEnv, data: string): Promise<Run> {
  return inTurn(
    () =>
      new Promise<Run>((done) => {
        const child = spawn(process.execPath, ['scripts/run.mjs', program, ...args], {
          cwd: ROOT,
          env: { ...baseEnv(data), ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString()
        })
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString()
        })
        // A program that starts (or hangs) instead of stopping fails the case.
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
        child.once('exit', (code) => {
          clearTimeout(timer)
          done({ code, stdout, stderr })
        })
      }),
  )
}

interface Case {
  /** What is wrong, as the test's name. */
  name: string
  program: string
  args?: string[]
  /** The settings over the base ones; a function for those known only once the files are made. */
  env: () => NodeJS.ProcessEnv
  /** The setting the line must name first. */
  setting: string
  /** What else the line must say. */
  says: RegExp
  /** What it must not (a password). */
  never?: string
  /** Run only when this holds (a PostgreSQL server to talk to). */
  when?: () => boolean
  /** Known only once it has begun (made its folders): the data folder may be there. */
  late?: boolean
}

const SECRET = 'hunter2-secret'
const hasPostgres = () => Boolean(process.env.TEST_DATABASE_URL)
/** The service's own role, owning nothing (CI makes it, see .ci/run). */
const SERVICE_URL = process.env.TEST_DATABASE_SERVICE_URL
/** A schema the service's role may use but create nothing in, as PostgreSQL's public is. */
let denied: Schema | undefined
/** `TEST_DATABASE_URL` with `change` made to it. */
const testDatabase = (change: (url: URL) => void) => {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://forms@127.0.0.1:5432/forms')
  change(url)
  return url.toString()
}
let closedPort = 0

const CASES: Case[] = [
  {
    name: 'a UMASK that is no octal mask',
    program: 'validate',
    env: () => ({ UMASK: '0999' }),
    setting: 'UMASK',
    says: /must be an octal mask such as 0022 or 0002; got "0999"$/,
  },
  // Secrets and other values the programs refuse as they read them.
  {
    name: 'a short METRICS_TOKEN',
    program: 'start',
    env: () => ({ METRICS_TOKEN: 'tok3n' }),
    setting: 'METRICS_TOKEN',
    says: /must be at least 32 characters.*; set a longer token .*or unset it$/,
    never: 'tok3n',
  },
  {
    name: 'a short CMS_METRICS_TOKEN',
    program: 'start',
    env: () => ({ CMS_METRICS_TOKEN: 'too-short-a-token' }),
    setting: 'CMS_METRICS_TOKEN',
    says: /must be at least 32 characters/,
    never: 'too-short-a-token',
  },
  {
    name: 'a short CMS_METRICS_TOKEN, publishing service alone',
    program: 'serve-cms',
    env: () => ({ CMS_METRICS_TOKEN: 'too-short-a-token' }),
    setting: 'CMS_METRICS_TOKEN',
    says: /must be at least 32 characters/,
  },
  {
    name: 'a short AUDIT_KEY, publishing service alone',
    program: 'serve-cms',
    env: () => ({ AUDIT_KEY: 'too-short-a-key' }),
    setting: 'AUDIT_KEY',
    says: /must be a key of 32 characters at least; set it/,
    never: 'too-short-a-key',
  },
  {
    name: 'PORT not a number',
    program: 'start',
    env: () => ({ PORT: 'eighty' }),
    setting: 'PORT',
    says: /must be a port number from 0 to 65535; got "eighty"; set it/,
  },
  {
    name: 'CMS_PORT out of range',
    program: 'serve-cms',
    env: () => ({ CMS_PORT: '70000' }),
    setting: 'CMS_PORT',
    says: /must be a port number/,
  },
  {
    name: 'METRICS_PORT not a number',
    program: 'serve-api',
    env: () => ({ METRICS_PORT: 'ninety' }),
    setting: 'METRICS_PORT',
    says: /must be a port number from 1 to 65535/,
  },
  {
    name: 'PORT of the dev server not a number',
    program: 'dev',
    env: () => ({ PORT: '-1' }),
    setting: 'PORT',
    says: /must be a port number/,
  },
  {
    name: 'a timeout not a number',
    program: 'serve-api',
    env: () => ({ REQUEST_TIMEOUT_SECONDS: 'soon' }),
    setting: 'REQUEST_TIMEOUT_SECONDS',
    says: /must be a positive number of seconds; got "soon"/,
  },
  {
    name: 'a limit not a whole number',
    program: 'start',
    env: () => ({ MAX_CONNECTIONS: '1.5' }),
    setting: 'MAX_CONNECTIONS',
    says: /must be a whole number of at least 1/,
  },
  {
    name: 'a rate limit below 0',
    program: 'start',
    env: () => ({ FORMS_RATE_LIMIT: '-1' }),
    setting: 'FORMS_RATE_LIMIT',
    says: /must be a whole number .*0 turns it off/,
  },
  {
    name: 'a mail lease of 0 seconds, in the forms tool',
    program: 'forms',
    args: ['outbox'],
    env: () => ({ MAIL_LEASE_SECONDS: '0' }),
    setting: 'MAIL_LEASE_SECONDS',
    says: /must be a positive number of seconds/,
  },
  {
    name: 'no release kept',
    program: 'serve-cms',
    env: () => ({ RELEASES_KEPT: '0' }),
    setting: 'RELEASES_KEPT',
    says: /must be a whole number of at least 1/,
  },
  {
    name: 'an unknown LOG_LEVEL',
    program: 'serve-cms',
    env: () => ({ LOG_LEVEL: 'loud' }),
    setting: 'LOG_LEVEL',
    says: /must be trace, debug, info, warn, error, fatal or silent; got "loud"/,
  },
  {
    name: 'an unknown LOG_FORMAT',
    program: 'serve-api',
    env: () => ({ LOG_FORMAT: 'xml' }),
    setting: 'LOG_FORMAT',
    says: /must be json or pretty/,
  },
  {
    name: 'SERVE_STATIC neither on nor off',
    program: 'start',
    env: () => ({ SERVE_STATIC: 'maybe' }),
    setting: 'SERVE_STATIC',
    says: /must be on or off/,
  },
  {
    name: 'TRUST_PROXY not an address',
    program: 'serve-api',
    env: () => ({ TRUST_PROXY: 'the-proxy' }),
    setting: 'TRUST_PROXY',
    says: /"the-proxy" is none; set it to addresses/,
  },
  {
    name: 'CMS_URL not https for a host other than localhost',
    program: 'start',
    env: () => ({ CMS_URL: 'http://cms.bank.example' }),
    setting: 'CMS_URL',
    says: /must use https .*; set it to the https address/,
  },
  {
    // A wrong AUDIT_KEY alone leaves npm start running without the publishing service.
    name: 'a short CMS_METRICS_TOKEN beside a short AUDIT_KEY',
    program: 'start',
    env: () => ({ CMS_METRICS_TOKEN: 'too-short-a-token', AUDIT_KEY: 'too-short-a-key' }),
    setting: 'CMS_METRICS_TOKEN',
    says: /must be at least 32 characters/,
  },
  {
    name: 'CMS_URL not https, in the cms tool',
    program: 'cms',
    args: ['people'],
    env: () => ({ CMS_URL: 'http://cms.bank.example' }),
    setting: 'CMS_URL',
    says: /must use https/,
  },
  {
    name: 'PUBLISHING_PUSH neither on nor off',
    program: 'serve-cms',
    env: () => ({ PUBLISHING_PUSH: 'yes' }),
    setting: 'PUBLISHING_PUSH',
    says: /must be on or off/,
  },
  {
    name: 'OIDC_ISSUER without OIDC_CLIENT_ID',
    program: 'start',
    env: () => ({ OIDC_ISSUER: 'https://login.bank.example' }),
    setting: 'OIDC_CLIENT_ID',
    says: /is not set, and OIDC_ISSUER needs it/,
  },
  {
    name: 'OIDC_ISSUER without OIDC_ROLE_MAP',
    program: 'serve-cms',
    env: () => ({ OIDC_ISSUER: 'https://login.bank.example', OIDC_CLIENT_ID: 'cms' }),
    setting: 'OIDC_ROLE_MAP',
    says: /is not set, and OIDC_ISSUER needs it/,
  },
  {
    name: 'OIDC_CLIENT_ID without OIDC_ISSUER',
    program: 'serve-cms',
    env: () => ({ OIDC_CLIENT_ID: 'cms', OIDC_CLIENT_SECRET: SECRET }),
    setting: 'OIDC_ISSUER',
    says: /is not set, but OIDC_CLIENT_ID is/,
    never: SECRET,
  },
  {
    name: 'an OIDC_ISSUER over http',
    program: 'serve-cms',
    env: () => ({
      OIDC_ISSUER: 'http://login.bank.example',
      OIDC_CLIENT_ID: 'cms',
      OIDC_ROLE_MAP: 'g=author',
    }),
    setting: 'OIDC_ISSUER',
    says: /must use https/,
  },
  {
    name: 'a malformed SMTP_URL',
    program: 'start',
    env: () => ({ SMTP_URL: `smtp.bank.example:user:${SECRET}` }),
    setting: 'SMTP_URL',
    says: /is not an SMTP URL .*; set it to one such as smtps:/,
    never: SECRET,
  },
  {
    name: 'a malformed SMTP_URL, publishing service alone',
    program: 'serve-cms',
    env: () => ({ SMTP_URL: `http://user:${SECRET}@smtp.bank.example` }),
    setting: 'SMTP_URL',
    says: /is not an SMTP URL/,
    never: SECRET,
  },
  {
    name: 'MAIL_FROM without an address',
    program: 'serve-api',
    env: () => ({ MAIL_FROM: 'Lumora Bank' }),
    setting: 'MAIL_FROM',
    says: /must be an e-mail address/,
  },
  {
    name: 'SITE_URL not a URL',
    program: 'build',
    env: () => ({ SITE_URL: 'www.bank.example' }),
    setting: 'SITE_URL',
    says: /must be an absolute URL; got "www.bank.example"; set it to one such as https:/,
  },
  {
    name: 'a tracker ID of the wrong shape',
    program: 'build',
    env: () => ({ GTM_ID: 'UA-1234' }),
    setting: 'GTM_ID',
    says: /must be a tag manager container such as GTM-ABC1234; got "UA-1234"/,
  },
  {
    name: 'SERVICE_WORKER neither on nor off',
    program: 'build',
    env: () => ({ SERVICE_WORKER: 'no' }),
    setting: 'SERVICE_WORKER',
    says: /must be on or off/,
  },
  {
    name: 'SITE_URL not a URL, in nginx-config',
    program: 'nginx-config',
    env: () => ({ SITE_URL: 'bank' }),
    setting: 'SITE_URL',
    says: /must be an absolute URL/,
  },

  // The database.
  {
    name: 'a DATABASE_URL not a PostgreSQL URL',
    program: 'start',
    env: () => ({ DATABASE_URL: `mysql://forms:${SECRET}@127.0.0.1/forms` }),
    setting: 'DATABASE_URL',
    says: /is not a PostgreSQL URL .*; set it to one such as postgres:/,
    never: SECRET,
  },
  {
    name: 'a DATABASE_OWNER_URL not a PostgreSQL URL',
    program: 'serve-api',
    env: () => ({
      DATABASE_URL: 'postgres://forms@127.0.0.1/forms',
      DATABASE_OWNER_URL: `owner:${SECRET}@127.0.0.1`,
    }),
    setting: 'DATABASE_OWNER_URL',
    says: /is not a PostgreSQL URL/,
    never: SECRET,
  },
  {
    name: 'a DATABASE_OWNER_URL without DATABASE_URL',
    program: 'serve-cms',
    env: () => ({ DATABASE_OWNER_URL: `postgres://owner:${SECRET}@127.0.0.1/forms` }),
    setting: 'DATABASE_OWNER_URL',
    says: /DATABASE_URL does not name; set DATABASE_URL too/,
    never: SECRET,
  },
  {
    name: 'a PostgreSQL that refuses connections',
    program: 'start',
    env: () => ({ DATABASE_URL: `postgres://forms:${SECRET}@127.0.0.1:${closedPort}/forms` }),
    setting: 'DATABASE_URL',
    says: /cannot reach PostgreSQL at 127\.0\.0\.1:\d+ \(connection refused/,
    never: SECRET,
  },
  {
    name: 'a PostgreSQL that refuses connections, publishing service alone',
    program: 'serve-cms',
    env: () => ({ DATABASE_URL: `postgres://forms:${SECRET}@127.0.0.1:${closedPort}/forms` }),
    setting: 'DATABASE_URL',
    says: /cannot reach PostgreSQL at 127\.0\.0\.1:\d+/,
    never: SECRET,
  },
  {
    name: 'a PostgreSQL that refuses connections, in the forms tool',
    program: 'forms',
    args: ['export', 'subscribers'],
    env: () => ({ DATABASE_URL: `postgres://forms:${SECRET}@127.0.0.1:${closedPort}/forms` }),
    setting: 'DATABASE_URL',
    says: /cannot reach PostgreSQL at 127\.0\.0\.1:\d+/,
    never: SECRET,
  },
  {
    name: "a PostgreSQL owner's that refuses connections, in cms migrate",
    program: 'cms',
    args: ['migrate'],
    env: () => ({
      DATABASE_URL: `postgres://forms:${SECRET}@127.0.0.1:${closedPort}/forms`,
      DATABASE_OWNER_URL: `postgres://owner:${SECRET}@127.0.0.1:${closedPort}/forms`,
    }),
    setting: 'DATABASE_OWNER_URL',
    says: /cannot reach PostgreSQL at 127\.0\.0\.1:\d+/,
    never: SECRET,
  },
  {
    name: 'cms migrate without DATABASE_OWNER_URL',
    program: 'cms',
    args: ['migrate'],
    env: () => ({ DATABASE_URL: `postgres://forms:${SECRET}@127.0.0.1:${closedPort}/forms` }),
    setting: 'DATABASE_OWNER_URL',
    says: /is not set, and migrate needs both/,
    never: SECRET,
  },
  {
    name: 'a wrong password for PostgreSQL',
    program: 'start',
    env: () => ({
      DATABASE_URL: testDatabase((url) => {
        url.password = SECRET
      }),
    }),
    setting: 'DATABASE_URL',
    says: /PostgreSQL at [\w.]+:\d+ refused the password of role "\w+"; set DATABASE_URL with/,
    never: SECRET,
    when: hasPostgres,
  },
  {
    name: 'a role that may not create the tables',
    program: 'serve-api',
    env: () => ({ DATABASE_URL: denied?.urlOf(SERVICE_URL ?? '') ?? '' }),
    setting: 'DATABASE_URL',
    says: /role "\w+" may not create or change the service's tables at [\w.]+:\d+ \(permission denied\); run the migrations as the tables' owner/,
    when: () => hasPostgres() && Boolean(SERVICE_URL),
    // Said by the migrations, which run once the outbox is made.
    late: true,
  },
  {
    name: 'a database PostgreSQL does not have',
    program: 'serve-api',
    env: () => ({
      DATABASE_URL: testDatabase((url) => {
        url.pathname = '/no_such_database'
      }),
    }),
    setting: 'DATABASE_URL',
    says: /PostgreSQL at [\w.]+:\d+ has no database "no_such_database"; create it/,
    when: hasPostgres,
  },

  // Folders that cannot be made or written (a file is where a folder should be).
  {
    name: 'a DATA_DIR that cannot be made',
    program: 'start',
    env: () => ({ DATA_DIR: join(file, 'data') }),
    setting: 'DATA_DIR',
    says: /cannot make .* a file is in its way \(ENOTDIR\); move that file, or set DATA_DIR/,
  },
  {
    name: 'a DATA_DIR that cannot be made, forms service alone',
    program: 'serve-api',
    env: () => ({ DATA_DIR: join(file, 'data') }),
    setting: 'DATA_DIR',
    says: /database folder .*; move that file, or set DATA_DIR .*DATABASE_URL/,
  },
  {
    name: 'a DATA_DIR that cannot be made, publishing service alone',
    program: 'serve-cms',
    env: () => ({ DATA_DIR: join(file, 'data') }),
    setting: 'DATA_DIR',
    says: /the publishing service's folder/,
  },
  {
    name: 'a DATA_DIR that cannot be made, in the forms tool',
    program: 'forms',
    args: ['export', 'subscribers'],
    env: () => ({ DATA_DIR: join(file, 'data') }),
    setting: 'DATA_DIR',
    says: /the forms service's database folder/,
  },
  {
    name: 'a DATA_DIR that cannot be made, in the cms tool',
    program: 'cms',
    args: ['people'],
    env: () => ({ DATA_DIR: join(file, 'data') }),
    setting: 'DATA_DIR',
    says: /the publishing service's database folder/,
  },
  {
    name: 'a RELEASES_DIR that cannot be made',
    program: 'start',
    env: () => ({ RELEASES_DIR: join(file, 'releases') }),
    setting: 'RELEASES_DIR',
    says: /releases folder .*; move that file, or set RELEASES_DIR/,
  },
  {
    name: 'a PUBLISHING_REPO that cannot be made',
    program: 'serve-cms',
    env: () => ({ PUBLISHING_REPO: join(file, 'site.git') }),
    setting: 'PUBLISHING_REPO',
    says: /repository .*; move that file, or set PUBLISHING_REPO/,
  },
  {
    name: 'no PUBLISHING_REPO and no remote to make it from',
    program: 'serve-cms',
    env: () => ({ PUBLISHING_REPO: join(scratch, 'no-repository'), PUBLISHING_REMOTE: 'none' }),
    setting: 'PUBLISHING_REPO',
    says: /there is no repository at .*; set PUBLISHING_REPO/,
  },
  {
    name: 'an OUT_DIR that cannot be made',
    program: 'build',
    env: () => ({ OUT_DIR: join(file, 'dist') }),
    setting: 'OUT_DIR',
    says: /a file is in its way .*; move that file, or set OUT_DIR/,
  },
  {
    name: 'a BUILD_CACHE_DIR that cannot be made',
    program: 'build',
    env: () => ({ BUILD_CACHE_DIR: join(file, 'cache') }),
    setting: 'BUILD_CACHE_DIR',
    says: /the build cache .*; move that file, or set BUILD_CACHE_DIR/,
  },
  {
    name: 'a CONTENT_DIR that is not there',
    program: 'validate',
    env: () => ({ CONTENT_DIR: join(scratch, 'no-content') }),
    setting: 'CONTENT_DIR',
    says: /is not there; set it to the content store/,
  },

  // Ports taken and hosts not this machine's.
  {
    name: 'PORT taken',
    program: 'start',
    env: () => ({ PORT: String(heldPort) }),
    setting: 'PORT',
    says: /^PORT: (\d+) is already in use on 127\.0\.0\.1; stop what holds it or set PORT to a free port$/,
  },
  {
    name: 'PORT taken, forms service alone',
    program: 'serve-api',
    env: () => ({ PORT: String(heldPort) }),
    setting: 'PORT',
    says: /is already in use on 127\.0\.0\.1/,
  },
  {
    name: 'CMS_PORT taken',
    program: 'start',
    env: () => ({ CMS_PORT: String(heldPort) }),
    setting: 'CMS_PORT',
    says: /is already in use on 127\.0\.0\.1; stop what holds it or set CMS_PORT/,
  },
  {
    name: 'METRICS_PORT taken',
    program: 'start',
    env: () => ({ METRICS_PORT: String(heldPort) }),
    setting: 'METRICS_PORT',
    says: /is already in use on 127\.0\.0\.1; stop what holds it or set METRICS_PORT/,
  },
  {
    name: 'CMS_METRICS_PORT taken, publishing service alone',
    program: 'serve-cms',
    env: () => ({ CMS_METRICS_PORT: String(heldPort) }),
    setting: 'CMS_METRICS_PORT',
    says: /is already in use on 127\.0\.0\.1; stop what holds it or set CMS_METRICS_PORT/,
  },
  {
    name: 'PORT and CMS_PORT the same',
    program: 'start',
    env: () => ({ PORT: String(closedPort), CMS_PORT: String(closedPort) }),
    setting: 'CMS_PORT',
    says: /is PORT too; set CMS_PORT to another port/,
  },
  {
    name: 'the dev server’s PORT taken',
    program: 'dev',
    env: () => ({ PORT: String(heldPort) }),
    setting: 'PORT',
    says: /is already in use/,
  },
  {
    name: 'a HOST that is not this machine’s',
    program: 'start',
    // TEST-NET-2, for documentation: no machine's address.
    env: () => ({ HOST: '198.51.100.7' }),
    setting: 'HOST',
    says: /198\.51\.100\.7 is not an address of this machine \(EADDRNOTAVAIL\); set HOST to/,
  },
  {
    name: 'a CMS_HOST that is not this machine’s',
    program: 'serve-cms',
    env: () => ({ CMS_HOST: '198.51.100.7' }),
    setting: 'CMS_HOST',
    says: /is not an address of this machine/,
  },
]

beforeAll(async () => {
  scratch = await temporaryFolder('settings-errors-')
  file = join(scratch, 'a-file')
  await writeFile(file, 'not a folder\n')
  closedPort = await freePort()
  holder = createServer()
  await new Promise<void>((done) => holder?.listen(0, '127.0.0.1', done))
  const address = holder.address()
  heldPort = typeof address === 'object' && address ? address.port : 0
  if (process.env.TEST_DATABASE_URL && SERVICE_URL) {
    denied = await createSchema(process.env.TEST_DATABASE_URL, 'settings_errors')
    const admin = await openDatabase({ url: process.env.TEST_DATABASE_URL, poolSize: 1 })
    const role = decodeURIComponent(new URL(SERVICE_URL).username)
    await admin.query(
      `GRANT USAGE ON SCHEMA ${quoteIdentifier(denied.name)} TO ${quoteIdentifier(role)}`,
    )
    await admin.close()
  }
  // Compiled once (scripts/run.mjs) before the cases run side by side.
  await run('start', [], { PORT: 'warm-up' }, join(scratch, 'warm-up'))
}, 120_000)

afterAll(async () => {
  await new Promise((done) => holder?.close(done))
  await denied?.drop()
  await removeFolder(scratch)
})

describe.concurrent('a wrong setting stops the program with one line and exit code 78', () => {
  for (const [index, testCase] of CASES.entries()) {
    const title = `${testCase.program}: ${testCase.name}`
    if (testCase.when && !testCase.when()) {
      it.skip(title, () => {})
      continue
    }
    it(title, async () => {
      const data = join(scratch, `data-${index}`)
      const result = await run(testCase.program, testCase.args ?? [], testCase.env(), data)
      const lines = result.stderr.split('\n').filter((line) => line !== '')
      const output = `${result.stderr}${result.stdout}`
      expect(lines, output).toHaveLength(1)
      const [line = ''] = lines
      expect(line.startsWith(`${testCase.setting}: `), line).toBe(true)
      expect(line).toMatch(testCase.says)
      expect(output).not.toMatch(/^\s+at /m)
      if (testCase.never) expect(output).not.toContain(testCase.never)
      expect(result.code, output).toBe(CONFIG_EXIT_CODE)
      // Nothing started: nothing said on standard output, no data folder made.
      expect(result.stdout).toBe('')
      const folder = testCase.setting.endsWith('_DIR') || testCase.setting === 'PUBLISHING_REPO'
      if (!folder && !testCase.late) {
        expect(existsSync(data), `${data} was made`).toBe(false)
      }
    }, 90_000)
  }
})

describe('the handler every program runs its main through', () => {
  it('says a SettingError in its line with code 78, anything else with its stack and code 1', () => {
    const wrong = new SettingError('METRICS_TOKEN', 'must be at least\n32 characters', 'set one')
    expect(wrong.message).toBe('METRICS_TOKEN: must be at least 32 characters; set one')
    expect(failureOf(wrong)).toEqual({ output: wrong.message, code: CONFIG_EXIT_CODE })
    const unexpected = new TypeError('x is undefined')
    expect(failureOf(unexpected)).toEqual({ output: unexpected, code: 1 })
    expect(failureOf(unexpected, (error) => (error as Error).message)).toEqual({
      output: 'x is undefined',
      code: 1,
    })
  })
})
