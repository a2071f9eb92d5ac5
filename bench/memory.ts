/**
 * Memory of the running services, each role alone in a process of its own as production runs
 * it (docs/deploying.md, deploy/kubernetes/): `node scripts/run.mjs <role>` with the programs
 * compiled before, the settings its manifest gives it, and the Node.js options of its manifest
 * (`NODE_OPTIONS`: the V8 heap it is given), on PostgreSQL (a schema each, dropped after) and
 * sending mail to an SMTP sink.
 *
 * - The public site with the forms service (`start` with `PUBLISHING=off`), serving a release
 *   of the real site: idle after its start, then under load (every page and page data at 50
 *   connections, newsletter sign-ups at 10, for `LOAD_SECONDS`), its peak, and after the load.
 *   Then once more without a release, as a replica that finds none builds the site at its start
 *   (from an empty build cache, the bundles made): the peak of that start, and idle after it.
 * - The publishing service (`serve-cms`), on a repository made from this checkout: the peak of
 *   its start (the first release built), idle after it (and after that release's compressed
 *   twins, written in the background), then after each of `publications` publications through
 *   its HTTP API (an author's change, moved to review, approved by a reviewer, which builds the
 *   release ahead, published by a publisher: `bench/publish.ts`'s steps), and their peak.
 *
 * Memory is the resident set (VmRSS) of the process and of every process under it (a build's,
 * git's), summed in MiB, sampled every 100 ms from the role's start; a figure "after" something is the
 * median of a second's samples after a pause (`SETTLE_MS`).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import autocannon from 'autocannon'
import { parseAllDocuments } from 'yaml'
import { openDatabase } from '../src/database/open'
import { SESSION_COOKIE } from '../src/publishing/http/app'
import { startSession } from '../src/publishing/people/people'
import { freePort } from '../tests/support/free-port'
import { ada, addPeople, paul, rita } from '../tests/support/people'
import { LEFT_OUT as TESTS_LEFT_OUT } from '../tests/support/programs'
import { createSchema } from '../tests/support/schema'
import { siteRepository } from '../tests/support/site-repository'
import { removeFolder, temporaryFolder } from '../tests/support/temporary-folder'
import { startSink } from './forms'

const ROOT = resolve(import.meta.dirname, '..')

/** What the issue asks: the site role under 200 MiB, the publishing service under 600 MiB. */
export const MEMORY_TARGETS = { siteMb: 200, publishingMb: 600, growth: 1.1 } as const

const SAMPLE_MS = 100
/** The pause before a figure "after" something, then a second of samples. */
const SETTLE_MS = 2000
const LOAD_SECONDS = 10

export interface SiteMemory {
  database: 'postgresql' | 'pglite'
  /** `NODE_OPTIONS` of its manifest, as it ran. */
  nodeOptions: string
  idleMb: number
  /** The median of the samples under load, and their highest. */
  loadMb: number
  peakMb: number
  afterMb: number
  pages: number
  requestsPerSecond: number
  signUpsPerSecond: number
  errors: number
  /** Started without a release: the peak of its start (its build), and idle after. */
  buildStartPeakMb: number
  buildStartIdleMb: number
}

export interface PublishingMemory {
  nodeOptions: string
  /** The peak of its start, which builds the first release. */
  startPeakMb: number
  idleMb: number
  /** After each publication, in order. */
  afterMb: number[]
  /** The peak over the publications. */
  peakMb: number
  /** After the last publication over the highest after the second to the fifth. */
  growth: number
  /** Publish pressed to its answer (the release live), each publication. */
  publicationMs: number[]
}

/** The processes under `root` (itself included), from every process's parent in /proc. */
async function processTree(root: number): Promise<number[]> {
  const children = new Map<number, number[]>()
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '')
    // `pid (comm) state ppid …`: the command may hold spaces and parentheses.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    if (!Number.isInteger(parent)) continue
    children.set(parent, [...(children.get(parent) ?? []), Number(name)])
  }
  const tree = [root]
  for (let index = 0; index < tree.length; index += 1) {
    tree.push(...(children.get(tree[index] ?? 0) ?? []))
  }
  return tree
}

/** VmRSS of /proc/<pid>/status in kB (0 once the process is gone). */
async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0)
}

async function treeRssMb(root: number): Promise<number> {
  const sizes = await Promise.all((await processTree(root)).map(rssKb))
  return sizes.reduce((sum, kb) => sum + kb, 0) / 1024
}

