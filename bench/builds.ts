/**
 * Build timings for the bench: whole `npm run build` processes, from an empty build cache
 * (cold: a first deploy, every CI run, a new machine) and after an editor's change to one page
 * (warm: bundles, renderings, PDFs and images of unchanged code and content reused), each with
 * the build's own profile of its phases.
 */
import { spawn } from 'node:child_process'
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Profile } from '../src/engine/timeline'

const ROOT = resolve(import.meta.dirname, '..')

export interface BuildRun {
  seconds: number
  peakMb: number
  profile: Profile
  /** With `twins`: the compressed twins' pass after the build (seconds; part of `seconds`). */
  twinsSeconds?: number
}

/**
 * One `npm run build` process. `freshClone` also compiles the programs into an empty folder
 * first (`scripts/run.mjs`), as the first build on a new machine or in CI does. Without `twins`
 * it writes no compressed twins (`BUILD_TWINS=off`): the figures are of the site's generation,
 * as before twins were written after it; with, the twins' pass is timed apart too.
 */
export function buildOnce(
  contentDir: string,
  outDir: string,
  cacheDir: string,
  { freshClone = false, twins = false } = {},
): Promise<BuildRun> {
  const profileFile = `${outDir}-profile.json`
  return new Promise((resolvePromise, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['scripts/run.mjs', 'build'], {
      cwd: ROOT,
      env: {
        ...process.env,
        CONTENT_DIR: contentDir,
        OUT_DIR: outDir,
        BUILD_CACHE_DIR: cacheDir,
        BUILD_REPORT_MEMORY: '1',
        BUILD_PROFILE: profileFile,
        BUILD_TWINS: twins ? 'on' : 'off',
        ...(freshClone ? { RUN_BIN_DIR: join(cacheDir, 'bin') } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.on('exit', async (code) => {
      const seconds = (performance.now() - started) / 1000
      if (code !== 0) return reject(new Error(`build of ${contentDir} failed:\n${output}`))
      const kb = Number(/peak-rss-kb (\d+)/.exec(output)?.[1] ?? 0)
      const twinsSeconds = /Compressed twins: .* in ([\d.]+) s/.exec(output)?.[1]
      try {
        const profile = JSON.parse(await readFile(profileFile, 'utf8')) as Profile
        await rm(profileFile, { force: true })
        resolvePromise({
          seconds,
          peakMb: kb / 1024,
          profile,
          ...(twinsSeconds ? { twinsSeconds: Number(twinsSeconds) } : {}),
        })
      } catch (error) {
        reject(error)
      }
    })
  })
}

export interface ColdAndWarm {
  cold: BuildRun
  warm: BuildRun[]
}

/**
 * A first build as on a fresh clone (empty build cache, programs not yet compiled), then builds
 * after an editor's change to one page.
 * The cache lives inside the project: the server bundle there resolves React from
 * `node_modules`.
 */
export async function coldAndWarm(
  contentDir: string,
  outDir: string,
  cacheDir: string,
  warmRuns: number,
  { twins = false } = {},
): Promise<ColdAndWarm> {
  await rm(cacheDir, { recursive: true, force: true })
  const cold = await buildOnce(contentDir, outDir, cacheDir, { freshClone: true, twins })
  const page = join(contentDir, 'en', 'pages', 'about.yaml')
  const original = await readFile(page, 'utf8')
  const warm: BuildRun[] = []
  try {
    for (let run = 0; run < warmRuns; run += 1) {
      await writeFile(page, original.replace(/^title: (.*)$/m, `title: $1 (edit ${run + 1})`))
      warm.push(await buildOnce(contentDir, outDir, cacheDir, { twins }))
    }
  } finally {
    await writeFile(page, original)
  }
  return { cold, warm }
}

export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

export async function directorySize(dir: string): Promise<{ bytes: number; files: number }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  let bytes = 0
  let files = 0
  for (const entry of entries) {
    if (!entry.isFile()) continue
    bytes += (await stat(join(entry.parentPath, entry.name))).size
    files += 1
  }
  return { bytes, files }
}
