/**
 * JSON files of a build's cache kept parsed in this process, by path, with the identity the file
 * had (device, inode, size, the times it was written and changed): a long-running builder (the
 * publishing service, a build per publication) parses again only a file that changed since it
 * wrote or read it. The search's page texts and indexes are 2 MB of JSON on the real site,
 * some 20 ms of parsing in every publication otherwise.
 *
 * Only the builder writes its cache, so a file it wrote is kept at once; a file it read is kept
 * only when it was changed longer than `RACY_MS` before (`./stamp.ts`). Values are shared, never
 * copied: callers must not change what they are given. At most `KEPT` files.
 */
import { readFile, stat, writeFile } from 'node:fs/promises'
import { RACY_MS } from './stamp'

const kept = new Map<string, { identity: string; value: unknown }>()
const KEPT = 16

async function identityOf(file: string) {
  const info = await stat(file)
  return {
    identity: `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`,
    changedAt: Math.max(info.mtimeMs, info.ctimeMs),
  }
}

function keep(file: string, identity: string, value: unknown): void {
  kept.delete(file)
  kept.set(file, { identity, value })
  if (kept.size > KEPT) kept.delete(kept.keys().next().value as string)
}

/** The parsed content of `file`; rejects as `readFile` and `JSON.parse` do. */
export async function readKeptJson<T>(file: string): Promise<T> {
  const readAt = Date.now()
  const { identity, changedAt } = await identityOf(file)
  const known = kept.get(file)
  if (known?.identity === identity) return known.value as T
  const value = JSON.parse(await readFile(file, 'utf8')) as T
  if (readAt - changedAt > RACY_MS) keep(file, identity, value)
  else kept.delete(file)
  return value
}

/** Writes `value` as JSON to `file`, and keeps it for the next read. */
export async function writeKeptJson(file: string, value: unknown): Promise<void> {
  kept.delete(file)
  await writeFile(file, JSON.stringify(value))
  keep(file, (await identityOf(file)).identity, value)
}
