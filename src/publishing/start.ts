/**
 * Starts the publishing service: its parts opened, its HTTP app listening, its schedules and
 * the audit trail's checkpoints running. `npm run serve:cms` runs it alone
 * (`src/programs/serve-cms.ts`); `npm start` beside the public site (`PUBLISHING=off` leaves it
 * out there). Its metrics are its own, turned on by settings of its own (`CMS_METRICS_PORT`: a
 * listener on `CMS_METRICS_HOST`; `CMS_METRICS_TOKEN`: `/metrics` on its port), so that each
 * service is one target for Prometheus however the two are run.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { ensureWritableFolder } from '../database/folder'
import { checkDatabaseUrls } from '../database/open'
import { type BuildConfig, readBuildConfig } from '../engine/config'
import { checkListeners, type ListenerSetting, listenFailure } from '../http/listeners'
import { type LogFormat, logFormatOf, logLevelOf, logStreamFor } from '../http/logger'
import {
  createMetrics,
  listenBeside,
  type MetricsSettings,
  metricsListener,
  readMetricsSettings,
  type ServiceMetrics,
} from '../http/metrics'
import { trustProxyOf } from '../http/trust-proxy'
import { switchSetting } from '../shared/setting-values'
import { SettingError } from '../shared/settings-error'
import { createPublishingApp } from './http/app'
import { firstAdministratorMessage, openPublishingService } from './service'
import { type PublishingSettings, readPublishingSettings } from './settings'

export interface StartedPublishing {
  app: FastifyInstance
  /** The address the editor is at (with the port actually bound). */
  url: string
  /** Its metrics, when on. */
  metrics?: ServiceMetrics
  close(): Promise<void>
}

/** `PUBLISHING`: `on` (the default) runs the publishing service with `npm start`, `off` not. */
export function runsPublishing(env: NodeJS.ProcessEnv = process.env): boolean {
  return switchSetting(env, 'PUBLISHING', 'on')
}

/** Everything the service takes from the environment, each checked before anything opens. */
export interface PublishingStartSettings {
  buildConfig: BuildConfig
  settings: PublishingSettings
  logFormat: LogFormat
  logLevel: string
  metrics: MetricsSettings | undefined
  trustProxy: boolean | string | undefined
}

export function readPublishingStart(env: NodeJS.ProcessEnv = process.env): PublishingStartSettings {
  const buildConfig = readBuildConfig(env)
  const others = {
    logFormat: logFormatOf(env),
    logLevel: logLevelOf(env),
    metrics: readMetricsSettings(env, 'CMS_'),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
  }
  // Last, with AUDIT_KEY last in it: a wrong audit key stops the service alone under npm
  // start, but only when nothing else is wrong.
  return { buildConfig, ...others, settings: readPublishingSettings(buildConfig.root, env) }
}

/** Where the service listens (`CMS_PORT`, `CMS_HOST`), and its metrics' own listener if any. */
export function publishingListeners(start: PublishingStartSettings): ListenerSetting[] {
  const metrics = metricsListener(start.metrics, 'CMS_')
  return [
    {
      port: start.settings.port,
      host: start.settings.host,
      portSetting: 'CMS_PORT',
      hostSetting: 'CMS_HOST',
    },
    ...(metrics ? [metrics] : []),
  ]
}

/**
 * The folders the service writes, each checked (made if missing) before it opens anything: its
 * own (`DATA_DIR/publishing`), the releases (`RELEASES_DIR`), its repository
 * (`PUBLISHING_REPO`, which must be there unless there is a remote to make it from) and,
 * without `SMTP_URL`, the outbox. Each that cannot be written is said as its setting's fault.
 */
export async function checkPublishingFolders(settings: PublishingSettings): Promise<void> {
  if (!settings.remote && !existsSync(join(settings.repository, 'HEAD'))) {
    throw new SettingError(
      'PUBLISHING_REPO',
      `there is no repository at ${settings.repository}, and no remote to make it from (PUBLISHING_REMOTE is none)`,
      "set PUBLISHING_REPO to the site's repository, or PUBLISHING_REMOTE to one to start from",
    )
  }
  await ensureWritableFolder(settings.dir, {
    what: "the publishing service's folder",
    setting: 'DATA_DIR',
  })
  if (!settings.databaseUrl) {
    await ensureWritableFolder(join(settings.dir, 'db'), {
      what: "the publishing service's database folder",
      setting: 'DATA_DIR',
      instead: 'DATABASE_URL, for PostgreSQL',
      deep: true,
    })
  }
  await ensureWritableFolder(settings.releasesDir, {
    what: "the publishing service's releases folder",
    setting: 'RELEASES_DIR',
  })
  await ensureWritableFolder(settings.repository, {
    what: "the publishing service's repository",
    setting: 'PUBLISHING_REPO',
  })
  if (!settings.mail.smtpUrl) {
    await ensureWritableFolder(settings.mail.outboxDir, {
      what: "the publishing service's outbox",
      setting: 'DATA_DIR',
      instead: 'SMTP_URL, to send mail',
    })
  }
}

