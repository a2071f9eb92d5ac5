/**
 * Symbolic links and submodules from the remote, as an attacker's probe used them: a link
 * `public/images/brand` to the live release's images pushed to the remote, then a draft that
 * saves an image under it, defaced the live site at once; a second link wrote into /tmp. Now
 * take-in refuses such a remote (in the trail, naming the path), and a save, a build and a
 * preview refuse a tree that holds one, writing nothing outside.
 */
import { randomBytes } from 'node:crypto'
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import { readAudit } from '../../../../src/publishing/audit/trail'
import { createCmsApi } from '../../../../src/publishing/editor/api'
import { type GitRepository, SpecialEntryError } from '../../../../src/publishing/git/repository'
import { UpstreamConflictError } from '../../../../src/publishing/publication/publish'
import { Publisher } from '../../../../src/publishing/publication/publisher'
import { BuildFailedError, Releases } from '../../../../src/publishing/publication/releases'
import { Drafts, MAIN } from '../../../../src/publishing/workflow/drafts'
import { Previews } from '../../../../src/publishing/workflow/previews'
import { standInReport } from '../../../support/build-report'
import { ada, paul } from '../../../support/people'
import {
  approvedDraft,
  openPublishingDatabase,
  type TestDatabase,
} from '../../../support/publishing'
import { DEVELOPER, siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const COVER = 'public/images/blog/kyc-methods-compared.svg'
const DEFACED = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9"/></svg>\n'

let opened: TestDatabase
let database: Database
let dir: string
let repo: GitRepository
let remote: GitRepository
let drafts: Drafts
let releases: Releases
let publisher: Publisher
/** Stands for `$RELEASES_DIR/current/images`: the live site's images. */
let live: string
let liveCover: string
/** A file the second link would write in the system's temporary folder. */
let strayName: string
let builds = 0

beforeAll(async () => {
  opened = await openPublishingDatabase({})
  database = opened.database
})

afterAll(async () => {
  await opened.close()
})

beforeEach(async () => {
  dir = await temporaryFolder('publishing-special-')
  repo = await siteRepository(join(dir, 'site.git'))
  remote = await siteRepository(join(dir, 'remote.git'))
  await database.query('DELETE FROM drafts')
  live = join(dir, 'releases', 'current', 'images')
  await mkdir(join(live, 'blog'), { recursive: true })
  liveCover = await readFile(join(ROOT, COVER), 'utf8')
  await writeFile(join(live, 'blog', 'kyc-methods-compared.svg'), liveCover)
  strayName = `special-files-${randomBytes(6).toString('hex')}.svg`
  drafts = new Drafts(database, repo)
  releases = new Releases({
    dir: join(dir, 'built'),
    workspace: join(dir, 'workspace'),
    nodeModules: join(ROOT, 'node_modules'),
    buildConfig: readBuildConfig({}),
    build: async (config) => {
      builds += 1
      await mkdir(config.outDir, { recursive: true })
      await writeFile(join(config.outDir, '_headers.json'), '{}')
      return standInReport()
    },
    keep: 2,
  })
  publisher = new Publisher({
    database,
    repo,
    drafts,
    releases,
    remote: { url: remote.gitDir, branch: 'main', push: false },
  })
  return () => removeFolder(dir)
})

/**
 * A commit on `target`'s main adding `entries` (path → mode and object) as git stores them: a
 * link is a blob holding its target with mode 120000, a submodule a commit id with 160000.
 */
async function commitEntries(
  target: GitRepository,
  entries: Record<string, { mode: '120000' | '160000'; link?: string; commit?: string }>,
): Promise<string> {
  const parent = (await target.resolve(MAIN)) as string
  const env = { GIT_INDEX_FILE: join(dir, `index-${randomBytes(4).toString('hex')}`) }
  await target.git(['read-tree', parent], undefined, env)
  const lines: string[] = []
  for (const [path, entry] of Object.entries(entries)) {
    const id =
      entry.commit ??
      (await target.git(['hash-object', '-w', '--stdin'], entry.link ?? '')).toString().trim()
    lines.push(`${entry.mode} ${id}\t${path}`)
  }
  await target.git(['update-index', '-z', '--index-info'], `${lines.join('\0')}\0`, env)
  const tree = (await target.git(['write-tree'], undefined, env)).toString().trim()
  const commit = await target.commitTree(tree, {
    parents: [parent],
    author: DEVELOPER,
    message: 'Brand images',
  })
  await target.moveRef(MAIN, commit, parent)
  return commit
}

/** The links of the probe: the live release's images, and the system's temporary folder. */
const probeLinks = () => ({
  'public/images/brand': { mode: '120000' as const, link: live },
  'public/images/scratch': { mode: '120000' as const, link: tmpdir() },
})

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

/** Nothing of the probe's reached the live images or the temporary folder. */
async function nothingWrittenOutside() {
  expect(await readFile(join(live, 'blog', 'kyc-methods-compared.svg'), 'utf8')).toBe(liveCover)
  expect(await readdir(join(live, 'blog'))).toEqual(['kyc-methods-compared.svg'])
  expect(await exists(join(tmpdir(), strayName))).toBe(false)
  expect(await exists(join(tmpdir(), 'blog', strayName))).toBe(false)
}

describe('taking in the remote', () => {
  it('refuses a remote whose main holds a symbolic link or a submodule, in the trail, naming each', async () => {
    const theirs = await commitEntries(remote, {
      ...probeLinks(),
      'vendor/library': { mode: '160000', commit: (await remote.resolve(MAIN)) as string },
    })
    await approvedDraft(drafts, 'About, with the remote')
    const before = await repo.resolve(MAIN)
    const error = await publisher.publish(paul, 'pages/about').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UpstreamConflictError)
    const message = (error as Error).message
    expect(message).toContain('public/images/brand (a symbolic link)')
    expect(message).toContain('public/images/scratch (a symbolic link)')
    expect(message).toContain('vendor/library (a submodule)')
    expect(message).toMatch(/nothing was taken in/)
    // Main, the served site and the draft are as they were; the refusal is in the trail.
    expect(await repo.resolve(MAIN)).toBe(before)
    expect(await releases.current()).toBeNull()
    expect(await drafts.get('pages/about')).not.toBeNull()
    const trail = await readAudit(database)
    expect(trail.some((entry) => entry.action === 'take-in')).toBe(false)
    expect(trail.at(-1)).toMatchObject({
      actor: 'service',
      action: 'refusal',
      subject: 'main',
      after: theirs,
      details: {
        code: 'special-files',
        files: [
          { path: 'public/images/brand', kind: 'a symbolic link' },
          { path: 'public/images/scratch', kind: 'a symbolic link' },
          { path: 'vendor/library', kind: 'a submodule' },
        ],
      },
    })
    await nothingWrittenOutside()
  })
})

