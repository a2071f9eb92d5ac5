/**
 * Paired runs for the figures that only mean something side by side on one machine: the real
 * site's cold build against an earlier commit's (`BENCH_BASELINE`, 4a801f7 by default: the last
 * measured commit before the publishing service), and (`bench/peers.ts`) the build of 120
 * generated pages against Astro's. Both run through `farm-bench`, which alternates the two
 * commands and reports medians, CPU and peak memory of whole process trees; where it is missing
 * the figures say so instead.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/** farm-bench's medians for one command (A or B) and the ratios A/B. */
export interface Pair {
  a: { wall: number; cpu: number; peakMib: number }
  b: { wall: number; cpu: number; peakMib: number }
  ratio: { wall: number; cpu: number }
  runs: number
}

/** The median column of a farm-bench line such as `A wall s   1.468   1.819   1.863`. */
function medianOf(output: string, label: string): number {
  const line = output.split('\n').find((row) => row.trimStart().startsWith(`${label} `))
  const columns = line?.trim().split(/\s+/) ?? []
  return Number(columns[columns.length - 2])
}

export function parseFarmBench(output: string, runs: number): Pair {
  const side = (name: 'A' | 'B') => ({
    wall: medianOf(output, `${name} wall s`),
    cpu: medianOf(output, `${name} cpu s`),
    peakMib: medianOf(output, `${name} peak MiB`),
  })
  return {
    a: side('A'),
    b: side('B'),
    ratio: { wall: medianOf(output, 'A/B wall'), cpu: medianOf(output, 'A/B cpu') },
    runs,
  }
}

export const hasFarmBench = () =>
  spawnSync('farm-bench', ['--help'], { stdio: 'ignore' }).status === 0

/**
 * `a` and `b` (executable files) `runs` times each, in turn, after one run of each that is not
 * counted; the figures of `a`, of `b` and the ratios a/b.
 */
export function pairedRun(a: string, b: string, runs: number): Pair {
  const output = execFileSync(
    'farm-bench',
    ['-n', String(runs), '--warmup', '1', '--timeout', '900', '--vs', b, '--', a],
    { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  )
  return parseFarmBench(output, runs)
}

/**
 * The real site's cold build (empty build cache, programs compiled) here and at `commit`, each
 * from its own checkout and content, in turn.
 */
export async function againstCommit(commit: string, runs: number): Promise<Pair | string> {
  if (!hasFarmBench()) return 'farm-bench is not installed'
  const work = join(ROOT, 'bench', 'out', 'baseline')
  const tree = join(work, 'tree')
  await rm(work, { recursive: true, force: true })
  await mkdir(work, { recursive: true })
  execFileSync('git', ['worktree', 'prune'], { cwd: ROOT })
  execFileSync('git', ['worktree', 'add', '--detach', tree, commit], { cwd: ROOT, stdio: 'ignore' })
  try {
    await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir')
    const script = async (name: string, checkout: string) => {
      const out = join(work, `${name}-dist`)
      const cache = join(work, `${name}-cache`)
      const file = join(work, `${name}.sh`)
      await writeFile(
        file,
        `#!/bin/bash\ncd '${checkout}' && rm -rf '${out}' '${cache}' && OUT_DIR='${out}' BUILD_CACHE_DIR='${cache}' node scripts/run.mjs build >/dev/null 2>&1\n`,
        { mode: 0o755 },
      )
      // Compiled once before timing: the figures are of builds, not compiles.
      execFileSync(file)
      return file
    }
    const now = await script('now', ROOT)
    const then = await script('then', tree)
    return pairedRun(now, then, runs)
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' })
    await rm(work, { recursive: true, force: true })
  }
}
