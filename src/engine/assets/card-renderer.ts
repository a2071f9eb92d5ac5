/**
 * The sharing cards of SVG drawings, drawn in a child process (`./card-worker.ts`) with a time
 * limit for each. A drawing of a few kilobytes can hold librsvg for a minute (filters on many
 * shapes), and nothing stops librsvg from JavaScript once it draws: a card not drawn within
 * `CARD_TIME_LIMIT_MS` fails with a message naming the drawing, and the process is killed with
 * whatever else it was drawing (the build fails with that card anyway). The next card starts a
 * new process.
 *
 * The process starts with the first card to draw (a build whose cards are all cached starts
 * none) and ends with `close`.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * How long one card may take to draw, from when the process is ready: a cover takes some 50 ms,
 * the worst that passes the drawing check a few seconds on two busy cores.
 */
export const CARD_TIME_LIMIT_MS = 15_000

/** A card to draw, as the process receives it. */
export interface CardJob {
  id: number
  svg: Uint8Array
  width: number
  height: number
  compressionLevel: number
}

/** What the process answers: the PNG, or why it could not draw it; first, that it is ready. */
export type CardAnswer =
  | { id: number; png: Uint8Array }
  | { id: number; error: string }
  | { ready: true }

/** A drawing whose card took longer than its time limit. */
export class CardTimeLimitError extends Error {}

export interface CardRenderer {
  /** The PNG of `svg` at `size`; `name` names the drawing in an error. */
  render(
    svg: Buffer,
    size: { width: number; height: number },
    compressionLevel: number,
    name: string,
  ): Promise<Buffer>
  /** Ends the process (cards still being drawn fail). */
  close(): void
}

export interface CardRendererOptions {
  /** How long a card may take (`CARD_TIME_LIMIT_MS`). */
  timeLimitMs?: number
  /** libvips's threads in the process. */
  threads?: number
}

/** The process's script: compiled beside the programs, else its source (Node.js strips types). */
function workerScript(): string {
  const compiled = process.env.SITE_PROGRAMS_DIR
  if (compiled) return join(compiled, 'card-worker.mjs')
  return fileURLToPath(new URL('./card-worker.ts', import.meta.url))
}

interface Waiting {
  resolve(png: Buffer): void
  reject(error: Error): void
  timer: NodeJS.Timeout
}

interface Worker {
  child: ChildProcess
  waiting: Map<number, Waiting>
  /** Settles when the process has loaded sharp (or fails when it stopped before). */
  ready: Promise<void>
}

export function openCardRenderer(options: CardRendererOptions = {}): CardRenderer {
  const timeLimitMs = options.timeLimitMs ?? CARD_TIME_LIMIT_MS
  let worker: Worker | undefined
  let next = 0

  const failAll = (of: Worker, error: Error) => {
    for (const waiting of of.waiting.values()) {
      clearTimeout(waiting.timer)
      waiting.reject(error)
    }
    of.waiting.clear()
  }

  const start = (): Worker => {
    const child = fork(workerScript(), [String(options.threads ?? 1)], {
      serialization: 'advanced',
      // Not the test runner's or the program's flags: a plain Node.js with sharp.
      execArgv: [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    let settle = { resolve: () => {}, reject: (_error: Error) => {} }
    const ready = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject }
    })
    ready.catch(() => {})
    const started: Worker = { child, waiting: new Map(), ready }
    child.on('message', (answer: CardAnswer) => {
      if ('ready' in answer) return settle.resolve()
      const waiting = started.waiting.get(answer.id)
      if (!waiting) return
      started.waiting.delete(answer.id)
      clearTimeout(waiting.timer)
      if ('png' in answer) waiting.resolve(Buffer.from(answer.png))
      else waiting.reject(new Error(answer.error))
    })
    child.on('error', (error) => {
      settle.reject(error)
      failAll(started, error)
    })
    child.on('exit', (code, signal) => {
      if (worker === started) worker = undefined
      const error = new Error(`the card renderer stopped (${signal ?? `exit code ${code}`})`)
      settle.reject(error)
      failAll(started, error)
    })
    return started
  }

  return {
    async render(svg, size, compressionLevel, name) {
      worker ??= start()
      const current = worker
      await current.ready
      const id = next++
      return new Promise<Buffer>((resolve, reject) => {
        const timer = setTimeout(() => {
          current.waiting.delete(id)
          reject(
            new CardTimeLimitError(
              `${name}: drawing its sharing card took longer than ${timeLimitMs / 1000} s, so it was stopped; simplify the drawing (fewer filters, shapes or path data)`,
            ),
          )
          // librsvg cannot be interrupted: its process goes, and the next card starts another.
          if (worker === current) worker = undefined
          current.child.kill('SIGKILL')
        }, timeLimitMs)
        current.waiting.set(id, { resolve, reject, timer })
        const job: CardJob = { id, svg, ...size, compressionLevel }
        current.child.send(job)
      })
    },
    close() {
      const stopping = worker
      worker = undefined
      if (stopping?.child.connected) stopping.child.disconnect()
    },
  }
}
