/**
 * Moves and deletes refs through one long-running `git update-ref --stdin`, a transaction at a
 * time, instead of a process each: a publication moves main and deletes its draft's branch
 * before the site is switched, and every save moves a branch; a process each cost 20 to 35 ms
 * on the service's busy machine, a transaction on the running process a few.
 *
 * Each change is compare-and-swap as with `git update-ref <ref> <new> <old>`: git takes the
 * ref's lock, reads it under the lock and refuses when it is not at the expected commit. A
 * refused transaction ends the process (git stops at the first failed command); the next change
 * starts another. Transactions are written one after another, and each is answered before the
 * next is written, so a failure is always the transaction's own.
 *
 * The process stops after `IDLE_MS` without work and is started again by the next change; while
 * nothing waits on it, it does not keep Node.js running. Lines carry ref names and object ids
 * only, checked before they are written: nothing a caller passes can add a command.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { holdPipes } from './held'

const IDLE_MS = 5 * 60_000
/** A transaction not answered in this time is failed, and the process stopped. */
const ANSWER_MS = 30_000
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/
const REF = /^refs\/[^\s\0\\~^:?*[]+$/

export type RefChange =
  | { ref: string; to: string; from: string | null }
  | { ref: string; delete: true; from: string }

/** A change the updater cannot write as one of its lines (the caller runs git itself). */
export const writable = (change: RefChange): boolean =>
  REF.test(change.ref) &&
  (change.from === null || OBJECT_ID.test(change.from)) &&
  ('delete' in change || OBJECT_ID.test(change.to))

interface Pending {
  resolve(): void
  reject(error: Error): void
  timer: NodeJS.Timeout
}

export class RefUpdater {
  private child: ChildProcessWithoutNullStreams | undefined
  private pending: Pending | undefined
  private output = ''
  private errors = ''
  private idle: NodeJS.Timeout | undefined
  /** The transactions in order: each starts when the one before it settled. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** Applies the changes as one transaction: all of them, or (rejected) none. */
  apply(changes: RefChange[]): Promise<void> {
    if (!changes.every(writable)) {
      return Promise.reject(new Error('a ref change the updater cannot write'))
    }
    const run = this.queue.then(() => this.transaction(changes))
    this.queue = run.catch(() => {})
    return run
  }

  /** Stops the process; changes after this start another. */
  close(): void {
    clearTimeout(this.idle)
    const child = this.child
    this.child = undefined
    child?.stdin.end()
    this.settle(new Error('the ref updater was closed'))
  }

  private transaction(changes: RefChange[]): Promise<void> {
    const child = this.start()
    clearTimeout(this.idle)
    const zero = (id: string | null) => id ?? '0'.repeat(40)
    const lines = changes.map((change) =>
      'delete' in change
        ? `delete ${change.ref} ${change.from}`
        : `update ${change.ref} ${change.to} ${zero(change.from)}`,
    )
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(new Error(`git update-ref did not answer within ${ANSWER_MS} ms`))
        child.kill()
      }, ANSWER_MS)
      this.pending = { resolve, reject, timer }
      this.output = ''
      holdPipes(this.child, true)
      child.stdin.write(`start\n${lines.join('\n')}\ncommit\n`)
    })
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child
    const child = spawn('git', ['update-ref', '--stdin'], { env: this.env, stdio: 'pipe' })
    this.child = child
    this.output = ''
    this.errors = ''
    child.unref()
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      this.output += chunk
      if (/^commit: ok$/m.test(this.output)) this.settle()
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      this.errors = (this.errors + chunk).slice(-2000)
    })
    child.stdin.on('error', () => {})
    const gone = (error?: Error) => {
      if (this.child !== child) return
      this.child = undefined
      this.settle(error ?? new Error(`git update-ref: ${this.errors.trim() || 'it stopped'}`))
    }
    child.on('error', gone)
    child.on('close', () => gone())
    return child
  }

  /** Answers the transaction waiting, if any: done, or failed with `error`. */
  private settle(error?: Error) {
    const pending = this.pending
    if (!pending) return
    this.pending = undefined
    clearTimeout(pending.timer)
    holdPipes(this.child, false)
    if (error) pending.reject(error)
    else pending.resolve()
    if (this.child) {
      clearTimeout(this.idle)
      this.idle = setTimeout(() => this.close(), IDLE_MS)
      this.idle.unref()
    }
  }
}
