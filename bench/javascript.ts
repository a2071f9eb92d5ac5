/**
 * What the browser code costs a visitor, for the bench: the JavaScript of a page's first load
 * chunk by chunk (with the modules that make up each chunk), the consent code beside it, and
 * the bytes of one client navigation.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { chromium, type Page } from '@playwright/test'
import { CHUNK_REPORT, type ChunkReport } from '../src/engine/assets/bundle'
import { createApp } from '../src/server/app'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/support/env'

export const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10

/** The bytes a browser receives with gzip: the `.gz` twin the build wrote, or gzip 9 of it. */
async function gzipBytes(file: string): Promise<number> {
  try {
    return (await readFile(`${file}.gz`)).length
  } catch {
    return gzipSync(await readFile(file), { level: 9 }).length
  }
}

async function brotliBytes(file: string): Promise<number> {
  try {
    return (await readFile(`${file}.br`)).length
  } catch {
    return brotliCompressSync(await readFile(file)).length
  }
}

/**
 * The chunk report of the newest bundle under a folder of the bench's builds (`BUILD_CACHE_DIR`,
 * whose `bin/` holds the programs and bundles its fresh-clone builds compiled), if one was made.
 */
export async function readChunkReport(cacheDir: string): Promise<ChunkReport> {
  const entries = await readdir(cacheDir, { recursive: true, withFileTypes: true }).catch(() => [])
  const reports: { file: string; time: number }[] = []
  for (const entry of entries) {
    if (!entry.isFile() || entry.name !== CHUNK_REPORT) continue
    const file = join(entry.parentPath, entry.name)
    const time = (await stat(file).catch(() => undefined))?.mtimeMs
    if (time !== undefined) reports.push({ file, time })
  }
  const newest = reports.sort((a, b) => b.time - a.time)[0]
  return newest ? (JSON.parse(await readFile(newest.file, 'utf8')) as ChunkReport) : {}
}

export interface ChunkCost {
  file: string
  gzipBytes: number
  /** The chunk's largest modules with their estimated gzip share (by size before minifying). */
  modules: { module: string; gzipBytes: number }[]
}

export interface FirstLoad {
  path: string
  gzipKb: number
  brotliKb: number
  rawKb: number
  chunks: ChunkCost[]
}

