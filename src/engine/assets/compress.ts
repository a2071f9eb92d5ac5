/**
 * Writes the compressed twins the servers send instead of compressing per request.
 *
 * Pages, page data and the other per-build files get a Brotli twin (`.br`), at level 6, by
 * worker threads beside the rendering on the main thread: synchronous compression of a page
 * takes about 0.35 ms there, while Node's asynchronous zlib spends twice to three times that
 * per small file on its streams. Brotli 6 takes a thirtieth of Brotli 11's time for 11 % more
 * bytes. Every browser asks for Brotli; the few clients that take gzip only (scripts, some
 * crawlers) get gzip made on the fly by `npm start` and nginx (`gzip on`), as CDNs do. A
 * `.gz` twin per page was a third of the files a cold build created, and creating a file is
 * most of a build's system time.
 *
 * Files named by their content's hash (bundles, drawings) are made once and linked into every
 * site: they get both twins at the highest levels, kept by the hash of their text.
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { extname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { Worker } from 'node:worker_threads'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { MIN_COMPRESS_BYTES, TEXT_EXTENSIONS } from '../../shared/http-headers'
import { placeFile } from '../cache/place-file'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

export const isTextFile = (file: string) => TEXT_EXTENSIONS.has(extname(file).toLowerCase())

/** The bundler's own files (`.vite/`) and the hosts' configuration (`_headers`) are not served. */
const isServed = (relativePath: string) => !/^[._]|[\\/]\./.test(relativePath)

/** Long-lived files: their names change with their content (`/assets/`, `/images/_/`). */
const isHashed = (relativePath: string) => /^(assets|images[\\/]_)[\\/]/.test(relativePath)

/** The Brotli level of the per-build files. */
const FAST_BROTLI = 6
/** Files sent to a worker at once: fewer messages, and the rendering is not held up. */
const BATCH = 64

/** One file for a worker: its path, and its text when the build has it at hand. */
interface Job {
  file: string
  data?: string
}

/**
 * What a worker runs (as the source of this function, given the worker's `require`: a bundler
 * would rename this module's own): compresses each file of a batch and writes its twins, then
 * answers with how many it compressed, or with the first error.
 */
function workerMain(load: NodeJS.Require) {
  const { parentPort, workerData } = load(
    'node:worker_threads',
  ) as typeof import('node:worker_threads')
  const zlib = load('node:zlib') as typeof import('node:zlib')
  const fs = load('node:fs') as typeof import('node:fs')
  const { min, brotli } = workerData as { min: number; brotli: number }
  parentPort?.on('message', (batch: { file: string; data?: string }[]) => {
    try {
      let compressed = 0
      for (const { file, data } of batch) {
        const bytes = data === undefined ? fs.readFileSync(file) : Buffer.from(data)
        if (bytes.length < min) continue
        const br = zlib.brotliCompressSync(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: brotli,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        })
        fs.writeFileSync(`${file}.br`, br)
        compressed += 1
      }
      parentPort?.postMessage({ compressed })
    } catch (error) {
      parentPort?.postMessage({ error: String(error) })
    }
  })
}

/**
 * Threads that compress pages: one a core but the main thread's, at least one and four at most.
 * On two cores, one a core meant two workers beside the PDF worker and the main thread: on the
 * real site from an empty cache, one worker there took 0.94× the wall time, 0.92× the CPU and
 * 24 MiB less memory at the peak (paired, 6 runs). A worker keeps the process alive only while it has work,
 * so a build that fails elsewhere still ends.
 */
function workerPool(size: number) {
  const workers = Array.from({ length: size }, () => {
    const worker = new Worker(`(${workerMain.toString()})(require)`, {
      eval: true,
      workerData: { min: MIN_COMPRESS_BYTES, brotli: FAST_BROTLI },
    })
    worker.unref()
    return { worker, outstanding: 0, alive: true }
  })
  let next = 0
  let compressed = 0
  let failure: unknown
  let idle: (() => void) | undefined
  const busy = () => workers.some((each) => each.outstanding > 0)
  for (const each of workers) {
    const settled = () => {
      if (each.outstanding === 0) each.worker.unref()
      if (!busy()) idle?.()
    }
    each.worker.on('message', (answer: { compressed?: number; error?: string }) => {
      if (answer.error) failure ??= new Error(`compressing pages failed: ${answer.error}`)
      compressed += answer.compressed ?? 0
      each.outstanding -= 1
      settled()
    })
    // A worker that died answers nothing more: its batches count as failed.
    const died = (error: unknown) => {
      failure ??= error
      each.alive = false
      each.outstanding = 0
      settled()
    }
    each.worker.on('error', died)
    each.worker.on('exit', (code) => {
      if (each.alive && code !== 0) died(new Error(`a compression worker stopped (${code})`))
      each.alive = false
    })
  }
  return {
    send(batch: Job[]) {
      const each = workers[next]
      next = (next + 1) % workers.length
      if (!each?.alive) {
        failure ??= new Error('a compression worker stopped')
        return
      }
      each.outstanding += 1
      each.worker.ref()
      each.worker.postMessage(batch)
    },
    async close(): Promise<number> {
      if (busy()) await new Promise<void>((done) => (idle = done))
      for (const each of workers) each.alive = false
      await Promise.all(workers.map((each) => each.worker.terminate()))
      if (failure) throw failure
      return compressed
    },
  }
}

