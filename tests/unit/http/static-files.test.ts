import { randomBytes } from 'node:crypto'
import { mkdir, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheControl, compressedCache } from '../../../src/http/static-files'
import { createApp } from '../../../src/server/app'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let root: string
let app: FastifyInstance
const big = 'x'.repeat(5000)

async function put(path: string, data: string | Buffer) {
  await mkdir(join(root, path, '..'), { recursive: true })
  await writeFile(join(root, path), data)
}

beforeAll(async () => {
  root = await temporaryFolder('dist-')
  await put('index.html', `<title>home</title>${big}`)
  await put('en/about/index.html', '<title>about</title>')
  await put('en/404/index.html', '<title>English 404</title>')
  await put('de/404/index.html', '<title>Deutsche 404</title>')
  await put('404.html', '<title>English 404</title>')
  await put('assets/entry-abc123.js', `console.log(1);${big}`)
  await put('assets/entry-abc123.js.br', brotliCompressSync(`console.log(1);${big}`))
  await put('page-data/en/about/page-data.json', '{"path":"/en/about/"}')
  await put('sw.js', 'self')
  await writeFile(join(tmpdir(), 'secret.txt'), 'secret')
  app = await createApp({ root, logLevel: 'silent' })
})

afterAll(async () => {
  await app.close()
  await removeFolder(root)
})

