/** `npm run build`: writes the complete static site to `dist/` (or `OUT_DIR`). */
import { relative } from 'node:path'
import { ContentValidationError } from '../content/errors'
import { buildSite } from '../engine/build'
import { readBuildConfig } from '../engine/config'
import { formatProfile, writeProfile } from '../engine/timeline'

async function main(): Promise<void> {
  const started = performance.now()
  const config = readBuildConfig()
  const report = await buildSite(config)
  const seconds = ((performance.now() - started) / 1000).toFixed(2)
  const steps = Object.entries(report.timings)
    .map(([name, ms]) => `${name} ${ms} ms`)
    .join(', ')
  console.log(
    `Built ${report.pages} pages${report.pagesReused ? ` (${report.pagesReused} unchanged, linked)` : ''} to ${relative(process.cwd(), config.outDir) || '.'} in ${seconds} s (${steps}); build ${report.buildHash}${report.bundlesReused ? ' (bundles reused: code unchanged)' : ''}, ${report.precached} files precached.`,
  )
  if (process.env.BUILD_PROFILE) {
    await writeProfile(process.env.BUILD_PROFILE, report.profile)
    console.log(formatProfile(report.profile))
  }
  if (process.env.BUILD_REPORT_MEMORY) {
    console.log(`peak-rss-kb ${process.resourceUsage().maxRSS}`)
  }
}

main().catch((error: unknown) => {
  if (error instanceof ContentValidationError) {
    console.error(error.message)
  } else {
    console.error(error)
  }
  // At once: bundling, workers and compression still under way would keep the process alive.
  process.exit(1)
})
