/**
 * Paired runs for the figures that only mean something side by side on one machine: the real
 * site's cold build against an earlier commit's (`BENCH_BASELINE`, 4a801f7 by default: the last
 * measured commit before the publishing service), and (`bench/peers.ts`) the build of 120
 * generated pages against Astro's. Each pair runs its two commands in turn, the order swapped
 * from one pair to the next, timed from outside by GNU time (`/usr/bin/time`, Debian's `time`):
 * wall time, CPU time (user and system of every process the command waited for) and the peak
 * memory of its largest process. Medians are reported, and the ratios taken pair by pair, so
 * a machine whose speed drifts during the runs moves both sides alike.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')
const GNU_TIME = '/usr/bin/time'

/** One run of a command, as the operating system accounts it. */
export interface RunFigures {
  wall: number
  cpu: number
  peakMib: number
}

/** The medians of `a` and of `b`, and the medians of the ratios a/b pair by pair. */
export interface Pair {
  a: RunFigures
  b: RunFigures
  ratio: { wall: number; cpu: number }
  runs: number
}

/** Whether pairs can be timed here; else why not. */
export const pairsUnavailable = (): string | undefined =>
  existsSync(GNU_TIME) ? undefined : `${GNU_TIME} is missing (apt-get install time)`

/** Runs `file` (an executable) once under GNU time; throws when it fails. */
export function timedRun(file: string): RunFigures {
  const report = join(tmpdir(), `bench-time-${process.pid}-${randomUUID()}`)
  const started = performance.now()
  const run = spawnSync(GNU_TIME, ['-f', '%U %S %M', '-o', report, file], { stdio: 'ignore' })
  const wall = (performance.now() - started) / 1000
  try {
    if (run.status !== 0) throw new Error(`${file} failed (exit ${run.status ?? run.signal})`)
    const last = readFileSync(report, 'utf8').trim().split('\n').at(-1) ?? ''
    const [user = Number.NaN, system = Number.NaN, peakKb = Number.NaN] = last
      .split(' ')
      .map(Number)
    return { wall, cpu: user + system, peakMib: peakKb / 1024 }
  } finally {
    rmSync(report, { force: true })
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
const round = (value: number, digits: number) => Number(value.toFixed(digits))
const medians = (runs: RunFigures[]): RunFigures => ({
  wall: round(median(runs.map((run) => run.wall)), 3),
  cpu: round(median(runs.map((run) => run.cpu)), 3),
  peakMib: round(median(runs.map((run) => run.peakMib)), 1),
})

/**
 * `a` and `b` (executable files) `runs` times each, in turn (a b, then b a, …), after one run
 * of each that is not counted; the figures of `a`, of `b` and the ratios a/b.
 */
export function pairedRun(a: string, b: string, runs: number): Pair {
  timedRun(a)
  timedRun(b)
  const ours: RunFigures[] = []
  const theirs: RunFigures[] = []
  for (let pair = 0; pair < runs; pair++) {
    if (pair % 2 === 0) {
      ours.push(timedRun(a))
      theirs.push(timedRun(b))
    } else {
      theirs.push(timedRun(b))
      ours.push(timedRun(a))
    }
  }
  const ratios = (key: 'wall' | 'cpu') =>
    round(median(ours.map((run, index) => run[key] / (theirs[index]?.[key] ?? Number.NaN))), 4)
  return {
    a: medians(ours),
    b: medians(theirs),
    ratio: { wall: ratios('wall'), cpu: ratios('cpu') },
    runs,
  }
}

/**
 * Runs `work` with a checkout of `commit` at `tree` (its own folder under `bench/out/`, the
 * project's `node_modules` linked in), removed afterwards with everything under `work`.
 */
export async function withCheckout<T>(
  commit: string,
  name: string,
  work: (tree: string, scratch: string) => Promise<T>,
): Promise<T> {
  const scratch = join(ROOT, 'bench', 'out', name)
  const tree = join(scratch, 'tree')
  await rm(scratch, { recursive: true, force: true })
  await mkdir(scratch, { recursive: true })
  execFileSync('git', ['worktree', 'prune'], { cwd: ROOT })
  execFileSync('git', ['worktree', 'add', '--detach', tree, commit], { cwd: ROOT, stdio: 'ignore' })
  try {
    await symlink(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir')
    return await work(tree, scratch)
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' })
    await rm(scratch, { recursive: true, force: true })
  }
}

/**
 * The real site's cold build (empty build cache, programs compiled) here and at `commit`, each
 * from its own checkout and content, in turn. This commit's without its compressed twins
 * (`BUILD_TWINS=off`; the bench times their pass on its own): 4a801f7 wrote Brotli 6 twins of
 * its pages while it rendered them, this one writes Brotli 11 twins after the build.
 */
export async function againstCommit(commit: string, runs: number): Promise<Pair | string> {
  const unavailable = pairsUnavailable()
  if (unavailable) return unavailable
  return withCheckout(commit, 'baseline', async (tree, work) => {
    const script = async (name: string, checkout: string) => {
      const out = join(work, `${name}-dist`)
      const cache = join(work, `${name}-cache`)
      const file = join(work, `${name}.sh`)
      await writeFile(
        file,
        `#!/bin/bash\ncd '${checkout}' && rm -rf '${out}' '${cache}' && OUT_DIR='${out}' BUILD_CACHE_DIR='${cache}' BUILD_TWINS=off node scripts/run.mjs build >/dev/null 2>&1\n`,
        { mode: 0o755 },
      )
      // Compiled once before timing: the figures are of builds, not compiles.
      execFileSync(file)
      return file
    }
    const now = await script('now', ROOT)
    const then = await script('then', tree)
    return pairedRun(now, then, runs)
  })
}
