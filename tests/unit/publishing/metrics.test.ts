/**
 * The publishing service's metrics, after real actions on one service: publications by outcome
 * with their phases' times, a rollback, schedules fired and failed, previews built and failed,
 * refused sign-ins, the lease's age, the role grants in effect unconfirmed and the trail's
 * length read at the scrape, the trail's verification; `/metrics` to the token's bearer only;
 * labels that carry no one's data; and both services' metrics served as one under `npm start`.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, readBuildConfig } from '../../../src/engine/config'
import { createMetrics, type ServiceMetrics } from '../../../src/http/metrics'
import { trailState } from '../../../src/publishing/audit/anchors'
import { createPublishingApp, SESSION_COOKIE } from '../../../src/publishing/http/app'
import { invite, refuseGrant, startSession } from '../../../src/publishing/people/people'
import { PublishBusyError } from '../../../src/publishing/publication/lease'
import {
  publicationOutcome,
  UpstreamConflictError,
} from '../../../src/publishing/publication/publish'
import { BuildFailedError } from '../../../src/publishing/publication/releases'
import { openPublishingService, type PublishingService } from '../../../src/publishing/service'
import { readPublishingSettings } from '../../../src/publishing/settings'
import {
  DraftConflictError,
  NoDraftError,
  RefusedError,
} from '../../../src/publishing/workflow/drafts'
import { standInReport } from '../../support/build-report'
import { expectBoundedLabels, samples, sumOf } from '../../support/metrics'
import { ada, addPeople, paul, person, rita } from '../../support/people'
import { ABOUT, approvedDraft, rewrite } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const TOKEN = 'a-secret-token-of-more-than-thirty-two-characters'
const ORIGIN = 'http://localhost:8081'
/** A title the stand-in build refuses, as the real one refuses content that fails its checks. */
const BROKEN = 'Broken on purpose'

let dir: string
let service: PublishingService
let app: FastifyInstance
let metrics: ServiceMetrics
/** The service's clock: today, moved on by the schedules' test. */
let offsetMs = 0
const clock = () => new Date(Date.now() + offsetMs)

