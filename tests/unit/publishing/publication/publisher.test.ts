/**
 * Publishing on the real site: a draft approved by a second person is built from its merged
 * commit into a new release and served; a change the build refuses leaves main, the live release
 * and the draft as they were; a rollback serves an earlier release at once and records a commit
 * on main; what a developer pushed to the remote is taken in first; one publication at a time.
 * Real git and a real database; the real build where publishing itself is tested.
 */
import { mkdir, readdir, readFile, readlink, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import { openDatabase } from '../../../../src/database/open'
import { openTwinWriter } from '../../../../src/engine/assets/twins'
import { type BuildReport, buildSite } from '../../../../src/engine/build'
import { type BuildConfig, ROOT, readBuildConfig } from '../../../../src/engine/config'
import { readAudit, verifyAudit } from '../../../../src/publishing/audit/trail'
import type { FileChange, GitRepository } from '../../../../src/publishing/git/repository'
import { PUBLISHING_MIGRATIONS } from '../../../../src/publishing/migrations'
import type { Person } from '../../../../src/publishing/people/roles'
import { settleMainMoves } from '../../../../src/publishing/publication/main-moves'
import {
  landDraft,
  mergeDraft,
  UpstreamConflictError,
} from '../../../../src/publishing/publication/publish'
import { Publisher } from '../../../../src/publishing/publication/publisher'
import { ReleaseTwins } from '../../../../src/publishing/publication/release-twins'
import { BuildFailedError, Releases } from '../../../../src/publishing/publication/releases'
import { RollbackRequestError } from '../../../../src/publishing/publication/rollback'
import {
  branchOf,
  DraftConflictError,
  Drafts,
  MAIN,
  RefusedError,
} from '../../../../src/publishing/workflow/drafts'
import { CURRENT } from '../../../../src/shared/release-layout'
import { standInReport } from '../../../support/build-report'
import { freePorts } from '../../../support/free-port'
import { nginxInstalled, startNginx } from '../../../support/nginx'
import { ada, addPeople, olga, paul, rita } from '../../../support/people'
import {
  ABOUT,
  approvedDraft,
  approveSeen,
  openPublishingDatabase,
  type TestDatabase,
} from '../../../support/publishing'
import { rawRequest, sendRaw } from '../../../support/raw-http'
import { DEVELOPER, siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ABOUT_PAGE = 'en/about/index.html'

let dir: string
let workspace: string
let repo: GitRepository
let remote: GitRepository
let opened: TestDatabase
let database: Database
let drafts: Drafts
let releases: Releases
let publisher: Publisher
let original: string
let tick = 0
const clock = () => new Date(Date.UTC(2026, 10, 26, 9, 0, tick++))
const afterRelease: string[] = []
let twins: ReleaseTwins
// Two threads: the first pass compresses the whole site (some 10 s of CPU), later ones reuse it.
const twinWriter = openTwinWriter({ threads: 2 })

beforeAll(async () => {
  // One workspace and one database for the file: the builds after the first are warm, as in
  // the service, and each test starts from empty tables (the trail aside, which only grows).
  workspace = await temporaryFolder('publishing-workspace-')
  original = await readFile(join(ROOT, ABOUT), 'utf8')
  opened = await openPublishingDatabase({})
  database = opened.database
})

afterAll(async () => {
  await twinWriter.close()
  await opened.close()
  await removeFolder(workspace)
})

/**
 * The build for the tests of what happens around it (git, lease, rollback, pruning): the about
 * page in both languages from the content, as the real one writes it. The real build runs in
 * the tests of publishing itself and of a build that refuses (`useRealBuild`).
 */
async function quickBuild(config: BuildConfig): Promise<BuildReport> {
  for (const language of ['en', 'de']) {
    const text = await readFile(join(config.contentDir, language, 'pages/about.yaml'), 'utf8')
    const title = /^title: (.*)$/m.exec(text)?.[1] ?? ''
    await mkdir(join(config.outDir, language, 'about'), { recursive: true })
    await writeFile(join(config.outDir, language, 'about', 'index.html'), `<h1>${title}</h1>`)
  }
  await writeFile(join(config.outDir, '_headers.json'), '{}')
  return standInReport()
}

function makePublisher(build: (config: BuildConfig) => Promise<BuildReport>) {
  releases = new Releases({ ...releasesOptions(), build })
  twins = new ReleaseTwins({ storeDir: releases.twinsDir, writer: twinWriter })
  publisher = new Publisher({
    database,
    repo,
    drafts,
    releases,
    twins,
    remote: { url: remote.gitDir, branch: 'main', push: true },
    // What the command sees: the release, and none of the service's secrets.
    afterRelease: `echo "$RELEASE_ID $RELEASE_KIND \${OIDC_CLIENT_SECRET:-no secret}" >> ${join(dir, 'after-release.log')}`,
    clock,
  })
}
const useRealBuild = () => makePublisher(buildSite)
/** A publisher whose publications stay here: the remote's main and the service's part ways. */
const notPushing = () =>
  new Publisher({
    database,
    repo,
    drafts,
    releases,
    remote: { url: remote.gitDir, branch: 'main', push: false },
    clock,
  })

beforeEach(async () => {
  dir = await temporaryFolder('publishing-releases-')
  remote = await siteRepository(join(dir, 'remote.git'))
  repo = await siteRepository(join(dir, 'site.git'))
  for (const table of ['drafts', 'releases', 'publish_lease', 'main_moves']) {
    await database.query(`DELETE FROM ${table}`)
  }
  drafts = new Drafts(database, repo, clock)
  makePublisher(quickBuild)
  afterRelease.length = 0
  return async () => {
    // Retried: the after-release command runs in the background, and git may still be
    // packing the repository after a fetch, when the test is done (ENOTEMPTY in CI).
    await removeFolder(dir)
  }
})

const releasesOptions = () => ({
  dir: join(dir, 'releases'),
  workspace: join(workspace, 'tree'),
  nodeModules: join(ROOT, 'node_modules'),
  buildConfig: readBuildConfig({}),
  build: quickBuild,
  keep: 3,
})

/** A draft of the about page with `title`, written by Ada and approved by Rita. */
const approved = (title: string, file = ABOUT, id = 'pages/about') =>
  approvedDraft(drafts, title, { file, id })

/** A developer's commit on the remote's main: the English about page's title, changed. */
const theirTitleOnTheRemote = async () =>
  remote.commit({
    ref: MAIN,
    parent: await remote.resolve(MAIN),
    changes: [{ path: ABOUT, content: original.replace(/^title: .*$/m, 'title: Theirs') }],
    author: DEVELOPER,
    message: 'Their title',
  })

/** A developer's commit on the remote's main that changes no content: a readme. */
const readmeOnTheRemote = async () =>
  remote.commit({
    ref: MAIN,
    parent: await remote.resolve(MAIN),
    changes: [{ path: 'README.md', content: 'Read me.\n' }],
    author: DEVELOPER,
    message: 'Readme',
  })

const served = async (path: string) =>
  readFile(join(dir, 'releases', CURRENT, path), 'utf8').catch(() => null)

describe('publishing the real site', () => {
  it('builds the merged draft into a new release, serves it, lands main and pushes it', async () => {
    useRealBuild()
    await approved('About the bank of banks')
    const before = await repo.resolve(MAIN)
    process.env.OIDC_CLIENT_SECRET = 'the service’s own'
    const release = await publisher.publish(paul, 'pages/about').finally(() => {
      delete process.env.OIDC_CLIENT_SECRET
    })

    expect(await readlink(join(dir, 'releases', CURRENT))).toBe(release.folder)
    expect(await served(ABOUT_PAGE)).toContain('About the bank of banks')
    const main = await repo.resolve(MAIN)
    expect(release).toMatchObject({ commit: main, kind: 'publish', madeBy: paul.email })
    expect(main).not.toBe(before)
    expect((await repo.readFile(main as string, ABOUT))?.toString()).toContain(
      'title: About the bank of banks',
    )
    expect(await drafts.get('pages/about')).toBeNull()
    expect(await remote.resolve(MAIN)).toBe(main)
    const trail = await readAudit(database)
    expect(trail.at(-1)).toMatchObject({ action: 'publish', actor: paul.email, after: main })
    expect((await verifyAudit(database)).ok).toBe(true)
    await expect
      .poll(() => readFile(join(dir, 'after-release.log'), 'utf8').catch(() => ''))
      .toBe(`${release.folder} publish no secret\n`)
    // In the background, every page and data file of the live release gets its twins.
    await twins.idle()
    const site = join(dir, 'releases', release.folder)
    const html = (await readdir(site, { recursive: true })).filter((name) => name.endsWith('.html'))
    expect(html.length).toBeGreaterThan(100)
    for (const name of html) {
      const page = await readFile(join(site, name))
      if (page.length < 1024) continue
      expect(brotliDecompressSync(await readFile(join(site, `${name}.br`))), name).toEqual(page)
      expect(gunzipSync(await readFile(join(site, `${name}.gz`))), name).toEqual(page)
    }
  }, 300_000)

  it('refuses a publisher who has no approved draft to publish, and changes nothing', async () => {
    await drafts.save(ada, 'pages/about', [{ path: ABOUT, content: original }], 'About')
    const before = await repo.resolve(MAIN)
    await expect(publisher.publish(paul, 'pages/about')).rejects.toBeInstanceOf(RefusedError)
    await expect(publisher.publish(rita, 'pages/about')).rejects.toThrow(/publisher/)
    expect(await repo.resolve(MAIN)).toBe(before)
    expect(await releases.current()).toBeNull()
  })

  it('leaves main, the live release and the draft as they were when the build refuses the content', async () => {
    useRealBuild()
    await approved('First')
    const live = await publisher.publish(paul, 'pages/about')
    const mainBefore = await repo.resolve(MAIN)
    const broken = original.replace(/^title: .*$/m, 'title: ""')
    await drafts.save(ada, 'pages/about', [{ path: ABOUT, content: broken }], 'No title')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')

    const failure = await publisher.publish(paul, 'pages/about').catch((error) => error)
    expect(failure).toBeInstanceOf(BuildFailedError)
    expect(failure.message).toContain('about.yaml')
    expect(failure.message).toContain('title')
    expect(await repo.resolve(MAIN)).toBe(mainBefore)
    expect(await releases.current()).toBe(live.folder)
    expect(await served(ABOUT_PAGE)).toContain('First')
    expect((await drafts.get('pages/about'))?.status).toBe('pending_publish')
    expect(await releases.list()).toEqual([live.folder])
    expect((await readAudit(database)).at(-1)).toMatchObject({
      action: 'publish-failed',
      actor: paul.email,
      subject: 'pages/about',
    })
  }, 120_000)

  it('rolls back to an earlier release at once, recorded as a commit on main that keeps the code as it is', async () => {
    await approved('First')
    const first = await publisher.publish(paul, 'pages/about')
    await approved('Second')
    const published = await publisher.publish(paul, 'pages/about')
    expect(await served(ABOUT_PAGE)).toContain('Second')
    // A developer's change to the code since: a rollback restores content and images only.
    const code = 'src/engine/rollback-probe.ts'
    const second = {
      commit: await repo.commit({
        ref: MAIN,
        parent: published.commit,
        changes: [{ path: code, content: 'export const fixed = true\n' }],
        author: DEVELOPER,
        message: 'A fix in the code',
      }),
    }

    await expect(publisher.rollBack(ada, first.folder)).rejects.toBeInstanceOf(RefusedError)
    const back = await publisher.rollBack(paul, first.folder)
    expect(back).toMatchObject({ folder: first.folder, kind: 'rollback' })
    expect(await releases.current()).toBe(first.folder)
    expect(await served(ABOUT_PAGE)).toContain('First')
    const main = (await repo.resolve(MAIN)) as string
    expect(main).toBe(back.commit)
    expect(await repo.isAncestor(second.commit, main)).toBe(true)
    expect((await repo.readFile(main, ABOUT))?.toString()).toContain('title: First')
    expect((await repo.readFile(main, code))?.toString()).toBe('export const fixed = true\n')
    expect((await readAudit(database)).at(-1)).toMatchObject({
      action: 'rollback',
      actor: paul.email,
      before: second.commit,
      after: main,
    })
    const listed = await publisher.list()
    // What the site served, newest first: the rollback, live, above the publications it undid,
    // each kept as it was (who approved it, what it changed).
    expect(listed.map((release) => [release.folder, release.kind, release.live])).toEqual([
      [first.folder, 'rollback', true],
      [published.folder, 'publish', false],
      [first.folder, 'publish', false],
    ])
    expect(listed[2]).toMatchObject({ approvedBy: rita.email, files: [ABOUT], deleted: [] })
  })

  it('takes in what a developer pushed to the remote before publishing', async () => {
    const developer = await remote.commit({
      ref: MAIN,
      parent: await remote.resolve(MAIN),
      changes: [
        {
          path: 'content/de/pages/about.yaml',
          content: (await readFile(join(ROOT, 'content/de/pages/about.yaml'), 'utf8')).replace(
            /^title: .*$/m,
            'title: Über die Bank der Banken',
          ),
        },
      ],
      author: DEVELOPER,
      message: 'German title',
    })
    await approved('About, published')
    const release = await publisher.publish(paul, 'pages/about')
    const main = (await repo.resolve(MAIN)) as string
    expect(await repo.isAncestor(developer, main)).toBe(true)
    expect(await served('de/about/index.html')).toContain('Über die Bank der Banken')
    expect(await served(ABOUT_PAGE)).toContain('About, published')
    // The trail names every commit taken in, its author and the content it changed, and the
    // release that first serves that content says no reviewer approved it.
    const trail = await readAudit(database)
    const takeIn = trail.find((entry) => entry.action === 'take-in')
    const unreviewed = {
      commit: developer,
      author: `${DEVELOPER.name} <${DEVELOPER.email}>`,
      files: ['content/de/pages/about.yaml'],
    }
    expect(takeIn?.details).toMatchObject({
      commits: [unreviewed],
      unreviewedContent: ['content/de/pages/about.yaml'],
    })
    expect(release.unreviewed).toEqual([unreviewed])
    expect((await publisher.releaseOf(release.folder))?.unreviewed).toEqual([unreviewed])
    expect(trail.at(-1)).toMatchObject({
      action: 'unreviewed-live',
      subject: release.folder,
      details: { commits: [unreviewed] },
    })
    // A developer's code change brings no unreviewed content; the next release is unmarked.
    await readmeOnTheRemote()
    await approved('About, again')
    const next = await publisher.publish(paul, 'pages/about')
    expect(next.unreviewed).toEqual([])
    const takeIns = (await readAudit(database)).filter((entry) => entry.action === 'take-in')
    expect(takeIns.at(-1)?.details).toMatchObject({
      commits: [{ author: `${DEVELOPER.name} <${DEVELOPER.email}>`, files: ['README.md'] }],
      unreviewedContent: [],
    })
  })

  it('names as taken in only what the remote changed, not publications it lacks', async () => {
    // Published commits are not pushed here: the remote lacks the service's publication.
    publisher = notPushing()
    await approved('Ours, not pushed')
    await publisher.publish(paul, 'pages/about')
    await readmeOnTheRemote()
    await approved('Ours again', 'content/de/pages/about.yaml', 'pages/about-de')
    const release = await publisher.publish(paul, 'pages/about-de')
    const takeIn = (await readAudit(database)).filter((entry) => entry.action === 'take-in').at(-1)
    // The English about page is the service's own publication: nothing of it was taken in.
    expect(takeIn?.details).toMatchObject({
      commits: [{ files: ['README.md'] }],
      unreviewedContent: [],
    })
    expect(release.unreviewed).toEqual([])
  })

  it('refuses to publish when the remote changed the same lines, naming the file', async () => {
    // Published commits are not pushed here: the remote's main and ours part ways.
    publisher = notPushing()
    await approved('Ours')
    await publisher.publish(paul, 'pages/about')
    await theirTitleOnTheRemote()
    await approved('Ours again', 'content/de/pages/about.yaml', 'pages/about-de')
    const mainBefore = await repo.resolve(MAIN)
    const error = await publisher.publish(paul, 'pages/about-de').catch((caught) => caught)
    expect(error).toBeInstanceOf(UpstreamConflictError)
    expect(error.message).toContain(ABOUT)
    expect(await repo.resolve(MAIN)).toBe(mainBefore)
  })

  it('takes the remote in first when the draft conflicts with what it brought, then refuses the draft once', async () => {
    await approved('Ours')
    await theirTitleOnTheRemote()
    // (The trail is the whole file's: what this publication recorded follows these.)
    const earlier = (await readAudit(database, { limit: 10_000 })).length
    const error = await publisher.publish(paul, 'pages/about').catch((caught) => caught)
    expect(error).toBeInstanceOf(DraftConflictError)
    expect(error.message).toContain(ABOUT)
    // The remote's commit is main now; the draft was refused against it, and only against it.
    const main = (await repo.resolve(MAIN)) as string
    expect(main).toBe(await remote.resolve(MAIN))
    const trail = (await readAudit(database, { limit: 10_000 })).slice(earlier)
    const refusals = trail.filter((entry) => entry.action === 'refusal')
    expect(refusals).toHaveLength(1)
    expect(refusals[0]).toMatchObject({
      subject: 'pages/about',
      before: main,
      details: { code: 'conflict', files: [ABOUT] },
    })
    const takeIn = trail.findLastIndex(
      (entry) => entry.action === 'take-in' && entry.after === main,
    )
    expect(takeIn).toBeGreaterThan(-1)
    expect(trail.indexOf(refusals[0] as (typeof trail)[number])).toBeGreaterThan(takeIn)
    expect(await drafts.get('pages/about')).not.toBeNull()
  })

  it('records a draft that conflicts with main once, after taking in what the remote brought', async () => {
    await approved('Ours')
    // Main takes in a change to the same lines with another draft's publication.
    await theirTitleOnTheRemote()
    await approved('Deutsch', 'content/de/pages/about.yaml', 'pages/about-de')
    await publisher.publish(paul, 'pages/about-de')
    await readmeOnTheRemote()
    const earlier = (await readAudit(database, { limit: 10_000 })).length
    const error = await publisher.publish(paul, 'pages/about').catch((caught) => caught)
    expect(error).toBeInstanceOf(DraftConflictError)
    const trail = (await readAudit(database, { limit: 10_000 })).slice(earlier)
    expect(trail.map((entry) => entry.action)).toEqual(['take-in', 'refusal'])
    expect(trail[1]).toMatchObject({ before: await repo.resolve(MAIN) })
  })

  it('publishes two drafts at once one after the other, each on the other’s result', async () => {
    await approved('English')
    await approved('Deutsch', 'content/de/pages/about.yaml', 'pages/about-de')
    const [one, two] = await Promise.all([
      publisher.publish(paul, 'pages/about'),
      publisher.publish(paul, 'pages/about-de'),
    ])
    const main = (await repo.resolve(MAIN)) as string
    expect([one.commit, two.commit]).toContain(main)
    expect(await served(ABOUT_PAGE)).toContain('English')
    expect(await served('de/about/index.html')).toContain('Deutsch')
    expect(await readdir(join(dir, 'releases'))).toHaveLength(3) // two releases and the link
  })

  it('brings the served site up to main after a crash between landing and switching', async () => {
    await approved('Served')
    const live = await publisher.publish(paul, 'pages/about')
    // main moved on (as if a process died after landing), the link still at the old release
    await repo.commit({
      ref: MAIN,
      parent: live.commit,
      changes: [{ path: ABOUT, content: original.replace(/^title: .*$/m, 'title: Landed') }],
      author: paul,
      message: 'Landed, never switched',
    })
    const recovered = await publisher.recover()
    expect(recovered).toMatchObject({ kind: 'recovery', commit: await repo.resolve(MAIN) })
    expect(await served(ABOUT_PAGE)).toContain('Landed')
    expect(await publisher.recover()).toBeNull()
  })

  it('lists a deletion as deleted, not changed, with who approved it', async () => {
    const file = 'content/en/pages/imprint.yaml'
    await drafts.save(ada, 'pages/imprint', [{ path: file, content: null }], 'Delete the imprint')
    await drafts.setStatus(ada, 'pages/imprint', 'pending_review')
    await approveSeen(drafts, rita, 'pages/imprint')
    const release = await publisher.publish(paul, 'pages/imprint')
    expect((await publisher.list())[0]).toMatchObject({
      folder: release.folder,
      live: true,
      files: [],
      deleted: [file],
      approvedBy: rita.email,
    })
  })

  it('serves main as its first release, listed, so the first publication can be undone', async () => {
    const title = /^title: (.*)$/m.exec(original)?.[1] as string
    const first = await publisher.firstRelease()
    expect(first).toMatchObject({
      kind: 'first',
      madeBy: 'service',
      commit: await repo.resolve(MAIN),
    })
    expect(await served(ABOUT_PAGE)).toContain(title)
    // Made once: the next start (or the other replica) finds it served.
    expect(await publisher.firstRelease()).toBeNull()
    await approved('After the first release')
    const published = await publisher.publish(paul, 'pages/about')
    expect((await publisher.list()).map((release) => [release.folder, release.kind])).toEqual([
      [published.folder, 'publish'],
      [first?.folder, 'first'],
    ])
    const back = await publisher.rollBack(paul, first?.folder as string)
    expect(back.kind).toBe('rollback')
    expect(await served(ABOUT_PAGE)).toContain(title)
    const trail = await readAudit(database)
    expect(trail.find((entry) => entry.action === 'first-release')).toMatchObject({
      actor: 'service',
      subject: first?.folder,
      after: first?.commit,
    })
    expect((await verifyAudit(database)).ok).toBe(true)
  })
})

describe('a publication cut short', () => {
  /** The database as a killed process leaves it: what `dies` picks never happens. */
  const dyingDatabase = (dies: { transaction?: boolean; deleteIntent?: boolean }) =>
    Object.assign(Object.create(database) as Database, {
      ...(dies.transaction ? { transaction: () => Promise.reject(new Error('killed')) } : {}),
      ...(dies.deleteIntent
        ? {
            query: (sql: string, params?: unknown[]) =>
              sql.startsWith('DELETE FROM main_moves')
                ? Promise.reject(new Error('killed'))
                : database.query(sql, params),
          }
        : {}),
    })

  it('killed between moving main and recording it: the next holder of the lease records the publication, naming its publisher', async () => {
    await approved('Served first')
    await publisher.publish(paul, 'pages/about')
    await approved('Killed after landing')
    const merged = await mergeDraft({ database, repo, drafts, clock }, paul, 'pages/about')
    // The process dies after main moved, before the transaction that records it.
    const killed = { database: dyingDatabase({ transaction: true }), repo, clock }
    await expect(landDraft(killed, paul, merged)).rejects.toThrow('killed')
    expect(await repo.resolve(MAIN)).toBe(merged.commit)
    expect((await readAudit(database)).some((entry) => entry.after === merged.commit)).toBe(false)

    const recovered = await publisher.recover()
    expect(recovered).toMatchObject({ kind: 'recovery', commit: merged.commit })
    expect(await served(ABOUT_PAGE)).toContain('Killed after landing')
    expect(await drafts.get('pages/about')).toBeNull()
    expect(await repo.resolve(branchOf('pages/about'))).toBeNull()
    const trail = await readAudit(database)
    const publications = trail.filter(
      (entry) => entry.after === merged.commit && entry.action === 'publish',
    )
    expect(publications).toHaveLength(1)
    expect(publications[0]).toMatchObject({
      actor: paul.email,
      subject: 'pages/about',
      before: merged.mainBefore,
      details: { approvedBy: rita.email, recoveredAfterCrash: true, meantAt: expect.any(String) },
    })
    expect(trail.at(-1)).toMatchObject({
      action: 'recovery',
      actor: 'service',
      after: merged.commit,
    })
    expect((await verifyAudit(database)).ok).toBe(true)
    expect(await database.query('SELECT id FROM main_moves')).toEqual([])
  })

  it('killed before moving main: the intent is dropped, the draft waits as it was, the trail has no publication', async () => {
    await approved('Killed before landing')
    const mainBefore = await repo.resolve(MAIN)
    const merged = await mergeDraft({ database, repo, drafts, clock }, paul, 'pages/about')
    const stuck = Object.assign(Object.create(repo) as GitRepository, {
      moveRef: () => Promise.reject(new Error('killed')),
    })
    const killed = { database: dyingDatabase({ deleteIntent: true }), repo: stuck, clock }
    await expect(landDraft(killed, paul, merged)).rejects.toThrow('killed')
    expect(await database.query('SELECT id FROM main_moves')).toHaveLength(1)

    await publisher.recover()
    expect(await repo.resolve(MAIN)).toBe(mainBefore)
    expect(await database.query('SELECT id FROM main_moves')).toEqual([])
    expect((await drafts.get('pages/about'))?.status).toBe('pending_publish')
    expect((await readAudit(database)).some((entry) => entry.after === merged.commit)).toBe(false)
    // And it publishes as it would have.
    expect((await publisher.publish(paul, 'pages/about')).kind).toBe('publish')
  })

  it('a process that stalled after moving main while the next holder of the lease recorded it records nothing twice', async () => {
    await approved('Stalled')
    const merged = await mergeDraft({ database, repo, drafts, clock }, paul, 'pages/about')
    const stalling = Object.assign(Object.create(repo) as GitRepository, {
      moveRef: async (ref: string, commit: string, expected: string | null) => {
        await repo.moveRef(ref, commit, expected)
        // Meanwhile its lease lapsed, and the next holder settled what it found.
        await settleMainMoves(database, repo, clock())
      },
    })
    await landDraft({ database, repo: stalling, clock }, paul, merged)
    const publications = (await readAudit(database)).filter(
      (entry) => entry.action === 'publish' && entry.after === merged.commit,
    )
    expect(publications).toHaveLength(1)
    expect(publications[0]?.details).toMatchObject({ recoveredAfterCrash: true })
    expect(await drafts.get('pages/about')).toBeNull()
    expect((await verifyAudit(database)).ok).toBe(true)
  })

  it('keeps an intent when git cannot say whether main has it, and records it once git can', async () => {
    await approved('Unsure')
    const merged = await mergeDraft({ database, repo, drafts, clock }, paul, 'pages/about')
    const killed = { database: dyingDatabase({ transaction: true }), repo, clock }
    await expect(landDraft(killed, paul, merged)).rejects.toThrow('killed')
    const unreadable = Object.assign(Object.create(repo) as GitRepository, {
      isAncestor: () => Promise.reject(new Error('git merge-base failed (128): unreadable')),
    })
    // Not the intent's own commit on main any more: git is asked, and does not answer.
    await repo.commit({
      ref: MAIN,
      parent: merged.commit,
      changes: [{ path: 'content/en/pages/later.yaml', content: 'title: Later\n' }],
      author: DEVELOPER,
      message: 'Later',
    })
    await expect(settleMainMoves(database, unreadable, clock())).rejects.toThrow(/unreadable/)
    expect(await database.query('SELECT id FROM main_moves')).toHaveLength(1)
    expect(await settleMainMoves(database, repo, clock())).toHaveLength(1)
    expect(
      (await readAudit(database)).filter(
        (entry) => entry.action === 'publish' && entry.after === merged.commit,
      ),
    ).toHaveLength(1)
  })

  it('pressed again after a process died between moving main and switching, serves what was published', async () => {
    await approved('Published, not yet served')
    const merged = await mergeDraft({ database, repo, drafts, clock }, paul, 'pages/about')
    const killed = { database: dyingDatabase({ transaction: true }), repo, clock }
    await expect(landDraft(killed, paul, merged)).rejects.toThrow('killed')
    // A schedule firing again, or the publisher pressing again: done, not refused.
    const release = await publisher.publish(paul, 'pages/about')
    expect(release).toMatchObject({ commit: merged.commit, kind: 'publish' })
    expect(await served(ABOUT_PAGE)).toContain('Published, not yet served')
    expect(
      (await readAudit(database)).filter(
        (entry) => entry.action === 'publish' && entry.after === merged.commit,
      ),
    ).toHaveLength(1)
  })

  it('losing its turn after moving main says so truly, and the service serves main at its next look', async () => {
    await approved('Live')
    const live = await publisher.publish(paul, 'pages/about')
    await approved('Moved, then lost')
    // The lease is taken by another process right after main moved.
    const moving = Object.assign(Object.create(repo) as GitRepository, {
      moveRef: async (ref: string, commit: string, expected: string | null) => {
        await repo.moveRef(ref, commit, expected)
        if (ref === MAIN) await database.query("UPDATE publish_lease SET holder = 'elsewhere:1:x'")
      },
    })
    publisher = new Publisher({
      database,
      repo: moving,
      drafts: new Drafts(database, moving, clock),
      releases,
      clock,
    })
    await expect(publisher.publish(paul, 'pages/about')).rejects.toThrow(
      /done on main and in the audit trail, but this process lost its turn/,
    )
    const main = (await repo.resolve(MAIN)) as string
    expect(await releases.current()).toBe(live.folder)
    expect(await releases.list()).toEqual([live.folder])
    // The other process finishes its turn; at the service's next look the site serves main.
    await database.query('DELETE FROM publish_lease')
    const caughtUp = await publisher.keepUpWithMain()
    expect(caughtUp).toMatchObject({ kind: 'recovery', commit: main })
    expect(await served(ABOUT_PAGE)).toContain('Moved, then lost')
    expect(await publisher.keepUpWithMain()).toBeNull()
  })

  it('stops a publication that lost its turn to another process before it moves main or the served site', async () => {
    await approved('Live')
    const live = await publisher.publish(paul, 'pages/about')
    await approved('Too slow')
    makePublisher(async (config) => {
      // Meanwhile this process stalled past its lease, and another took it.
      await database.query("UPDATE publish_lease SET holder = 'elsewhere:1:other'")
      return quickBuild(config)
    })
    const mainBefore = await repo.resolve(MAIN)
    await expect(publisher.publish(paul, 'pages/about')).rejects.toThrow(
      /another process took over; nothing was switched/,
    )
    expect(await repo.resolve(MAIN)).toBe(mainBefore)
    expect(await releases.current()).toBe(live.folder)
    expect(await releases.list()).toEqual([live.folder])
    expect((await drafts.get('pages/about'))?.status).toBe('pending_publish')
    // The other process's lease stands: this one did not release it on its way out.
    expect(await database.query('SELECT holder FROM publish_lease')).toEqual([
      { holder: 'elsewhere:1:other' },
    ])
  })
})

describe('rollback under the four-eyes rules', { timeout: 120_000 }, () => {
  /** A text of Olga's (who writes, reviews and publishes) that a later approved draft deletes. */
  const NOTE = 'content/en/pages/olga-note.yaml'
  const OFFER = 'title: Olga’s offer\n'

  beforeEach(async () => {
    for (const table of ['rollback_requests', 'people'])
      await database.query(`DELETE FROM ${table}`)
    await addPeople(database, [ada, rita, paul, olga])
  })

  /** A draft by `writer`, moved to review by them, approved by Rita and published by Paul. */
  const published = async (writer: Person, id: string, changes: FileChange[]) => {
    await drafts.save(writer, id, changes, id)
    await drafts.setStatus(writer, id, 'pending_review')
    await approveSeen(drafts, rita, id)
    return publisher.publish(paul, id)
  }
  const titled = async (title: string) => [
    { path: ABOUT, content: original.replace(/^title: .*$/m, `title: ${title}`) },
  ]
  const onMain = async (path: string) =>
    (await repo.readFile((await repo.resolve(MAIN)) as string, path))?.toString() ?? null
  const lastEntry = async () => (await readAudit(database)).at(-1)

  it('does not let a publisher bring back alone their own text that a later approved deletion retracted; a reviewer confirms it, and the trail says what came back', async () => {
    const withNote = await published(olga, 'pages/olga-note', [{ path: NOTE, content: OFFER }])
    const deleted = await published(ada, 'pages/olga-note', [{ path: NOTE, content: null }])
    const mainBefore = await repo.resolve(MAIN)

    // One step back, but alone: her own text would come back.
    const refused = await publisher.rollBack(olga, withNote.folder).catch((error) => error)
    expect(refused).toBeInstanceOf(RefusedError)
    expect(refused.decision).toMatchObject({ code: 'own-content' })
    expect(await releases.current()).toBe(deleted.folder)
    expect(await repo.resolve(MAIN)).toBe(mainBefore)
    expect(await onMain(NOTE)).toBeNull()
    expect(await lastEntry()).toMatchObject({
      actor: olga.email,
      action: 'refusal',
      subject: withNote.folder,
      details: { code: 'own-content', reason: expect.stringMatching(/four-eyes principle/) },
    })

    // Asked for, it waits for a reviewer, saying what it would bring back and undo.
    const asked = await publisher.requestRollback(olga, withNote.folder)
    if (asked.done) throw new Error('rolled back alone')
    const what = {
      returns: [NOTE],
      goes: [],
      changes: [],
      publications: ['pages/olga-note'],
      writers: [olga.email],
    }
    expect(asked.request).toMatchObject({
      folder: withNote.folder,
      requestedBy: olga.email,
      code: 'own-content',
      state: 'pending',
      changes: what,
    })
    expect(await lastEntry()).toMatchObject({
      actor: olga.email,
      action: 'rollback-request',
      subject: withNote.folder,
      details: { request: asked.request.id, code: 'own-content', live: deleted.folder, ...what },
    })
    expect(await releases.current()).toBe(deleted.folder)
    expect(await onMain(NOTE)).toBeNull()
    // Asked again, the same request.
    expect(await publisher.requestRollback(olga, withNote.folder)).toMatchObject({
      done: false,
      request: { id: asked.request.id },
    })

    // Neither she nor a publisher confirms it; a reviewer who wrote none of it does.
    await expect(publisher.confirmRollback(olga, asked.request.id)).rejects.toMatchObject({
      decision: { code: 'own-request' },
    })
    await expect(publisher.confirmRollback(paul, asked.request.id)).rejects.toMatchObject({
      decision: { code: 'role' },
    })
    expect(await onMain(NOTE)).toBeNull()
    const back = await publisher.confirmRollback(rita, asked.request.id)
    expect(back).toMatchObject({ folder: withNote.folder, kind: 'rollback', madeBy: rita.email })
    expect(await releases.current()).toBe(withNote.folder)
    expect(await onMain(NOTE)).toBe(OFFER)
    expect(await lastEntry()).toMatchObject({
      action: 'rollback',
      actor: rita.email,
      subject: withNote.folder,
      before: mainBefore,
      after: back.commit,
      details: {
        emergency: false,
        requestedBy: olga.email,
        confirmedBy: rita.email,
        request: asked.request.id,
        replaced: deleted.folder,
        ...what,
      },
    })
    expect(await publisher.rollbackRequests()).toEqual([])
    await expect(publisher.confirmRollback(rita, asked.request.id)).rejects.toBeInstanceOf(
      RollbackRequestError,
    )
    expect((await verifyAudit(database)).ok).toBe(true)
  })

  it('rolls back further than one step only once a reviewer who wrote none of what comes back confirms it', async () => {
    const first = await published(olga, 'pages/about', await titled('First, by Olga'))
    await published(ada, 'pages/olga-note', [{ path: NOTE, content: OFFER }])
    const third = await published(ada, 'pages/about', await titled('Third'))

    await expect(publisher.rollBack(paul, first.folder)).rejects.toMatchObject({
      decision: { code: 'rollback-steps' },
    })
    const asked = await publisher.requestRollback(paul, first.folder)
    if (asked.done) throw new Error('rolled back alone')
    const what = {
      returns: [],
      goes: [NOTE],
      changes: [ABOUT],
      publications: ['pages/olga-note', 'pages/about'],
      writers: [olga.email],
    }
    expect(asked.request).toMatchObject({ code: 'rollback-steps', changes: what })
    expect(await releases.current()).toBe(third.folder)

    // Olga reviews, but the text coming back is hers.
    await expect(publisher.confirmRollback(olga, asked.request.id)).rejects.toMatchObject({
      decision: { code: 'own-content' },
    })
    expect(await lastEntry()).toMatchObject({
      actor: olga.email,
      action: 'refusal',
      details: { code: 'own-content', action: 'rollback-confirm', request: asked.request.id },
    })
    const back = await publisher.confirmRollback(rita, asked.request.id)
    expect(await releases.current()).toBe(first.folder)
    expect(await onMain(ABOUT)).toContain('title: First, by Olga')
    expect(await onMain(NOTE)).toBeNull()
    expect(await lastEntry()).toMatchObject({ action: 'rollback', details: what })
    const [live] = await publisher.list()
    expect(live).toMatchObject({
      folder: first.folder,
      commit: back.commit,
      live: true,
      rollback: {
        emergency: false,
        requestedBy: paul.email,
        confirmedBy: rita.email,
        changes: what,
      },
    })
  })

  it('lets a publisher alone roll back one step in an emergency, marked so, with what it takes away', async () => {
    const first = await published(ada, 'pages/about', await titled('First'))
    await published(ada, 'pages/about', await titled('Second'))
    const outcome = await publisher.requestRollback(paul, first.folder)
    expect(outcome).toMatchObject({ done: true, release: { folder: first.folder } })
    expect(await served(ABOUT_PAGE)).toContain('First')
    const what = {
      returns: [],
      goes: [],
      changes: [ABOUT],
      publications: ['pages/about'],
      writers: [ada.email],
    }
    expect(await lastEntry()).toMatchObject({
      action: 'rollback',
      actor: paul.email,
      details: { emergency: true, ...what },
    })
    expect((await publisher.list())[0]).toMatchObject({
      live: true,
      rollback: { emergency: true, changes: what },
    })
    // The one before the live one is now the release it replaced: no walking further back alone.
    expect(await publisher.previousRelease()).not.toBe(first.folder)
  })

  it('asked for again after the live site changed, replaces the stale request with one that says what it would do now', async () => {
    const first = await published(ada, 'pages/about', await titled('First'))
    await published(ada, 'pages/about', await titled('Second'))
    await published(ada, 'pages/about', await titled('Third'))
    const stale = await publisher.requestRollback(paul, first.folder)
    if (stale.done) throw new Error('rolled back alone')
    const later = await published(ada, 'pages/about', await titled('Fourth'))
    const fresh = await publisher.requestRollback(paul, first.folder)
    if (fresh.done) throw new Error('rolled back alone')
    expect(fresh.request.id).not.toBe(stale.request.id)
    expect(fresh.request).toMatchObject({ liveFolder: later.folder, state: 'pending' })
    expect(await lastEntry()).toMatchObject({
      action: 'rollback-request',
      details: { request: fresh.request.id, replaces: stale.request.id, live: later.folder },
    })
    expect(await publisher.rollbackRequests()).toMatchObject([{ id: fresh.request.id }])
    await expect(publisher.confirmRollback(rita, stale.request.id)).rejects.toBeInstanceOf(
      RollbackRequestError,
    )
    await publisher.confirmRollback(rita, fresh.request.id)
    expect(await onMain(ABOUT)).toContain('title: First')
  })

  it('refuses a confirmation once the live site changed since the request, or its publisher lost access', async () => {
    const first = await published(ada, 'pages/about', await titled('First'))
    await published(ada, 'pages/about', await titled('Second'))
    await published(ada, 'pages/about', await titled('Third'))
    const asked = await publisher.requestRollback(paul, first.folder)
    if (asked.done) throw new Error('rolled back alone')
    const later = await published(ada, 'pages/about', await titled('Fourth'))
    await expect(publisher.confirmRollback(rita, asked.request.id)).rejects.toMatchObject({
      decision: { code: 'rollback-stale' },
    })
    expect(await releases.current()).toBe(later.folder)
    expect(await publisher.rollbackRequests()).toEqual([])

    const again = await publisher.requestRollback(paul, first.folder)
    if (again.done) throw new Error('rolled back alone')
    await database.query('UPDATE people SET disabled_at = now() WHERE email = $1', [paul.email])
    await expect(publisher.confirmRollback(rita, again.request.id)).rejects.toMatchObject({
      decision: {
        code: 'person-gone',
        reason: expect.stringMatching(/^paul@bank\.example, who asked for it/),
      },
    })
    expect(await releases.current()).toBe(later.folder)
    expect(await lastEntry()).toMatchObject({
      actor: rita.email,
      action: 'refusal',
      details: { code: 'person-gone', request: again.request.id },
    })
  })
})

describe('a release built ahead at approval', () => {
  /** quickBuild, counting its builds. */
  let builds = 0
  beforeEach(() => {
    builds = 0
    makePublisher(async (config) => {
      builds += 1
      return quickBuild(config)
    })
  })
  const builtAhead = async () =>
    (await readdir(join(dir, 'releases')).catch(() => [] as string[])).filter((name) =>
      name.startsWith('.prepared-'),
    )

  it('is taken by the publication instead of a build, and serves the approved text', async () => {
    // As the service wires it: each approval builds ahead, in the background.
    drafts.onApproved((id) => void publisher.prepare(id))
    await approved('Built while the publisher reads')
    await publisher.idle()
    expect(builds).toBe(1)
    expect(await builtAhead()).toHaveLength(1)
    // Nothing served, listed or recorded before the publication.
    expect(await releases.current()).toBeNull()
    expect(await releases.list()).toEqual([])

    const release = await publisher.publish(paul, 'pages/about')
    expect(builds).toBe(1)
    expect(await served(ABOUT_PAGE)).toBe('<h1>Built while the publisher reads</h1>')
    expect(await releases.list()).toEqual([release.folder])
    expect(await builtAhead()).toEqual([])
    expect(release.commit).toBe(await repo.resolve(MAIN))
  })

  it('is not taken once main moved: the publication builds what main now holds', async () => {
    await approved('English, approved first')
    expect(await publisher.prepare('pages/about')).toBe(true)
    await approved('Deutsch, published first', 'content/de/pages/about.yaml', 'pages/about-de')
    await publisher.publish(paul, 'pages/about-de')
    expect(builds).toBe(2)

    await publisher.publish(paul, 'pages/about')
    expect(builds).toBe(3)
    expect(await served(ABOUT_PAGE)).toBe('<h1>English, approved first</h1>')
    expect(await served('de/about/index.html')).toBe('<h1>Deutsch, published first</h1>')
  })

  it('is not taken after a save made the draft another version', async () => {
    await approved('Approved once')
    await publisher.prepare('pages/about')
    await approved('Approved again, changed')
    await publisher.publish(paul, 'pages/about')
    expect(builds).toBe(2)
    expect(await served(ABOUT_PAGE)).toBe('<h1>Approved again, changed</h1>')
  })

  it('is built again when it is an hour old, and removed when the service starts', async () => {
    await approved('An hour ago')
    await publisher.prepare('pages/about')
    tick += 3600
    await publisher.publish(paul, 'pages/about')
    expect(builds).toBe(2)
    expect(await builtAhead()).toHaveLength(1)
    await releases.removeUnfinished()
    expect(await builtAhead()).toEqual([])
  })

  it('is only ever one: the last approval’s replaces the one before', async () => {
    await approved('English')
    await publisher.prepare('pages/about')
    await approved('Deutsch', 'content/de/pages/about.yaml', 'pages/about-de')
    await publisher.prepare('pages/about-de')
    expect(await builtAhead()).toHaveLength(1)
    await publisher.publish(paul, 'pages/about-de')
    expect(builds).toBe(2)
    expect(await builtAhead()).toEqual([])
  })

  it('is not built for a draft that is not approved, nor while another turn holds the lease', async () => {
    await drafts.save(ada, 'pages/about', [{ path: ABOUT, content: original }], 'About')
    expect(await publisher.prepare('pages/about')).toBe(false)
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    await database.query(
      `INSERT INTO publish_lease (name, holder, until) VALUES ('publish', 'elsewhere:1:x', now() + interval '1 minute')`,
    )
    expect(await publisher.prepare('pages/about')).toBe(false)
    expect(builds).toBe(0)
  })

  it('makes a publication pressed while it is built wait for it, then take it: one build', async () => {
    await approved('Pressed at once')
    const ahead = publisher.prepare('pages/about')
    const release = await publisher.publish(paul, 'pages/about')
    await ahead
    expect(builds).toBe(1)
    expect(await served(ABOUT_PAGE)).toBe('<h1>Pressed at once</h1>')
    expect(await releases.list()).toEqual([release.folder])
  })
})

describe('releases', () => {
  it.skipIf(!nginxInstalled())(
    'has nginx answer every page of the live release from its twins once their pass is done',
    async () => {
      useRealBuild()
      await approved('About the compressed bank')
      const release = await publisher.publish(paul, 'pages/about')
      const [port = 0] = await freePorts(1)
      const nginx = await startNginx({
        root: join(dir, 'releases', CURRENT),
        port,
        api: '127.0.0.1:9',
        scratch: join(dir, '.nginx'),
      })
      try {
        await twins.idle()
        const site = join(dir, 'releases', release.folder)
        const pages = (await readdir(site, { recursive: true })).filter(
          (name) => name.endsWith('index.html') && !name.startsWith('.'),
        )
        expect(pages.length).toBeGreaterThan(100)
        for (const page of pages) {
          const path = `/${page.slice(0, -'index.html'.length)}`
          for (const [coding, suffix] of [
            ['br', '.br'],
            ['gzip', '.gz'],
          ] as const) {
            const answer = await sendRaw(
              port,
              rawRequest('GET', path, { 'accept-encoding': coding }),
            )
            // From the twin: its length, sent whole (compressed on the fly, it goes chunked).
            const twin = await stat(join(site, `${page}${suffix}`))
            expect(
              [answer.status, answer.headers['content-encoding'], answer.headers['content-length']],
              `${path} (${coding})`,
            ).toEqual([200, coding, String(twin.size)])
          }
        }
        expect(await nginx.errors()).not.toMatch(/\[(crit|alert|emerg)\]/)
      } finally {
        await nginx.stop()
      }
    },
    180_000,
  )

  it('keeps the newest releases besides the live one', async () => {
    releases = new Releases({ ...releasesOptions(), keep: 1 })
    publisher = new Publisher({ database, repo, drafts, releases, clock })
    const made: string[] = []
    for (const title of ['One', 'Two', 'Three']) {
      await approved(title)
      made.push((await publisher.publish(paul, 'pages/about')).folder)
    }
    // one kept besides the live one
    expect(await releases.list()).toEqual([made[2], made[1]])
    // the live one is kept even when it is the oldest
    await publisher.rollBack(paul, made[1] as string)
    expect(await releases.list()).toEqual([made[2], made[1]])
  })

  it('names a release that is not on disk', async () => {
    await expect(publisher.rollBack(paul, '20200101T000000Z-000000000000')).rejects.toThrow(
      /no release 20200101T000000Z-000000000000/,
    )
    await expect(releases.switchTo('../../etc')).rejects.toThrow(/not a release/)
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('two service processes on one PostgreSQL', () => {
  it('publish one after the other, each on the other’s result, with one workspace', async () => {
    const shared = await openPublishingDatabase({ url: process.env.TEST_DATABASE_URL })
    const url = process.env.TEST_DATABASE_URL as string
    const schema = (
      await shared.database.query<{ schema: string }>('SELECT current_schema() AS schema')
    )[0]?.schema as string
    const other = await openDatabase({ url, schema, migrations: PUBLISHING_MIGRATIONS })
    try {
      const processes = [shared.database, other].map((db) => {
        const ownDrafts = new Drafts(db, repo, clock)
        return {
          drafts: ownDrafts,
          publisher: new Publisher({ database: db, repo, drafts: ownDrafts, releases, clock }),
        }
      })
      const [one, two] = processes as [(typeof processes)[0], (typeof processes)[0]]
      const retitle = async (file: string, title: string) =>
        (await readFile(join(ROOT, file), 'utf8')).replace(/^title: .*$/m, `title: ${title}`)
      await one.drafts.save(
        ada,
        'pages/about',
        [{ path: ABOUT, content: await retitle(ABOUT, 'From one') }],
        'one',
      )
      await one.drafts.setStatus(ada, 'pages/about', 'pending_review')
      await approveSeen(one.drafts, rita, 'pages/about')
      const GERMAN = 'content/de/pages/about.yaml'
      await two.drafts.save(
        ada,
        'pages/about-de',
        [{ path: GERMAN, content: await retitle(GERMAN, 'Von zwei') }],
        'two',
      )
      await two.drafts.setStatus(ada, 'pages/about-de', 'pending_review')
      await approveSeen(two.drafts, rita, 'pages/about-de')
      await Promise.all([
        one.publisher.publish(paul, 'pages/about'),
        two.publisher.publish(paul, 'pages/about-de'),
      ])
      expect(await served(ABOUT_PAGE)).toContain('From one')
      expect(await served('de/about/index.html')).toContain('Von zwei')
      expect((await verifyAudit(shared.database)).ok).toBe(true)
    } finally {
      await other.close()
      await shared.close()
    }
  })
})
