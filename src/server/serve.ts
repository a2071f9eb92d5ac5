/**
 * Serves a built site with the forms service until SIGINT or SIGTERM; on either, stops taking
 * connections, answers the requests in flight, closes the database and exits. `npm start` runs
 * it after building; the restart test runs it directly.
 */
import type { FastifyInstance } from 'fastify'
import { createApp } from './app'
import { purge } from './forms/operations'
import { openFormsService, readFormsSettings } from './forms/service'

const PURGE_EVERY_MS = 6 * 3_600_000

export interface ServeOptions {
  /** The project root (`DATA_DIR` is relative to it). */
  root: string
  /** The built site. */
  outDir: string
  contentDir: string
  siteUrl: string
  env?: NodeJS.ProcessEnv
}

/** `TRUST_PROXY`: `true`, or the addresses (comma-separated) of the proxies in front. */
function trustProxyOf(value: string | undefined): boolean | string | undefined {
  if (!value) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  return value
}

export async function serve(options: ServeOptions): Promise<FastifyInstance> {
  const env = options.env ?? process.env
  const forms = await openFormsService(
    readFormsSettings(options.root, options.contentDir, options.siteUrl, env),
  )
  const app = await createApp({
    root: options.outDir,
    logLevel: env.LOG_LEVEL ?? 'info',
    forms: forms.options,
    trustProxy: trustProxyOf(env.TRUST_PROXY),
  })
  // What is no longer needed is deleted, as the privacy policy promises (see purge()).
  const purgeNow = () =>
    purge(forms.database, new Date()).then(
      (removed) =>
        removed.unconfirmed + removed.former + removed.consentRecords > 0 &&
        app.log.info(removed, 'old records deleted'),
      (error: unknown) => app.log.error({ err: error }, 'deleting old sign-ups failed'),
    )
  const timer = setInterval(purgeNow, PURGE_EVERY_MS)
  timer.unref()
  // Run once the requests in flight are answered, in this order: then the database closes.
  app.addHook('onClose', async () => clearInterval(timer))
  // The sender stops (its mails in flight finished) before the database closes.
  app.addHook('onClose', () => forms.close())
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
