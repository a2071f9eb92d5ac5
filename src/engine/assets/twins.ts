/**
 * Compressed twins (`.br` at Brotli 11, `.gz` at gzip 9) of every compressible file of a built
 * site (pages, page data, bundles, stylesheet, drawings, search index, feeds, sitemap), so that
 * nginx sends each from its file (`brotli_static`, `gzip_static`) instead of compressing it for
 * every request: 36 times the answers a second on two cores. `npm run build` writes them after
 * the site is built (for static hosts and nginx), the publishing service after each release
 * goes live, in the background (`../../publishing/publication/release-twins.ts`): until its
 * twin exists, nginx compresses a file on the fly. The build itself writes none: at these
 * levels they would double a fresh build's time, and `npm start` and CDNs compress themselves.
 *
 * Twins are kept in a store by the hash of their file's bytes, so a file that did not change
 * since the last site (most of them after a publication, all the bundles until the code
 * changes) has its twins linked from there at once; only new files are compressed, in worker
 * threads (`twins-worker.ts`), smallest first, so a publication's changed page has its twins
 * before its search index. Brotli 11 takes about a second a megabyte: the real site's first
 * time is some 10 s of CPU; a one-page change, well under one.
 *
 * Files not served (`.vite/`, `_headers`) and those under `MIN_COMPRESS_BYTES` get none; a file
 * that has both twins already keeps them.
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { MIN_COMPRESS_BYTES, TEXT_EXTENSIONS } from '../../shared/http-headers'
import { placeFile } from '../cache/place-file'
import { RACY_MS } from '../cache/stamp'
import type { TwinRequest, TwinResponse } from './twins-worker'

export interface TwinsOptions {
  /** Worker threads compressing at once (default 1). */
  threads?: number
  /** Their niceness on Linux, 0 to 19 (default 0; a service in the background: 19). */
  priority?: number
  /** The compiled programs' folder (`SITE_PROGRAMS_DIR`), where the worker is compiled. */
  programsDir?: string
}

export interface TwinsReport {
  /** The files that needed twins. */
  files: number
  /** Those compressed now. */
  compressed: number
  /** Those whose twins came from the store. */
  reused: number
  /** Stopped by its signal (a newer release went live) before every file had its twins. */
  aborted: boolean
  ms: number
}

export interface WriteOptions {
  /** Stops the pass between two files (a newer release went live). */
  signal?: AbortSignal
  /** Told of each file that got its twins by compression, as it does. */
  onCompressed?: (file: string) => void
}

export interface TwinWriter {
  /**
   * Gives every file of `siteDir` that should have twins its `.br` and `.gz`, from `storeDir`
   * or compressed now; then, unless stopped, removes from the store the twins no file of this
   * site used (files since changed).
   */
  write(siteDir: string, storeDir: string, options?: WriteOptions): Promise<TwinsReport>
  /** Stops the threads; a pass under way fails. */
  close(): Promise<void>
}

const isTwinnable = (file: string) => TEXT_EXTENSIONS.has(extname(file).toLowerCase())
/** The bundler's own files (`.vite/`) and the hosts' configuration (`_headers`) are not served. */
const isServed = (relativePath: string) => !/^[._]|[\\/]\./.test(relativePath)

/** The worker's script: compiled beside the programs, else its source (Node.js strips types). */
const workerScript = (programsDir: string | undefined) =>
  programsDir
    ? join(programsDir, 'twins-worker.mjs')
    : fileURLToPath(new URL('./twins-worker.ts', import.meta.url))

