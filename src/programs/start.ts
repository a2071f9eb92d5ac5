/**
 * `npm start`: serves the site on http://localhost:8080 (`PORT`, `HOST` override) until SIGINT
 * or SIGTERM, finishing the requests in flight before it exits: the release the editors
 * published last, or, before their first, `dist/` built from this checkout when it is missing
 * or stale. With `SERVE_STATIC=off` it builds nothing and runs the forms service alone (as
 * `npm run serve:api`).
 */
import { readlink } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { ContentValidationError } from '../content/errors'
import { inputHash, isFresh } from '../engine/cache/stamp'
import { readBuildConfig } from '../engine/config'
import { readPublishingSettings } from '../publishing/settings'
import { runsPublishing, startPublishing } from '../publishing/start'
import { CURRENT } from '../publishing/workflow/releases'
import { serve, servesStatic } from '../server/serve'

async function main(): Promise<void> {
  const config = readBuildConfig()
  if (!servesStatic()) {
    await serve({ root: config.root, contentDir: config.contentDir, siteUrl: config.siteUrl })
    return
  }
  const { releasesDir } = readPublishingSettings(config.root)
  const release = await readlink(join(releasesDir, CURRENT)).catch(() => undefined)
  if (release) {
    console.log(
      `Serving the editors' release ${basename(release)} (${releasesDir}); npm run build builds this checkout into ${config.outDir}.`,
    )
  } else if (await isFresh(config, await inputHash(config))) {
    console.log(`${config.outDir} is up to date.`)
  } else {
    console.log(`Building the site into ${config.outDir} …`)
    const { buildSite } = await import('../engine/build')
    const report = await buildSite(config)
    console.log(`Built ${report.pages} pages (build ${report.buildHash}).`)
  }
  // The editors' service, on its own port (localhost), stopped with the site.
  const publishing = runsPublishing() ? await startPublishing() : undefined
  await serve({
    root: config.root,
    outDir: config.outDir,
    releasesDir,
    ...(publishing ? { alongside: [publishing] } : {}),
    contentDir: config.contentDir,
    siteUrl: config.siteUrl,
  })
}

main().catch((error: unknown) => {
  console.error(error instanceof ContentValidationError ? error.message : error)
  process.exit(1)
})
