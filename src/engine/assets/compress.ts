/**
 * Compressed twins (`.br`, `.gz`) of the files made once and linked into every site: the
 * bundles (written beside them when the code is compiled, `bundle.ts`) and the drawings named by
 * their content's hash (here, kept in the build cache under the hash of their text). Both at the
 * highest levels, which only a file made once can afford: Brotli 11 takes thirty times Brotli 6's
 * time.
 *
 * Pages, page data and the other files of one build get theirs after the build, by the
 * bytes of each file, in worker threads (`twins.ts`): at these levels they would double a
 * build's time if made while it runs.
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { extname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { MIN_COMPRESS_BYTES, TEXT_EXTENSIONS } from '../../shared/http-headers'
import { placeFile } from '../cache/place-file'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

export const isTextFile = (file: string) => TEXT_EXTENSIONS.has(extname(file).toLowerCase())

/** The bundler's own files (`.vite/`) and the hosts' configuration (`_headers`) are not served. */
const isServed = (relativePath: string) => !/^[._]|[\\/]\./.test(relativePath)

/** The folders of files named by their content: they never change. */
export const HASHED_FOLDERS = ['assets', join('images', '_')]

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
 * The served text files under `dir` worth compressing, read, leaving out those that have a
 * Brotli twin already (the bundles, linked with theirs): they are not even read.
 */
async function compressible(dir: string): Promise<{ file: string; data: Buffer }[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  const names = new Set(entries.map((entry) => join(entry.parentPath, entry.name)))
  const files = entries
    .filter((entry) => entry.isFile() && isTextFile(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => isServed(relative(dir, file)) && !names.has(`${file}.br`))
  const read = await Promise.all(files.map(async (file) => ({ file, data: await readFile(file) })))
  return read.filter(({ data }) => data.length >= MIN_COMPRESS_BYTES)
}

/**
 * Writes the smallest twins beside every served text file under `dir` that is worth it: for
 * files compiled once and linked into many sites (the bundles), so no build compresses them.
 */
export async function writeBestTwins(dir: string): Promise<void> {
  await Promise.all(
    (await compressible(dir)).map(async ({ file, data }) => {
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

/**
 * Gives every hashed text file of the site that has no twins yet (the drawings; the bundles
 * brought theirs) twins from the build cache's store, compressing those it has not seen, and
 * forgets the store's twins this build did not use. Returns the files compressed and those
 * whose twins came from the store.
 */
export async function compressHashedFiles(
  siteDir: string,
  cacheDir: string,
): Promise<{ compressed: number; reused: number }> {
  const store = join(cacheDir, 'compressed')
  await mkdir(store, { recursive: true })
  const cached = new Set(await readdir(store))
  const used = new Set<string>()
  let compressed = 0
  let reused = 0
  const files = (
    await Promise.all(HASHED_FOLDERS.map((folder) => compressible(join(siteDir, folder))))
  ).flat()
  await Promise.all(
    files.map(async ({ file, data }) => {
      const key = createHash('sha1').update(data).digest('hex')
      const [br, gzipped] = [`${key}.br`, `${key}.gz`]
      used.add(br)
      used.add(gzipped)
      if (cached.has(br) && cached.has(gzipped)) {
        reused += 1
      } else {
        const [brData, gzData] = await compressBest(data)
        // New files renamed into place, never written into: sites link the store's files,
        // and a stopped build must leave no half-written twin to be linked later.
        await Promise.all([
          writeNew(join(store, br), brData),
          writeNew(join(store, gzipped), gzData),
        ])
        cached.add(br)
        cached.add(gzipped)
        compressed += 1
      }
      await Promise.all([
        placeFile(join(store, br), `${file}.br`),
        placeFile(join(store, gzipped), `${file}.gz`),
      ])
    }),
  )
  // The store holds what the last build used: twins of files since changed go.
  await Promise.all(
    [...cached]
      .filter((name) => !used.has(name))
      .map((name) => rm(join(store, name), { force: true })),
  )
  return { compressed, reused }
}
