/**
 * The compressed twins of each release, written after it goes live and without delaying it:
 * one pass at a time in a worker thread at the lowest priority (../../engine/assets/twins.ts),
 * so a publication, a preview or an editor's request goes first. Until a file has its twin,
 * nginx compresses it on the fly as before; the files a publication did not change have theirs
 * at once, linked from the store, and the changed ones get theirs smallest first, a one-page
 * change within a second or two.
 *
 * A release that goes live while an earlier one's pass runs stops that pass between two files:
 * the earlier release is no longer served, and what its pass had left the new one's does.
 * A pass that fails is logged; the release stays served, compressed on the fly.
 */
import { openTwinWriter, type TwinsReport, type TwinWriter } from '../../engine/assets/twins'

export interface ReleaseTwinsOptions {
  /** Where the twins are kept by their file's bytes, shared by every release. */
  storeDir: string
  log?: {
    info(data: object, message: string): void
    error(data: object, message: string): void
  }
  /** The writer (tests give their own); by default one thread at the lowest priority. */
  writer?: TwinWriter
}

export class ReleaseTwins {
  readonly #options: ReleaseTwinsOptions
  #writer: TwinWriter | undefined
  #stop: AbortController | undefined
  #passes: Promise<void> = Promise.resolve()

  constructor(options: ReleaseTwinsOptions) {
    this.#options = options
  }

  /** `dir` (a release's folder) went live: its twins are written after any pass under way. */
  live(dir: string): void {
    this.#stop?.abort()
    const stop = new AbortController()
    this.#stop = stop
    this.#passes = this.#passes.then(() => this.#pass(dir, stop.signal))
  }

  /** Resolves once every pass asked for is done (or stopped). */
  idle(): Promise<void> {
    return this.#passes
  }

  /** Stops the pass under way between two files, and the thread. */
  async close(): Promise<void> {
    this.#stop?.abort()
    await this.#passes
    await this.#writer?.close()
    this.#writer = undefined
  }

  async #pass(dir: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return
    const { log, storeDir } = this.#options
    this.#writer ??= this.#options.writer ?? openTwinWriter({ threads: 1, priority: 19 })
    let report: TwinsReport
    try {
      report = await this.#writer.write(dir, storeDir, { signal })
    } catch (error) {
      // A release pruned meanwhile (its folder gone) is no failure: it is not served.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      log?.error({ err: error, release: dir }, 'writing the compressed twins of a release failed')
      return
    }
    log?.info(
      {
        release: dir,
        compressed: report.compressed,
        reused: report.reused,
        ms: report.ms,
        ...(report.aborted ? { stopped: 'a newer release went live' } : {}),
      },
      'compressed twins written',
    )
  }
}
