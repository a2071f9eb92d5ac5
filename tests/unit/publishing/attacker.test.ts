/**
 * The publishing service against random sequences of the editor's actions by random people
 * (fast-check): authors, a reviewer, a publisher, someone who holds every role, an
 * administrator and someone whose access was taken away save, submit, withdraw, set "Ready",
 * approve, send back, publish and discard two entries, through the service's real HTTP routes
 * (the editor's protocol and the page of changes), on git and a real database. After every step:
 *
 * - main moved only by a recorded publication, and each publication put on main a version of
 *   the draft that one of its authors had submitted, approved by a reviewer who wrote none of
 *   it and published by a publisher who wrote none of it;
 * - what went live is exactly a version some reviewer saw and approved: each person acts on the
 *   version they last opened (as the editor and the page of changes send it), often one that
 *   someone else saved over since, and an approval that went through was of the version its
 *   reviewer had opened;
 * - every refusal of a signed-in person's write is in the trail; a stranger's changes nothing;
 * - the trail's chain verifies.
 *
 * A fixed seed and a bounded number of runs, so `npm test` is the same every time; a failure
 * prints the seed and the shrunk sequence (`FC_SEED=… FC_RUNS=…` runs others).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../src/engine/config'
import { type AuditEntry, readAudit, verifyAudit } from '../../../src/publishing/audit/trail'
import { authorsBetween } from '../../../src/publishing/git/repository'
import { createPublishingApp, SESSION_COOKIE } from '../../../src/publishing/http/app'
import { disablePerson, startSession } from '../../../src/publishing/people/people'
import type { Role } from '../../../src/publishing/people/roles'
import type { PublishingService } from '../../../src/publishing/service'
import { MAIN } from '../../../src/publishing/workflow/drafts'
import { openServiceWithStandInBuild } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const SEED = Number(process.env.FC_SEED ?? 20261127)
const RUNS = Number(process.env.FC_RUNS ?? 12)
const ORIGIN = 'http://localhost:8081'

const PEOPLE: Record<string, Role[]> = {
  'ada@bank.example': ['author'],
  'otto@bank.example': ['author'],
  'rita@bank.example': ['reviewer'],
  'paul@bank.example': ['publisher'],
  'olga@bank.example': ['author', 'reviewer', 'publisher'],
  'anna@bank.example': ['administrator'],
  'gone@bank.example': ['author', 'reviewer', 'publisher'],
}
const ENTRIES = ['about', 'imprint'] as const
const ACTIONS = [
  'open',
  'save',
  'submit',
  'withdraw',
  'ready',
  'approve',
  'send-back',
  'publish',
  'publish-in-editor',
  'discard',
] as const

interface Step {
  action: (typeof ACTIONS)[number]
  who: string
  entry: (typeof ENTRIES)[number]
  title: string
}

/** Who would do each action: drawn three times as often as anyone at all. */
const LIKELY: Record<Step['action'], string[]> = {
  open: ['ada@bank.example', 'otto@bank.example', 'rita@bank.example', 'paul@bank.example'],
  save: ['ada@bank.example', 'otto@bank.example', 'olga@bank.example'],
  submit: ['ada@bank.example', 'otto@bank.example', 'olga@bank.example'],
  withdraw: ['ada@bank.example', 'otto@bank.example'],
  ready: ['rita@bank.example', 'olga@bank.example'],
  approve: ['rita@bank.example', 'olga@bank.example'],
  'send-back': ['rita@bank.example'],
  publish: ['paul@bank.example', 'olga@bank.example'],
  'publish-in-editor': ['paul@bank.example', 'olga@bank.example'],
  discard: ['ada@bank.example', 'otto@bank.example'],
}

/** An action by someone, on an entry: the lifecycle's steps more often than the rest. */
const step: fc.Arbitrary<Step> = fc
  .oneof(
    ...(['open', 'save', 'submit', 'approve', 'publish'] as const).map((action) => ({
      weight: 4,
      arbitrary: fc.constant(action),
    })),
    ...(['withdraw', 'ready', 'send-back', 'publish-in-editor', 'discard'] as const).map(
      (action) => ({ weight: 1, arbitrary: fc.constant(action) }),
    ),
  )
  .chain((action) =>
    fc.record({
      action: fc.constant(action),
      who: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...LIKELY[action]) },
        { weight: 1, arbitrary: fc.constantFrom(...Object.keys(PEOPLE)) },
      ),
      entry: fc.oneof(
        { weight: 3, arbitrary: fc.constant(ENTRIES[0]) },
        { weight: 1, arbitrary: fc.constant(ENTRIES[1]) },
      ),
      title: fc.constantFrom('Plain', 'Changed', 'Third', 'With “quotes”'),
    }),
  )

const someone = (likely: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...likely) },
    { weight: 1, arbitrary: fc.constantFrom(...Object.keys(PEOPLE)) },
  )

