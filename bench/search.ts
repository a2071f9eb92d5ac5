/**
 * The site search's cost to a visitor: the bytes from pressing `/` to the first result shown
 * (the dialog's code, the language's index, the chunks of postings and the pages' text the
 * query needs), in real Chromium against the built site, with what each file weighs; and the
 * index's size on disk per language.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { createApp } from '../src/server/app'
import type { SearchIndex } from '../src/shared/search/format'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/support/env'
import { recordTransfers } from './javascript'

const kb = (bytes: number) => Math.round(bytes / 102.4) / 10

export interface SearchBytes {
  language: string
  query: string
  requests: { url: string; bytes: number }[]
  totalKb: number
  /** From the key to the first result on screen (this machine, not a target). */
  milliseconds: number
}

/** Bytes on the wire from opening the search on `path` to the first result of `query`. */
export async function searchBytes(
  distDir: string,
  cases: readonly { path: string; query: string }[],
): Promise<SearchBytes[]> {
  const app = await createApp({ root: distDir, logLevel: 'silent' })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  const measured: SearchBytes[] = []
  try {
    for (const { path, query } of cases) {
      const context = await browser.newContext({ serviceWorkers: 'block' })
      const page = await context.newPage()
      await page.goto(`${address}${path}`)
      await page.waitForLoadState('networkidle')
      // The page's code is there (the router takes the search's keys once it has run).
      await page.waitForFunction(() => document.querySelector('dialog') === null)
      await page.waitForTimeout(300)
      const fetched = recordTransfers(page)
      const started = Date.now()
      await page.keyboard.press('/')
      await page.locator('[data-search-dialog] input').fill(query)
      await page.locator('[data-search-dialog] a[data-search-result]').first().waitFor()
      const milliseconds = Date.now() - started
      await page.waitForTimeout(200)
      const language = (await page.getAttribute('html', 'lang')) ?? ''
      measured.push({
        language,
        query,
        requests: fetched,
        totalKb: kb(fetched.reduce((sum, request) => sum + request.bytes, 0)),
        milliseconds,
      })
      await context.close()
    }
    return measured
  } finally {
    await browser.close()
    await app.close()
  }
}

export interface IndexSize {
  language: string
  pages: number
  terms: number
  chunks: number
  /** The index file, compressed as served (Brotli twin). */
  indexKb: number
  /** Everything under the version's folder, as served (Brotli twins where written). */
  filesKb: number
}

/** The size of each language's index as the build wrote it. */
export async function indexSizes(distDir: string): Promise<IndexSize[]> {
  const root = join(distDir, 'search')
  const sizes: IndexSize[] = []
  for (const language of await readdir(root)) {
    const file = join(root, language, 'index.json')
    const index = JSON.parse(await readFile(file, 'utf8')) as SearchIndex
    const served = async (path: string) =>
      (await stat(`${path}.br`).catch(() => undefined))?.size ?? (await stat(path)).size
    const folder = join(root, language, index.version)
    let files = 0
    for (const name of await readdir(folder)) {
      if (name.endsWith('.json')) files += await served(join(folder, name))
    }
    sizes.push({
      language,
      pages: index.pages,
      terms: index.terms.split('\n').length,
      chunks: index.chunks.length,
      indexKb: kb(await served(file)),
      filesKb: kb(files),
    })
  }
  return sizes
}
