/**
 * Starts the publishing service: its parts opened, its HTTP app listening, its schedules and
 * the audit trail's checkpoints running. `npm run serve:cms` runs it alone
 * (`src/programs/serve-cms.ts`); `npm start` beside the public site (`PUBLISHING=off` leaves it
 * out there). Its metrics are its own, turned on by settings of its own (`CMS_METRICS_PORT`: a
 * listener on `CMS_METRICS_HOST`; `CMS_METRICS_TOKEN`: `/metrics` on its port), so that each
 * service is one target for Prometheus however the two are run.
 */
import type { FastifyInstance } from 'fastify'
import { readBuildConfig } from '../engine/config'
import { logFormatOf, logStreamFor } from '../server/logger'
import {
  createMetrics,
  listenBeside,
  readMetricsSettings,
  type ServiceMetrics,
} from '../server/metrics'
import { trustProxyOf } from '../server/serve'
import { createPublishingApp } from './http/app'
import { firstAdministratorMessage, openPublishingService } from './service'
import { readPublishingSettings } from './settings'

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
  const value = env.PUBLISHING || 'on'
  if (value !== 'on' && value !== 'off') {
    throw new Error(`PUBLISHING must be on or off; got "${env.PUBLISHING}"`)
  }
  return value === 'on'
}

export async function startPublishing(
  env: NodeJS.ProcessEnv = process.env,
  print: (line: string) => void = console.log,
): Promise<StartedPublishing> {
  const buildConfig = readBuildConfig(env)
  const settings = readPublishingSettings(buildConfig.root, env)
  const logStream = logStreamFor(logFormatOf(env))
  const metricsSettings = readMetricsSettings(env, 'CMS_')
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
  })
  // Behind the bank's reverse proxy (TRUST_PROXY), sign-in is limited per visitor, not per proxy.
  const trustProxy = trustProxyOf(env.TRUST_PROXY)
  const app = await createPublishingApp(service, {
    logLevel: env.LOG_LEVEL ?? 'info',
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
  if (metrics) await listenBeside(app, metrics.registry, metricsSettings)
  await app.listen({ port: settings.port, host: settings.host })
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
  service.publisher.recover().then(
    (release) =>
      release && app.log.info({ release: release.folder }, 'served site brought up to main'),
    (error: unknown) => app.log.error({ err: error }, 'bringing the served site up to main failed'),
  )
  return { app, url, ...(metrics ? { metrics } : {}), close: () => app.close() }
}
