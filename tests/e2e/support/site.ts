/** The built site the browser tests run against, read from its page data. */
import { readdir, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { PageData } from '../../../src/shared/types'

/** Where `npm start` (the tests' web server) writes the site. */
export const DIST = resolve(import.meta.dirname, '../../..', process.env.OUT_DIR ?? 'dist')

export interface BuiltPage {
  path: string
  template: string
  /** The page's language; undefined on language-neutral pages (`/blog/`). */
  language: string | undefined
}

let pages: Promise<BuiltPage[]> | undefined

/**
 * Every page of the build, from `/page-data/*​/page-data.json`. Read while the tests run, not
 * when they are collected: the web server builds the site after collection.
 */
export function builtPages(): Promise<BuiltPage[]> {
  pages ??= (async () => {
    const dir = join(DIST, 'page-data')
    const names = await readdir(dir, { recursive: true })
    const files = names.filter((name) => name.endsWith('page-data.json'))
    const found = await Promise.all(
      files.map(async (file) => {
        const data = JSON.parse(await readFile(join(dir, file), 'utf8')) as PageData
        const language = data.result.languageNeutral ? undefined : data.result.language.language
        return { path: data.path, template: data.componentChunkName, language }
      }),
    )
    return found.sort((a, b) => a.path.localeCompare(b.path))
  })()
  return pages
}

/** One page per template and language: what the layout checks look at. */
export async function templateSamples(): Promise<BuiltPage[]> {
  const seen = new Set<string>()
  const samples: BuiltPage[] = []
  for (const page of await builtPages()) {
    const key = `${page.template}|${page.language ?? 'neutral'}`
    if (seen.has(key) || page.path === '/') continue
    seen.add(key)
    samples.push(page)
  }
  return samples
}

/** Splits `items` into `count` groups, so long walks run as several tests side by side. */
export function shard<T>(items: readonly T[], index: number, count: number): T[] {
  return items.filter((_, position) => position % count === index)
}