/** The smallest twins: Brotli and gzip at their highest levels, for files made once. */
function compressBest(data: Buffer): Promise<[Buffer, Buffer]> {
  return Promise.all([
    brotli(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gz(data, { level: 9 }),
  ])
}

/**
 * Writes the smallest twins beside every served text file under `dir` that is worth it: for
 * files compiled once and linked into many sites (the bundles), so no build compresses them.
 */
export async function writeBestTwins(dir: string): Promise<void> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  await Promise.all(
    entries
      .filter((entry) => entry.isFile() && isTextFile(entry.name))
      .map(async (entry) => {
        const file = join(entry.parentPath, entry.name)
        if (!isServed(relative(dir, file))) return
        const data = await readFile(file)
        if (data.length < MIN_COMPRESS_BYTES) return
        const [br, gzipped] = await compressBest(data)
        await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gzipped)])
      }),
  )
}

async function writeNew(path: string, data: Buffer): Promise<void> {
  const temporary = `${path}.${process.pid}-${randomUUID()}.tmp`
  await writeFile(temporary, data)
  await rename(temporary, path)
}

export interface Compressor {
  /** Compresses `file` (its text given when at hand, else read), once per build. */
  add(file: string, data?: string | Buffer): void
  /**
   * Compresses every text file under the site's folder that has no twins yet, except in the
   * top-level folders `skip` names, whose every file went through `add` (walking the 20,000
   * folders of 10,000 pages took two seconds).
   */
  sweep(skip?: readonly string[]): Promise<void>
  /**
   * Waits for all, stops the workers and forgets cached twins this build did not use.
   * Returns the files compressed, and those whose twins came from the cache.
   */
  finish(): Promise<{ compressed: number; reused: number }>
}

export async function openCompressor(siteDir: string, cacheDir: string): Promise<Compressor> {
  const store = join(cacheDir, 'compressed')
  await mkdir(store, { recursive: true })
  const cached = new Set(await readdir(store))
  const used = new Set<string>()
  const seen = new Set<string>()
  const pool = workerPool(Math.max(1, Math.min(4, availableParallelism() - 1)))
  let batch: Job[] = []
  const hashedWork: Promise<void>[] = []
  let hashedCompressed = 0
  let reused = 0

  /** A hashed file: twins at the highest levels, made once and kept in the cache. */
  async function compressHashed(file: string): Promise<void> {
    const data = await readFile(file)
    if (data.length < MIN_COMPRESS_BYTES) return
    const key = createHash('sha1').update(data).digest('hex')
    const [br, gzipped] = [`${key}.br`, `${key}.gz`]
    used.add(br)
    used.add(gzipped)
    if (cached.has(br) && cached.has(gzipped)) {
      reused += 1
    } else {
      const [brData, gzData] = await compressBest(data)
      // New files renamed into place, never written into: sites link the store's files, and a
      // stopped build must leave no half-written twin to be linked later.
      await Promise.all([writeNew(join(store, br), brData), writeNew(join(store, gzipped), gzData)])
      cached.add(br)
      cached.add(gzipped)
      hashedCompressed += 1
    }
    await Promise.all([
      placeFile(join(store, br), `${file}.br`),
      placeFile(join(store, gzipped), `${file}.gz`),
    ])
  }

  const flush = () => {
    if (batch.length === 0) return
    pool.send(batch)
    batch = []
  }

  const add = (file: string, data?: string | Buffer) => {
    const path = relative(siteDir, file)
    if (seen.has(file) || !isTextFile(file) || !isServed(path)) return
    seen.add(file)
    if (isHashed(path)) {
      hashedWork.push(compressHashed(file))
      return
    }
    if (data !== undefined && data.length < MIN_COMPRESS_BYTES) return
    batch.push(data === undefined ? { file } : { file, data: String(data) })
    if (batch.length >= BATCH) flush()
  }

  return {
    add,
    async sweep(skip = []) {
      const top = await readdir(siteDir, { withFileTypes: true })
      const below = await Promise.all(
        top
          .filter((entry) => entry.isDirectory() && !skip.includes(entry.name))
          .map((entry) =>
            readdir(join(siteDir, entry.name), { recursive: true, withFileTypes: true }),
          ),
      )
      const entries = [...top, ...below.flat()]
      const names = new Set(entries.map((entry) => join(entry.parentPath, entry.name)))
      for (const entry of entries) {
        if (!entry.isFile()) continue
        const file = join(entry.parentPath, entry.name)
        if (!names.has(`${file}.br`)) add(file)
      }
      flush()
    },
    async finish() {
      flush()
      const [compressed] = await Promise.all([pool.close(), Promise.all(hashedWork)])
      // The cache holds what the last build used: twins of files since changed go.
      await Promise.all(
        [...cached]
          .filter((name) => !used.has(name))
          .map((name) => rm(join(store, name), { force: true })),
      )
      return { compressed: compressed + hashedCompressed, reused }
    },
  }
}