beforeAll(async () => {
  dir = await temporaryFolder('publishing-metrics-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir }
  metrics = createMetrics('publishing')
  service = await openPublishingService(readPublishingSettings(ROOT, env), {
    root: ROOT,
    buildConfig: readBuildConfig(env),
    clock,
    registry: metrics.registry,
    // One page stands for the site (the real build is in publisher.test.ts).
    build: async (config) => {
      const about = await readFile(join(config.contentDir, 'en/pages/about.yaml'), 'utf8')
      if (about.includes(BROKEN)) throw new Error(`content/en/pages/about.yaml: title: ${BROKEN}`)
      await mkdir(config.outDir, { recursive: true })
      await writeFile(join(config.outDir, 'index.html'), about)
      return standInReport()
    },
  })
  app = await createPublishingApp(service, {
    logLevel: 'silent',
    metrics: { metrics, token: TOKEN },
  })
  await addPeople(service.database, [ada, rita, paul])
}, 30_000)

afterAll(async () => {
  await app?.close()
  await service?.close()
  if (dir) await removeFolder(dir)
})

const scrape = async () => {
  const answer = await app.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  expect(answer.statusCode).toBe(200)
  expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
  return samples(answer.body)
}

const retitled = async (title: string) =>
  (await readFile(join(ROOT, ABOUT), 'utf8')).replace(/^title: .*$/m, `title: ${title}`)

describe('the publishing service’s metrics', () => {
  it('are answered at /metrics to the token’s bearer only, as any unknown address to anyone else', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, TOKEN]) {
      const answer = await app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      })
      const unknown = await app.inject({ url: '/no-such-page' })
      expect(answer.statusCode).toBe(404)
      expect(answer.body).toBe(unknown.body)
      expect(answer.body).not.toContain('publishing_')
    }
    const all = await scrape()
    expect(all.some((sample) => sample.name === 'process_cpu_seconds_total')).toBe(true)
    // Counted from zero: a rate is defined before the first.
    expect(sumOf(all, 'publishing_publications_total', { outcome: 'build_failed' })).toBe(0)
    expect(all.some((sample) => sample.labels.outcome === 'build_failed')).toBe(true)
  })

  it('count previews built and failed, and refused sign-ins, by way', async () => {
    const session = `${SESSION_COOKIE}=${(await startSession(service.database, ada.email)).token}`
    await service.drafts.save(
      ada,
      'pages/about',
      [{ path: ABOUT, content: await retitled('In preview') }],
      'Preview me',
    )
    const built = await app.inject({ url: '/preview/pages/about', headers: { cookie: session } })
    expect(built.statusCode).toBe(303)
    await service.drafts.save(
      ada,
      'pages/about',
      [{ path: ABOUT, content: await retitled(BROKEN) }],
      'Break me',
    )
    const failed = await app.inject({ url: '/preview/pages/about', headers: { cookie: session } })
    expect(failed.statusCode).toBe(422)

    const refused = await app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: { ceremony: 'x'.repeat(20), response: {} },
    })
    expect(refused.statusCode).toBe(401)
    const invitation = await app.inject({
      method: 'POST',
      url: '/invitation/accept',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      payload: { token: 'no-such-invitation', name: 'Someone' },
    })
    expect(invitation.statusCode).toBe(422)

    const all = await scrape()
    expect(sumOf(all, 'publishing_previews_total', { outcome: 'built' })).toBe(1)
    expect(sumOf(all, 'publishing_previews_total', { outcome: 'failed' })).toBe(1)
    expect(sumOf(all, 'publishing_sign_ins_total', { method: 'passkey', outcome: 'refused' })).toBe(
      1,
    )
    expect(
      sumOf(all, 'publishing_sign_ins_total', { method: 'invitation', outcome: 'refused' }),
    ).toBe(1)
    expect(sumOf(all, 'publishing_sign_ins_total', { outcome: 'success' })).toBe(0)
    expect(
      sumOf(all, 'http_requests_total', {
        method: 'GET',
        route: '/preview/:collection/:slug',
        status: '422',
      }),
    ).toBe(1)
    expect(
      sumOf(all, 'http_requests_total', { method: 'POST', route: '/sign-in', status: '401' }),
    ).toBe(1)
  })

  it('count publications by outcome with their phases’ times, and rollbacks', async () => {
    // The draft of the test before does not build.
    await approvedDraft(service.drafts, BROKEN)
    await expect(service.publisher.publish(paul, 'pages/about')).rejects.toThrow(BROKEN)
    await approvedDraft(service.drafts, 'First')
    await expect(service.publisher.publish(ada, 'pages/about')).rejects.toThrow(/publisher/)
    const first = await service.publisher.publish(paul, 'pages/about')
    await expect(service.publisher.publish(paul, 'pages/about')).rejects.toThrow(/no draft/)
    await approvedDraft(service.drafts, 'Second')
    await service.publisher.publish(paul, 'pages/about')
    await service.publisher.rollBack(paul, first.folder)
    await expect(service.publisher.rollBack(ada, first.folder)).rejects.toThrow(/publisher/)

    const all = await scrape()
    const publications = (outcome: string) =>
      sumOf(all, 'publishing_publications_total', { outcome })
    expect(publications('published')).toBe(2)
    expect(publications('build_failed')).toBe(1)
    expect(publications('refused')).toBe(2)
    expect(publications('conflict')).toBe(0)
    expect(publications('error')).toBe(0)
    expect(sumOf(all, 'publishing_rollbacks_total')).toBe(1)
    // Each phase a publication finished: the failed build merged, but built nothing.
    const phases = (phase: string) =>
      sumOf(all, 'publishing_publication_phase_seconds_count', { phase })
    expect([phases('merge'), phases('build'), phases('switch')]).toEqual([3, 2, 2])
    expect(
      sumOf(all, 'publishing_publication_phase_seconds_bucket', { phase: 'build', le: '60' }),
    ).toBe(2)
  })

  it('count schedules due, fired and failed', async () => {
    await approvedDraft(service.drafts, 'Scheduled')
    await service.schedules.schedule(paul, 'pages/about', new Date(clock().getTime() + 3_600_000))
    offsetMs += 2 * 3_600_000
    expect((await service.schedules.fireDue()).map((fired) => fired.schedule.state)).toEqual([
      'done',
    ])
    // Changed after it was scheduled: it fails when its time comes.
    await approvedDraft(service.drafts, 'Scheduled, then changed')
    await service.schedules.schedule(paul, 'pages/about', new Date(clock().getTime() + 3_600_000))
    await service.drafts.save(
      ada,
      'pages/about',
      [{ path: ABOUT, content: await retitled('Changed since') }],
      'Changed since',
    )
    offsetMs += 2 * 3_600_000
    expect((await service.schedules.fireDue()).map((fired) => fired.schedule.state)).toEqual([
      'failed',
    ])

    const all = await scrape()
    expect(sumOf(all, 'publishing_schedules_total', { event: 'due' })).toBe(2)
    expect(sumOf(all, 'publishing_schedules_total', { event: 'fired' })).toBe(1)
    expect(sumOf(all, 'publishing_schedules_total', { event: 'failed' })).toBe(1)
    // The schedule's publication is a publication.
    expect(sumOf(all, 'publishing_publications_total', { outcome: 'published' })).toBe(3)
  })

  it('read the lease’s age and the trail’s length at the scrape', async () => {
    let all = await scrape()
    expect(sumOf(all, 'publishing_lease_held_seconds')).toBe(0)
    expect(sumOf(all, 'publishing_audit_entries')).toBe((await trailState(service.database)).length)
    expect(sumOf(all, 'publishing_audit_entries')).toBeGreaterThan(10)
    // A publication that hangs, held for a minute and a half.
    await service.database.query(
      `INSERT INTO publish_lease (name, holder, until, since)
       VALUES ('publish', 'elsewhere:1:hung', now() + interval '5 minutes', now() - interval '90 seconds')`,
    )
    all = await scrape()
    expect(sumOf(all, 'publishing_lease_held_seconds')).toBeGreaterThanOrEqual(90)
    expect(sumOf(all, 'publishing_lease_held_seconds')).toBeLessThan(120)
    // A holder that died leaves a lapsed row: no publication runs.
    await service.database.query(
      `UPDATE publish_lease SET until = now() - interval '1 second' WHERE name = 'publish'`,
    )
    all = await scrape()
    expect(sumOf(all, 'publishing_lease_held_seconds')).toBe(0)
    await service.database.query('DELETE FROM publish_lease')
  })

  it('count the role grants in effect without a second administrator’s confirmation', async () => {
    const anna = person('anna@bank.example', ['administrator'])
    await addPeople(service.database, [anna])
    expect(sumOf(await scrape(), 'publishing_role_grants_unconfirmed')).toBe(0)
    // The only administrator gives the reviewer's role: in effect, unconfirmed.
    const { grant } = await invite(
      service.database,
      { email: 'rolf@bank.example', roles: ['author', 'reviewer'], by: anna.email },
      clock(),
    )
    expect(grant?.state).toBe('unconfirmed')
    expect(sumOf(await scrape(), 'publishing_role_grants_unconfirmed')).toBe(1)
    expect(await refuseGrant(service.database, grant?.id ?? 0, anna, clock())).toEqual({
      allowed: true,
    })
    expect(sumOf(await scrape(), 'publishing_role_grants_unconfirmed')).toBe(0)
  })

  it('tell when the trail was last verified and whether it held', async () => {
    let all = await scrape()
    expect(sumOf(all, 'publishing_audit_verification_ok')).toBeNaN()
    expect(sumOf(all, 'publishing_audit_verification_timestamp_seconds')).toBe(0)
    const first = await service.checkpoints.verify()
    expect(first.kind).not.toBe('tampered')
    all = await scrape()
    expect(sumOf(all, 'publishing_audit_verification_ok')).toBe(1)
    expect(sumOf(all, 'publishing_audit_verification_outcome', { outcome: first.kind })).toBe(1)
    expect(sumOf(all, 'publishing_audit_verification_outcome')).toBe(1)
    const at = sumOf(all, 'publishing_audit_verification_timestamp_seconds')
    expect(Math.abs(at - clock().getTime() / 1000)).toBeLessThan(60)

    // The trail rewritten by whoever holds the database: its last checkpoint disagrees.
    await rewrite(service.database, 2, (entry) => ({ ...entry, subject: 'rewritten' }))
    expect((await service.checkpoints.verify()).kind).toBe('tampered')
    all = await scrape()
    expect(sumOf(all, 'publishing_audit_verification_ok')).toBe(0)
    expect(sumOf(all, 'publishing_audit_verification_outcome', { outcome: 'tampered' })).toBe(1)
  })

  it('carry no person, path, draft or token in a label, and only labels of a fixed list', async () => {
    await app.inject({ url: '/people/ada%40bank.example/about?email=rita%40bank.example' })
    await app.inject({ url: `/_publishing/${'x'.repeat(40)}` })
    const all = await scrape()
    expect(
      sumOf(all, 'http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThan(0)
    expectBoundedLabels(all, {
      service: 'publishing',
      own: ['outcome', 'phase', 'event'],
      forbidden: new RegExp(
        `@|%40|bank\\.example|about|broken|first|second|scheduled|paul|rita|x{10}|${TOKEN}`,
        'i',
      ),
    })
  })
})

