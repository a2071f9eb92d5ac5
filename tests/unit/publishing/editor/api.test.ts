/**
 * The editor's protocol (Decap's proxy backend, editorial workflow) on the site's repository:
 * reads come from main, every save is a draft checked like the editor of `npm run dev` checks
 * it, statuses and publication follow the four-eyes rules, and bad input is refused with a
 * message that names what and where, changing nothing.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { load } from 'js-yaml'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import type { Database } from '../../../../src/database/database'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import {
  requestRecordSettled,
  withRequestRecord,
} from '../../../../src/publishing/audit/refusal-record'
import { readAudit } from '../../../../src/publishing/audit/trail'
import { type CmsAnswer, createCmsApi } from '../../../../src/publishing/editor/api'
import type { GitRepository } from '../../../../src/publishing/git/repository'
import type { Person } from '../../../../src/publishing/people/roles'
import { Publisher } from '../../../../src/publishing/publication/publisher'
import { Releases } from '../../../../src/publishing/publication/releases'
import { Drafts, type DraftView, MAIN } from '../../../../src/publishing/workflow/drafts'
import { standInReport } from '../../../support/build-report'
import { ada, addPeople, olga, paul, person, rita } from '../../../support/people'
import { approveSeen, openPublishingDatabase, type TestDatabase } from '../../../support/publishing'
import { DEVELOPER, siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const EN = 'content/pages/en/about.yaml'
const DE = 'content/pages/de/about.yaml'

let opened: TestDatabase
let database: Database
let dir: string
let repo: GitRepository
let api: ReturnType<typeof createCmsApi>
let drafts: Drafts
let english: string
let german: string
let main: string

beforeAll(async () => {
  opened = await openPublishingDatabase({})
  database = opened.database
  english = await readFile(join(ROOT, 'content/en/pages/about.yaml'), 'utf8')
  german = await readFile(join(ROOT, 'content/de/pages/about.yaml'), 'utf8')
})

afterAll(async () => {
  await opened.close()
})

beforeEach(async () => {
  dir = await temporaryFolder('cms-api-')
  repo = await siteRepository(join(dir, 'site.git'))
  main = (await repo.resolve(MAIN)) as string
  await database.query('DELETE FROM drafts')
  drafts = new Drafts(database, repo)
  // The build is the real one in publisher.test.ts; here a site of one page stands for it.
  const releases = new Releases({
    dir: join(dir, 'releases'),
    workspace: join(dir, 'workspace'),
    nodeModules: join(ROOT, 'node_modules'),
    buildConfig: readBuildConfig({}),
    build: async (config) => {
      const about = await readFile(join(config.contentDir, 'en/pages/about.yaml'), 'utf8')
      await mkdir(config.outDir, { recursive: true })
      await writeFile(join(config.outDir, 'index.html'), about)
      return standInReport()
    },
    keep: 2,
  })
  const publisher = new Publisher({ database, repo, drafts, releases })
  api = createCmsApi({ repo, drafts, publisher })
  return () => removeFolder(dir)
})

const call = (who: Person, action: string, params: Record<string, unknown> = {}) =>
  api.handle(who, { action, params: { branch: 'main', ...params } })

const body = <T>(answer: CmsAnswer) => answer.body as T

/** An answer as within an HTTP request: with whether its outcome needs no entry in the trail. */
const inRequest = (who: Person, action: string, params: Record<string, unknown> = {}) =>
  new Promise<{ status: number; settled: boolean }>((resolve, reject) => {
    withRequestRecord(() => {
      call(who, action, params).then(
        (answer) => resolve({ status: answer.status, settled: requestRecordSettled() }),
        reject,
      )
    })
  })

/** The version of a draft as the editor has it after opening it (`null`: no draft). */
const versionOf = async (who: Person, entry: { collection: string; slug: string }) => {
  const opened = await call(who, 'unpublishedEntry', entry)
  return opened.status === 404 ? null : body<{ version: string }>(opened).version
}

/**
 * The about page in both languages with the English title changed, as Decap sends it, made on
 * the version there now unless `extra` says another.
 */