describe('a tree that holds a link already (taken in before the check)', () => {
  beforeEach(async () => {
    await commitEntries(repo, probeLinks())
  })

  it('refuses a save with an image under the link, writing nothing where it points', async () => {
    const api = createCmsApi({ repo, drafts, publisher })
    const english = await readFile(join(ROOT, 'content/en/pages/about.yaml'), 'utf8')
    for (const image of [
      'public/images/brand/blog/kyc-methods-compared.svg',
      `public/images/scratch/${strayName}`,
    ]) {
      const answer = await api.handle(ada, {
        action: 'persistEntry',
        params: {
          dataFiles: [{ path: 'content/pages/en/about.yaml', slug: 'about', raw: `${english}\n` }],
          assets: [
            { path: image, content: Buffer.from(DEFACED).toString('base64'), encoding: 'base64' },
          ],
          options: { collectionName: 'pages', useWorkflow: true, status: 'draft' },
        },
      })
      expect(answer.status).toBe(422)
      expect((answer.body as { error: string }).error).toMatch(
        /public\/images\/brand \(a symbolic link\).*regular files only/,
      )
    }
    expect(await drafts.ids()).toEqual([])
    expect((await readAudit(database)).at(-1)).toMatchObject({
      actor: ada.email,
      action: 'refusal',
    })
    await nothingWrittenOutside()
  })

  it('refuses a draft’s commit on it, naming the link', async () => {
    const error = await drafts
      .save(
        ada,
        'pages/about',
        [{ path: 'content/en/pages/about.yaml', content: 'title: A\n' }],
        'A',
      )
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(SpecialEntryError)
    expect((error as Error).message).toContain('public/images/brand (a symbolic link)')
    expect(await drafts.ids()).toEqual([])
  })

  it('builds no release of it, writing nothing and checking nothing out', async () => {
    const commit = (await repo.resolve(MAIN)) as string
    const tried = builds
    const error = await releases.build(repo, commit, new Date()).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BuildFailedError)
    expect((error as Error).message).toMatch(
      /public\/images\/brand \(a symbolic link\).*nothing was built/,
    )
    expect(builds).toBe(tried)
    expect(await exists(join(dir, 'workspace', 'public', 'images', 'brand'))).toBe(false)
    expect(await releases.list()).toEqual([])
    await nothingWrittenOutside()
  })

  it('makes no preview of a draft on it', async () => {
    // The draft began before the link came: its own tree is clean, main's is not.
    await repo.moveRef(MAIN, (await remote.resolve(MAIN)) as string, await repo.resolve(MAIN))
    await drafts.save(
      ada,
      'pages/about',
      [{ path: 'content/en/pages/about.yaml', content: 'title: Preview\n' }],
      'Preview',
    )
    await commitEntries(repo, probeLinks())
    const previews = new Previews({
      repo,
      drafts,
      dir: join(dir, 'previews'),
      nodeModules: join(ROOT, 'node_modules'),
      buildConfig: readBuildConfig({}),
      build: async () => {
        builds += 1
        return standInReport()
      },
    })
    const tried = builds
    const error = await previews.siteOf('pages/about').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BuildFailedError)
    expect((error as Error).message).toContain('public/images/brand (a symbolic link)')
    expect(builds).toBe(tried)
    await nothingWrittenOutside()
  })
})