/**
 * A draft's whole way (saved, submitted, approved, published) by people drawn as for single
 * steps: often the right ones, sometimes anyone; now and then a step left out.
 */
const lifecycle: fc.Arbitrary<Step[]> = fc
  .record({
    author: someone(LIKELY.save),
    reviewer: someone(LIKELY.approve),
    publisher: someone(LIKELY.publish),
    entry: fc.constantFrom(...ENTRIES),
    title: fc.constantFrom('Plain', 'Changed', 'Third', 'With “quotes”'),
    kept: fc.array(
      fc.integer({ min: 0, max: 6 }).map((draw) => draw > 0),
      { minLength: 4, maxLength: 4 },
    ),
  })
  .map(({ author, reviewer, publisher, entry, title, kept }) =>
    (
      [
        { action: 'open', who: author, entry, title },
        { action: 'save', who: author, entry, title },
        { action: 'submit', who: author, entry, title },
        { action: 'open', who: reviewer, entry, title },
        { action: 'approve', who: reviewer, entry, title },
        { action: 'open', who: publisher, entry, title },
        { action: 'publish', who: publisher, entry, title },
      ] as Step[]
    ).filter((taken, index) => taken.action === 'open' || kept[Math.floor(index / 2)]),
  )

/** Single steps and whole ways, mixed. */
const sequence = fc
  .array(
    fc.oneof(
      step.map((one) => [one]),
      lifecycle,
    ),
    { minLength: 2, maxLength: 6 },
  )
  .map((chunks) => chunks.flat())

