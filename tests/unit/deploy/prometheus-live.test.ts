/**
 * The metrics and the alerts with a real Prometheus (Debian's, as CI installs it): the forms
 * service runs with its metrics on a listener of their own, Prometheus scrapes it every second
 * and so does the publishing service's (a stand-in build: the real one is publisher.test.ts's),
 * each its own target as in `deploy/prometheus/prometheus.yml`, with the rules of
 * `deploy/prometheus/alerts.yml` (as they are, but for their `for:` durations, set to nothing so
 * that the test need not wait minutes), and the test causes what an operator must learn of:
 * sign-ups, then the mail server down while a mail waits, then back, and a publication. It asks
 * Prometheus's HTTP API until the counters and the alerts say what happened. Without
 * Prometheus it is skipped, saying how to install it; in CI (which installs it) it fails.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { join, resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ROOT, readBuildConfig } from '../../../src/engine/config'
import { healthRoutes } from '../../../src/http/health'
import { createMetrics, listenForMetrics } from '../../../src/http/metrics'
import { createPublishingApp } from '../../../src/publishing/http/app'
import { openPublishingService, type PublishingService } from '../../../src/publishing/service'
import { readPublishingSettings } from '../../../src/publishing/settings'
import { standInReport } from '../../support/build-report'
import { signUp, startService, type TestService, until } from '../../support/forms'
import { freePort } from '../../support/free-port'
import { ada, addPeople, paul, rita } from '../../support/people'
import { approvedDraft } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const PROMETHEUS = process.env.PROMETHEUS_PATH || 'prometheus'
const INSTALL =
  'apt-get install --no-install-recommends prometheus (Debian), or set PROMETHEUS_PATH to one'
const installed = spawnSync(PROMETHEUS, ['--version'], { stdio: 'ignore' }).status === 0
const RULES = resolve(import.meta.dirname, '../../../deploy/prometheus/alerts.yml')

interface Alert {
  labels: Record<string, string>
  state: 'pending' | 'firing'
}

describe('a real Prometheus scraping the site’s and the publishing service’s metrics', () => {
  let scratch: string
  let service: TestService | undefined
  let publishing: PublishingService | undefined
  let publishingApp: FastifyInstance | undefined
  const listeners: Server[] = []
  let prometheus: ChildProcess | undefined
  let api = ''

  beforeEach((context) => {
    if (installed) return
    if (process.env.CI) {
      throw new Error(`CI must test the alerts with Prometheus, but it is missing: ${INSTALL}`)
    }
    context.skip(`Prometheus is missing: ${INSTALL}`)
  })

  beforeAll(async () => {
    if (!installed) return
    scratch = await temporaryFolder('prometheus-')
    const metrics = createMetrics('site')
    service = await startService(
      {},
      {
        metrics: { metrics },
        // An outage is one after 60 ms (15 minutes in production).
        mailOutageMinutes: 0.001,
        // Retried every 50 to 200 ms, and never given up within the test.
        sender: { pollMs: 20, retryBaseMs: 50, retryMaxMs: 200, maxAttempts: 10_000 },
      },
    )
    const current = service
    await current.app.register(healthRoutes, {
      checks: [
        { name: 'database', check: () => current.query('SELECT 1') },
        { name: 'mail', check: () => current.mailReady() },
      ],
      registry: metrics.registry,
    })
    const metricsPort = await freePort()
    listeners.push(
      await listenForMetrics(metrics.registry, { port: metricsPort, host: '127.0.0.1' }),
    )

    const publishingMetrics = createMetrics('publishing')
    const remote = await siteRepository(join(scratch, 'bank.git'))
    const env = { DATA_DIR: join(scratch, 'publishing'), PUBLISHING_REMOTE: remote.gitDir }
    publishing = await openPublishingService(readPublishingSettings(ROOT, env), {
      root: ROOT,
      buildConfig: readBuildConfig(env),
      registry: publishingMetrics.registry,
      build: async (config) => {
        await mkdir(config.outDir, { recursive: true })
        await writeFile(join(config.outDir, 'index.html'), 'published')
        return standInReport()
      },
    })
    await addPeople(publishing.database, [ada, rita, paul])
    // Its app registers the readiness checks (`service_ready`).
    publishingApp = await createPublishingApp(publishing, {
      logLevel: 'silent',
      metrics: { metrics: publishingMetrics },
    })
    await publishingApp.ready()
    const publishingPort = await freePort()
    listeners.push(
      await listenForMetrics(publishingMetrics.registry, {
        port: publishingPort,
        host: '127.0.0.1',
      }),
    )

    // The rules as shipped, but for their `for:` (and no waiting between evaluations).
    const rules = (await readFile(RULES, 'utf8')).replace(/^(\s+for:) .*$/gm, '$1 0s')
    await writeFile(join(scratch, 'alerts.yml'), rules)
    await writeFile(
      join(scratch, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'rule_files: [alerts.yml]',
        'scrape_configs:',
        '  - job_name: site',
        `    static_configs: [{ targets: ['127.0.0.1:${metricsPort}'] }]`,
        '  - job_name: publishing',
        `    static_configs: [{ targets: ['127.0.0.1:${publishingPort}'] }]`,
        '',
      ].join('\n'),
    )
    const port = await freePort()
    api = `http://127.0.0.1:${port}/api/v1`
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(scratch, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(scratch, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    )
    await until(
      async () => (await fetch(`http://127.0.0.1:${port}/-/ready`).catch(() => undefined))?.ok,
      30_000,
      250,
    )
  }, 60_000)

  afterAll(async () => {
    prometheus?.kill('SIGTERM')
    if (prometheus && prometheus.exitCode === null) {
      await new Promise((done) => prometheus?.once('exit', done))
    }
    for (const listener of listeners) {
      await new Promise<void>((done) => listener.close(() => done()))
    }
    await publishingApp?.close()
    await publishing?.close()
    await service?.close()
    if (scratch) await removeFolder(scratch)
  }, 30_000)

  /** The value Prometheus has for `query` now (a sum of its series), or undefined. */
  const value = async (query: string) => {
    const answer = (await (
      await fetch(`${api}/query?query=${encodeURIComponent(`sum(${query})`)}`)
    ).json()) as { data: { result: { value: [number, string] }[] } }
    const sample = answer.data.result[0]
    return sample ? Number(sample.value[1]) : undefined
  }
  const alerts = async () =>
    ((await (await fetch(`${api}/alerts`)).json()) as { data: { alerts: Alert[] } }).data.alerts
  const firing = async (name: string, labels: Record<string, string> = {}) =>
    (await alerts()).some(
      (alert) =>
        alert.state === 'firing' &&
        alert.labels.alertname === name &&
        Object.entries(labels).every(([key, wanted]) => alert.labels[key] === wanted),
    )
  const signUps = async (...emails: string[]) => {
    for (const email of emails) {
      const answer = await service?.app.inject({
        method: 'POST',
        url: '/api/forms/newsletter',
        payload: signUp(email),
      })
      expect(answer?.statusCode).toBe(200)
    }
  }

  it('counts sign-ups and mails as they happen', async () => {
    // Both targets scraped, and the rules evaluated since (an alert on a target not yet
    // scraped fires at the first evaluation, with `for:` at nothing, until the next).
    await until(async () => (await value('up')) === 2, 20_000, 250)
    await until(async () => !(await firing('ServiceTargetMissing')), 20_000, 250)
    await signUps('one@example.com', 'two@example.com', 'three@example.com')
    await until(async () => (await value('forms_mails_total{event="sent"}')) === 3, 20_000, 250)
    expect(
      await value('forms_submissions_total{form="newsletter",result="accepted",job="site"}'),
    ).toBe(3)
    expect(await value('forms_mail_queue_depth')).toBe(0)
    expect(await value('service_ready{job="site"}')).toBe(2)
    // The publishing service's database, repository and mail (its notices).
    expect(await value('service_ready{job="publishing"}')).toBe(3)
    expect(await firing('ServiceNotReady')).toBe(false)
    expect(await firing('ServiceTargetDown')).toBe(false)
    expect(await firing('ServiceTargetMissing')).toBe(false)
  }, 30_000)

  it('alerts while the mail server is down and a mail waits, and stops once it is back', async () => {
    await service?.inbox.stop()
    await signUps('waiting@example.com')
    await until(
      async () => await firing('ServiceNotReady', { check: 'mail', service: 'site' }),
      20_000,
      250,
    )
    await until(async () => await firing('ConfirmationMailRetriesHigh'), 20_000, 250)
    expect(await value('forms_mail_queue_depth')).toBe(1)
    expect(await value('forms_mail_queue_oldest_seconds')).toBeGreaterThan(0)
    expect(await value('service_ready{check="mail",job="site"}')).toBe(0)

    await service?.inbox.start()
    await until(async () => (await value('forms_mails_total{event="sent"}')) === 4, 20_000, 250)
    await until(async () => !(await firing('ServiceNotReady')), 20_000, 250)
    expect(await value('forms_mail_queue_depth')).toBe(0)
    expect(await value('service_ready{check="mail",job="site"}')).toBe(1)
  }, 60_000)

  it('counts a publication with its phases, and no alert on publishing', async () => {
    const current = publishing as PublishingService
    await approvedDraft(current.drafts, 'Published while Prometheus watched')
    const published = await current.publisher.publish(paul, 'pages/about')
    expect(published).toBeTruthy()
    await until(
      async () =>
        (await value('publishing_publications_total{outcome="published",job="publishing"}')) === 1,
      20_000,
      250,
    )
    for (const phase of ['merge', 'build', 'switch']) {
      expect(await value(`publishing_publication_phase_seconds_count{phase="${phase}"}`)).toBe(1)
    }
    expect(await value('publishing_lease_held_seconds')).toBe(0)
    expect(await value('publishing_audit_entries')).toBeGreaterThan(0)
    expect(await firing('PublicationsFailing')).toBe(false)
    expect(await firing('PublishLeaseStuck')).toBe(false)
  }, 30_000)
})
