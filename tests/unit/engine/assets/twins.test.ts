/**
 * Every page's, page data's, bundle's and other compressible file's twins: Brotli 11 and gzip 9
 * that decompress to the file, made in worker threads (run from their source here, as Node.js strips
 * the types), taken from the store by the file's bytes the next time, smallest first, stopped
 * by a signal, and none for small, unserved or already twinned files.
 */
import { link, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, constants, gunzipSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { openTwinWriter, type TwinWriter } from '../../../../src/engine/assets/twins'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let base: string
let site: string
let store: string
let writer: TwinWriter
const page = (words: string) => `<!doctype html><title>x</title>${`<p>${words}</p>`.repeat(300)}`

const files: Record<string, string> = {
  'en/index.html': page('Lumora Bank'),
  'de/index.html': page('Lumora Bank auf Deutsch'),
  // The same bytes as the English home: compressed once.
  'en/copy/index.html': page('Lumora Bank'),
  'page-data/en/page-data.json': JSON.stringify({ text: 'y'.repeat(3000) }),
  'search/en.json': JSON.stringify({ words: 'z'.repeat(20_000) }),
  'sitemap.xml': `<urlset>${'<url/>'.repeat(400)}</urlset>`,
  'small.html': '<p>tiny</p>',
  'assets/client-abc.js': `console.log(1);${'x'.repeat(3000)}`,
  'assets/client-abc.js.br': 'twin of the bundle',
  'assets/client-abc.js.gz': 'gzip twin of the bundle',
  'assets/entry-abc.js': `console.log(2);${'y'.repeat(4000)}`,
  'images/_/drawing-abc.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="1"/>'.repeat(200)}</svg>`,
  'images/_/small-abc.svg': '<svg/>',
  '.vite/manifest.json': JSON.stringify({ x: 'v'.repeat(3000) }),
  'images/photo.png': 'p'.repeat(3000),
}

beforeAll(() => {
  writer = openTwinWriter({ threads: 2, priority: 10 })
})
afterAll(async () => {
  await writer.close()
})

beforeEach(async () => {
  base = await temporaryFolder('twins-')
  site = join(base, 'site')
  store = join(base, 'store')
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(site, path, '..'), { recursive: true })
    await writeFile(join(site, path), data)
  }
})
afterEach(async () => {
  await removeFolder(base)
})

const twins = async () =>
  (await readdir(site, { recursive: true })).filter((name) => /\.(br|gz)$/.test(name)).sort()

describe('twins of a built site', () => {
  it('gives every served compressible file its Brotli 11 and gzip 9 twins, and no other', async () => {
    const report = await writer.write(site, store)
    expect(report).toMatchObject({ files: 8, compressed: 8, reused: 0, aborted: false })
    expect(await twins()).toEqual([
      'assets/client-abc.js.br',
      'assets/client-abc.js.gz',
      'assets/entry-abc.js.br',
      'assets/entry-abc.js.gz',
      'de/index.html.br',
      'de/index.html.gz',
      'en/copy/index.html.br',
      'en/copy/index.html.gz',
      'en/index.html.br',
      'en/index.html.gz',
      'images/_/drawing-abc.svg.br',
      'images/_/drawing-abc.svg.gz',
      'page-data/en/page-data.json.br',
      'page-data/en/page-data.json.gz',
      'search/en.json.br',
      'search/en.json.gz',
      'sitemap.xml.br',
      'sitemap.xml.gz',
    ])
    for (const name of [
      'en/index.html',
      'de/index.html',
      'search/en.json',
      'sitemap.xml',
      'assets/entry-abc.js',
      'images/_/drawing-abc.svg',
    ]) {
      const br = await readFile(join(site, `${name}.br`))
      expect(brotliDecompressSync(br).toString(), name).toBe(files[name])
      expect(gunzipSync(await readFile(join(site, `${name}.gz`))).toString(), name).toBe(
        files[name],
      )
      // At Brotli's highest quality: no smaller than what quality 11 gives here.
      const best = (await import('node:zlib')).brotliCompressSync(files[name] as string, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
      })
      expect(br.length, name).toBeLessThanOrEqual(best.length + 16)
    }
    // A file that has its twins keeps them; one file of the same bytes, compressed once.
    expect((await readFile(join(site, 'assets/client-abc.js.br'))).toString()).toBe(
      'twin of the bundle',
    )
    expect((await readdir(store)).length).toBe(14)
  })

  it('links the twins of unchanged files from the store the next time, and forgets the rest', async () => {
    await writer.write(site, store)
    // The next site: the same files but one page changed, one gone.
    const next = join(base, 'next')
    for (const [path, data] of Object.entries(files)) {
      await mkdir(join(next, path, '..'), { recursive: true })
      await writeFile(join(next, path), data)
    }
    await writeFile(join(next, 'de/index.html'), page('Geändert'))
    await rm(join(next, 'sitemap.xml'))
    const report = await writer.write(next, store)
    expect(report).toMatchObject({ files: 7, compressed: 1, reused: 6, aborted: false })
    // A link to the store's file, shared with the first site's (two pages of the same bytes).
    expect((await stat(join(next, 'en/index.html.br'))).nlink).toBe(5)
    expect(brotliDecompressSync(await readFile(join(next, 'de/index.html.br'))).toString()).toBe(
      page('Geändert'),
    )
    // The store keeps what the last site used: the old German page's and the sitemap's go.
    expect((await readdir(store)).length).toBe(12)
  })

  it('knows a file linked from the last site, and a new file of the same size and time by its bytes', async () => {
    const time = new Date('2026-11-30T12:00:00Z')
    await utimes(join(site, 'de/index.html'), time, time)
    await writer.write(site, store)
    // The next release as a build makes it: unchanged files linked from the last, one page
    // written anew, with the same length and the same time as the one it replaces.
    const next = join(base, 'next')
    for (const path of Object.keys(files)) {
      await mkdir(join(next, path, '..'), { recursive: true })
      await link(join(site, path), join(next, path))
    }
    const old = await stat(join(site, 'de/index.html'))
    expect(old.mtime).toEqual(time)
    const changed = page('Lumora Bonk auf Deutsch')
    expect(changed.length).toBe(old.size)
    await rm(join(next, 'de/index.html'))
    await writeFile(join(next, 'de/index.html'), changed)
    await utimes(join(next, 'de/index.html'), time, time)
    const report = await writer.write(next, store)
    expect(report).toMatchObject({ files: 8, compressed: 1, reused: 7, aborted: false })
    expect(brotliDecompressSync(await readFile(join(next, 'de/index.html.br'))).toString()).toBe(
      changed,
    )
    expect(gunzipSync(await readFile(join(next, 'en/index.html.gz'))).toString()).toBe(
      files['en/index.html'],
    )
  })

  it('stops between files when its signal says so, keeping what it made and the store', async () => {
    const stop = new AbortController()
    stop.abort()
    const report = await writer.write(site, store, { signal: stop.signal })
    expect(report).toMatchObject({ files: 8, compressed: 0, aborted: true })
    expect(await twins()).toEqual(['assets/client-abc.js.br', 'assets/client-abc.js.gz'])
    // Half a pass forgets nothing from the store.
    await writer.write(site, store)
    const again = await writer.write(join(base, 'site'), store, { signal: stop.signal })
    expect(again).toMatchObject({ files: 0, aborted: false })
    expect((await readdir(store)).length).toBe(14)
  })

  it('compresses the smallest new files first', async () => {
    const order: string[] = []
    const single = openTwinWriter({ threads: 1 })
    try {
      await single.write(site, store, {
        onCompressed: (file) => order.push(file.slice(site.length + 1)),
      })
    } finally {
      await single.close()
    }
    expect(order).toEqual([
      'sitemap.xml',
      'page-data/en/page-data.json',
      'images/_/drawing-abc.svg',
      'assets/entry-abc.js',
      'en/index.html',
      'en/copy/index.html',
      'de/index.html',
      'search/en.json',
    ])
  })
})
