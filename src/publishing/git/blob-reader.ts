/**
 * Reads blobs through one long-running `git cat-file --batch` instead of a process per file:
 * opening an entry in the editor reads a folder of files at once, and a process each cost more
 * than the reads (about 25 ms of start-up each on two cores, and most of it system time).
 *
 * Requests are answered in the order they were written, so a queue of waiting callers is all
 * the bookkeeping there is. The process stops after a few idle seconds and is started again on
 * the next read; while nobody waits it does not keep Node.js running.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { holdPipes } from './held'

export interface GitBlob {
  /** The blob's object id. */
  id: string
  data: Buffer
}

interface Waiting {
  resolve(blob: GitBlob | null): void
  reject(error: Error): void
}

const IDLE_MS = 5000

export class BlobReader {
  private child: ChildProcessWithoutNullStreams | undefined
  private readonly waiting: Waiting[] = []
  private buffered: Buffer = Buffer.alloc(0)
  private idle: NodeJS.Timeout | undefined

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /**
   * The object `name` names (`<commit>:<path>`) if it is a blob, else `null`. `name` must not
   * hold a line break (the paths the repository takes never do).
   */
  read(name: string): Promise<GitBlob | null> {
    if (/[\r\n]/.test(name)) return Promise.reject(new Error('an object name on one line only'))
    const child = this.start()
    clearTimeout(this.idle)
    return new Promise<GitBlob | null>((resolve, reject) => {
      this.waiting.push({ resolve, reject })
      holdPipes(this.child, true)
      child.stdin.write(`${name}\n`)
    })
  }

  /** Stops the process; reads after this start another. */
  close(): void {
    clearTimeout(this.idle)
    const child = this.child
    this.child = undefined
    child?.stdin.end()
    this.fail(new Error('the blob reader was closed'))
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child
    const child = spawn('git', ['cat-file', '--batch'], { env: this.env, stdio: 'pipe' })
    this.child = child
    this.buffered = Buffer.alloc(0)
    child.unref()
    child.stdout.on('data', (chunk: Buffer) => this.take(chunk))
    child.stdin.on('error', () => {})
    child.stderr.resume()
    const gone = (error?: Error) => {
      if (this.child !== child) return
      this.child = undefined
      this.fail(error ?? new Error('git cat-file stopped'))
    }
    child.on('error', gone)
    child.on('close', () => gone())
    return child
  }

  private take(chunk: Buffer) {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk
    for (;;) {
      const end = this.buffered.indexOf(10)
      if (end < 0) return
      const header = this.buffered.subarray(0, end).toString('utf8')
      // `<name> missing` (the name may hold spaces), or `<id> <type> <size>`.
      const [id = '', type = '', size = ''] = header.split(' ')
      if (header.endsWith(' missing') || header.endsWith(' ambiguous') || size === '') {
        this.buffered = this.buffered.subarray(end + 1)
        this.answer(null)
        continue
      }
      const length = Number(size)
      // The content, then one line feed.
      if (this.buffered.length < end + 1 + length + 1) return
      const data = Buffer.from(this.buffered.subarray(end + 1, end + 1 + length))
      this.buffered = this.buffered.subarray(end + 1 + length + 1)
      this.answer(type === 'blob' ? { id, data } : null)
    }
  }

  private answer(blob: GitBlob | null) {
    this.waiting.shift()?.resolve(blob)
    if (this.waiting.length === 0) {
      holdPipes(this.child, false)
      clearTimeout(this.idle)
      this.idle = setTimeout(() => this.close(), IDLE_MS)
      this.idle.unref()
    }
  }

  private fail(error: Error) {
    for (const waiting of this.waiting.splice(0)) waiting.reject(error)
  }
}
