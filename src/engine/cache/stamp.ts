/**
 * Decides whether `dist/` is stale: a hash over everything a build reads (code, content,
 * public files, lockfile, settings) is stored beside the build and compared before serving.
 */
import { createHash, type Hash } from 'node:crypto'
import { access, readdir, readFile, stat, writeFile } from 'node:fs/promises'
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
 * Each file's own hash by its path, with the identity it was read at (device, inode, size, the
 * times it was written and changed), for this process: a long-running builder (the publishing
 * service, a build per publication, each hashing the code and the content twice) reads only the
 * files written since it last read them. The change time is the kernel's own (no tool can set
 * it back), so a file written again, or a new one on a freed inode, is read whatever its
 * written time says. At most `DIGESTS_KEPT` files.
 */
const digests = new Map<string, { identity: string; digest: string }>()
const DIGESTS_KEPT = 50_000

/**
 * A file changed less than this before it was read is read again next time: the kernel's file
 * times move in ticks of a few milliseconds, so a second write within the same tick could leave
 * every part of the identity as it was (git's "racy" entries, met the same way).
 */
export const RACY_MS = 100

async function digestOf(file: string): Promise<string> {
  const readAt = Date.now()
  const info = await stat(file).catch(() => null)
  if (!info) return 'missing'
  const identity = `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`
  const known = digests.get(file)
  if (known?.identity === identity) return known.digest
  const content = await readFile(file).catch(() => null)
  if (!content) return 'missing'
  const digest = createHash('sha256').update(content).digest('hex')
  digests.delete(file)
  if (readAt - Math.max(info.mtimeMs, info.ctimeMs) > RACY_MS)
    digests.set(file, { identity, digest })
  if (digests.size > DIGESTS_KEPT) digests.delete(digests.keys().next().value as string)
  return digest
}

/**
 * Adds each file's name (as `nameOf` gives it) and the hash of its content to `hash`, in order,
 * many files at a time (a big content store has thousands), each read only when it changed
 * since this process last read it (`digests`).
 */
export async function hashFiles(
  hash: Hash,
  files: readonly string[],
  nameOf: (file: string) => string = (file) => file,
): Promise<void> {
  for (let start = 0; start < files.length; start += READ_AHEAD) {
    const batch = files.slice(start, start + READ_AHEAD)
    const contents = await Promise.all(batch.map(digestOf))
    batch.forEach((file, index) => {
      hash.update(nameOf(file))
      hash.update(contents[index] as string)
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