/** A new file renamed into place, never written into: sites link the store's files. */
async function writeNew(path: string, data: Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}-${randomUUID()}.tmp`
  await writeFile(temporary, data)
  await rename(temporary, path)
}

/** The files of `siteDir` that should have twins, and whether each has them already. */
async function twinnable(siteDir: string): Promise<{ file: string; twinned: boolean }[]> {
  const entries = await readdir(siteDir, { recursive: true, withFileTypes: true })
  const names = new Set(entries.map((entry) => join(entry.parentPath, entry.name)))
  return entries
    .filter((entry) => entry.isFile() && isTwinnable(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => isServed(relative(siteDir, file)))
    .map((file) => ({ file, twinned: names.has(`${file}.br`) && names.has(`${file}.gz`) }))
}

interface Thread {
  worker: Worker
  waiting: Map<number, { resolve(twins: [Uint8Array, Uint8Array]): void; reject(e: Error): void }>
}

export function openTwinWriter(options: TwinsOptions = {}): TwinWriter {
  const size = Math.max(1, options.threads ?? 1)
  const threads: Thread[] = []
  let next = 0
  let closed = false
  /**
   * The hash of each file the last pass read, by the file's identity (device, inode, size,
   * time written): a release's files linked from the release before are the same inodes, so a
   * publication's pass reads and hashes only the files its build wrote anew. Sites write new
   * files and rename them into place, never into a file, so an identity names one content.
   */
  let hashes = new Map<string, string>()

  const start = (): Thread => {
    const worker = new Worker(workerScript(options.programsDir ?? process.env.SITE_PROGRAMS_DIR), {
      workerData: { priority: options.priority ?? 0 },
    })
    const thread: Thread = { worker, waiting: new Map() }
    const failAll = (error: Error) => {
      for (const { reject } of thread.waiting.values()) reject(error)
      thread.waiting.clear()
    }
    worker.on('message', (response: TwinResponse) => {
      const request = thread.waiting.get(response.id)
      if (!request) return
      thread.waiting.delete(response.id)
      if (thread.waiting.size === 0) worker.unref()
      if ('error' in response) request.reject(new Error(response.error))
      else request.resolve([response.br, response.gz])
    })
    worker.on('error', failAll)
    worker.on('exit', (code) => {
      failAll(new Error(`the compression thread stopped (exit code ${code})`))
      threads.splice(threads.indexOf(thread), 1)
    })
    worker.unref()
    return thread
  }

  /** Both twins of `data`, from the thread with the least to do. */
  const compress = (data: Uint8Array): Promise<[Uint8Array, Uint8Array]> => {
    if (closed) return Promise.reject(new Error('the twin writer is closed'))
    while (threads.length < size) threads.push(start())
    const thread = threads.reduce((least, candidate) =>
      candidate.waiting.size < least.waiting.size ? candidate : least,
    )
    const id = next++
    return new Promise((resolve, reject) => {
      thread.waiting.set(id, { resolve, reject })
      thread.worker.ref()
      thread.worker.postMessage({ id, data } satisfies TwinRequest)
    })
  }

  async function write(
    siteDir: string,
    storeDir: string,
    { signal, onCompressed }: WriteOptions = {},
  ) {
    const started = performance.now()
    await mkdir(storeDir, { recursive: true })
    const stored = new Set(await readdir(storeDir))
    const used = new Set<string>()
    const report: TwinsReport = { files: 0, compressed: 0, reused: 0, aborted: false, ms: 0 }
    const place = (key: string, file: string) =>
      Promise.all([
        placeFile(join(storeDir, `${key}.br`), `${file}.br`),
        placeFile(join(storeDir, `${key}.gz`), `${file}.gz`),
      ])
    // First every file whose twins are stored (a link each), then the new ones, smallest first;
    // files of the same bytes (the same page in two places) are compressed once. The new ones'
    // bytes are read again when their turn comes: kept, a first pass over 10,000 pages held
    // the whole site in memory.
    const fresh = new Map<string, { size: number; files: string[] }>()
    const hashed = new Map<string, string>()
    for (const { file, twinned } of await twinnable(siteDir)) {
      const info = await stat(file)
      if (info.size < MIN_COMPRESS_BYTES) continue
      const identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`
      const key =
        hashes.get(identity) ??
        createHash('sha1')
          .update(await readFile(file))
          .digest('hex')
      // A file written in the last moments is hashed again next time (stamp.ts: `RACY_MS`).
      if (started + performance.timeOrigin - info.mtimeMs > RACY_MS) hashed.set(identity, key)
      used.add(`${key}.br`).add(`${key}.gz`)
      if (twinned) continue
      report.files += 1
      if (stored.has(`${key}.br`) && stored.has(`${key}.gz`)) {
        await place(key, file)
        report.reused += 1
      } else {
        const same = fresh.get(key)
        if (same) same.files.push(file)
        else fresh.set(key, { size: info.size, files: [file] })
      }
    }
    hashes = hashed
    const queue = [...fresh].sort(([, a], [, b]) => a.size - b.size)
    let index = 0
    const work = async () => {
      for (let item = queue[index++]; item; item = queue[index++]) {
        if (signal?.aborted) {
          report.aborted = true
          return
        }
        const [key, { files }] = item
        const data = await readFile(files[0] as string)
        // Changed since it was read (it should not be): its twins would not be its own.
        if (createHash('sha1').update(data).digest('hex') !== key) continue
        const [br, gz] = await compress(data)
        await Promise.all([
          writeNew(join(storeDir, `${key}.br`), br),
          writeNew(join(storeDir, `${key}.gz`), gz),
        ])
        for (const file of files) {
          await place(key, file)
          onCompressed?.(file)
        }
        report.compressed += files.length
      }
    }
    await Promise.all(Array.from({ length: size }, work))
    if (!report.aborted) {
      // The store keeps what this site uses: twins of files since changed go.
      await Promise.all(
        [...stored]
          .filter((name) => !used.has(name))
          .map((name) => rm(join(storeDir, name), { force: true })),
      )
    }
    report.ms = Math.round(performance.now() - started)
    return report
  }

  return {
    write,
    async close() {
      closed = true
      await Promise.all(threads.map((thread) => thread.worker.terminate()))
    },
  }
}
