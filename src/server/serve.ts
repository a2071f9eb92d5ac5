/**
 * Serves a built site with the forms service until SIGINT or SIGTERM; on either, stops taking
 * connections, answers the requests in flight (ending the connections still open after
 * `SHUTDOWN_TIMEOUT_SECONDS`, see transport.ts), lets the sender finish the mails in flight,
 * closes the database and exits. `npm start` runs it after building; `npm run serve:api` (or
 * `SERVE_STATIC=off`) runs the forms service alone; the tests run it directly.
 */
import type { FastifyInstance } from 'fastify'
import { checkDatabaseUrls } from '../database/open'
import { purge } from '../forms/operations'
import { type FormsSettings, openFormsService, readFormsSettings } from '../forms/service'
import { connectionsCheck } from '../http/connection-limits'
import { healthRoutes } from '../http/health'
import { checkListeners, type ListenerSetting, listenFailure } from '../http/listeners'
import { type LogFormat, logFormatOf, logLevelOf, logStreamFor } from '../http/logger'
import {
  createMetrics,
  listenBeside,
  type MetricsSettings,
  metricsListener,
  readMetricsSettings,
} from '../http/metrics'
import { warnOfUntrustedProxy } from '../http/proxy-warning'
import { readTransportSettings, type TransportSettings } from '../http/transport'
import { trustProxyOf } from '../http/trust-proxy'
import { portSetting, switchSetting } from '../shared/setting-values'
import { createApp } from './app'

const PURGE_EVERY_MS = 6 * 3_600_000

export interface ServeOptions {
  /** The project root (`DATA_DIR` is relative to it). */
  root: string
  /** The built site; absent (or `SERVE_STATIC=off`): the forms service alone. */
  outDir?: string
  /** The publishing service's releases: the current one is served instead of `outDir`. */
  releasesDir?: string
  /**
   * Serve none of the site's files, only its moved addresses (301), as with `SERVE_STATIC=off`:
   * for nginx in front, which asks for an address it has no file for (see app.ts).
   */
  movesOnly?: boolean
  /** Services run beside the site (the publishing service), closed with it. */
  alongside?: { close(): Promise<void> }[]
  contentDir: string
  siteUrl: string
  env?: NodeJS.ProcessEnv
}

/** `SERVE_STATIC`: `on` (the default) serves the built site beside the service, `off` not. */
export function servesStatic(env: NodeJS.ProcessEnv = process.env): boolean {
  return switchSetting(env, 'SERVE_STATIC', 'on')
}

/** Everything `serve` takes from the environment, each checked before anything opens. */
export interface ServeSettings {
  transport: TransportSettings
  logFormat: LogFormat
  logLevel: string
  metrics: MetricsSettings | undefined
  forms: FormsSettings
  trustProxy: boolean | string | undefined
  servesStatic: boolean
  /** `PORT` (8080) and `HOST` (localhost). */
  listener: ListenerSetting
}

export function readServeSettings(
  options: Pick<ServeOptions, 'root' | 'contentDir' | 'siteUrl' | 'env'>,
): ServeSettings {
  const env = options.env ?? process.env
  return {
    transport: readTransportSettings(env),
    logFormat: logFormatOf(env),
    logLevel: logLevelOf(env),
    metrics: readMetricsSettings(env),
    forms: readFormsSettings(options.root, options.contentDir, options.siteUrl, env),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    servesStatic: servesStatic(env),
    listener: {
      port: portSetting(env, 'PORT', 8080),
      host: env.HOST || 'localhost',
      portSetting: 'PORT',
      hostSetting: 'HOST',
    },
  }
}

/** The addresses `settings` listen on: the site's, and the metrics' own when asked for. */
export function serveListeners(settings: ServeSettings): ListenerSetting[] {
  const metrics = metricsListener(settings.metrics)
  return [settings.listener, ...(metrics ? [metrics] : [])]
}

/**
 * Serves until SIGINT or SIGTERM. Its `settings` are read from `options.env` unless given (a
 * caller that reads them first, to check everything before it starts anything); a port taken
 * or a database server it cannot use stops it before it makes or opens anything.
 */
export async function serve(
  options: ServeOptions,
  settings: ServeSettings = readServeSettings(options),
): Promise<FastifyInstance> {
  const { transport, metrics: metricsSettings, trustProxy } = settings
  await checkListeners(serveListeners(settings))
  await checkDatabaseUrls(settings.forms)
  const logStream = logStreamFor(settings.logFormat)
  const metrics = metricsSettings ? createMetrics('site') : undefined
  const forms = await openFormsService(
    settings.forms,
    metrics ? { registry: metrics.registry, fromSettings: true } : { fromSettings: true },
  )
  const app = await createApp({
    // Without its files, the site's moved addresses are still answered: nginx in front asks
    // here for an address it has no file for.
    ...(options.outDir ? { root: options.outDir } : {}),
    ...(options.releasesDir ? { releasesDir: options.releasesDir } : {}),
    ...(options.movesOnly || !settings.servesStatic ? { movesOnly: true } : {}),
    logLevel: settings.logLevel,
    ...(logStream ? { logStream } : {}),
    forms: forms.options,
    trustProxy,
    transport,
    ...(metrics
      ? {
          metrics: { metrics, ...(metricsSettings?.token ? { token: metricsSettings.token } : {}) },
        }
      : {}),
  })
  // Behind a proxy it was not told of, the service says so (see proxy-warning.ts).
  warnOfUntrustedProxy(app, trustProxy)
  await app.register(healthRoutes, {
    checks: [
      { name: 'database', check: () => forms.database.query('SELECT 1') },
      { name: 'mail', check: () => forms.mailReady() },
      connectionsCheck(app),
      { name: 'disk', check: () => forms.diskReady() },
    ],
    ...(metrics ? { registry: metrics.registry } : {}),
  })
  // What is no longer needed is deleted, as the privacy policy promises (see purge()).
  const purgeNow = () =>
    purge(forms.database, new Date()).then(
      (removed) =>
        removed.unconfirmed + removed.former + removed.consentRecords + removed.mails > 0 &&
        app.log.info(removed, 'old records deleted'),
      (error: unknown) => app.log.error({ err: error }, 'deleting old sign-ups failed'),
    )
  const timer = setInterval(purgeNow, PURGE_EVERY_MS)
  timer.unref()
  // Run once the requests in flight are answered, in this order: then the database closes.
  app.addHook('onClose', async () => clearInterval(timer))
  // The sender stops (its mails in flight finished) before the database closes.
  app.addHook('onClose', () => forms.close())
  for (const service of options.alongside ?? []) app.addHook('onClose', () => service.close())
  // Opened before the app listens: no hook may be added after.
  if (metrics) await listenBeside(app, metrics.registry, metricsSettings)
  forms.startSender(app.log)
  app.log.info({ database: forms.database.kind, mail: forms.mailer.target }, 'forms service ready')
  const { listener } = settings
  await app.listen({ port: listener.port, host: listener.host }).catch((error: unknown) => {
    throw listenFailure(error, listener)
  })
  await purgeNow()
  const shutdown = (signal: string) => {
    app.log.info({ signal }, 'shutting down')
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', () => shutdown('SIGINT'))
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  return app
}
