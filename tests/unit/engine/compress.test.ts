import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCompressor } from '../../../src/engine/assets/compress'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let site: string
let cache: string
const page = `<!doctype html><title>x</title>${'<p>Lumora Bank</p>'.repeat(200)}`

beforeEach(async () => {
  const base = await temporaryFolder('compress-')
  site = join(base, 'site')
  cache = join(base, 'cache')
  for (const [path, data] of [
    ['en/index.html', page],
    ['page-data/en/page-data.json', JSON.stringify({ text: 'y'.repeat(3000) })],
    ['assets/client-abc.js', `console.log(1);${'x'.repeat(3000)}`],
    ['sitemap.xml', `<urlset>${'<url/>'.repeat(400)}</urlset>`],
    ['small.txt', 'tiny'],
    ['images/photo.png', 'p'.repeat(5000)],
    ['_headers', 'h'.repeat(5000)],
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

describe('precompression', () => {
  it('writes .br beside every text file worth compressing, .gz too beside hashed ones, and nothing else', async () => {
    const compressor = await openCompressor(site, cache)
    await compressor.sweep()
    expect(await compressor.finish()).toEqual({ compressed: 4, reused: 0 })
    expect(await twins()).toEqual([
      'assets/client-abc.js.br',
      'assets/client-abc.js.gz',
      'en/index.html.br',
      'page-data/en/page-data.json.br',
      'sitemap.xml.br',
    ])
    expect(brotliDecompressSync(await readFile(join(site, 'en/index.html.br'))).toString()).toBe(
      page,
    )
    expect(gunzipSync(await readFile(join(site, 'assets/client-abc.js.gz'))).toString()).toBe(
      await readFile(join(site, 'assets/client-abc.js'), 'utf8'),
    )
  })

  it('compresses pages in every build, and takes hashed files from the cache', async () => {
    const first = await openCompressor(site, cache)
    await first.sweep()
    await first.finish()
    // A new build of the same site, with one page changed.
    for (const name of await twins()) await rm(join(site, name))
    await writeFile(join(site, 'en/index.html'), `${page}<p>edited</p>`)
    const second = await openCompressor(site, cache)
    second.add(join(site, 'en/index.html'), `${page}<p>edited</p>`)
    await second.sweep()
    expect(await second.finish()).toEqual({ compressed: 3, reused: 1 })
    expect(
      brotliDecompressSync(await readFile(join(site, 'en/index.html.br'))).toString(),
    ).toContain('edited')
    // The cache keeps the hashed file's twins only, linked into the site.
    expect((await readdir(join(cache, 'compressed'))).length).toBe(2)
    expect((await stat(join(site, 'assets/client-abc.js.br'))).nlink).toBe(2)
  })

  it('compresses files named by their content at the highest level, others fast', async () => {
    // Text like a page's: words in an order that varies, so the levels tell apart.
    const words = ['Konto', 'Karte', 'Zahlung', 'Partner', 'Bank', 'Kredit', 'Einlage', 'IBAN']
    let seed = 7
    const text = Array.from({ length: 6000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return words[(seed >> 16) % words.length]
    }).join(' ')
    await writeFile(join(site, 'assets/big.js'), text)
    await writeFile(join(site, 'en/big.html'), text)
    const compressor = await openCompressor(site, cache)
    await compressor.sweep()
    await compressor.finish()
    const size = async (name: string) => (await stat(join(site, name))).size
    expect(await size('assets/big.js.br')).toBeLessThan(await size('en/big.html.br'))
  })
})