/** The JavaScript a first load of `path` fetches: its module script and module preloads. */
export async function firstLoadJs(
  distDir: string,
  path: string,
  report: ChunkReport,
): Promise<FirstLoad> {
  const html = await readFile(join(distDir, path, 'index.html'), 'utf8')
  // The boot script names the entry and the page's chunks, which it loads after the first
  // paint: all of them are the first load's JavaScript.
  const named = (pattern: RegExp) => [...html.matchAll(pattern)].map((match) => match[1] ?? '')
  const scripts = new Set(
    [
      ...named(/<script type="module" src="([^"]+)"/g),
      ...named(/<link rel="modulepreload" href="([^"]+)"/g),
      ...named(/ data-entry="([^"]+)"/g),
      ...named(/ data-modules="([^"]*)"/g).flatMap((list) => list.split(' ')),
    ].filter(Boolean),
  )
  let raw = 0
  let gzip = 0
  let brotli = 0
  const chunks: ChunkCost[] = []
  for (const script of scripts) {
    const file = join(distDir, script)
    const chunkGzip = await gzipBytes(file)
    raw += (await readFile(file)).length
    gzip += chunkGzip
    brotli += await brotliBytes(file)
    const modules = Object.entries(report[script.replace(/^\//, '')] ?? {})
    const total = modules.reduce((sum, [, length]) => sum + length, 0)
    chunks.push({
      file: script,
      gzipBytes: chunkGzip,
      modules: modules
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([module, length]) => ({
          module,
          gzipBytes: total ? Math.round((chunkGzip * length) / total) : 0,
        })),
    })
  }
  chunks.sort((a, b) => b.gzipBytes - a.gzipBytes)
  return { path, gzipKb: kb(gzip), brotliKb: kb(brotli), rawKb: kb(raw), chunks }
}

/** Chunk by chunk, largest first, each with its largest modules. */
export function formatFirstLoad(load: FirstLoad): string {
  const lines = [
    `  first load of /${load.path}/: ${load.gzipKb} KB gzip, ${load.brotliKb} KB Brotli`,
  ]
  for (const chunk of load.chunks) {
    lines.push(`    ${kb(chunk.gzipBytes).toFixed(1).padStart(5)} KB  ${chunk.file}`)
    for (const module of chunk.modules.filter((m) => m.gzipBytes >= 200)) {
      lines.push(`           ~${kb(module.gzipBytes).toFixed(1).padStart(4)} KB  ${module.module}`)
    }
  }
  return lines.join('\n')
}

/**
 * The JavaScript consent adds beside the page (loaded after hydration, not on the first-load
 * path): its runtime on every visit, and the banner's chunks on a first visit (when it shows),
 * less those the page has already loaded (`pageScripts`: its first load, as `/assets/…`).
 */
export async function consentJs(distDir: string, pageScripts: readonly string[]) {
  const assets = join(distDir, 'assets')
  const names = await readdir(assets)
  const runtime = names.find((name) => /^consent-[\w-]+\.js$/.test(name))
  if (!runtime) throw new Error(`no consent chunk in ${assets}`)
  const code = await readFile(join(assets, runtime), 'utf8')
  // The banner's chunks are the runtime's lazy dependencies, less what the page has (entry).
  const lazy = [
    ...(code.match(/__vite__mapDeps=[^\n]*?\[([^\]]*)\]/)?.[1] ?? '').matchAll(
      /"assets\/([^"]+)"/g,
    ),
  ]
    .map((match) => match[1] as string)
    .filter((name) => !pageScripts.includes(`/assets/${name}`))
  const runtimeBytes = await gzipBytes(join(assets, runtime))
  let bannerBytes = 0
  for (const name of lazy) bannerBytes += await gzipBytes(join(assets, name))
  return {
    runtimeGzipKb: kb(runtimeBytes),
    firstVisitGzipKb: kb(runtimeBytes + bannerBytes),
    files: [runtime, ...lazy],
  }
}

/** Every request the page finishes from now on, with its bytes on the wire (body and headers). */
export function recordTransfers(page: Page): { url: string; bytes: number }[] {
  const fetched: { url: string; bytes: number }[] = []
  page.on('requestfinished', async (request) => {
    const sizes = await request.sizes()
    fetched.push({
      url: new URL(request.url()).pathname,
      bytes: sizes.responseBodySize + sizes.responseHeadersSize,
    })
  })
  return fetched
}

/** Bytes on the wire for one client navigation from one page to another. */
export async function navigationBytes(distDir: string, from: string, to: string) {
  const app = await createApp({ root: distDir, logLevel: 'silent' })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' })
    const page = await context.newPage()
    // Data saver keeps prefetching out, so the navigation fetches everything it needs itself.
    await page.addInitScript(() =>
      Object.defineProperty(navigator, 'connection', { value: { saveData: true } }),
    )
    await page.goto(`${address}${from}`)
    await page.waitForLoadState('networkidle')
    const fetched = recordTransfers(page)
    await page.evaluate((target) => {
      const link = document.createElement('a')
      link.href = target
      link.id = 'bench-link'
      link.textContent = 'bench'
      document.body.append(link)
    }, to)
    await page.click('#bench-link')
    await page.waitForURL(`${address}${to}`)
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(200)
    return {
      from,
      to,
      requests: fetched,
      totalKb: kb(fetched.reduce((sum, r) => sum + r.bytes, 0)),
    }
  } finally {
    await browser.close()
    await app.close()
  }
}
