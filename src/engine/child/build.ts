/**
 * A build of the site in a process of its own (`./process.ts`), for `npm start` before it
 * serves: a replica of the site that finds no release builds the site at its start, and a
 * server that had built in its own process kept what the build took for as long as it served
 * (from an empty build cache, images and PDFs made, 400 MB at the build's peak; the server
 * alone needs about a third of that, docs/benchmarks.md). Without the compiled programs (the
 * tests) the build runs in this process.
 */
import type { BuildReport } from '../build'
import type { BuildConfig } from '../config'
import { compiledWorker, inChild, type WorkerScript } from './process'

/** Builds `config` in a process of `worker`'s (the compiled build worker by default). */
export async function buildInChild(
  config: BuildConfig,
  worker: WorkerScript | undefined = compiledWorker('build-worker'),
): Promise<BuildReport> {
  if (!worker) return (await import('../build')).buildSite(config)
  // Its caches were written before it answered (`worker.ts`).
  const report = await inChild<BuildConfig, Omit<BuildReport, 'cacheSaved'>>(worker, config)
  return { ...report, cacheSaved: Promise.resolve() }
}