const saveAbout = async (who: Person, title: string, extra: Record<string, unknown> = {}) =>
  call(who, 'persistEntry', {
    version: await versionOf(who, { collection: 'pages', slug: 'about' }),
    dataFiles: [
      { path: EN, slug: 'about', raw: english.replace(/^title: .*$/m, `title: ${title}`) },
      { path: DE, slug: 'about', raw: german },
    ],
    assets: [],
    options: {
      collectionName: 'pages',
      useWorkflow: true,
      newEntry: false,
      status: 'draft',
      commitMessage: `About: ${title}`,
    },
    ...extra,
  })

describe('reading what is live', () => {
  it('lists a collection’s entries from main and reads one', async () => {
    const entries = body<{ file: { path: string } }[]>(
      await call(ada, 'entriesByFolder', { folder: 'content/pages', extension: 'yaml', depth: 2 }),
    )
    expect(entries.map((entry) => entry.file.path)).toContain(EN)
    const entry = body<{ data: string }>(await call(ada, 'getEntry', { path: EN }))
    expect(entry.data).toBe(english)
  })
})

describe('drafts through the editor', () => {
  it('saves a draft as its author, main untouched, and shows it as Decap expects', async () => {
    const saved = await saveAbout(ada, 'About the bank')
    expect(saved).toEqual({
      status: 200,
      body: {
        message: 'entry saved as a draft',
        version: (await drafts.get('pages/about'))?.head,
        status: 'draft',
      },
    })
    expect(await repo.resolve(MAIN)).toBe(main)
    expect(body(await call(ada, 'unpublishedEntries'))).toEqual(['pages/about'])
    const entry = body<{ diffs: { path: string; newFile: boolean }[]; status: string }>(
      await call(rita, 'unpublishedEntry', { id: 'pages/about' }),
    )
    expect(entry).toMatchObject({
      collection: 'pages',
      slug: 'about',
      status: 'draft',
      pullRequestAuthor: ada.email,
      diffs: [{ path: EN, newFile: false }],
    })
    const file = body<{ data: string }>(
      await call(rita, 'unpublishedEntryDataFile', {
        collection: 'pages',
        slug: 'about',
        path: EN,
        id: '',
      }),
    )
    expect(file.data).toContain('title: About the bank')
    expect(
      await call(ada, 'unpublishedEntry', { collection: 'pages', slug: 'imprint' }),
    ).toMatchObject({ status: 404 })
  })

  it('writes back only the fields that changed, keeping the file’s formatting elsewhere', async () => {
    // Decap sends the whole entry in its own form: folded texts as one line, its own quoting.
    const data = load(english) as Record<string, unknown>
    const raw = stringify({ ...data, title: 'About the bank, kept' }, { lineWidth: 0 })
    expect(raw).not.toContain('description: >-')
    expect(english).toContain('description: >-')
    const saved = await call(ada, 'persistEntry', {
      version: null,
      dataFiles: [{ path: EN, slug: 'about', raw }],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true, status: 'draft' },
    })
    expect(saved.status).toBe(200)
    const draft = (await drafts.get('pages/about')) as DraftView
    const stored = (await repo.readFile(draft.head, 'content/en/pages/about.yaml'))?.toString()
    expect(stored).toBe(english.replace(/^title: .*$/m, 'title: About the bank, kept'))
  })

  it('refuses a change that breaks the content, naming file and field, and stores nothing', async () => {
    const refused = await saveAbout(ada, '""')
    expect(refused.status).toBe(422)
    expect(body<{ error: string }>(refused).error).toMatch(/about\.yaml.*title/)
    expect(body(await call(ada, 'unpublishedEntries'))).toEqual([])
  })

  it('reads what is not there as an answer, no refusal: an entry without a draft, above all', async () => {
    const before = (await readAudit(database)).length
    const about = { collection: 'pages', slug: 'about' }
    expect(await inRequest(ada, 'unpublishedEntry', about)).toEqual({ status: 404, settled: true })
    expect(
      await inRequest(ada, 'unpublishedEntryDataFile', { ...about, path: EN, id: '' }),
    ).toEqual({ status: 404, settled: true })
    expect(await inRequest(ada, 'getMediaFile', { path: 'public/images/none.png' })).toEqual({
      status: 404,
      settled: true,
    })
    // A read the path rules refuse is a refusal: the HTTP layer records it.
    expect(await inRequest(ada, 'getEntry', { path: 'content/../../etc/passwd' })).toEqual({
      status: 400,
      settled: false,
    })
    expect((await readAudit(database)).length).toBe(before)
    // A write to a draft that is not there is refused, and recorded here.
    const status = { ...about, newStatus: 'pending_review' }
    expect((await inRequest(ada, 'updateUnpublishedEntryStatus', status)).status).toBe(404)
    expect((await readAudit(database)).slice(before).map((entry) => entry.action)).toEqual([
      'refusal',
    ])
  })

  it('refuses a save outside the workflow, a path outside the content, an unknown collection and a forged status', async () => {
    const direct = await saveAbout(ada, 'Direct', {
      options: { collectionName: 'pages', useWorkflow: false },
    })
    expect(direct.status).toBe(403)
    expect(body<{ error: string }>(direct).error).toMatch(/review/)
    const outside = await call(ada, 'getEntry', { path: 'content/../../etc/passwd' })
    expect(outside.status).toBe(400)
    const unknown = await call(ada, 'persistEntry', {
      dataFiles: [{ path: 'content/secrets/en/x.yaml', slug: 'x', raw: 'a: b\n' }],
      assets: [],
      options: { collectionName: 'secrets', useWorkflow: true },
    })
    expect(unknown.status).toBe(400)
    expect(body<{ error: string }>(unknown).error).toMatch(/no collection "secrets"/)
    // A write refused as bad input is in the trail, as the rules' refusals are; a read is not.
    expect((await readAudit(database)).at(-1)).toMatchObject({
      action: 'refusal',
      actor: ada.email,
      subject: 'secrets',
      details: {
        code: 'request',
        action: 'persistEntry',
        reason: expect.stringMatching(/no collection "secrets"/),
      },
    })
    await saveAbout(ada, 'About the bank')
    const forged = await call(ada, 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug: 'about',
      newStatus: 'published',
    })
    expect(forged.status).toBe(422)
    expect((await drafts.get('pages/about'))?.status).toBe('draft')
    expect(await repo.resolve(MAIN)).toBe(main)
  })

  it('takes an image with the entry into the draft, and refuses one that is too large', async () => {
    const { default: sharp } = await import('sharp')
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer()
    const saved = await saveAbout(ada, 'With a picture', {
      assets: [
        {
          path: 'public/images/team-photo.png',
          content: png.toString('base64'),
          encoding: 'base64',
        },
      ],
    })
    expect(saved.status).toBe(200)
    expect((await drafts.get('pages/about'))?.files).toContain('public/images/team-photo.png')
    const big = Buffer.alloc(6 * 1024 * 1024)
    const refused = await saveAbout(ada, 'Too big', {
      assets: [
        { path: 'public/images/huge.png', content: big.toString('base64'), encoding: 'base64' },
      ],
    })
    expect(refused.status).toBe(400)
    expect(body<{ error: string }>(refused).error).toMatch(/huge\.png is 6\.0 MB/)
  })

  it('moves a draft through review: the author may not approve it, a reviewer may, a publisher publishes', async () => {
    await saveAbout(ada, 'Reviewed')
    const about = { collection: 'pages', slug: 'about' }
    const version = await versionOf(ada, about)
    const toReview = { ...about, newStatus: 'pending_review', version }
    expect((await call(ada, 'updateUnpublishedEntryStatus', toReview)).status).toBe(200)
    const ready = { ...about, newStatus: 'pending_publish', version }
    const own = await call(ada, 'updateUnpublishedEntryStatus', ready)
    expect(own.status).toBe(403)
    expect(body<{ error: string }>(own).error).toMatch(/reviewer/)
    expect((await call(rita, 'updateUnpublishedEntryStatus', ready)).status).toBe(200)
    const early = await call(rita, 'publishUnpublishedEntry', { ...about, version })
    expect(early.status).toBe(403)
    const published = await call(paul, 'publishUnpublishedEntry', { ...about, version })
    expect(published.status).toBe(200)
    expect(
      (
        await repo.readFile((await repo.resolve(MAIN)) as string, 'content/en/pages/about.yaml')
      )?.toString(),
    ).toContain('title: Reviewed')
    expect(body(await call(ada, 'unpublishedEntries'))).toEqual([])
    const actions = (await readAudit(database)).map((entry) => entry.action)
    expect(actions.slice(-4)).toEqual(['refusal', 'approve', 'refusal', 'publish'])
  })

  it('holds a draft to its own entry: another entry’s file, a settings file or an existing image is refused', async () => {
    const imprint = await call(ada, 'persistEntry', {
      dataFiles: [
        { path: EN, slug: 'about', raw: english },
        { path: 'content/pages/en/imprint.yaml', slug: 'about', raw: 'title: Hijacked\n' },
      ],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true },
    })
    expect(imprint.status).toBe(400)
    expect(body<{ error: string }>(imprint).error).toMatch(
      /imprint\.yaml is not a file of pages\/about/,
    )
    const settings = await call(ada, 'persistEntry', {
      dataFiles: [{ path: 'content/site.yaml', slug: 'about', raw: 'x: y\n' }],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true },
    })
    expect(settings.status).toBe(400)
    const replaced = await saveAbout(ada, 'Replacing an image', {
      assets: [
        {
          path: 'public/images/blog/designing-idempotent-payment-apis.svg',
          content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
          encoding: 'base64',
        },
      ],
    })
    expect(replaced.status).toBe(409)
    expect(body<{ error: string }>(replaced).error).toMatch(/exists on the live site already/)
    expect(body(await call(ada, 'unpublishedEntries'))).toEqual([])
  })

  it('writes no image where the build writes its own: a card of a page the draft never touched stays the build’s', async () => {
    const { default: sharp } = await import('sharp')
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer()
    const asset = (path: string) => ({
      path,
      content: png.toString('base64'),
      encoding: 'base64',
    })
    const refusalsBefore = (await readAudit(database)).filter((e) => e.action === 'refusal').length
    // Another post's sharing card, the hashed copies, and the same folder in capitals.
    for (const path of [
      'public/images/cards/blog-how-we-test-our-apis.png',
      'public/images/_/kyc-methods-compared-0a1b2c3d.svg',
      'public/images/Cards/site.png',
    ]) {
      const withEntry = await saveAbout(ada, 'With a card', { assets: [asset(path)] })
      expect(withEntry.status).toBe(400)
      expect(body<{ error: string }>(withEntry).error).toMatch(
        /where the build writes files of its own: choose another folder/,
      )
      const alone = await call(ada, 'persistMedia', { asset: asset(path) })
      expect(alone.status).toBe(400)
    }
    expect(await drafts.ids()).toEqual([])
    const refusals = (await readAudit(database)).filter((e) => e.action === 'refusal')
    expect(refusals.length - refusalsBefore).toBe(6)
    expect(await repo.resolve(MAIN)).toBe(main)
  })

  it('tells the drafts of two images of one name apart by their whole path', async () => {
    const { default: sharp } = await import('sharp')
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123' } })
      .png()
      .toBuffer()
    for (const path of ['public/images/blog/branch.png', 'public/images/branch.png']) {
      const answer = await call(ada, 'persistMedia', {
        asset: { path, content: png.toString('base64'), encoding: 'base64' },
      })
      expect(answer.status).toBe(200)
      expect(body<{ path: string; notice: string }>(answer)).toMatchObject({
        path,
        notice: expect.stringMatching(/^Uploaded as a draft/),
      })
    }
    expect((await drafts.get('media/blog/branch.png'))?.adds).toEqual([
      'public/images/blog/branch.png',
    ])
    expect((await drafts.get('media/branch.png'))?.adds).toEqual(['public/images/branch.png'])
  })

  it('keeps comments on a draft that everyone who opens it sees, as written', async () => {
    await saveAbout(ada, 'Commented')
    const draft = { collection: 'pages', slug: 'about' }
    const added = await call(rita, 'addNote', {
      ...draft,
      note: { content: 'Say "partner banks".' },
    })
    expect(added.status).toBe(200)
    const notes = body<{ notes: { content: string; author: string }[] }>(
      await call(ada, 'getNotes', draft),
    ).notes
    expect(notes).toMatchObject([{ content: 'Say "partner banks".', author: rita.email }])
    // Listed people are named by their names: the note's writer, the draft's author.
    await addPeople(database, [
      { ...rita, name: 'Rita Reviewer' },
      { ...ada, name: 'Ada Author' },
    ])
    expect(
      body<{ notes: { author: string }[] }>(await call(ada, 'getNotes', draft)).notes,
    ).toMatchObject([{ author: 'Rita Reviewer' }])
    expect(await call(rita, 'unpublishedEntry', { id: 'pages/about' }).then(body)).toMatchObject({
      pullRequestAuthor: 'Ada Author',
    })
    expect((await call(rita, 'deleteNote', { ...draft, noteId: '1' })).status).toBe(403)
    expect((await call(ada, 'addNote', { ...draft, note: { content: ' ' } })).status).toBe(422)
    const trail = await readAudit(database)
    expect(trail.slice(-3).map((entry) => entry.action)).toEqual(['comment', 'refusal', 'refusal'])
    expect(trail.at(-3)).toMatchObject({ action: 'comment', actor: rita.email })
    expect(trail.at(-1)).toMatchObject({
      actor: ada.email,
      subject: 'pages/about',
      details: { code: 'request', action: 'addNote' },
    })
  })

  it('restarts a draft that no longer merges when it is saved again, even unchanged, keeping the live site’s other changes', async () => {
    await saveAbout(ada, 'Drafted title')
    // Meanwhile on main: the same title line, and the description beside it.
    const live = english
      .replace(/^title: .*$/m, 'title: Live title')
      .replace(/^description: >-\n(?: {2}.*\n)+/m, 'description: Live description\n')
    expect(live).not.toBe(english)
    const moved = await repo.commit({
      ref: MAIN,
      parent: main,
      changes: [{ path: 'content/en/pages/about.yaml', content: live }],
      author: DEVELOPER,
      message: 'Live edits',
    })
    expect(await drafts.mergesWithMain((await drafts.get('pages/about'))?.head as string)).toBe(
      false,
    )
    // The editor sends the entry as the draft has it, nothing changed in it.
    expect((await saveAbout(ada, 'Drafted title')).status).toBe(200)
    const draft = (await drafts.get('pages/about')) as DraftView
    expect(draft.base).toBe(moved)
    const text = (await repo.readFile(draft.head, 'content/en/pages/about.yaml'))?.toString()
    expect(text).toMatch(/^title: Drafted title$/m)
    expect(text).toMatch(/^description: Live description$/m)
    expect(draft.comments.at(-1)?.body).toContain('content/en/pages/about.yaml: title')
    expect(await drafts.mergesWithMain(draft.head)).toBe(true)
  })

  it('refuses a save made on an older version, saying who saved in between, and keeps theirs', async () => {
    // Finding 3 of the insider's probe: two authors open the draft, both save; both got 200.
    await saveAbout(ada, 'First')
    const about = { collection: 'pages', slug: 'about' }
    const opened = await versionOf(ada, about)
    const [file] = body<{ diffs: { id: string }[] }>(
      await call(ada, 'unpublishedEntry', about),
    ).diffs
    expect(await saveAbout(olga, 'By Olga')).toMatchObject({ status: 200 })
    // What Ada's editor goes on to read of the draft is the version it was told of.
    const read = await call(ada, 'unpublishedEntryDataFile', { ...about, path: EN, id: file?.id })
    expect(body<{ data: string }>(read).data).toMatch(/^title: First$/m)
    const late = await saveAbout(ada, 'By Ada, late', { version: opened })
    expect(late.status).toBe(409)
    expect(body<{ error: string }>(late).error).toMatch(
      /^Not saved: olga saved this entry at .* \(Berlin\) \(version [0-9a-f]{7}\), after you opened it, and your save would have overwritten it\. Reload the entry/,
    )
    const kept = (await drafts.get('pages/about')) as DraftView
    expect((await repo.readFile(kept.head, 'content/en/pages/about.yaml'))?.toString()).toMatch(
      /^title: By Olga$/m,
    )
    // A save sent with no version is one made on the live entry: the draft there is not it.
    const blind = await call(ada, 'persistEntry', {
      dataFiles: [
        { path: EN, slug: 'about', raw: english.replace(/^title: .*$/m, 'title: Blind') },
      ],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true, status: 'draft' },
    })
    expect(blind.status).toBe(409)
    const named = await saveAbout(ada, 'Named by ref', { version: 'HEAD~1' })
    expect(named).toMatchObject({ status: 400, body: { error: 'not a version: "HEAD~1"' } })
    expect((await drafts.get('pages/about'))?.head).toBe(kept.head)
  })

  it('keeps one file to one draft: a service opened as a page is the same file, refused', async () => {
    const services = await call(ada, 'entriesByFolder', {
      folder: 'content/service',
      extension: 'yaml',
      depth: 2,
    })
    const path = body<{ file: { path: string } }[]>(services)
      .map((entry) => entry.file.path)
      .find((file) => file.startsWith('content/service/en/')) as string
    const slug = path
      .split('/')
      .at(-1)
      ?.replace(/\.yaml$/, '') as string
    const raw = body<{ data: string }>(await call(ada, 'getEntry', { path })).data
    const edit = (collection: string, entrySlug: string, entryPath: string, title: string) =>
      call(ada, 'persistEntry', {
        version: null,
        dataFiles: [
          { path: entryPath, slug: entrySlug, raw: raw.replace(/^title: .*$/m, `title: ${title}`) },
        ],
        assets: [],
        options: { collectionName: collection, useWorkflow: true, status: 'draft' },
      })
    expect((await edit('service', slug, path, 'As a service')).status).toBe(200)
    const asPage = await edit(
      'pages',
      `services.${slug}`,
      `content/pages/en/services.${slug}.yaml`,
      'As a page',
    )
    expect(asPage.status).toBe(409)
    expect(body<{ error: string }>(asPage).error).toMatch(
      new RegExp(
        `is changed by another draft already, service/${slug}, and one file belongs to one draft`,
      ),
    )
    expect(body(await call(ada, 'unpublishedEntries'))).toEqual([`service/${slug}`])
  })

  it('discards a draft; main stays as it was', async () => {
    await saveAbout(ada, 'Discarded')
    expect(
      (await call(ada, 'deleteUnpublishedEntry', { collection: 'pages', slug: 'about' })).status,
    ).toBe(200)
    expect(await drafts.get('pages/about')).toBeNull()
    expect(await repo.resolve(MAIN)).toBe(main)
  })
})

