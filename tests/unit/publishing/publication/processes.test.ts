/**
 * Two publishing service processes on one PostgreSQL and one shared data folder, as behind the
 * bank's load balancer, each taking requests over HTTP: what one saves the other sees and
 * approves; two publications pressed at once, one in each process, run one after the other
 * (each on the other's result); a schedule both processes look for fires once. Needs PostgreSQL
 * (`TEST_DATABASE_URL`): PGlite serves one process.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFile, readlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import { openDatabase } from '../../../../src/database/open'
import { ROOT } from '../../../../src/engine/config'
import { readAudit } from '../../../../src/publishing/audit/trail'
import { GitRepository } from '../../../../src/publishing/git/repository'
import { SESSION_COOKIE } from '../../../../src/publishing/http/app'
import { startSession } from '../../../../src/publishing/people/people'
import { MAIN } from '../../../../src/publishing/workflow/drafts'
import { berlinLocal } from '../../../../src/publishing/workflow/schedules'
import { CURRENT } from '../../../../src/shared/release-layout'
import { ada, addPeople, paul, rita } from '../../../support/people'
import { ABOUT } from '../../../support/publishing'
import { createSchema, type Schema } from '../../../support/schema'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const URL_OF_DATABASE = process.env.TEST_DATABASE_URL
/** The address people open: the load balancer's, the same for both processes. */
const CMS_URL = 'http://localhost:18400'
const IMPRINT = 'content/en/pages/imprint.yaml'

let dir: string
let schema: Schema | undefined
let database: Database
const processes: ChildProcess[] = []
const ports: number[] = []
const cookies: Record<string, string> = {}

function startProcess(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/service-process.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  processes.push(child)
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const port = /listening (\d+)/.exec(output)?.[1]
      if (port) resolve(Number(port))
    })
    child.once('exit', (code) => reject(new Error(`the service process stopped (${code})`)))
  })
}

