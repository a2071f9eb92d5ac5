/**
 * Scheduled publishing with an injected clock: Berlin wall-clock times (winter, summer, the
 * hours the clocks skip and repeat); a schedule by a publisher of an approved draft fires once
 * when due, the rules checked again then; a cancelled one never fires; two processes on one
 * PostgreSQL fire it once between them; a schedule kept across a restart fires in the next process.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import type { Database } from '../../../../src/database/database'
import { openDatabase } from '../../../../src/database/open'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import { readAudit } from '../../../../src/publishing/audit/trail'
import type { GitRepository } from '../../../../src/publishing/git/repository'
import { PUBLISHING_MIGRATIONS } from '../../../../src/publishing/migrations'
import { disablePerson } from '../../../../src/publishing/people/people'
import { Publisher } from '../../../../src/publishing/publication/publisher'
import { Releases } from '../../../../src/publishing/publication/releases'
import { Drafts, MAIN } from '../../../../src/publishing/workflow/drafts'
import {
  berlinLocal,
  fromBerlinTime,
  ScheduleError,
  Schedules,
} from '../../../../src/publishing/workflow/schedules'
import { standInReport } from '../../../support/build-report'
import { databases } from '../../../support/forms'
import { heldWork } from '../../../support/held-work'
import { ada, addPeople, paul, rita } from '../../../support/people'
import {
  ABOUT,
  approvedDraft,
  approveSeen,
  openPublishingDatabase,
  openServiceWithStandInBuild,
  type TestDatabase,
} from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

describe('Berlin time', () => {
  it('reads wall-clock times in winter and summer, refuses the skipped hour, takes the first of the repeated one', () => {
    expect(fromBerlinTime('2026-12-01T09:00').toISOString()).toBe('2026-12-01T08:00:00.000Z')
    expect(fromBerlinTime('2026-07-01T09:00').toISOString()).toBe('2026-07-01T07:00:00.000Z')
    expect(() => fromBerlinTime('2027-03-28T02:30')).toThrow(ScheduleError)
    expect(fromBerlinTime('2026-10-25T02:30').toISOString()).toBe('2026-10-25T00:30:00.000Z')
    expect(() => fromBerlinTime('tomorrow')).toThrow(/2026-12-01T09:00/)
    expect(berlinLocal(new Date('2026-12-01T08:00:00Z'))).toBe('2026-12-01T09:00')
    expect(fromBerlinTime('2026-12-01T09:00:30').toISOString()).toBe('2026-12-01T08:00:30.000Z')
  })
})

for (const kind of databases()) {
  describe(`schedules on ${kind.name}`, () => {
    let opened: TestDatabase
    let database: Database
    let dir: string
    let repo: GitRepository
    let drafts: Drafts
    let now: Date
    const clock = () => now
    const publisherOf = (db: Database) =>
      new Publisher({
        database: db,
        repo,
        drafts: new Drafts(db, repo, clock),
        releases: releasesIn(dir),
        clock,
      })
    const schedulesOn = (db: Database) =>
      new Schedules({
        database: db,
        drafts: new Drafts(db, repo, clock),
        publisher: new Publisher({
          database: db,
          repo,
          drafts: new Drafts(db, repo, clock),
          releases: releasesIn(dir),
          clock,
        }),
        clock,
      })
    let schedules: Schedules

    /** A site of one page stands for the build (the real one is in publisher.test.ts). */
    const releasesIn = (folder: string) =>
      new Releases({
        dir: join(folder, 'releases'),
        workspace: join(folder, 'workspace'),
        nodeModules: join(ROOT, 'node_modules'),
        buildConfig: readBuildConfig({}),
        build: async (config) => {
          await mkdir(config.outDir, { recursive: true })
          await writeFile(
            join(config.outDir, 'about.html'),
            await readFile(join(config.contentDir, 'en/pages/about.yaml')),
          )
          return standInReport()
        },
        keep: 5,
      })

    beforeEach(async () => {
      now = new Date('2026-11-26T09:00:00Z')
      opened = await openPublishingDatabase(kind)
      database = opened.database
      dir = await temporaryFolder('schedules-')
      repo = await siteRepository(join(dir, 'site.git'))
      drafts = new Drafts(database, repo, clock)
      // The scheduler is looked up again when the schedule fires.
      await addPeople(database, [ada, rita, paul], now)
      schedules = schedulesOn(database)
    })

    afterEach(async () => {
      await opened.close()
      await removeFolder(dir)
    })

    const approved = (title: string) => approvedDraft(drafts, title)
    const liveTitle = async () =>
      (await repo.readFile((await repo.resolve(MAIN)) as string, ABOUT))
        ?.toString()
        .match(/^title: (.*)$/m)?.[1]

    it('publishes an approved draft when its time comes, once', async () => {
      await approved('Campaign')
      await expect(
        schedules.schedule(ada, 'pages/about', fromBerlinTime('2026-11-27T10:00')),
      ).rejects.toThrow(/publisher/)
      await expect(
        schedules.schedule(paul, 'pages/about', new Date('2026-11-26T08:00:00Z')),
      ).rejects.toThrow(/passed/)
      const scheduled = await schedules.schedule(
        paul,
        'pages/about',
        fromBerlinTime('2026-11-27T10:00'),
      )
      expect(scheduled).toMatchObject({ state: 'pending', at: '2026-11-27T09:00:00.000Z' })
      expect(await schedules.fireDue()).toEqual([])
      now = new Date('2026-11-27T09:00:00Z')
      const [fired, ...more] = await schedules.fireDue()
      expect(more).toEqual([])
      expect(fired?.schedule.state).toBe('done')
      expect(fired?.release?.kind).toBe('schedule')
      expect(await liveTitle()).toBe('Campaign')
      expect(await schedules.fireDue()).toEqual([])
      const actions = (await readAudit(database)).map((entry) => entry.action)
      expect(actions).toEqual(expect.arrayContaining(['schedule', 'publish', 'schedule-fired']))
    })

    it('unpublishes at a set time: a deletion asked for, approved and scheduled, fires then', async () => {
      const JOB = [
        'content/en/jobs/working-student-data.yaml',
        'content/de/jobs/working-student-data.yaml',
      ]
      const live = async () => {
        const main = (await repo.resolve(MAIN)) as string
        return Promise.all(JOB.map(async (path) => (await repo.readFile(main, path)) !== null))
      }
      await drafts.save(
        ada,
        'jobPosting/working-student-data',
        JOB.map((path) => ({ path, content: null })),
        'Delete jobPosting/working-student-data',
      )
      await drafts.setStatus(ada, 'jobPosting/working-student-data', 'pending_review')
      await approveSeen(drafts, rita, 'jobPosting/working-student-data')
      await schedules.schedule(
        paul,
        'jobPosting/working-student-data',
        fromBerlinTime('2026-12-31T23:59'),
      )
      now = new Date('2026-12-31T22:58:00Z')
      expect(await schedules.fireDue()).toEqual([])
      expect(await live()).toEqual([true, true])
      now = new Date('2026-12-31T22:59:00Z')
      const [fired] = await schedules.fireDue()
      expect(fired?.schedule.state).toBe('done')
      expect(await live()).toEqual([false, false])
    })

    it('checks the rules again when it fires: a publisher’s role taken away stops it', async () => {
      await approved('Approved text')
      await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T10:00:00Z'))
      await database.query("UPDATE people SET roles = '{reviewer}' WHERE email = $1", [paul.email])
      now = new Date('2026-11-26T10:00:01Z')
      const [fired] = await schedules.fireDue()
      expect(fired?.error).toMatch(/publisher/)
      expect(fired?.schedule.state).toBe('cancelled')
      expect(await liveTitle()).not.toBe('Approved text')
    })

    it('cancels a schedule whose author lost access since, tells the authors why, and publishes nothing', async () => {
      await approved('By an author who left')
      const scheduled = await schedules.schedule(
        paul,
        'pages/about',
        new Date('2026-11-26T10:00:00Z'),
      )
      await disablePerson(database, ada.email, now)
      now = new Date('2026-11-26T10:00:01Z')
      const [fired, ...more] = await schedules.fireDue()
      expect(more).toEqual([])
      const why =
        'ada@bank.example, who moved it to review, no longer has access to the publishing service, so what they did no longer stands under the four-eyes rules.'
      expect(fired).toMatchObject({
        schedule: { id: scheduled.id, state: 'cancelled' },
        error: why,
      })
      expect(await liveTitle()).not.toBe('By an author who left')
      expect((await schedules.list())[0]).toMatchObject({
        id: scheduled.id,
        state: 'cancelled',
        outcome: why,
      })
      const trail = await readAudit(database)
      expect(trail.some((entry) => entry.action === 'publish')).toBe(false)
      const body = `The publication paul@bank.example scheduled for 2026-11-26 11:00 (Berlin) was cancelled when it was due: ${why} It needs an approval that stands before it can be published or scheduled again.`
      expect(trail.slice(-2)).toMatchObject([
        {
          actor: 'service',
          action: 'schedule-cancel',
          subject: 'pages/about',
          details: {
            id: scheduled.id,
            scheduledBy: paul.email,
            whenDue: true,
            code: 'person-gone',
            reason: why,
          },
        },
        {
          actor: 'service',
          action: 'comment',
          subject: 'pages/about',
          details: { comment: body, to: [ada.email], notice: 'schedule-cancelled' },
        },
      ])
      expect((await drafts.get('pages/about'))?.comments.at(-1)).toMatchObject({
        by: 'service',
        body,
      })
      expect(await schedules.fireDue()).toEqual([])
    })

    it('cancels a schedule whose author no longer holds the author role, or whose reviewer the reviewer role', async () => {
      await approved('Approved before the roles changed')
      await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T10:00:00Z'))
      await database.query("UPDATE people SET roles = '{reviewer}' WHERE email = $1", [ada.email])
      now = new Date('2026-11-26T10:00:01Z')
      const [fired] = await schedules.fireDue()
      expect(fired).toMatchObject({ schedule: { state: 'cancelled' } })
      expect(fired?.error).toMatch(/^ada, who moved it to review, no longer has the author role/)

      await database.query("UPDATE people SET roles = '{author}' WHERE email = $1", [ada.email])
      await approved('Approved by a reviewer no more')
      await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T11:00:00Z'))
      await database.query("UPDATE people SET roles = '{author}' WHERE email = $1", [rita.email])
      now = new Date('2026-11-26T11:00:01Z')
      const [again] = await schedules.fireDue()
      expect(again?.error).toMatch(/^rita, who approved it, no longer has the reviewer role/)
      expect(await liveTitle()).not.toBe('Approved by a reviewer no more')
    })

    it('asks again in the publication’s own turn: access taken away while it waited for it cancels it', async () => {
      await approved('Disabled while waiting')
      await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T10:00:00Z'))
      const publisher = publisherOf(database)
      const waiting = new Schedules({
        database,
        drafts,
        // The author's access is taken away after the schedule was claimed, before its turn.
        publisher: Object.assign(Object.create(publisher) as Publisher, {
          publish: async (...args: Parameters<Publisher['publish']>) => {
            await disablePerson(database, ada.email, now)
            return publisher.publish(...args)
          },
        }),
        clock,
      })
      now = new Date('2026-11-26T10:00:01Z')
      const [fired] = await waiting.fireDue()
      expect(fired).toMatchObject({ schedule: { state: 'cancelled' } })
      expect(fired?.error).toMatch(
        /^ada@bank\.example, who moved it to review, no longer has access/,
      )
      expect(await liveTitle()).not.toBe('Disabled while waiting')
      expect((await drafts.get('pages/about'))?.comments.at(-1)?.by).toBe('service')
    })

    it('stops only once a check under way is done, so the database is never closed under it', async () => {
      const publisher = publisherOf(database)
      const work = heldWork()
      const logged: unknown[] = []
      const slow = new Schedules({
        database,
        drafts,
        publisher: Object.assign(Object.create(publisher) as Publisher, {
          keepUpWithMain: async () => {
            await work.hold()
            return publisher.keepUpWithMain()
          },
        }),
        clock,
        log: { info: () => {}, error: (...args: unknown[]) => logged.push(args) },
      })
      await work.expectStopToWait(slow.start(0.01))
      expect(logged).toEqual([])
    })

    it('checks the rules again when it fires: an edit after the approval stops it', async () => {
      await approved('Approved text')
      await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T10:00:00Z'))
      const text = (await readFile(join(ROOT, ABOUT), 'utf8')).replace(
        /^title: .*$/m,
        'title: Edited later',
      )
      await drafts.save(ada, 'pages/about', [{ path: ABOUT, content: text }], 'later')
      now = new Date('2026-11-26T10:00:01Z')
      const [fired] = await schedules.fireDue()
      expect(fired?.schedule.state).toBe('failed')
      expect(fired?.error).toMatch(/changed after it was scheduled/)
      expect(await liveTitle()).not.toBe('Edited later')
      expect((await schedules.list())[0]).toMatchObject({ state: 'failed' })
    })

    it('publishes only the draft as it was scheduled, not a later one of the same entry', async () => {
      await approved('Scheduled text')
      await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T10:00:00Z'))
      await publisherOf(database).publish(paul, 'pages/about')
      await approved('A later draft')
      now = new Date('2026-11-26T10:00:01Z')
      const [fired] = await schedules.fireDue()
      expect(fired?.error).toMatch(/changed after it was scheduled/)
      expect(await liveTitle()).toBe('Scheduled text')
    })

    it('keeps one schedule per draft: a second replaces the first, and says so', async () => {
      await approved('Twice')
      const first = await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T10:00:00Z'))
      expect(first.replaced).toEqual([])
      const second = await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T11:00:00Z'))
      expect(second.replaced).toMatchObject([{ id: first.id, at: '2026-11-26T10:00:00.000Z' }])
      const listed = await schedules.list()
      expect(listed.filter((schedule) => schedule.state === 'pending')).toMatchObject([
        { id: second.id },
      ])
      expect(listed.find((schedule) => schedule.id === first.id)).toMatchObject({
        state: 'cancelled',
        outcome: 'replaced by a later schedule',
      })
      const trail = (await readAudit(database)).slice(-2)
      expect(trail.map((entry) => [entry.action, entry.details])).toEqual([
        ['schedule-cancel', { id: first.id, at: first.at, replaced: true }],
        ['schedule', { at: second.at, replaces: [first.id] }],
      ])
      // The database itself holds one pending schedule per draft.
      await expect(
        database.query(
          `INSERT INTO schedules (draft_id, head, at, created_by, created_at, state)
           VALUES ('pages/about', 'x', now(), 'paul@bank.example', now(), 'pending')`,
        ),
      ).rejects.toThrow(/schedules_one_pending/)
      now = new Date('2026-11-26T12:00:00Z')
      const fired = await schedules.fireDue()
      expect(fired.map((result) => result.schedule.id)).toEqual([second.id])
    })

    it('never fires a cancelled schedule', async () => {
      await approved('Cancelled')
      const scheduled = await schedules.schedule(
        paul,
        'pages/about',
        new Date('2026-11-26T10:00:00Z'),
      )
      await expect(schedules.cancel(ada, scheduled.id)).rejects.toThrow(
        /Only people with the publisher role may cancel a scheduled publication/,
      )
      expect((await readAudit(database)).at(-1)).toMatchObject({
        actor: ada.email,
        action: 'refusal',
        subject: `schedule ${scheduled.id}`,
        details: { code: 'role', action: 'schedule-cancel' },
      })
      await schedules.cancel(paul, scheduled.id)
      now = new Date('2026-11-27T00:00:00Z')
      expect(await schedules.fireDue()).toEqual([])
      expect(await liveTitle()).not.toBe('Cancelled')
    })

    it.runIf(kind.url)('fires once when two processes look at the same moment', async () => {
      await approved('Once')
      await schedules.schedule(paul, 'pages/about', new Date('2026-11-26T10:00:00Z'))
      const schema = (
        await database.query<{ schema: string }>('SELECT current_schema() AS schema')
      )[0]?.schema as string
      const other = await openDatabase({ url: kind.url, schema, migrations: PUBLISHING_MIGRATIONS })
      try {
        now = new Date('2026-11-26T10:00:00Z')
        const results = await Promise.all([schedules.fireDue(), schedulesOn(other).fireDue()])
        expect(results.flat()).toHaveLength(1)
        expect(results.flat()[0]?.schedule.state).toBe('done')
        expect(await liveTitle()).toBe('Once')
      } finally {
        await other.close()
      }
    })
  })
}

