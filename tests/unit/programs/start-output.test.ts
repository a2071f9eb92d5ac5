/**
 * What `npm start` (`scripts/run.mjs start`) prints: for a person (`LOG_FORMAT=pretty`, as on a
 * terminal) one plain line per address, the site's, the publishing service's and the first
 * administrator's link, and log lines a person reads that hold no more of a visitor than the
 * JSON ones; for anything else (a pipe, as here without `LOG_FORMAT`) JSON lines as before.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { inputHash, writeStamp } from '../../../src/engine/cache/stamp'
import { ROOT, readBuildConfig } from '../../../src/engine/config'
import { signUp } from '../../support/forms'
import { freePorts } from '../../support/free-port'
import { siteRepository } from '../../support/site-repository'

let dir: string
let env: NodeJS.ProcessEnv

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'start-output-'))
  const remote = await siteRepository(join(dir, 'bank.git'))
  env = {
    ...process.env,
    NODE_ENV: 'production',
    OUT_DIR: join(dir, 'dist'),
    BUILD_CACHE_DIR: join(dir, 'cache'),
    PUBLISHING_REMOTE: remote.gitDir,
    DATABASE_URL: '',
    SMTP_URL: '',
    PORT: '0',
    HOST: '127.0.0.1',
    CMS_PORT: '0',
    LOG_LEVEL: 'info',
    // The visitor's address as a proxy in front forwards it.
    TRUST_PROXY: 'true',
  }
  // A dist/ up to date with this checkout: npm start serves it without building.
  const config = readBuildConfig(env)
  await mkdir(config.outDir, { recursive: true })
  await writeFile(join(config.outDir, 'index.html'), '<!doctype html><title>site</title>')
  await mkdir(config.cacheDir, { recursive: true })
  await writeStamp(config, await inputHash(config))
}, 60_000)

afterAll(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 10 })
})

/** The consent version of the site's own newsletter form, as its page sends it. */
const newsletterVersion = async () =>
  (
    parse(await readFile(join(ROOT, 'content/forms/lists/newsletter.yaml'), 'utf8')) as {
      consentVersion: string
    }
  ).consentVersion

/** The plain line that gives the site's address; the sign of a complete start. */
const SITE_LINE = /^Public site: (http:\/\/127\.0\.0\.1:\d+)\/$/m

/**
 * Runs npm start with `extra` settings until `ready` finds the site's address in its output,
 * signs a visitor up through a proxy (address, e-mail, a token in the query), stops it with
 * SIGTERM and resolves with all it printed.
 */
async function startAndSignUp(
  extra: NodeJS.ProcessEnv,
  ready: (output: string) => string | undefined,
  /** Run after the sign-up, before the stop. */
  then: () => Promise<void> = async () => {},
): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, ['scripts/run.mjs', 'start'], {
    cwd: ROOT,
    env: { ...env, DATA_DIR: join(dir, `data-${extra.LOG_FORMAT ?? 'default'}`), ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<number | null>((done) => child.once('exit', done))
  try {
    const origin = await new Promise<string>((done, fail) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString()
        const found = ready(output)
        if (found) done(found)
      })
      child.once('exit', (code) => fail(new Error(`npm start exited (${code}):\n${output}`)))
    })
    const response = await fetch(`${origin}/api/forms/newsletter?token=secret-token-4711`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      body: JSON.stringify(
        signUp('secret.person@example.com', { version: await newsletterVersion() }),
      ),
    })
    expect(response.status).toBe(200)
    await then()
  } finally {
    child.kill('SIGTERM')
  }
  expect(await exited).toBe(0)
  return output
}

/** What no log line may hold: the visitor's e-mail, address, or the query's token. */
function expectNoVisitorData(output: string) {
  expect(output).not.toContain('secret.person')
  expect(output).not.toContain('203.0.113.7')
  expect(output).not.toContain('secret-token-4711')
}

