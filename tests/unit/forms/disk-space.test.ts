/**
 * A full disk under the database: every form that cannot be stored is answered 503 with
 * `Retry-After` and the visitor's message that nothing was stored, `/readyz` names the disk,
 * what was stored before is kept (its mail goes out), and the service is itself again once
 * space is freed, without a restart.
 *
 * The disk is real: PGlite's folder on a tmpfs of 96 MiB mounted in a mount namespace of the
 * service's own (`unshare -rm`, no root needed where unprivileged user namespaces are allowed;
 * skipped where they are not), filled by the test through `/proc/<pid>/root`. PostgreSQL's
 * disk_full (53100) is the same error to the service: a store that raises it is tried in
 * tests/unit/http/health.test.ts.
 */
import { spawnSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFileStore } from '../../../src/content/file-store'
import { loadFormsContent } from '../../../src/content/forms'
import type { Database } from '../../../src/database/database'
import { markingErrors } from '../../../src/database/errors'
import { openDatabase } from '../../../src/database/open'
import { DiskSpace, watchingDisk } from '../../../src/forms/disk-space'
import { FORMS_MIGRATIONS } from '../../../src/forms/migrations'
import { FormsStore } from '../../../src/forms/store'
import { healthRoutes } from '../../../src/http/health'
import { createApp } from '../../../src/server/app'
import {
  databases,
  FIXTURE_CONTENT,
  type Inbox,
  type ServerProcess,
  signUp,
  spawnFormsServer,
  startSmtp,
  stopFormsServer,
  until,
} from '../../support/forms'
import { createSchema, type Schema } from '../../support/schema'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** Whether this machine lets an unprivileged process mount a tmpfs of its own. */
function canMountTmpfs(): boolean {
  const tried = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt'], {
    stdio: 'ignore',
  })
  return tried.status === 0
}

