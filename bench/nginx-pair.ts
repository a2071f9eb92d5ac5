/**
 * nginx at its limit, paired: the real site built and served by this commit's server block
 * (`npm run build`, `npm run nginx-config`) against the same at an earlier commit (4a801f7 by
 * default, whose build wrote twins of every page), each from its own checkout, asked for `/en/`
 * as a browser asks (Brotli, then gzip) by wrk (one thread, 50 connections), in alternating
 * rounds on the same two cores. The figure that showed nginx compressing every page per request
 * (36 times fewer answers a second) and that the twins bring back.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { freePorts } from '../tests/support/free-port'
import { nginxInstalled, startNginx } from '../tests/support/nginx'
import { withCheckout } from './pairs'

const ROOT = resolve(import.meta.dirname, '..')
const CODINGS = ['br', 'gzip'] as const
type Coding = (typeof CODINGS)[number]

export interface NginxPair {
  commit: string
  /** Median requests a second for `/en/`, by coding: this commit's and the baseline's. */
  ours: Record<Coding, number>
  theirs: Record<Coding, number>
  rounds: number
  seconds: number
}

const hasWrk = () => spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined

/** wrk's requests a second for `url` with `Accept-Encoding: coding`. */
function wrk(url: string, coding: Coding, seconds: number): number {
  const output = execFileSync(
    'wrk',
    ['-t1', '-c50', `-d${seconds}s`, '-H', `Accept-Encoding: ${coding}`, url],
    { encoding: 'utf8' },
  )
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]
  if (!rate) throw new Error(`wrk said no rate:\n${output}`)
  if (/Non-2xx or 3xx responses/.test(output)) throw new Error(`wrk got errors:\n${output}`)
  return Math.round(Number(rate))
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** Builds the site of `checkout` and writes its server block for `port`; returns the block. */
async function builtSite(checkout: string, scratch: string, name: string, port: number) {
  const dist = join(scratch, `${name}-dist`)
  const env = {
    ...process.env,
    OUT_DIR: dist,
    BUILD_CACHE_DIR: join(scratch, `${name}-cache`),
  }
  execFileSync(process.execPath, ['scripts/run.mjs', 'build'], {
    cwd: checkout,
    env,
    stdio: 'ignore',
  })
  const block = join(scratch, `${name}.conf`)
  execFileSync(
    process.execPath,
    [
      'scripts/run.mjs',
      'nginx-config',
      '--root',
      dist,
      '--listen',
      `127.0.0.1:${port}`,
      '--api',
      '127.0.0.1:9',
      '--out',
      block,
    ],
    { cwd: checkout, env, stdio: 'ignore' },
  )
  return { dist, block: await readFile(block, 'utf8') }
}

export async function nginxAgainstCommit(
  baseline: string,
  rounds = 3,
  seconds = 5,
): Promise<NginxPair | string> {
  if (!nginxInstalled()) return 'nginx is not installed'
  if (!hasWrk()) return 'wrk is not installed (apt-get install wrk)'
  return withCheckout(baseline, 'nginx-baseline', async (tree, scratch) => {
    const [oursPort = 0, theirsPort = 0] = await freePorts(2)
    const sites = {
      ours: await builtSite(ROOT, scratch, 'ours', oursPort),
      theirs: await builtSite(tree, scratch, 'theirs', theirsPort),
    }
    const servers = {
      ours: await startNginx({
        root: sites.ours.dist,
        port: oursPort,
        api: '127.0.0.1:9',
        scratch: join(scratch, 'ours-nginx'),
        block: sites.ours.block,
      }),
      theirs: await startNginx({
        root: sites.theirs.dist,
        port: theirsPort,
        api: '127.0.0.1:9',
        scratch: join(scratch, 'theirs-nginx'),
        block: sites.theirs.block,
      }),
    }
    try {
      const rates = {
        ours: { br: [] as number[], gzip: [] as number[] },
        theirs: { br: [] as number[], gzip: [] as number[] },
      }
      for (const side of ['ours', 'theirs'] as const) {
        for (const coding of CODINGS) wrk(`${servers[side].origin}/en/`, coding, 1)
      }
      for (let round = 0; round < rounds; round++) {
        for (const coding of CODINGS) {
          // Alternating sides, the order swapped each round.
          const order =
            round % 2 === 0 ? (['ours', 'theirs'] as const) : (['theirs', 'ours'] as const)
          for (const side of order) {
            rates[side][coding].push(wrk(`${servers[side].origin}/en/`, coding, seconds))
          }
        }
      }
      return {
        commit: baseline,
        ours: { br: median(rates.ours.br), gzip: median(rates.ours.gzip) },
        theirs: { br: median(rates.theirs.br), gzip: median(rates.theirs.gzip) },
        rounds,
        seconds,
      }
    } finally {
      await servers.ours.stop()
      await servers.theirs.stop()
    }
  })
}

export const formatNginxPair = (pair: NginxPair) =>
  `nginx, /en/, wrk 1 thread 50 connections (median of ${pair.rounds} × ${pair.seconds} s): ${CODINGS.map(
    (coding) =>
      `${coding} ${pair.ours[coding]} requests/s against ${pair.commit}'s ${pair.theirs[coding]} (${(pair.ours[coding] / pair.theirs[coding]).toFixed(2)}×)`,
  ).join('; ')}`