describe.skipIf(!URL_OF_DATABASE)('two service processes on one PostgreSQL', () => {
  beforeAll(async () => {
    const url = URL_OF_DATABASE as string
    dir = await temporaryFolder('publishing-processes-')
    schema = await createSchema(url, 'publishing')
    const remote = await siteRepository(join(dir, 'bank.git'))
    const env = {
      DATA_DIR: join(dir, 'data'),
      PUBLISHING_REMOTE: remote.gitDir,
      DATABASE_URL: schema.url,
      CMS_URL,
      CMS_PORT: '0',
      SCHEDULE_CHECK_SECONDS: '1',
      LOG_LEVEL: 'warn',
    }
    // The first makes the repository and the tables; the second finds them.
    ports.push(await startProcess(env))
    ports.push(await startProcess(env))
    database = await openDatabase({ url, schema: schema.name })
    await addPeople(database, [ada, rita, paul])
    for (const { email } of [ada, rita, paul]) {
      cookies[email] = `${SESSION_COOKIE}=${(await startSession(database, email)).token}`
    }
  }, 120_000)

  afterAll(async () => {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve(undefined)
            child.once('exit', resolve)
            child.kill('SIGTERM')
          }),
      ),
    )
    await database?.close()
    await schema?.drop()
    await removeFolder(dir)
  })

  /** A request to process `index` as `email`, from the editor's page. */
  const send = async (index: number, email: string, path: string, body: object) => {
    const response = await fetch(`http://127.0.0.1:${ports[index]}${path}`, {
      method: 'POST',
      headers: {
        cookie: cookies[email] as string,
        origin: CMS_URL,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const cms = (index: number, email: string, action: string, params: object) =>
    send(index, email, '/api/cms', { action, params: { branch: 'main', ...params } })
  /** The version of each entry's draft last saved: what the editor sends with its decisions. */
  const versions: Record<string, string> = {}
  const saveTitle = async (index: number, path: string, slug: string, title: string) => {
    const text = (await readFile(join(ROOT, path), 'utf8')).replace(
      /^title: .*$/m,
      `title: ${title}`,
    )
    const saved = await cms(index, 'ada@bank.example', 'persistEntry', {
      version: versions[slug] ?? null,
      dataFiles: [
        { path: path.replace(/^content\/en\/pages/, 'content/pages/en'), slug, raw: text },
      ],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true },
    })
    if (typeof saved.body.version === 'string') versions[slug] = saved.body.version
    return saved
  }
  /** Ada moves her draft to review (in the other process), then Rita approves it. */
  const approve = async (index: number, slug: string) => {
    const submitted = await cms(1 - index, 'ada@bank.example', 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug,
      newStatus: 'pending_review',
      version: versions[slug],
    })
    if (submitted.status !== 200) return submitted
    return cms(index, 'rita@bank.example', 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug,
      newStatus: 'pending_publish',
      version: versions[slug],
    })
  }
  const repo = () => new GitRepository({ gitDir: join(dir, 'data', 'publishing', 'site.git') })
  const liveTitle = async (path: string) => {
    const main = (await repo().resolve(MAIN)) as string
    return /^title: (.*)$/m.exec((await repo().readFile(main, path))?.toString() ?? '')?.[1]
  }

  it('shares drafts, and runs two publications pressed at once one after the other', async () => {
    expect((await saveTitle(0, ABOUT, 'about', 'About, from the first')).status).toBe(200)
    expect((await saveTitle(1, IMPRINT, 'imprint', 'Imprint, from the second')).status).toBe(200)
    // Each process sees and approves what the other saved.
    expect((await approve(1, 'about')).status).toBe(200)
    expect((await approve(0, 'imprint')).status).toBe(200)

    const [first, second] = await Promise.all([
      cms(0, 'paul@bank.example', 'publishUnpublishedEntry', {
        collection: 'pages',
        slug: 'about',
        version: versions.about,
      }),
      cms(1, 'paul@bank.example', 'publishUnpublishedEntry', {
        collection: 'pages',
        slug: 'imprint',
        version: versions.imprint,
      }),
    ])
    // Published, the drafts are gone: the next save of each starts from the live entry.
    delete versions.about
    delete versions.imprint
    expect([first.status, second.status]).toEqual([200, 200])
    // Both on main: the second publication took the first's result in.
    expect(await liveTitle(ABOUT)).toBe('About, from the first')
    expect(await liveTitle(IMPRINT)).toBe('Imprint, from the second')
    const published = (await readAudit(database)).filter((entry) => entry.action === 'publish')
    expect(published).toHaveLength(2)
    expect(published[1]?.before).toBe(published[0]?.after)
    // The served release is the last one made.
    const releases = join(dir, 'data', 'releases')
    const [last] = await database.query<{ folder: string }>(
      'SELECT folder FROM releases ORDER BY id DESC LIMIT 1',
    )
    expect(await readlink(join(releases, CURRENT))).toContain(last?.folder)
  })

  it('fires a schedule once, whichever process finds it first', async () => {
    expect((await saveTitle(0, ABOUT, 'about', 'About, on time')).status).toBe(200)
    expect((await approve(1, 'about')).status).toBe(200)
    // Berlin's seconds are UTC's.
    const when = new Date(Date.now() + 2500)
    const at = `${berlinLocal(when)}:${String(when.getUTCSeconds()).padStart(2, '0')}`
    const scheduled = await send(0, 'paul@bank.example', '/api/schedules', {
      draft: 'pages/about',
      at,
    })
    expect(scheduled.status).toBe(200)
    await expect.poll(() => liveTitle(ABOUT), { timeout: 20_000 }).toBe('About, on time')
    // Both processes look every second for a few more rounds: it fired once.
    await new Promise((resolve) => setTimeout(resolve, 3000))
    const fired = (await readAudit(database)).filter((entry) => entry.action === 'schedule-fired')
    expect(fired).toHaveLength(1)
    const [row] = await database.query<{ state: string }>('SELECT state FROM schedules')
    expect(row?.state).toBe('done')
  })
})
