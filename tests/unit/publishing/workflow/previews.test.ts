/**
 * Previews side by side: in an attacker's probe a slow drawing held its author's preview for a
 * minute, and another author's, queued behind it, for 50 s. Now a person's previews wait only
 * for that person's own, other people's are built beside them, and a person waits for a
 * preview a limited time (the build goes on, and is kept).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import type { BuildConfig } from '../../../../src/engine/config'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import type { GitRepository } from '../../../../src/publishing/git/repository'
import { Drafts } from '../../../../src/publishing/workflow/drafts'
import { Previews, PreviewTimeoutError } from '../../../../src/publishing/workflow/previews'
import { standInReport } from '../../../support/build-report'
import { ada, person } from '../../../support/people'
import { openPublishingDatabase, type TestDatabase } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const otto = person('otto@bank.example', ['author'])

let opened: TestDatabase
let database: Database
let dir: string
let repo: GitRepository
let drafts: Drafts
/** The drafts whose builds are held until released, and the builds begun, by draft title. */
let held: Map<string, () => void>
let begun: string[]

beforeAll(async () => {
  opened = await openPublishingDatabase({})
  database = opened.database
})

afterAll(async () => {
  await opened.close()
})

beforeEach(async () => {
  dir = await temporaryFolder('publishing-preview-queue-')
  repo = await siteRepository(join(dir, 'site.git'))
  await database.query('DELETE FROM drafts')
  drafts = new Drafts(database, repo)
  held = new Map()
  begun = []
  return () => removeFolder(dir)
})

const PAGES = ['about', 'imprint', 'careers'] as const

/** A stand-in build: the title of the draft's page, held while the test holds that title. */
async function build(config: BuildConfig) {
  const texts = await Promise.all(
    PAGES.map((page) => readFile(join(config.contentDir, `en/pages/${page}.yaml`), 'utf8')),
  )
  const title = texts
    .map((text) => /^title: (.*)$/m.exec(text)?.[1] ?? '')
    .find((text) => text.startsWith('Slow') || text.startsWith('Quick'))
  begun.push(title ?? '')
  if (title?.startsWith('Slow')) await new Promise<void>((release) => held.set(title, release))
  await mkdir(config.outDir, { recursive: true })
  await writeFile(join(config.outDir, '_headers.json'), '{}')
  return standInReport()
}

const previews = (timeLimitMs = 60_000) =>
  new Previews({
    repo,
    drafts,
    dir: join(dir, 'previews'),
    nodeModules: join(ROOT, 'node_modules'),
    buildConfig: readBuildConfig({}),
    build,
    timeLimitMs,
  })

/** A draft of `page` with `title`, by `who`. */
async function draftOf(who: typeof ada, page: (typeof PAGES)[number], title: string, slug = page) {
  const file = `content/en/pages/${page}.yaml`
  const text = (await repo.readFile('refs/heads/main', file))?.toString('utf8') ?? ''
  await drafts.save(
    who,
    `pages/${slug}`,
    [{ path: file, content: text.replace(/^title: .*$/m, `title: ${title}`) }],
    title,
  )
  return `pages/${slug}`
}

/** `promise`'s outcome, or `'waiting'` when it has none within `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms)),
  ])

describe('previews of several people', () => {
  it('builds another person’s preview while one person’s is slow, and hers after her own', async () => {
    const site = previews()
    const slow = await draftOf(ada, 'about', 'Slow about')
    const quick = await draftOf(otto, 'imprint', 'Quick imprint')
    const later = await draftOf(ada, 'careers', 'Quick careers')
    const adas = site.siteOf(slow, ada.email)
    adas.catch(() => {})
    while (!held.has('Slow about')) await new Promise((resolve) => setTimeout(resolve, 20))
    // Ada's build is under way and does not end; Otto's preview is built all the same.
    const ottos = await within(site.siteOf(quick, otto.email), 30_000)
    expect(ottos).toMatchObject({ value: expect.stringContaining(join(dir, 'previews')) })
    expect(await within(adas, 10)).toBe('waiting')
    // Ada's next preview waits for her own: one workspace each.
    const adasNext = site.siteOf(later, ada.email)
    expect(await within(adasNext, 1000)).toBe('waiting')
    expect(begun).toEqual(['Slow about', 'Quick imprint'])
    held.get('Slow about')?.()
    expect(await adas).toMatch(/previews\/[0-9a-f]{24}$/)
    expect(await adasNext).toMatch(/previews\/[0-9a-f]{24}$/)
    expect(begun).toEqual(['Slow about', 'Quick imprint', 'Quick careers'])
  }, 60_000)

  it('answers a person who waited past the time limit, and keeps the preview built after', async () => {
    const site = previews(1000)
    const slow = await draftOf(ada, 'about', 'Slow about')
    const error = await site.siteOf(slow, ada.email).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(PreviewTimeoutError)
    expect((error as Error).message).toMatch(
      /^The preview of pages\/about is not ready after 1 s: it is still being built/,
    )
    while (!held.has('Slow about')) await new Promise((resolve) => setTimeout(resolve, 20))
    held.get('Slow about')?.()
    // Built once: asked again, the same build is waited for, then kept.
    const folder = await site.siteOf(slow, ada.email)
    expect(folder).toMatch(/previews\/[0-9a-f]{24}$/)
    expect(begun).toEqual(['Slow about'])
  }, 60_000)
})