describe('deletions and images on their own go through review too', () => {
  const JOB_EN = 'content/jobPosting/en/working-student-data.yaml'
  const JOB_DE = 'content/jobPosting/de/working-student-data.yaml'
  const job = { collection: 'jobPosting', slug: 'working-student-data' }
  const live = async (path: string) => repo.readFile((await repo.resolve(MAIN)) as string, path)

  it('makes "delete published entry" a draft in review that says so, shows the live entry, and deletes on publication', async () => {
    const asked = await call(ada, 'deleteFiles', {
      paths: [JOB_EN, JOB_DE],
      options: { commitMessage: 'Delete jobs “working-student-data”' },
    })
    // Done as what it is, a draft: not deleted yet, and the editor says so beside it.
    expect(asked.status).toBe(200)
    expect(body<{ notice: string }>(asked).notice).toMatch(
      /^Not deleted yet: every change goes through review\. The deletion of jobPosting\/working-student-data is a draft now/,
    )
    expect(await live('content/en/jobs/working-student-data.yaml')).not.toBeNull()
    const draft = await drafts.get('jobPosting/working-student-data')
    expect(draft).toMatchObject({
      status: 'pending_review',
      writers: [ada.email],
      deletes: [
        'content/de/jobs/working-student-data.yaml',
        'content/en/jobs/working-student-data.yaml',
      ],
      comments: [{ by: ada.email, body: expect.stringMatching(/^Asks for deletion/) }],
    })
    // On the board and in the editor it is the entry as it is live.
    expect(body(await call(rita, 'unpublishedEntries'))).toEqual([
      'jobPosting/working-student-data',
    ])
    expect(
      body<{ diffs: unknown[]; status: string }>(await call(rita, 'unpublishedEntry', job)),
    ).toMatchObject({
      collection: 'jobPosting',
      slug: 'working-student-data',
      status: 'pending_review',
      diffs: [
        { path: JOB_DE, newFile: false },
        { path: JOB_EN, newFile: false },
      ],
    })
    const shown = await call(rita, 'unpublishedEntryDataFile', { ...job, path: JOB_EN, id: '' })
    expect(body<{ data: string }>(shown).data).toBe(
      await readFile(join(ROOT, 'content/en/jobs/working-student-data.yaml'), 'utf8'),
    )
    // A second request while one waits is refused.
    expect((await call(ada, 'deleteFiles', { paths: [JOB_EN, JOB_DE] })).status).toBe(409)

    // The four-eyes rules as for any change, then the files go.
    const version = await versionOf(rita, job)
    const ready = { ...job, newStatus: 'pending_publish', version }
    expect((await call(ada, 'updateUnpublishedEntryStatus', ready)).status).toBe(403)
    expect((await call(rita, 'updateUnpublishedEntryStatus', ready)).status).toBe(200)
    expect((await call(paul, 'publishUnpublishedEntry', { ...job, version })).status).toBe(200)
    expect(await live('content/en/jobs/working-student-data.yaml')).toBeNull()
    expect(await live('content/de/jobs/working-student-data.yaml')).toBeNull()
    const trail = (await readAudit(database)).map((entry) => entry.action)
    // The second request and the author's approval were refused, each in the trail.
    expect(trail.slice(-7)).toEqual([
      'save',
      'comment',
      'submit',
      'refusal',
      'refusal',
      'approve',
      'publish',
    ])
  })

  it('refuses a deletion the content does not allow, naming file and field, and one of files not live', async () => {
    const page = await call(ada, 'deleteFiles', { paths: [EN, DE] })
    expect(page.status).toBe(422)
    expect(body<{ error: string }>(page).error).toMatch(/about\.yaml/)
    // An image a post shows.
    const image = await call(ada, 'deleteFiles', {
      paths: ['public/images/blog/designing-idempotent-payment-apis.svg'],
    })
    expect(image.status).toBe(422)
    expect(body<{ error: string }>(image).error).toMatch(
      /^Deleting this image would break the content, so nothing was deleted\. .*designing-idempotent-payment-apis/,
    )
    const settings = await call(ada, 'deleteFiles', { paths: ['content/site.yaml'] })
    expect(settings.status).toBe(403)
    const two = await call(ada, 'deleteFiles', { paths: [JOB_EN, EN] })
    expect(two.status).toBe(400)
    const gone = await call(ada, 'deleteFiles', {
      paths: ['content/jobPosting/en/no-such-job.yaml'],
    })
    expect(gone.status).toBe(404)
    const outside = await call(ada, 'deleteFiles', { paths: ['../../etc/passwd'] })
    expect(outside.status).toBe(400)
    expect(body(await call(ada, 'unpublishedEntries'))).toEqual([])
    expect(await repo.resolve(MAIN)).toBe(main)
  })

  it('makes an upload in the media library a draft of its own, and a deletion of an image too', async () => {
    const { default: sharp } = await import('sharp')
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#993366' } })
      .png()
      .toBuffer()
    const upload = (path: string, content: Buffer) =>
      call(ada, 'persistMedia', {
        asset: { path, content: content.toString('base64'), encoding: 'base64' },
        options: { commitMessage: 'Upload' },
      })
    const uploaded = await upload('public/images/branch-office.png', png)
    // Uploaded as a draft: answered as Decap's own backend answers an upload, with a notice.
    expect(uploaded.status).toBe(200)
    expect(body(uploaded)).toMatchObject({
      path: 'public/images/branch-office.png',
      name: 'branch-office.png',
      content: png.toString('base64'),
      encoding: 'base64',
      notice: expect.stringMatching(/^Uploaded as a draft: every change goes through review\./),
    })
    expect(await drafts.get('media/branch-office.png')).toMatchObject({
      status: 'pending_review',
      adds: ['public/images/branch-office.png'],
    })
    // Not on the board (no entry of Decap's); in its author's library, nobody else's, before it
    // is published; the site's images in the folders below are there for everyone.
    expect(body(await call(ada, 'unpublishedEntries'))).toEqual([])
    const library = (who = ada) =>
      call(who, 'getMedia', { mediaFolder: 'public/images' }).then((answer) =>
        body<{ path: string }[]>(answer).map((file) => file.path),
      )
    expect(await library()).toContain('public/images/branch-office.png')
    expect(await library(rita)).not.toContain('public/images/branch-office.png')
    expect(await library(rita)).toContain(
      'public/images/blog/designing-idempotent-payment-apis.svg',
    )
    // A file that is no image, a drawing that runs script, and a name the live site has, are
    // refused.
    expect((await upload('public/images/not-an-image.png', Buffer.from('hello'))).status).toBe(400)
    const scripted = await upload(
      'public/images/scripted.svg',
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
      ),
    )
    expect(scripted.status).toBe(400)
    expect(body<{ error: string }>(scripted).error).toBe(
      'scripted.svg contains script (a javascript: address in xlink:href on <a>), which the site does not run: remove it',
    )
    expect(await drafts.get('media/scripted.svg')).toBeNull()
    const taken = await upload('public/images/blog/designing-idempotent-payment-apis.svg', png)
    expect(taken.status).toBe(409)
    expect(body<{ error: string }>(taken).error).toMatch(/exists on the live site already/)

    await approveSeen(drafts, rita, 'media/branch-office.png')
    expect(
      (
        await call(paul, 'publishUnpublishedEntry', {
          collection: 'media',
          slug: 'branch-office.png',
          version: (await drafts.get('media/branch-office.png'))?.head,
        })
      ).status,
    ).toBe(200)
    expect(await library()).toContain('public/images/branch-office.png')
    expect((await live('public/images/branch-office.png'))?.equals(png)).toBe(true)

    // Deleting it from the library is a draft again.
    const deletion = await call(ada, 'deleteFiles', { paths: ['public/images/branch-office.png'] })
    expect(deletion.status).toBe(200)
    expect(await drafts.get('media/branch-office.png')).toMatchObject({
      status: 'pending_review',
      deletes: ['public/images/branch-office.png'],
    })
    expect(await library()).toContain('public/images/branch-office.png')
  })
})

