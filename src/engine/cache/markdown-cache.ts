/**
 * The build's Markdown render cache: renderings of the last build, kept in the build cache
 * under a hash of the renderer (its code and the locked dependency versions), so a build
 * renders only texts that changed, and loads the renderer only then.
 */
import { createHash } from 'node:crypto'
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { MarkdownCache, Rendering } from '../../content/markdown'
import type { BuildConfig } from '../config'
import { readKeptJson, writeKeptJson } from './kept-json'

const RENDERER_FILES = [
  'src/content/markdown-render.ts',
  'src/content/markdown.ts',
  'src/content/rich-text.ts',
  'src/shared/languages.ts',
  'src/shared/links.ts',
  'src/shared/slug.ts',
  'package-lock.json',
]

export interface BuildMarkdownCache extends MarkdownCache {
  /** Writes the renderings this build used; texts no longer in the content are dropped. */
  save(): Promise<void>
}

export async function openMarkdownCache(config: BuildConfig): Promise<BuildMarkdownCache> {
  const hash = createHash('sha256')
  for (const file of RENDERER_FILES) {
    hash.update(file)
    hash.update(await readFile(join(config.root, file)).catch(() => Buffer.from('missing')))
  }
  const name = `markdown-${hash.digest('hex').slice(0, 16)}.json`
  const file = join(config.cacheDir, name)
  let stored = new Map<string, Rendering>()
  try {
    // Parsed once per change in a long-running builder (`./kept-json.ts`).
    stored = new Map(Object.entries(await readKeptJson<Record<string, Rendering>>(file)))
  } catch {
    // no cache yet, or an unreadable one: render everything
  }
  const used = new Map<string, Rendering>()
  let added = false
  return {
    get(key) {
      const rendering = stored.get(key)
      if (rendering) used.set(key, rendering)
      return rendering
    },
    set(key, rendering) {
      used.set(key, rendering)
      added = true
    },
    async save() {
      if (!added && used.size === stored.size) return
      await writeKeptJson(file, Object.fromEntries(used))
      const others = (await readdir(config.cacheDir)).filter(
        (entry) => entry.startsWith('markdown-') && entry !== name,
      )
      await Promise.all(others.map((entry) => rm(join(config.cacheDir, entry), { force: true })))
    },
  }
}
