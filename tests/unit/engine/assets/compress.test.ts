import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compressHashedFiles, writeBestTwins } from '../../../../src/engine/assets/compress'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let site: string
let cache: string
const drawing = `<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="1"/>'.repeat(200)}</svg>`

beforeEach(async () => {
  const base = await temporaryFolder('compress-')
  site = join(base, 'site')
  cache = join(base, 'cache')
  for (const [path, data] of [
    ['en/index.html', `<!doctype html><title>x</title>${'<p>Lumora Bank</p>'.repeat(200)}`],
    ['page-data/en/page-data.json', JSON.stringify({ text: 'y'.repeat(3000) })],
    ['images/_/drawing-abc.svg', drawing],
    ['images/_/small-abc.svg', '<svg/>'],
    ['images/photo.svg', drawing],
    ['assets/client-abc.js', `console.log(1);${'x'.repeat(3000)}`],
    ['assets/client-abc.js.br', 'twin of the bundle'],
    ['sitemap.xml', `<urlset>${'<url/>'.repeat(400)}</urlset>`],
  ] as const) {
    await mkdir(join(site, path, '..'), { recursive: true })
    await writeFile(join(site, path), data)
  }
})

afterEach(async () => {
  await removeFolder(join(site, '..'))
})

const twins = async () =>
  (await readdir(site, { recursive: true })).filter((name) => /\.(br|gz)$/.test(name)).sort()

describe('compressed twins', () => {
  it('gives hashed drawings twins at the highest levels, and pages, data and the rest none', async () => {
    expect(await compressHashedFiles(site, cache)).toEqual({ compressed: 1, reused: 0 })
    expect(await twins()).toEqual([
      'assets/client-abc.js.br',
      'images/_/drawing-abc.svg.br',
      'images/_/drawing-abc.svg.gz',
    ])
    const at = (name: string) => readFile(join(site, name))
    expect(brotliDecompressSync(await at('images/_/drawing-abc.svg.br')).toString()).toBe(drawing)
    expect(gunzipSync(await at('images/_/drawing-abc.svg.gz')).toString()).toBe(drawing)
    // The bundle's own twin, made with the bundle, is left as it was.
    expect((await at('assets/client-abc.js.br')).toString()).toBe('twin of the bundle')
  })

  it('takes a drawing’s twins from the cache in the next build, and forgets those no longer used', async () => {
    await compressHashedFiles(site, cache)
    for (const twin of ['.br', '.gz']) await rm(join(site, `images/_/drawing-abc.svg${twin}`))
    expect(await compressHashedFiles(site, cache)).toEqual({ compressed: 0, reused: 1 })
    // Linked from the store: the same file twice.
    expect((await stat(join(site, 'images/_/drawing-abc.svg.br'))).nlink).toBe(2)

    await rm(join(site, 'images/_/drawing-abc.svg'))
    await rm(join(site, 'images/_/drawing-abc.svg.br'))
    await rm(join(site, 'images/_/drawing-abc.svg.gz'))
    await compressHashedFiles(site, cache)
    expect(await readdir(join(cache, 'compressed'))).toEqual([])
  })

  it('writes the smallest twins of a folder compiled once, beside every text file worth it', async () => {
    const bundle = join(site, 'assets')
    await rm(join(bundle, 'client-abc.js.br'))
    await writeFile(join(bundle, 'tiny.js'), 'x')
    await writeBestTwins(bundle)
    expect((await readdir(bundle)).sort()).toEqual([
      'client-abc.js',
      'client-abc.js.br',
      'client-abc.js.gz',
      'tiny.js',
    ])
    const text = await readFile(join(bundle, 'client-abc.js'), 'utf8')
    const br = await readFile(join(bundle, 'client-abc.js.br'))
    expect(brotliDecompressSync(br).toString()).toBe(text)
  })
})