const pause = (ms: number) => new Promise((wake) => setTimeout(wake, ms))
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/** Samples the tree under `pid` every 100 ms until stopped. */
function sampler(pid: number) {
  const samples: { at: number; mb: number }[] = []
  let running = true
  const done = (async () => {
    while (running) {
      const at = performance.now()
      const mb = await treeRssMb(pid)
      if (mb > 0) samples.push({ at, mb })
      await pause(Math.max(0, SAMPLE_MS - (performance.now() - at)))
    }
  })()
  const since = (from: number) =>
    samples.filter((sample) => sample.at >= from).map((sample) => sample.mb)
  return {
    /** The highest sample since `from` (the start by default). */
    peak: (from = 0) => Math.round(Math.max(0, ...since(from))),
    /** The median of the samples since `from`. */
    median: (from: number) => Math.round(median(since(from))),
    /** Waits `SETTLE_MS`, then returns the median of the next second's samples. */
    async settled() {
      await pause(SETTLE_MS)
      const from = performance.now()
      await pause(1000)
      return Math.round(median(since(from)))
    },
    async stop() {
      running = false
      await done
    },
  }
}

/**
 * Settings of the bench's own environment that no role started here may inherit: the tests'
 * (`tests/support/programs.ts`), and where a role keeps its releases, builds and heap.
 */
const LEFT_OUT = [...TESTS_LEFT_OUT, 'RELEASES_DIR', 'OUT_DIR', 'BUILD_CACHE_DIR', 'NODE_OPTIONS']

/** `NODE_OPTIONS` of the Deployment in `deploy/kubernetes/<file>`, or none. */
export async function manifestNodeOptions(file: string): Promise<string> {
  const text = await readFile(join(ROOT, 'deploy', 'kubernetes', file), 'utf8')
  for (const document of parseAllDocuments(text)) {
    const object = document.toJS() as {
      kind?: string
      spec?: {
        template?: { spec?: { containers?: { env?: { name: string; value?: string }[] }[] } }
      }
    }
    if (object?.kind !== 'Deployment') continue
    const env = object.spec?.template?.spec?.containers?.[0]?.env ?? []
    return env.find((entry) => entry.name === 'NODE_OPTIONS')?.value ?? ''
  }
  return ''
}

/**
 * `node scripts/run.mjs <program>` with `env`, its memory sampled from its start; resolves
 * once `health` answers 200 (two minutes at most).
 */
async function startRole(program: string, env: NodeJS.ProcessEnv, health: string) {
  const base: NodeJS.ProcessEnv = { ...process.env }
  for (const name of LEFT_OUT) delete base[name]
  const child = spawn(process.execPath, ['scripts/run.mjs', program], {
    cwd: ROOT,
    env: { ...base, NODE_ENV: 'production', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const memory = sampler(child.pid ?? 0)
  // The last lines, for a failure's message; the rest is read and dropped.
  const lines: string[] = []
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean))
    lines.splice(0, Math.max(0, lines.length - 200))
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<void>((done) => child.once('exit', () => done()))
  const role = {
    memory,
    lines,
    async stop() {
      await memory.stop()
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await memory.stop()
      throw new Error(`${program} stopped before it was ready:\n${lines.join('\n')}`)
    }
    const healthy = await fetch(health).then(
      (response) => response.ok,
      () => false,
    )
    if (healthy) return role
    if (Date.now() > deadline) {
      await role.stop()
      throw new Error(`${program} was not ready within two minutes:\n${lines.join('\n')}`)
    }
    await pause(100)
  }
}

/** The PostgreSQL of the bench, or none (PGlite). */
const databaseUrl = () => process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL

/** The site's pages and their page data, as paths. */
async function sitePaths(site: string): Promise<string[]> {
  const files = await readdir(site, { recursive: true })
  return files
    .map((file) => `/${relative(site, join(site, file)).split('\\').join('/')}`)
    .filter((path) => path.endsWith('/index.html') || path.endsWith('/page-data.json'))
    .map((path) => path.replace(/index\.html$/, ''))
    .sort()
}

/** A newsletter sign-up's body, a new address each, with the consent the real form shows. */
async function signUps(): Promise<() => string> {
  const list = await readFile(join(ROOT, 'content/forms/lists/newsletter.yaml'), 'utf8')
  const version = /^consentVersion: "?([^"\n]+)"?$/m.exec(list)?.[1] ?? ''
  let counter = 0
  return () =>
    JSON.stringify({
      email: `memory${counter++}@example.com`,
      topics: ['services'],
      consent: 'yes',
      version,
      language: 'en',
    })
}

