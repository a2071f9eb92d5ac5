/**
 * `npm start`: builds the site when `dist/` is missing or stale, then serves it on
 * http://localhost:8080 (`PORT`, `HOST` override) until SIGINT or SIGTERM, finishing the
 * requests in flight before it exits.
 */
import { readBuildConfig } from '../build/config'
import { inputHash, isFresh } from '../build/stamp'
import { ContentValidationError } from '../content/errors'
import { createApp } from './app'

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
  const app = await createApp({ root: config.outDir, logLevel: process.env.LOG_LEVEL ?? 'info' })
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
