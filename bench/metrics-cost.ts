/**
 * What the operators' metrics cost (issue: within 5 % with them on): the static server's
 * requests per second on `/en/` at 100 connections, and the forms service's sign-ups per second
 * on PGlite at 50, each with the metrics off and on, measured in turn, the order swapped every
 * round (off, on, on, off, off, on), so that the machine's drift weighs on both alike. With them on, `/metrics` is scraped every second
 * during the load (Prometheus scrapes every 15 s by default): the scrapes' cost is in too.
 */
import { spawn } from 'node:child_process'
import { loadRun } from './forms'
import { load, startNodeServer } from './serving'

const TOKEN = 'bench-metrics-token-of-at-least-thirty-two-characters'

export interface MetricsCost {
  /** Requests or sign-ups per second in each run, off and on. */
  off: number[]
  on: number[]
  /** Mean with the metrics on over the mean with them off. */
  ratio: number
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

/**
 * Scrapes `url` every second until the returned function is called, from a process of its own
 * as Prometheus would: in the load generator's process, its fetches slowed the load itself.
 */
function scraping(url: string, headers: Record<string, string> = {}): () => void {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `setInterval(() => fetch(${JSON.stringify(url)}, { headers: ${JSON.stringify(headers)} }).then((answer) => answer.arrayBuffer(), () => {}), 1000)`,
    ],
    { stdio: 'ignore' },
  )
  return () => child.kill()
}

export async function servingCost(dist: string, seconds = 5, rounds = 3): Promise<MetricsCost> {
  const result: MetricsCost = { off: [], on: [], ratio: 0 }
  // Each measurement in a server process of its own, warmed up alike: two processes kept for
  // the whole part drifted apart by up to 10 % whatever they ran.
  const measure = async (on: boolean) => {
    const server = await startNodeServer(dist, on ? { METRICS_TOKEN: TOKEN } : {})
    try {
      await load(server.origin, '/en/', 2)
      const stop = on
        ? scraping(`${server.origin}/metrics`, { authorization: `Bearer ${TOKEN}` })
        : () => {}
      const { requestsPerSecond } = await load(server.origin, '/en/', seconds)
      stop()
      ;(on ? result.on : result.off).push(requestsPerSecond)
    } finally {
      server.stop()
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (const on of round % 2 ? [true, false] : [false, true]) await measure(on)
  }
  result.ratio = Math.round((mean(result.on) / mean(result.off)) * 1000) / 1000
  return result
}

export async function signUpCost(seconds = 5, rounds = 3): Promise<MetricsCost> {
  const result: MetricsCost = { off: [], on: [], ratio: 0 }
  const measureOff = async () =>
    result.off.push((await loadRun('pglite', { DATABASE_URL: '' }, seconds)).signUpsPerSecond)
  const measureOn = async () =>
    result.on.push(
      (
        await loadRun('pglite', { DATABASE_URL: '', METRICS_TOKEN: TOKEN }, seconds, (origin) =>
          scraping(`${origin}/metrics`, { authorization: `Bearer ${TOKEN}` }),
        )
      ).signUpsPerSecond,
    )
  for (let round = 0; round < rounds; round++) {
    for (const measure of round % 2 ? [measureOn, measureOff] : [measureOff, measureOn]) {
      await measure()
    }
  }
  result.ratio = Math.round((mean(result.on) / mean(result.off)) * 1000) / 1000
  return result
}

export const formatCost = (what: string, cost: MetricsCost) =>
  `${what}: off ${cost.off.join(', ')}; on ${cost.on.join(', ')} (on/off ${cost.ratio})`
