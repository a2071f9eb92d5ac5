/**
 * Starts a build cache from another one: a build into a new folder (a publication's workspace,
 * a draft's preview) would otherwise make from nothing what the site's own build already made
 * for the same code and content (bundles, PDFs, image variants, sharing cards, compressed
 * twins). Every entry there is keyed by what it is made from, so an entry the new build does not
 * need is only never used. The page record comes along (copied): it names the other site by
 * the id written into it, so pages are linked from that site only, when the new build is told
 * it is the last one (a publication's first release follows the site `npm start` served), and
 * from no other. A seeded cache changes nothing a build writes, only its time.
 *
 * The folders whose entries are written once and never changed are linked (no copy of a
 * bundle or a PDF); files a build rewrites in place (the Markdown renderings, the search
 * index's parts) are copied, so the new build never writes through into the other cache.
 */
import { randomUUID } from 'node:crypto'
import { copyFile, cp, mkdir, readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { placeTree } from './place-file'

/** Entries written once, under names their content decides. */
const WRITTEN_ONCE = new Set(['bundles', 'documents', 'images', 'cards', 'twins'])
/** What belongs to the other cache's own output folder: its freshness stamp. */
const ITS_OWN = new Set(['stamp', 'node_modules'])

/**
 * Seeds `to` (a cache folder that does not exist yet) from `from`. Made beside and renamed into
 * place, so it is there whole or not at all: a seed stopped half-way (a killed process, an entry
 * the other build removed meanwhile) would leave a bundle without its files, and a cache that
 * exists is never seeded again. Returns whether it seeded; when not, the build starts cold.
 */
export async function seedCache(from: string, to: string): Promise<boolean> {
  const staging = `${to}.seeding-${process.pid}-${randomUUID()}`
  try {
    const entries = await readdir(from, { withFileTypes: true }).catch(() => [])
    await mkdir(staging, { recursive: true })
    for (const entry of entries) {
      if (ITS_OWN.has(entry.name)) continue
      const source = join(from, entry.name)
      const target = join(staging, entry.name)
      if (entry.isDirectory() && WRITTEN_ONCE.has(entry.name)) await placeTree(source, target)
      else if (entry.isDirectory()) await cp(source, target, { recursive: true })
      else if (entry.isFile()) await copyFile(source, target)
    }
    await rename(staging, to)
    return true
  } catch {
    await rm(staging, { recursive: true, force: true })
    return false
  }
}