describe.skipIf(!canMountTmpfs())('a full disk under PGlite', () => {
  let inbox: Inbox
  let dataDir = ''

  beforeAll(async () => {
    inbox = await startSmtp()
    dataDir = await temporaryFolder('forms-disk-full-')
  })
  afterAll(async () => {
    await inbox.close()
    await removeFolder(dataDir)
  })

  it('answers 503 with Retry-After, says the disk in /readyz, keeps what was stored, and recovers once space is freed', async () => {
    const server: ServerProcess = await spawnFormsServer(
      { DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: inbox.url },
      {
        prefix: [
          'unshare',
          '-rm',
          'sh',
          '-c',
          'mount -t tmpfs -o size=96m tmpfs "$0" && exec "$@"',
          dataDir,
        ],
      },
    )
    // The service's view of its folder: the tmpfs, seen from outside its namespace.
    const disk = `/proc/${server.child.pid}/root${dataDir}`
    const fillers: string[] = []
    const fill = async () => {
      for (const size of [1 << 20, 4096, 512]) {
        try {
          for (;;) {
            const file = join(disk, `filler-${fillers.length}`)
            await writeFile(file, Buffer.alloc(size, 1))
            fillers.push(file)
          }
        } catch (error) {
          expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
        }
      }
    }
    const ready = async () => {
      const answer = await fetch(`${server.origin}/readyz`)
      return { status: answer.status, body: await answer.json() }
    }
    const post = (email: string) =>
      fetch(`${server.origin}/api/forms/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(signUp(email)),
      })
    const accepted: string[] = []
    try {
      expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } })
      expect((await post('before@example.com')).status).toBe(200)
      accepted.push('before@example.com')
      await inbox.waitFor(1, 10_000)

      await fill()
      expect(await ready()).toEqual({
        status: 503,
        body: { status: 'unavailable', failing: ['disk'] },
      })
      const refused: Response[] = []
      for (let n = 0; n < 200 && refused.length < 3; n++) {
        const answer = await post(`full${n}@example.com`)
        expect([200, 503], `full${n}`).toContain(answer.status)
        if (answer.status === 503) refused.push(answer)
        else accepted.push(`full${n}@example.com`)
      }
      expect(refused.length).toBeGreaterThan(0)
      for (const answer of refused) {
        expect(answer.headers.get('retry-after')).toBe('300')
        expect(await answer.json()).toEqual({ ok: false, reason: 'unavailable' })
      }

      // Space freed: the next sign-up is stored, and the service is ready again.
      for (const file of fillers.splice(0)) await removeFolder(file)
      expect((await post('after@example.com')).status).toBe(200)
      accepted.push('after@example.com')
      expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } })
      // Every sign-up answered 200 was kept: its mail goes out (a mail whose sending met the
      // full disk waits for its retry: up to half a minute on a loaded machine).
      await until(
        async () => accepted.every((email) => inbox.countByRecipient().has(email)),
        45_000,
      )
    } finally {
      expect(await stopFormsServer(server)).toBe(0)
    }
  }, 90_000)
})

describe.each(databases())('disk_full (53100) from the database, on $name', (database) => {
  let schema: Schema | undefined
  let real: Database
  let app: Awaited<ReturnType<typeof createApp>>
  // The database's disk is full while this is set: every statement fails as PostgreSQL's do.
  let full = false

  beforeAll(async () => {
    schema = database.url ? await createSchema(database.url, 'diskfull') : undefined
    real = await openDatabase({
      url: schema?.url,
      ...(schema ? { schema: schema.name } : {}),
      migrations: FORMS_MIGRATIONS,
    })
    const failing = markingErrors({
      kind: real.kind,
      query<Row>(sql: string, params?: readonly unknown[]) {
        if (full) {
          const error = new Error(
            'could not extend file "base/16384/16421": No space left on device',
          )
          return Promise.reject(Object.assign(error, { code: '53100', severity: 'ERROR' }))
        }
        return real.query<Row>(sql, params)
      },
      transaction: (work) => real.transaction(work),
      close: async () => {},
    })
    const disk = new DiskSpace()
    const { forms } = await loadFormsContent(createFileStore(FIXTURE_CONTENT))
    app = await createApp({
      logLevel: 'silent',
      forms: {
        store: new FormsStore(watchingDisk(failing, disk)),
        forms,
        siteUrl: 'https://www.lumora-bank.example',
        rateLimit: false,
        diskSpace: disk,
      },
    })
    await app.register(healthRoutes, {
      checks: [
        { name: 'database', check: () => real.query('SELECT 1') },
        { name: 'disk', check: () => disk.ready() },
      ],
    })
  }, 30_000)
  afterAll(async () => {
    await app?.close()
    await real?.close()
    await schema?.drop()
  })

  const post = (email: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(signUp(email)),
    })
  const ready = async () => {
    const answer = await app.inject({ url: '/readyz' })
    return { status: answer.statusCode, body: answer.json() as unknown }
  }

  it('answers 503 with Retry-After in the visitor’s language, names the disk, and recovers', async () => {
    expect((await post('kept@example.com')).statusCode).toBe(200)
    full = true
    const refused = await post('lost@example.com')
    expect(refused.statusCode).toBe(503)
    expect(refused.headers['retry-after']).toBe('300')
    expect(refused.json()).toEqual({ ok: false, reason: 'unavailable' })
    const page = await app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({
        email: 'seite@example.com',
        topics: 'services',
        consent: 'yes',
        version: 'v1',
        language: 'de',
      }).toString(),
    })
    expect(page.statusCode).toBe(503)
    expect(page.headers['retry-after']).toBe('300')
    expect(page.body).toContain(
      'Der Dienst ist gerade nicht erreichbar; es wurde nichts gespeichert.',
    )
    expect(await ready()).toEqual({
      status: 503,
      body: { status: 'unavailable', failing: ['disk'] },
    })
    full = false
    const emails = await real.query<{ email: string }>('SELECT email FROM subscribers')
    expect(emails.map((row) => row.email)).toEqual(['kept@example.com'])
    // Space freed: the next form is stored, and the service is ready at once.
    expect((await post('later@example.com')).statusCode).toBe(200)
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } })
  })
})
