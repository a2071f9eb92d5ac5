/**
 * Serves a built site with the forms service until SIGINT or SIGTERM; on either, stops taking
 * connections, answers the requests in flight (ending the connections still open after
 * `SHUTDOWN_TIMEOUT_SECONDS`, see transport.ts), lets the sender finish the mails in flight,
 * closes the database and exits. `npm start` runs it after building; `npm run serve:api` (or
 * `SERVE_STATIC=off`) runs the forms service alone; the tests run it directly.
 */
import type { FastifyInstance } from 'fastify'
import { createApp } from './app'
import { connectionsCheck } from './connection-limits'
import { purge } from './forms/operations'
import { openFormsService, readFormsSettings } from './forms/service'
import { healthRoutes } from './health'
import { logFormatOf, logStreamFor } from './logger'
import { createMetrics, listenBeside, readMetricsSettings } from './metrics'
import { warnOfUntrustedProxy } from './proxy-warning'
import { readTransportSettings } from './transport'

const PURGE_EVERY_MS = 6 * 3_600_000

export interface ServeOptions {
  /** The project root (`DATA_DIR` is relative to it). */
  root: string
  /** The built site; absent (or `SERVE_STATIC=off`): the forms service alone. */
  outDir?: string
  /** The publishing service's releases: the current one is served instead of `outDir`. */
  releasesDir?: string
  /** Services run beside the site (the publishing service), closed with it. */
  alongside?: { close(): Promise<void> }[]
  contentDir: string
  siteUrl: string
  env?: NodeJS.ProcessEnv
}

/** `SERVE_STATIC`: `on` (the default) serves the built site beside the service, `off` not. */
export function servesStatic(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.SERVE_STATIC || 'on'
  if (value !== 'on' && value !== 'off') {
    throw new Error(`SERVE_STATIC must be on or off; got "${env.SERVE_STATIC}"`)
  }
  return value === 'on'
}

/** `TRUST_PROXY`: `true`, or the addresses (comma-separated) of the proxies in front. */
export function trustProxyOf(value: string | undefined): boolean | string | undefined {
  if (!value) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  return value
}

export async function serve(options: ServeOptions): Promise<FastifyInstance> {
  const env = options.env ?? process.env
  // Checked before anything opens: a wrong value is refused at start.
  const transport = readTransportSettings(env)
  const logStream = logStreamFor(logFormatOf(env))
  const metricsSettings = readMetricsSettings(env)
  const metrics = metricsSettings ? createMetrics('site') : undefined
  const forms = await openFormsService(
    readFormsSettings(options.root, options.contentDir, options.siteUrl, env),
    metrics ? { registry: metrics.registry } : {},
  )
  const app = await createApp({
    ...(options.outDir && servesStatic(env) ? { root: options.outDir } : {}),
    ...(options.releasesDir && servesStatic(env) ? { releasesDir: options.releasesDir } : {}),
    logLevel: env.LOG_LEVEL ?? 'info',
    ...(logStream ? { logStream } : {}),
    forms: forms.options,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    transport,
    ...(metrics
      ? {
          metrics: { metrics, ...(metricsSettings?.token ? { token: metricsSettings.token } : {}) },
        }
      : {}),
  })
  // Behind a proxy it was not told of, the service says so (see proxy-warning.ts).
  warnOfUntrustedProxy(app, trustProxyOf(env.TRUST_PROXY))
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
  await app.listen({ port: Number(env.PORT ?? 8080), host: env.HOST ?? 'localhost' })
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