// On PGlite (PostgreSQL itself, in the process): the rules under test live in the service, and
// the PostgreSQL server's own part (two processes, roles) has tests of its own.
describe("the publishing service under random editors' actions", () => {
  let dir: string
  let service: PublishingService
  let app: FastifyInstance
  let initialMain: string
  const cookies: Record<string, string> = {}
  const texts: Record<string, string> = {}
  /** The version of each entry's draft each person last opened or saved (`null`: none). */
  const views: Record<string, Record<string, string | null>> = {}
  /** `reviewer version` of every approval that went through: what she had opened. */
  const approvedAsSeen = new Set<string>()

  beforeAll(async () => {
    dir = await temporaryFolder('publishing-attacker-')
    const remote = await siteRepository(join(dir, 'bank.git'))
    service = await openServiceWithStandInBuild({
      DATA_DIR: join(dir, 'data'),
      PUBLISHING_REMOTE: remote.gitDir,
    })
    app = await createPublishingApp(service, { logLevel: 'silent' })
    await service.database.query('DELETE FROM drafts')
    for (const [email, roles] of Object.entries(PEOPLE)) {
      await service.database.query(
        `INSERT INTO people (email, name, roles, language, created_at) VALUES ($1, $2, $3, 'en', now())
         ON CONFLICT (email) DO UPDATE SET roles = $3, disabled_at = NULL`,
        [email, email.split('@')[0], roles],
      )
      cookies[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
    }
    // Someone whose access was taken away after they signed in: their session ended.
    await disablePerson(service.database, 'gone@bank.example')
    for (const entry of ENTRIES) {
      texts[entry] = await readFile(join(ROOT, `content/en/pages/${entry}.yaml`), 'utf8')
    }
    initialMain = (await service.repo.resolve(MAIN)) as string
  }, 120_000)

  afterAll(async () => {
    await app?.close()
    await service?.close()
    await removeFolder(dir)
  })

  const post = (who: string, url: string, payload: object) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        cookie: cookies[who] as string,
        origin: ORIGIN,
        'content-type': 'application/json',
      },
      payload,
    })
  const cms = (who: string, action: string, params: object) =>
    post(who, '/api/cms', { action, params: { branch: 'main', ...params } })
  const seen = (who: string, entry: string) => views[who]?.[entry] ?? null
  const status = (who: string, entry: string, newStatus: string) =>
    cms(who, 'updateUnpublishedEntryStatus', {
      collection: 'pages',
      slug: entry,
      newStatus,
      version: seen(who, entry),
    })

  async function run({ action, who, entry, title }: Step) {
    const id = { id: `pages/${entry}`, version: seen(who, entry) }
    switch (action) {
      case 'open': {
        const opened = await cms(who, 'unpublishedEntry', { collection: 'pages', slug: entry })
        if (opened.statusCode === 200 || opened.statusCode === 404) {
          views[who] ??= {}
          ;(views[who] as Record<string, string | null>)[entry] =
            opened.statusCode === 200 ? (opened.json() as { version: string }).version : null
        }
        return opened
      }
      case 'save':
        return cms(who, 'persistEntry', {
          version: seen(who, entry),
          dataFiles: [
            {
              path: `content/pages/en/${entry}.yaml`,
              slug: entry,
              raw: (texts[entry] as string).replace(/^title: .*$/m, `title: ${title}`),
            },
          ],
          assets: [],
          options: { collectionName: 'pages', useWorkflow: true },
        })
      case 'submit':
        return status(who, entry, 'pending_review')
      case 'withdraw':
        return status(who, entry, 'draft')
      case 'ready':
        return status(who, entry, 'pending_publish')
      case 'approve':
        return post(who, '/api/changes/approve', id)
      case 'send-back':
        return post(who, '/api/changes/send-back', { ...id, comment: 'Please look again.' })
      case 'publish':
        return post(who, '/api/changes/publish', id)
      case 'publish-in-editor':
        return cms(who, 'publishUnpublishedEntry', {
          collection: 'pages',
          slug: entry,
          version: seen(who, entry),
        })
      case 'discard':
        return post(who, '/api/changes/discard', id)
    }
  }

  /** Main moved only by the trail's recorded moves; each publication kept the rules. */
  async function checkMain(trail: AuditEntry[], label: string) {
    const moves = trail.filter((entry) => ['publish', 'take-in', 'rollback'].includes(entry.action))
    expect(await service.repo.resolve(MAIN), `${label}: main moved unrecorded`).toBe(
      moves.at(-1)?.after ?? initialMain,
    )
    for (const publication of trail.filter((entry) => entry.action === 'publish')) {
      const head = String(publication.details.draft)
      const writers = await authorsBetween(service.repo, publication.before as string, head)
      const approver = String(publication.details.approvedBy)
      const where = `${label}: publication #${publication.id} of ${publication.subject}`
      expect(PEOPLE[publication.actor], `${where}: by a publisher`).toContain('publisher')
      expect(writers, `${where}: by one who wrote none of it`).not.toContain(publication.actor)
      expect(PEOPLE[approver], `${where}: approved by a reviewer`).toContain('reviewer')
      expect(writers, `${where}: approved by one who wrote none of it`).not.toContain(approver)
      const earlier = trail.filter(
        (entry) => entry.id < publication.id && entry.subject === publication.subject,
      )
      expect(
        earlier.some(
          (entry) => entry.action === 'approve' && entry.after === head && entry.actor === approver,
        ),
        `${where}: its approval is in the trail`,
      ).toBe(true)
      expect(
        earlier.some(
          (entry) =>
            entry.after === head &&
            writers.includes(entry.actor) &&
            entry.action === 'submit' &&
            entry.details.status === 'pending_review',
        ),
        `${where}: one of its authors submitted this version`,
      ).toBe(true)
      expect(
        approvedAsSeen.has(`${approver} ${head}`),
        `${where}: ${approver} approved the version she had opened`,
      ).toBe(true)
    }
  }

  it(`keeps the four-eyes promises for ${RUNS} random sequences (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(sequence, async (steps) => {
        for (const [index, taken] of steps.entries()) {
          const label = `step ${index + 1} (${taken.action} by ${taken.who} on ${taken.entry})`
          const before = (await readAudit(service.database, { newestFirst: true, limit: 1 }))[0]
          const sent = seen(taken.who, taken.entry)
          const answer = await run(taken)
          expect(answer.statusCode, `${label}: ${answer.body.slice(0, 300)}`).toBeLessThan(500)
          if (answer.statusCode === 200 && taken.action === 'save') {
            const saved = (answer.json() as { version?: string }).version
            if (saved) {
              views[taken.who] ??= {}
              ;(views[taken.who] as Record<string, string | null>)[taken.entry] = saved
            }
          }
          const approving = taken.action === 'approve' || taken.action === 'ready'
          if (answer.statusCode === 200 && approving && sent) {
            approvedAsSeen.add(`${taken.who} ${sent}`)
          }
          const trail = await readAudit(service.database, { limit: 100_000 })
          const added = trail.filter((entry) => entry.id > (before?.id ?? 0))
          if (taken.who === 'gone@bank.example') {
            expect(answer.statusCode, label).toBe(401)
            expect(added, `${label}: a stranger changed the trail`).toEqual([])
          } else if (answer.statusCode >= 400 && taken.action !== 'open') {
            expect(
              added.some(
                (entry) =>
                  entry.actor === taken.who &&
                  (entry.action === 'refusal' || entry.action === 'publish-failed'),
              ),
              `${label}: refused (${answer.statusCode}) but not in the trail: ${answer.body.slice(0, 200)}`,
            ).toBe(true)
          }
          await checkMain(trail, label)
          expect(await verifyAudit(service.database), label).toMatchObject({ ok: true })
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    // The sequences reached every rule: publications went through, others were refused.
    const actions = (await readAudit(service.database, { limit: 100_000 })).map((e) => e.action)
    const count = (action: string) => actions.filter((taken) => taken === action).length
    console.info(
      `attacker: ${count('publish')} publications, ${count('approve')} approvals, ${count('refusal')} refusals`,
    )
    expect(count('publish')).toBeGreaterThan(0)
    expect(count('refusal')).toBeGreaterThan(count('publish'))
  }, 600_000)
})
