/**
 * `npm start`: builds the site when `dist/` is missing or stale, then serves it on
 * http://localhost:8080 (`PORT`, `HOST` override) until SIGINT or SIGTERM, finishing the
 * requests in flight before it exits.
 */
import { readBuildConfig } from '../build/config'
import { inputHash, isFresh } from '../build/stamp'
import { ContentValidationError } from '../content/errors'
import { createApp } from './app'
import { openFormsService, readFormsSettings } from './forms/service'

/** `TRUST_PROXY`: `true`, or the addresses (comma-separated) of the proxies in front. */
function trustProxyOf(value: string | undefined): boolean | string | undefined {
  if (!value) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  return value
}

async function main(): Promise<void> {
  const config = readBuildConfig()
  if (await isFresh(config, await inputHash(config))) {
    console.log(`${config.outDir} is up to date.`)
  } else {
    console.log(`Building the site into ${config.outDir} …`)
    const { buildSite } = await import('../build/build')
    const report = await buildSite(config)
    console.log(`Built ${report.pages} pages (build ${report.buildHash}).`)
  }
  const forms = await openFormsService(
    readFormsSettings(config.root, config.contentDir, config.siteUrl),
  )
  const app = await createApp({
    root: config.outDir,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    forms: forms.options,
    trustProxy: trustProxyOf(process.env.TRUST_PROXY),
  })
  // Runs once the requests in flight are answered: then the database is closed cleanly.
  app.addHook('onClose', () => forms.close())
  app.log.info({ database: forms.database.kind, mail: forms.mailer.target }, 'forms service ready')
  const port = Number(process.env.PORT ?? 8080)
  const host = process.env.HOST ?? 'localhost'
  await app.listen({ port, host })
  const shutdown = (signal: string) => {
    app.log.info({ signal }, 'shutting down')
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', () => shutdown('SIGINT'))
  process.once('SIGTERM', () => shutdown('SIGTERM'))
}

main().catch((error: unknown) => {
  console.error(error instanceof ContentValidationError ? error.message : error)
  process.exit(1)
})