describe('static server', () => {
  it('serves pages by folder and redirects to the slash-terminated address', async () => {
    const page = await app.inject('/en/about/')
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('about')
    const redirect = await app.inject('/en/about?x=1')
    expect(redirect.statusCode).toBe(301)
    expect(redirect.headers.location).toBe('/en/about/?x=1')
  })

  it('answers unknown paths under /de/ with the German 404 page, others with the English one', async () => {
    const german = await app.inject('/de/gibt-es-nicht/')
    expect(german.statusCode).toBe(404)
    expect(german.body).toContain('Deutsche 404')
    for (const path of ['/en/nothing/', '/nothing', '/fr/rien/', '/den/']) {
      const english = await app.inject(path)
      expect(english.statusCode, path).toBe(404)
      expect(english.body, path).toContain('English 404')
    }
  })

  it('answers HEAD like GET without a body', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/de/missing/' })
    expect(head.statusCode).toBe(404)
    expect(head.body).toBe('')
    expect((await app.inject({ method: 'HEAD', url: '/en/about/' })).statusCode).toBe(200)
  })

  it('serves precompressed files when the client accepts them', async () => {
    const response = await app.inject({
      url: '/assets/entry-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    })
    expect(response.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(`console.log(1);${big}`)
    const plain = await app.inject('/assets/entry-abc123.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(`console.log(1);${big}`)
  })

  it('compresses other text on the fly', async () => {
    const response = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } })
    expect(response.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(response.rawPayload).toString()).toContain('home')
    const refused = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip;q=0' } })
    expect(refused.headers['content-encoding']).toBeUndefined()
  })

  it('compresses a page once, keeps it, and compresses it again when the file changed', async () => {
    const brotli = async () => {
      const response = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } })
      expect(response.headers['content-encoding']).toBe('br')
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length)
      return brotliDecompressSync(response.rawPayload).toString()
    }
    expect(await brotli()).toBe(`<title>home</title>${big}`)
    await put('index.html', `<title>home, changed</title>${big}`)
    expect(await brotli()).toBe(`<title>home, changed</title>${big}`)
    await put('index.html', `<title>home</title>${big}`)
  })

  it('keeps compressed files up to its limit, the least recently sent going first', async () => {
    const cache = compressedCache(2500)
    const files = await Promise.all(
      ['a', 'b', 'c'].map(async (name) => {
        const file = join(root, `keep-${name}.txt`)
        // Bytes that do not compress: about 1,000 each, compressed.
        await writeFile(file, randomBytes(1000))
        const info = await stat(file)
        return { file, size: info.size, mtimeMs: info.mtimeMs }
      }),
    )
    const [a, b, c] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]]
    const first = cache.get(a, 'br')
    expect(cache.get(a, 'br')).toBe(first)
    await first
    const second = cache.get(b, 'br')
    await second
    cache.get(a, 'br')
    await cache.get(c, 'br')
    expect(cache.bytes).toBeLessThanOrEqual(2500)
    // b was the least recently sent: gone, made again when asked; a was kept.
    expect(cache.get(a, 'br')).toBe(first)
    expect(cache.get(b, 'br')).not.toBe(second)
    await utimes(a.file, new Date(), new Date(Date.now() + 5000))
    const changed = await stat(a.file)
    expect(cache.get({ ...a, mtimeMs: changed.mtimeMs }, 'br')).not.toBe(first)
  })

  it('reads Accept-Encoding by its q-values: a coding or * at q=0 is refused, the best one wins', async () => {
    const encodingOf = async (url: string, accept: string) =>
      (await app.inject({ url, headers: { 'accept-encoding': accept } })).headers[
        'content-encoding'
      ]
    for (const url of ['/', '/assets/entry-abc123.js']) {
      for (const refused of [
        'br;q=0',
        'br;Q=0',
        'br; q=0',
        'br ;q=0.0',
        'BR;q=0.000',
        'br;q=0, gzip;q=0',
        '*;q=0',
        'br;level=1;q=0',
        'identity',
        'identity, *;q=0',
        '',
      ]) {
        expect(await encodingOf(url, refused), `${url} ${refused}`).toBeUndefined()
      }
      expect(await encodingOf(url, 'br;q=0, gzip'), url).toBe('gzip')
      expect(await encodingOf(url, 'gzip;q=1, br;q=0.5'), url).toBe('gzip')
      expect(await encodingOf(url, 'gzip;q=0.5, br;q=0.8'), url).toBe('br')
      expect(await encodingOf(url, '*'), url).toBe('br')
      expect(await encodingOf(url, '*, br;q=0'), url).toBe('gzip')
      expect(await encodingOf(url, 'x-gzip'), url).toBe('gzip')
      // A weight that is no weight (RFC 9110, 12.4.2) accepts nothing.
      expect(await encodingOf(url, 'br;q=2, gzip;q=0.5x'), url).toBeUndefined()
    }
  })

  it('caches hashed assets forever and revalidates HTML, page data and the worker', async () => {
    expect((await app.inject('/assets/entry-abc123.js')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    )
    for (const path of [
      '/',
      '/en/about/',
      '/page-data/en/about/page-data.json',
      '/sw.js',
      '/de/x/',
    ]) {
      expect((await app.inject(path)).headers['cache-control'], path).toBe('no-cache')
    }
    expect(cacheControl('/icon.svg')).toBe('no-cache')
    expect(cacheControl('/documents/customer-information-en.pdf')).toBe('no-cache')
    // Images under content-hashed names never change; those named by editors may.
    expect(cacheControl('/images/_/office-1a2b3c4d-640.avif')).toBe(
      'public, max-age=31536000, immutable',
    )
    expect(cacheControl('/images/blog/cover.svg')).toBe('no-cache')
    // A currency's rates by day, in a folder named by a hash of the rates.
    expect(cacheControl('/rates/mastercard/0123456789/USD.json')).toBe(
      'public, max-age=31536000, immutable',
    )
  })

  it('serves drawings with a policy that lets them neither run script nor load anything', async () => {
    await put(
      'images/drawing.svg',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    )
    const response = await app.inject('/images/drawing.svg')
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/)
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
    )
    const page = String((await app.inject('/en/about/')).headers['content-security-policy'])
    expect(page).toContain("default-src 'self'")
    expect(page).not.toContain('sandbox')
  })

  it('answers 304 to a matching ETag', async () => {
    const first = await app.inject('/en/about/')
    const etag = first.headers.etag
    expect(etag).toBeTruthy()
    const second = await app.inject({
      url: '/en/about/',
      headers: { 'if-none-match': String(etag) },
    })
    expect(second.statusCode).toBe(304)
    expect(second.body).toBe('')
  })

  it('never serves files outside the site', async () => {
    for (const url of ['/../secret.txt', '/%2e%2e/secret.txt', '/en/%2e%2e/%2e%2e/secret.txt']) {
      const response = await app.inject(url)
      expect(response.body, url).not.toContain('secret')
    }
    expect((await app.inject('/%E0%A4%A')).statusCode).toBe(400)
  })
})