describe('a publication’s outcome', () => {
  it('is named by what stopped it', () => {
    const outcomes = [
      new RefusedError({ allowed: false, reason: 'a publisher', code: 'role' }),
      new NoDraftError('pages/about'),
      new DraftConflictError('pages/about', [ABOUT]),
      new UpstreamConflictError([ABOUT]),
      new BuildFailedError('content/en/pages/about.yaml: title', 'c0ffee'),
      new PublishBusyError('publish-busy'),
      new Error('git died'),
    ].map(publicationOutcome)
    expect(outcomes).toEqual([
      'refused',
      'refused',
      'conflict',
      'conflict',
      'build_failed',
      'busy',
      'error',
    ])
  })
})

describe('the publishing service’s readiness', () => {
  it('names the repository when its main cannot be read, as /readyz and as service_ready', async () => {
    const ready = async () => {
      const answer = await app.inject({ url: '/readyz' })
      return { status: answer.statusCode, body: answer.json() as unknown }
    }
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } })
    const health = await app.inject({ url: '/healthz' })
    expect(health.statusCode).toBe(200)
    // Answered with the service's policy headers, never cached, and read only.
    for (const path of ['/healthz', '/readyz']) {
      const answer = await app.inject({ url: path })
      expect(answer.headers['content-security-policy']).toBeDefined()
      expect(answer.headers['cache-control']).toBe('no-store')
      expect((await app.inject({ method: 'POST', url: path })).statusCode).toBeGreaterThanOrEqual(
        400,
      )
    }
    const repository = service.settings.repository
    await rename(repository, `${repository}.away`)
    try {
      expect(await ready()).toEqual({
        status: 503,
        body: { status: 'unavailable', failing: ['repository'] },
      })
      const all = await scrape()
      expect(sumOf(all, 'service_ready', { check: 'repository' })).toBe(0)
      expect(sumOf(all, 'service_ready', { check: 'database' })).toBe(1)
    } finally {
      await rename(`${repository}.away`, repository)
    }
    expect(await ready()).toEqual({ status: 200, body: { status: 'ready' } })
  })
})