/** The site role: on a release of `dist` (the real site, built) under load, then without one. */
export async function siteMemory(dist: string): Promise<SiteMemory> {
  const dir = await temporaryFolder('bench-memory-site-')
  const url = databaseUrl()
  const schema = url ? await createSchema(url, 'bench_memory') : undefined
  const sink = await startSink()
  const nodeOptions = await manifestNodeOptions('site.yaml')
  // A release as the publishing service leaves it: a folder, and `current` linked to it.
  const releases = join(dir, 'releases')
  await mkdir(releases)
  await cp(dist, join(releases, 'release-1'), { recursive: true })
  await symlink('release-1', join(releases, 'current'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const envOf = (name: string, releasesDir: string): NodeJS.ProcessEnv => ({
    PUBLISHING: 'off',
    PORT: String(port),
    HOST: '127.0.0.1',
    RELEASES_DIR: releasesDir,
    OUT_DIR: join(dir, name, 'site'),
    BUILD_CACHE_DIR: join(dir, name, 'cache'),
    DATA_DIR: join(dir, name, 'data'),
    DATABASE_URL: schema?.url ?? '',
    SMTP_URL: sink.url,
    // Every sign-up of the load is taken and mailed (one client sends them all).
    FORMS_RATE_LIMIT: '0',
    CONFIRMATION_MAILS_PER_HOUR: '0',
    NODE_OPTIONS: nodeOptions,
  })
  let role: Awaited<ReturnType<typeof startRole>> | undefined
  try {
    role = await startRole('start', envOf('served', releases), `${origin}/healthz`)
    const { memory } = role
    const idleMb = await memory.settled()
    const paths = await sitePaths(join(releases, 'release-1'))
    const signUp = await signUps()
    const first = await fetch(`${origin}/api/forms/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: signUp(),
    })
    if (!first.ok) throw new Error(`a sign-up was refused: ${first.status} ${await first.text()}`)
    const loadStart = performance.now()
    const [pages, forms] = await Promise.all([
      autocannon({
        url: origin,
        connections: 50,
        duration: LOAD_SECONDS,
        headers: { 'accept-encoding': 'br, gzip' },
        requests: paths.map((path) => ({ method: 'GET' as const, path })),
      }),
      autocannon({
        url: `${origin}/api/forms/newsletter`,
        connections: 10,
        duration: LOAD_SECONDS,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: signUp() }),
          },
        ],
      }),
    ])
    const loadMb = memory.median(loadStart)
    const peakMb = memory.peak(loadStart)
    const afterMb = await memory.settled()
    await role.stop()
    // A replica that finds no release builds the site before it serves.
    role = await startRole('start', envOf('built', join(dir, 'none')), `${origin}/healthz`)
    const buildStartPeakMb = role.memory.peak()
    const buildStartIdleMb = await role.memory.settled()
    return {
      database: schema ? 'postgresql' : 'pglite',
      nodeOptions,
      idleMb,
      loadMb,
      peakMb,
      afterMb,
      pages: paths.length,
      requestsPerSecond: Math.round(pages.requests.average),
      signUpsPerSecond: Math.round(forms.requests.average),
      errors: pages.errors + pages.non2xx + forms.errors + forms.non2xx,
      buildStartPeakMb,
      buildStartIdleMb,
    }
  } finally {
    await role?.stop()
    await sink.close()
    await schema?.drop()
    await removeFolder(dir)
  }
}

/**
 * The publishing service alone: its start, idle after it, and after each of `publications`
 * publications. Needs PostgreSQL (the bench signs its people in through the service's
 * database): says why it did not run without.
 */
export async function publishingMemory(publications: number): Promise<PublishingMemory | string> {
  const url = databaseUrl()
  if (!url) return 'set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server'
  const dir = await temporaryFolder('bench-memory-publishing-')
  const schema = await createSchema(url, 'bench_memory')
  const sink = await startSink()
  const nodeOptions = await manifestNodeOptions('publishing.yaml')
  const remote = await siteRepository(join(dir, 'bank.git'))
  const port = await freePort()
  const cmsUrl = `http://localhost:${port}`
  const origin = `http://127.0.0.1:${port}`
  const dataDir = join(dir, 'data')
  let role: Awaited<ReturnType<typeof startRole>> | undefined
  try {
    const started = performance.now()
    role = await startRole(
      'serve-cms',
      {
        CMS_PORT: String(port),
        CMS_HOST: '127.0.0.1',
        CMS_URL: cmsUrl,
        DATA_DIR: dataDir,
        OUT_DIR: join(dir, 'site'),
        BUILD_CACHE_DIR: join(dir, 'cache'),
        PUBLISHING_REMOTE: remote.gitDir,
        DATABASE_URL: schema.url,
        SMTP_URL: sink.url,
        AUDIT_KEY: randomBytes(24).toString('hex'),
        NODE_OPTIONS: nodeOptions,
      },
      `${origin}/healthz`,
    )
    const { memory } = role
    // Its start builds the first release in the background: idle once it is served.
    const served = () =>
      readFile(join(dataDir, 'releases', 'current', 'index.html')).then(
        () => true,
        () => false,
      )
    while (!(await served())) {
      if (performance.now() - started > 120_000) {
        throw new Error(`no first release within two minutes:\n${role.lines.join('\n')}`)
      }
      await pause(100)
    }
    // The first release's compressed twins (all of it, Brotli 11: some 10 s of CPU) are written
    // in the background after it is served: idle once that pass is done too.
    const twinsDone = () => role?.lines.some((line) => line.includes('compressed twins written'))
    while (!twinsDone() && performance.now() - started < 240_000) await pause(100)
    const idleMb = await memory.settled()
    const startPeakMb = memory.peak()
    const database = await openDatabase({ url: schema.url, poolSize: 1 })
    const cookies: Record<string, string> = {}
    try {
      await addPeople(database, [ada, rita, paul])
      for (const { email, roles } of [ada, rita, paul]) {
        cookies[roles[0] ?? ''] = `${SESSION_COOKIE}=${(await startSession(database, email)).token}`
      }
    } finally {
      await database.close()
    }
    const call = async (as: string, action: string, params: Record<string, unknown>) => {
      const response = await fetch(`${origin}/api/cms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookies[as] ?? '', origin: cmsUrl },
        body: JSON.stringify({ action, params: { branch: 'main', ...params } }),
      })
      if (!response.ok) throw new Error(`${action}: ${response.status} ${await response.text()}`)
      return response.json()
    }
    const english = await readFile(join(ROOT, 'content/en/pages/about.yaml'), 'utf8')
    const german = await readFile(join(ROOT, 'content/de/pages/about.yaml'), 'utf8')
    const entry = { collection: 'pages', slug: 'about' }
    const afterMb: number[] = []
    const publicationMs: number[] = []
    const publishing = performance.now()
    for (let run = 1; run <= publications; run += 1) {
      const { version } = (await call('author', 'persistEntry', {
        version: null,
        dataFiles: [
          {
            path: 'content/pages/en/about.yaml',
            slug: 'about',
            raw: english.replace(/^title: .*$/m, `title: Memory ${run}`),
          },
          { path: 'content/pages/de/about.yaml', slug: 'about', raw: german },
        ],
        assets: [],
        options: { collectionName: 'pages', useWorkflow: true, status: 'draft' },
      })) as { version: string }
      const status = (newStatus: string) => ({ ...entry, newStatus, version })
      await call('author', 'updateUnpublishedEntryStatus', status('pending_review'))
      await call('reviewer', 'updateUnpublishedEntryStatus', status('pending_publish'))
      const pressed = performance.now()
      await call('publisher', 'publishUnpublishedEntry', { ...entry, version })
      publicationMs.push(Math.round(performance.now() - pressed))
      afterMb.push(await memory.settled())
    }
    const early = Math.max(...afterMb.slice(1, 5))
    return {
      nodeOptions,
      startPeakMb,
      idleMb,
      afterMb,
      peakMb: memory.peak(publishing),
      growth: Math.round(((afterMb.at(-1) ?? Number.NaN) / early) * 100) / 100,
      publicationMs,
    }
  } finally {
    await role?.stop()
    await sink.close()
    await schema.drop()
    await removeFolder(dir)
  }
}

export const formatSiteMemory = (figures: SiteMemory) =>
  `site role (start, PUBLISHING=off, ${figures.database}, NODE_OPTIONS=${figures.nodeOptions || '(none)'}): idle ${figures.idleMb} MiB; under load ${figures.loadMb} MiB, peak ${figures.peakMb} (${figures.pages} pages and page data at 50 connections, ${figures.requestsPerSecond} requests/s; sign-ups at 10, ${figures.signUpsPerSecond}/s; ${figures.errors} failed); after ${figures.afterMb} MiB; started without a release: peak ${figures.buildStartPeakMb} MiB in its build, idle ${figures.buildStartIdleMb} MiB after`

export const formatPublishingMemory = (figures: PublishingMemory) =>
  `publishing role (serve-cms, NODE_OPTIONS=${figures.nodeOptions || '(none)'}): its start (the first release built) peak ${figures.startPeakMb} MiB; idle ${figures.idleMb} MiB; after each publication ${figures.afterMb.join(', ')} MiB (peak ${figures.peakMb}); after the last over the highest after 2–5: ${figures.growth}×; Publish to its answer ${figures.publicationMs.join(', ')} ms`