describe('the refusals a German editor meets, in German', () => {
  const greta = person('greta@bank.example', ['author'], 'de')
  const error = (answer: CmsAnswer) => body<{ error: string }>(answer).error
  /** English words none of these German sentences has (file names aside). */
  const ENGLISH = /\b(the|is|not|would|nothing|was|saved|exists|already|expected|image)\b/

  it('names a change that breaks the content, its file and its field by the German label', async () => {
    const refused = await saveAbout(greta, '""')
    expect(refused.status).toBe(422)
    expect(error(refused)).toBe(
      'Diese Änderung würde Inhalte der Website beschädigen, deshalb wurde nichts gespeichert. content/en/pages/about.yaml, Feld „Titel“: Der Seitentitel fehlt oder ist kein Text.',
    )
  })

  it('refuses images, comments and deletions in German', async () => {
    const { default: sharp } = await import('sharp')
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer()
    const upload = (path: string, content: Buffer) =>
      call(greta, 'persistMedia', {
        asset: { path, content: content.toString('base64'), encoding: 'base64' },
      })
    const taken = await upload('public/images/blog/designing-idempotent-payment-apis.svg', png)
    expect(taken.status).toBe(409)
    expect(error(taken)).toBe(
      'public/images/blog/designing-idempotent-payment-apis.svg gibt es schon auf der veröffentlichten Website: Geben Sie dem neuen Bild einen eigenen Namen.',
    )
    const unreadable = await upload('public/images/hello.png', Buffer.from('hello'))
    expect(error(unreadable)).toBe(
      'hello.png ist kein Bild: Sein Inhalt lässt sich nicht als Bild lesen.',
    )
    const generated = await upload('public/images/cards/mine.png', png)
    expect(error(generated)).toMatch(
      /^public\/images\/cards\/mine\.png liegt in public\/images\/cards\/, wo der Build eigene Dateien ablegt/,
    )
    const inUse = await call(greta, 'deleteFiles', {
      paths: ['public/images/blog/designing-idempotent-payment-apis.svg'],
    })
    expect(error(inUse)).toMatch(
      /^Das Löschen dieses Bildes würde Inhalte der Website beschädigen, deshalb wurde nichts gelöscht\. content\/blog\/posts\/.*, Feld „Titelbild › Bilddatei“: /,
    )
    await saveAbout(greta, 'Kommentiert')
    const draft = { collection: 'pages', slug: 'about' }
    const kept = await call(greta, 'updateNote', { ...draft, noteId: '1' })
    expect(error(kept)).toBe(
      'Kommentare bleiben, wie sie geschrieben wurden: Sie gehören zum Prüfpfad. Fügen Sie einen weiteren hinzu.',
    )
    const empty = await call(greta, 'addNote', { ...draft, note: { content: ' ' } })
    expect(empty.status).toBe(422)
    expect(error(empty)).toBe('Bitte schreiben Sie einen Kommentar mit 1 bis 5.000 Zeichen.')
    for (const answer of [taken, unreadable, generated, kept, empty]) {
      expect(error(answer).replace(/\S*\/\S*/g, '')).not.toMatch(ENGLISH)
    }
  })

  it('says the same in English to an English editor, as it always did', async () => {
    const refused = await saveAbout(ada, '""')
    expect(error(refused)).toMatch(
      /^This change would break the content, so nothing was saved\. content\/en\/pages\/about\.yaml › title: expected the page title as text/,
    )
  })
})