describe('a schedule across a restart of the service', () => {
  it('is kept in the database and fires when due in the process started next', async () => {
    const dir = await temporaryFolder('schedules-restart-')
    onTestFinished(() => removeFolder(dir))
    const remote = await siteRepository(join(dir, 'bank.git'))
    const env = { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir }
    let now = new Date('2026-11-26T09:00:00Z')
    const clock = () => now
    const first = await openServiceWithStandInBuild(env, clock)
    await addPeople(first.database, [ada, rita, paul], now)
    const text = (await readFile(join(ROOT, ABOUT), 'utf8')).replace(
      /^title: .*$/m,
      'title: After the restart',
    )
    await first.drafts.save(ada, 'pages/about', [{ path: ABOUT, content: text }], 'Restart')
    await first.drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(first.drafts, rita, 'pages/about')
    await first.schedules.schedule(paul, 'pages/about', fromBerlinTime('2026-11-27T10:00'))
    await first.close()

    now = new Date('2026-11-27T09:00:00Z')
    const next = await openServiceWithStandInBuild(env, clock)
    try {
      const [fired, ...more] = await next.schedules.fireDue()
      expect(more).toEqual([])
      expect(fired?.schedule).toMatchObject({ state: 'done', draftId: 'pages/about' })
      expect(fired?.release?.kind).toBe('schedule')
      const main = (await next.repo.resolve(MAIN)) as string
      expect((await next.repo.readFile(main, ABOUT))?.toString()).toContain(
        'title: After the restart',
      )
      expect(await next.schedules.fireDue()).toEqual([])
    } finally {
      await next.close()
    }
  })
})
