/** `npm run build`: writes the complete static site to `dist/` (or `OUT_DIR`). */
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { contentProblems } from '../content/errors'
import { ensureWritableFolder } from '../database/folder'
import { openTwinWriter } from '../engine/assets/twins'
import { buildSite } from '../engine/build'
import { checkBuildFolders, readBuildConfig } from '../engine/config'
import { formatProfile, writeProfile } from '../engine/timeline'
import { switchSetting } from '../shared/setting-values'
import { runProgram } from '../shared/settings-error'

async function main(): Promise<void> {
  const started = performance.now()
  const config = readBuildConfig()
  const twins = switchSetting(process.env, 'BUILD_TWINS', 'on')
  // The folders it reads and writes, checked before it starts: a wrong one is one line.
  await checkBuildFolders(config)
  const profile = process.env.BUILD_PROFILE
  if (profile) {
    await ensureWritableFolder(dirname(resolve(profile)), {
      what: "the build profile's folder",
      setting: 'BUILD_PROFILE',
      names: 'a file',
    })
  }
  const report = await buildSite(config)
  const seconds = ((performance.now() - started) / 1000).toFixed(2)
  const steps = Object.entries(report.timings)
    .map(([name, ms]) => `${name} ${ms} ms`)
    .join(', ')
  console.log(
    `Built ${report.pages} pages${report.pagesReused ? ` (${report.pagesReused} unchanged, linked)` : ''} to ${relative(process.cwd(), config.outDir) || '.'} in ${seconds} s (${steps}); build ${report.buildHash}${report.bundlesReused ? ' (bundles reused: code unchanged)' : ''}, ${report.precached} files precached.`,
  )
  if (twins) {
    // For static hosts: every page and data file with its Brotli and gzip twins, from the
    // store when its bytes were compressed before (see twins.ts).
    const writer = openTwinWriter({ threads: availableParallelism() })
    try {
      const done = await writer.write(config.outDir, join(config.cacheDir, 'twins'))
      console.log(
        `Compressed twins: ${done.compressed} files compressed, ${done.reused} from the store, in ${(done.ms / 1000).toFixed(2)} s.`,
      )
    } finally {
      await writer.close()
    }
  }
  if (profile) {
    await writeProfile(profile, report.profile)
    console.log(formatProfile(report.profile))
  }
  if (process.env.BUILD_REPORT_MEMORY) {
    console.log(`peak-rss-kb ${process.resourceUsage().maxRSS}`)
  }
}

// On failure it exits at once: bundling, workers and compression still under way would keep
// the process alive.
runProgram(main, contentProblems)
