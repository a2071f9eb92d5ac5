/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) twin beside every text file of the site, so
 * `npm start`, nginx (`gzip_static`, `brotli_static`) and CDNs send them without compressing
 * per request.
 *
 * Files named by their content's hash (bundles, drawings) are compressed once at the highest
 * levels. Pages, page data and the other per-build files are compressed at Brotli 6, which
 * takes a thirtieth of Brotli 11's time for 11 % more bytes, and every twin is kept in the build
 * cache under the hash of its text: after an edit only the pages that changed are compressed
 * again; the others are linked from the cache.
 */
import { createHash } from 'node:crypto'
import { copyFile, link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { extname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { MIN_COMPRESS_BYTES, TEXT_EXTENSIONS } from '../shared/http-headers'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Compressions in flight at once: enough to keep libuv's threads busy beside the rendering. */
const IN_FLIGHT = 8

export const isTextFile = (file: string) => TEXT_EXTENSIONS.has(extname(file).toLowerCase())

/** The bundler's own files (`.vite/`) and the hosts' configuration (`_headers`) are not served. */
const isServed = (relativePath: string) => !/^[._]|[\\/]\./.test(relativePath)

type Level = 'max' | 'fast'

const LEVELS: Record<Level, { brotli: number; gzip: number }> = {
  max: { brotli: constants.BROTLI_MAX_QUALITY, gzip: 9 },
  fast: { brotli: 6, gzip: 9 },
}

/** Long-lived files: their names change with their content (`/assets/`, `/images/_/`). */
const levelOf = (relativePath: string): Level =>
  /^(assets|images[\\/]_)[\\/]/.test(relativePath) ? 'max' : 'fast'

export interface Compressor {
  /** Compresses `file` (its text given when at hand, else read), once per build. */
  add(file: string, data?: string | Buffer): void
  /** Compresses every text file under the site's folder that has no twins yet. */
  sweep(): Promise<void>
  /** Waits for all, then forgets cached twins this build did not use. Returns files compressed. */
  finish(): Promise<{ compressed: number; reused: number }>
}

export async function openCompressor(siteDir: string, cacheDir: string): Promise<Compressor> {
  const store = join(cacheDir, 'compressed')
  await mkdir(store, { recursive: true })
  const cached = new Set(await readdir(store))
  const used = new Set<string>()
  const seen = new Set<string>()
  const pending = new Set<Promise<void>>()
  const queue: (() => Promise<void>)[] = []
  let running = 0
  let compressed = 0
  let reused = 0
  let failure: unknown

  /** Places a twin from the cache: a hard link (no copy) where the file system allows one. */
  const place = async (from: string, to: string) => {
    await link(from, to).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') {
        await rm(to, { force: true })
        return link(from, to)
      }
      return copyFile(from, to)
    })
  }

  async function compressOne(file: string, given: string | Buffer | undefined): Promise<void> {
    const data = given === undefined ? await readFile(file) : Buffer.from(given)
    if (data.length < MIN_COMPRESS_BYTES) return
    const level = levelOf(relative(siteDir, file))
    const key = `${createHash('sha1').update(data).digest('hex')}-${level}`
    const [br, gzipped] = [`${key}.br`, `${key}.gz`]
    used.add(br)
    used.add(gzipped)
    if (cached.has(br) && cached.has(gzipped)) {
      await Promise.all([
        place(join(store, br), `${file}.br`),
        place(join(store, gzipped), `${file}.gz`),
      ])
      reused += 1
      return
    }
    const [brData, gzData] = await Promise.all([
      brotli(data, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: LEVELS[level].brotli,
          [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        },
      }),
      gz(data, { level: LEVELS[level].gzip }),
    ])
    await Promise.all([writeFile(join(store, br), brData), writeFile(join(store, gzipped), gzData)])
    cached.add(br)
    cached.add(gzipped)
    await Promise.all([
      place(join(store, br), `${file}.br`),
      place(join(store, gzipped), `${file}.gz`),
    ])
    compressed += 1
  }

  const next = () => {
    while (running < IN_FLIGHT && queue.length > 0) {
      const job = queue.shift() as () => Promise<void>
      running += 1
      const done = job()
        .catch((error: unknown) => {
          failure ??= error
        })
        .finally(() => {
          running -= 1
          pending.delete(done)
          next()
        })
      pending.add(done)
    }
  }

  const add = (file: string, data?: string | Buffer) => {
    if (seen.has(file) || !isTextFile(file) || !isServed(relative(siteDir, file))) return
    seen.add(file)
    queue.push(() => compressOne(file, data))
    next()
  }

  const settle = async () => {
    while (pending.size > 0 || queue.length > 0) await Promise.all([...pending])
  }

  return {
    add,
    async sweep() {
      const entries = await readdir(siteDir, { recursive: true, withFileTypes: true })
      const names = new Set(entries.map((entry) => join(entry.parentPath, entry.name)))
      for (const entry of entries) {
        if (!entry.isFile()) continue
        const file = join(entry.parentPath, entry.name)
        if (!names.has(`${file}.br`)) add(file)
      }
      await settle()
    },
    async finish() {
      await settle()
      if (failure) throw failure
      // The cache holds what the last build used: twins of pages since changed go.
      await Promise.all(
        [...cached]
          .filter((name) => !used.has(name))
          .map((name) => rm(join(store, name), { force: true })),
      )
      return { compressed, reused }
    },
  }
}
