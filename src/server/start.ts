/**
 * `npm start`: builds the site when `dist/` is missing or stale, then serves it on
 * http://localhost:8080 (`PORT`, `HOST` override) until SIGINT or SIGTERM, finishing the
 * requests in flight before it exits. With `SERVE_STATIC=off` it builds nothing and runs the
 * forms service alone (as `npm run serve:api`).
 */
import { readBuildConfig } from '../build/config'
import { inputHash, isFresh } from '../build/stamp'
import { ContentValidationError } from '../content/errors'
import { serve, servesStatic } from './serve'

async function main(): Promise<void> {
  const config = readBuildConfig()
  if (!servesStatic()) {
    await serve({ root: config.root, contentDir: config.contentDir, siteUrl: config.siteUrl })
    return
  }
  if (await isFresh(config, await inputHash(config))) {
    console.log(`${config.outDir} is up to date.`)
  } else {
    console.log(`Building the site into ${config.outDir} …`)
    const { buildSite } = await import('../build/build')
    const report = await buildSite(config)
    console.log(`Built ${report.pages} pages (build ${report.buildHash}).`)
  }
  await serve({
    root: config.root,
    outDir: config.outDir,
    contentDir: config.contentDir,
    siteUrl: config.siteUrl,
  })
}

main().catch((error: unknown) => {
  console.error(error instanceof ContentValidationError ? error.message : error)
  process.exit(1)
})
