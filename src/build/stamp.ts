/**
 * Decides whether `dist/` is stale: a hash over everything a build reads (code, content,
 * public files, lockfile, settings) is stored beside the build and compared before serving.
 */
import { createHash } from 'node:crypto'
import { access, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BuildConfig } from './config'

async function filesUnder(dir: string): Promise<string[]> {
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

export async function inputHash(config: BuildConfig): Promise<string> {
  const hash = createHash('sha256')
  const { root } = config
  const files = [
    ...(await filesUnder(join(root, 'src'))),
    ...(await filesUnder(join(root, 'public'))),
    ...(await filesUnder(config.contentDir)),
    join(root, 'package-lock.json'),
  ]
  hash.update(JSON.stringify({ siteUrl: config.siteUrl, serviceWorker: config.serviceWorker }))
  // Read many files at a time (a big store has thousands), hash them in their order.
  for (let start = 0; start < files.length; start += READ_AHEAD) {
    const batch = files.slice(start, start + READ_AHEAD)
    const contents = await Promise.all(batch.map((file) => readFile(file).catch(() => null)))
    batch.forEach((file, index) => {
      hash.update(file)
      hash.update(contents[index] ?? 'missing')
    })
  }
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
