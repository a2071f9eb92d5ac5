/**
 * Decides whether `dist/` is stale: a hash over everything a build reads (code, content,
 * public files, lockfile, settings) is stored beside the build and compared before serving.
 */
import { createHash, type Hash } from 'node:crypto'
import { access, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BuildConfig } from '../config'

/** Every file below `dir`, sorted; none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true })
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
  } catch {
    return []
  }
}

const READ_AHEAD = 128

/**
 * Adds each file's name (as `nameOf` gives it) and content to `hash`, in order, reading many
 * files at a time: a big content store has thousands.
 */
export async function hashFiles(
  hash: Hash,
  files: readonly string[],
  nameOf: (file: string) => string = (file) => file,
): Promise<void> {
  for (let start = 0; start < files.length; start += READ_AHEAD) {
    const batch = files.slice(start, start + READ_AHEAD)
    const contents = await Promise.all(batch.map((file) => readFile(file).catch(() => null)))
    batch.forEach((file, index) => {
      hash.update(nameOf(file))
      hash.update(contents[index] ?? 'missing')
    })
  }
}

export async function inputHash(config: BuildConfig): Promise<string> {
  const hash = createHash('sha256')
  const { root } = config
  const files = [
    ...(await filesUnder(join(root, 'src'))),
    ...(await filesUnder(join(root, 'public'))),
    ...(await filesUnder(config.contentDir)),
    join(root, 'package-lock.json'),
  ]
  hash.update(
    JSON.stringify({
      siteUrl: config.siteUrl,
      serviceWorker: config.serviceWorker,
      tracking: config.tracking,
      // Fetched rates change every working day: a build of another day is stale.
      rates: config.ratesFetch
        ? [config.ratesFetch.url, new Date().toISOString().slice(0, 10)]
        : null,
    }),
  )
  await hashFiles(hash, files)
  return hash.digest('hex')
}

const stampFile = (config: BuildConfig) => join(config.cacheDir, 'stamp')

export async function isFresh(config: BuildConfig, hash: string): Promise<boolean> {
  try {
    await access(join(config.outDir, 'index.html'))
    return (await readFile(stampFile(config), 'utf8')) === hash
  } catch {
    return false
  }
}

export async function writeStamp(config: BuildConfig, hash: string): Promise<void> {
  await writeFile(stampFile(config), hash)
}