describe('npm start', () => {
  it('prints each address on a plain line and log lines a person reads, for a person', async () => {
    const output = await startAndSignUp(
      { LOG_FORMAT: 'pretty' },
      (text) => SITE_LINE.exec(text)?.[1],
    )
    const lines = output.split('\n')
    const site = lines.findIndex((line) => SITE_LINE.test(line))
    // The addresses together, the site's first, each a line of its own.
    const editors =
      /^Publishing service \(the editors' sign-in and editor\): (http:\/\/localhost:\d+)\/$/.exec(
        lines[site + 1] ?? '',
      )?.[1]
    expect(editors, output).toBeDefined()
    expect(editors).not.toBe('http://localhost:0')
    // On the port the publishing service bound (CMS_PORT=0 takes any).
    expect(lines[site + 2]).toMatch(
      new RegExp(
        `^First administrator: open ${editors}/invitation#[\\w-]+ \\(once, within 72 hours\\) and create your passkey\\.$`,
      ),
    )
    // Log lines for a person: time, level and message, no JSON line.
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: forms service ready \{"database":"pglite",/m)
    expect(output).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: incoming request \{.*"req":\{"method":"POST","path":"\/api\/forms\/newsletter"\}\}$/m,
    )
    expect(output).toMatch(/INFO: shutting down/)
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([])
    expectNoVisitorData(output)
  }, 120_000)

  it('prints JSON log lines as before when its output is not a terminal', async () => {
    const output = await startAndSignUp(
      {},
      // The site listens after its forms service is ready (the publishing service before).
      (text) =>
        /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(
          text.split('forms service ready')[1] ?? '',
        )?.[1],
    )
    expect(output).not.toMatch(SITE_LINE)
    const logLines = output.split('\n').filter((line) => line.startsWith('{'))
    const messages = logLines.map((line) => (JSON.parse(line) as { msg: string }).msg)
    expect(messages).toContain('forms service ready')
    expect(messages).toContain('shutting down')
    expect(output).toContain('"path":"/api/forms/newsletter"')
    // The publishing service's two lines, printed as they come, as before.
    expect(output).toMatch(/^Publishing service \(the editors' sign-in and editor\): /m)
    expect(output).toMatch(/^First administrator: open http:\/\/localhost:\d+\/invitation#/m)
    expectNoVisitorData(output)
  }, 120_000)

  it('serves the site without the publishing service when the audit key is wrong or missing, naming the setting', async () => {
    const data = { LOG_FORMAT: 'pretty', DATA_DIR: join(dir, 'data-keyed') }
    const keyed = await startAndSignUp(
      { ...data, AUDIT_KEY: 'the bank’s first audit key from its vault' },
      (text) => SITE_LINE.exec(text)?.[1],
    )
    expect(keyed).toMatch(/^Publishing service \(the editors' sign-in and editor\): /m)
    for (const [key, said] of [
      ['another key of 32 characters or more not the first', /^AUDIT_KEY: does not hold the key/m],
      [
        '',
        /^AUDIT_KEY: is not set, and the audit trail is keyed from an AUDIT_KEY .*; set AUDIT_KEY to that key/m,
      ],
      ['too short', /^AUDIT_KEY: must be a key of 32 characters at least; /m],
    ] as const) {
      // The public site starts, and its forms service takes a sign-up (startAndSignUp).
      const output = await startAndSignUp(
        { ...data, AUDIT_KEY: key },
        (text) => SITE_LINE.exec(text)?.[1],
      )
      expect(output).not.toMatch(/^Publishing service \(the editors' sign-in and editor\): /m)
      expect(output).toMatch(said)
      // One line, with what goes on without it.
      expect(output).toMatch(
        /^AUDIT_KEY: .*\(the publishing service did not start; the public site and the forms service run without it\)$/m,
      )
    }
  }, 240_000)

  it('serves each service’s metrics on a listener of its own when asked to, and stops them with it', async () => {
    const [sitePort, cmsPort] = await freePorts(2)
    const scrape = async (port: number | undefined) =>
      (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
    let site = ''
    let publishing = ''
    const output = await startAndSignUp(
      {
        LOG_FORMAT: 'pretty',
        DATA_DIR: join(dir, 'data-metrics'),
        METRICS_PORT: String(sitePort),
        CMS_METRICS_PORT: String(cmsPort),
      },
      (text) => SITE_LINE.exec(text)?.[1],
      async () => {
        site = await scrape(sitePort)
        publishing = await scrape(cmsPort)
      },
    )
    expect(site).toMatch(
      /^forms_submissions_total\{form="newsletter",result="accepted",service="site"\} 1$/m,
    )
    expect(site).not.toContain('service="publishing"')
    expect(publishing).toMatch(/^publishing_audit_entries\{service="publishing"\} \d+$/m)
    expect(publishing).not.toContain('service="site"')
    expect(output).toMatch(/metrics served for Prometheus/)
    // Gone with the process.
    await expect(scrape(sitePort)).rejects.toThrow()
    expectNoVisitorData(output)
  }, 120_000)
})