/**
 * Starts the service on what `env` says (`start`: settings read and checked already, by a
 * caller that checks everything before it starts anything). Its ports, its database server and
 * its folders are checked first: a wrong one stops it before it makes or opens anything.
 */
export async function startPublishing(
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = console.log,
  start: PublishingStartSettings = readPublishingStart(env),
  options: {
    /**
     * Makes the first release at start when none is served (`serve:cms`, the service alone):
     * the site pods find a release to serve, and the first publication can be undone. Under
     * `npm start` the checkout's own build is served until the first publication.
     */
    firstRelease?: boolean
  } = {},
): Promise<StartedPublishing> {
  const { buildConfig, settings, metrics: metricsSettings } = start
  await checkListeners(publishingListeners(start))
  await checkDatabaseUrls(settings)
  await checkPublishingFolders(settings)
  const logStream = logStreamFor(start.logFormat)
  const metrics = metricsSettings ? createMetrics('publishing') : undefined
  // The service logs through the server's logger, made once the service is open.
  let logger: FastifyInstance['log'] | undefined
  const service = await openPublishingService(settings, {
    root: buildConfig.root,
    buildConfig,
    build: async (config) => (await import('../engine/build')).buildSite(config),
    log: {
      info: (data, message) => logger?.info(data, message),
      error: (data, message) => logger?.error(data, message),
    },
    ...(metrics ? { registry: metrics.registry } : {}),
    fromSettings: true,
  })
  // Behind the bank's reverse proxy (TRUST_PROXY), sign-in is limited per visitor, not per proxy.
  const { trustProxy } = start
  const app = await createPublishingApp(service, {
    logLevel: start.logLevel,
    ...(logStream ? { logStream } : {}),
    bundleEditor: true,
    ...(trustProxy === undefined ? {} : { trustProxy }),
    ...(metrics
      ? {
          metrics: { metrics, ...(metricsSettings?.token ? { token: metricsSettings.token } : {}) },
        }
      : {}),
  })
  logger = app.log
  for (const warning of service.warnings) app.log.warn(warning)
  const stopSchedules = service.schedules.start(settings.scheduleCheckSeconds)
  app.addHook('onClose', async () => stopSchedules())
  // The audit trail's checkpoint, written as it grows (and pushed, with PUBLISHING_PUSH=on).
  const stopCheckpoints = service.checkpoints.start(settings.scheduleCheckSeconds)
  app.addHook('onClose', async () => stopCheckpoints())
  // The notices queued by the workflow, sent in the background (stopped by service.close).
  service.notices.sender.start(app.log)
  app.addHook('onClose', () => service.close())
  // Opened before the app listens: no hook may be added after.
  if (metrics) await listenBeside(app, metrics.registry, metricsSettings, 'CMS_')
  const [listener] = publishingListeners(start)
  await app.listen({ port: settings.port, host: settings.host }).catch((error: unknown) => {
    throw listener ? listenFailure(error, listener) : error
  })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : settings.port
  // The configured address, or, on localhost, the one with the port actually bound (0: any).
  const url =
    settings.port === 0 ? settings.url.replace(/:\d+$/, '').concat(`:${port}`) : settings.url
  print(`Publishing service (the editors' sign-in and editor): ${url}/`)
  // The link on the port actually bound (with CMS_PORT=0 the settings' address names port 0).
  const first = await firstAdministratorMessage({
    database: service.database,
    settings: { ...service.settings, url },
    clock: service.clock,
  })
  if (first) print(first)
  const { publisher } = service
  const firstRelease = options.firstRelease
    ? publisher.firstRelease().then(
        (release) => release && app.log.info({ release: release.folder }, 'first release served'),
        (error: unknown) => app.log.error({ err: error }, 'making the first release failed'),
      )
    : Promise.resolve()
  firstRelease
    .then(() => publisher.recover())
    .then(
      (release) =>
        release && app.log.info({ release: release.folder }, 'served site brought up to main'),
      (error: unknown) =>
        app.log.error({ err: error }, 'bringing the served site up to main failed'),
    )
  return { app, url, ...(metrics ? { metrics } : {}), close: () => app.close() }
}
