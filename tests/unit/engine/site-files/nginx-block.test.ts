/**
 * Debian's nginx with the block `npm run nginx-config` writes, on a small site of its own,
 * asked as an attacker asks (bytes on a socket): what nginx answers itself, rather than a file
 * or the forms service, carries the headers of the site's own answers as well, and an address
 * `npm start` refuses reaches no page through nginx either; and over the editors' releases, an
 * address a publication moves answers 301 from the moment it is live, with no reload.
 * tests/e2e/server/nginx.spec.ts compares the block with `npm start` on the built site.
 */

import { mkdir, rename, symlink, writeFile } from 'node:fs/promises'
import { STATUS_CODES } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../../../src/server/app'
import {
  responseHeaders,
  SITE_POLICY_FILE,
  type SitePolicy,
} from '../../../../src/shared/http-headers'
import { REDIRECTS_TABLE_FILE } from '../../../../src/shared/redirects'
import { CURRENT } from '../../../../src/shared/release-layout'
import { freePorts } from '../../../support/free-port'
import { type NginxServer, nginxInstalled, startNginx } from '../../../support/nginx'
import { type RawAnswer, rawRequest, sendRaw } from '../../../support/raw-http'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const POLICY: SitePolicy = {
  tracking: { adsIds: [] },
  scriptHashes: [],
  styleHashes: ['sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='],
}

/** A site as the build lays it out: pages in folders, each language's 404 page twice. */
const SITE: Record<string, string> = {
  [SITE_POLICY_FILE]: JSON.stringify(POLICY),
  // A post moved on purpose: its earlier address leads to the new one.
  [REDIRECTS_TABLE_FILE]: JSON.stringify([{ from: '/blog/old-title/', to: '/blog/new-title/' }]),
  'blog/new-title/index.html': '<html lang="en">the post</html>',
  'page-data/blog/new-title/page-data.json': '{"path":"/blog/new-title/"}',
  'index.html': '<html lang="en">home</html>',
  'en/index.html': '<html lang="en">start</html>',
  // Larger than a thousand bytes: a thousand one-byte ranges of it are a thousand parts.
  'en/about/index.html': `<html lang="en">${'about us '.repeat(300)}</html>`,
  'de/index.html': '<html lang="de">Start</html>',
  'de/about/index.html': '<html lang="de">Über uns</html>',
  '404.html': '<html lang="en">not found</html>',
  'en/404/index.html': '<html lang="en">not found</html>',
  'de/404.html': '<html lang="de">nicht gefunden</html>',
  'de/404/index.html': '<html lang="de">nicht gefunden</html>',
}

/** What every answer of nginx's own about a page must carry, as the pages do. */
function expectPageHeaders(answer: RawAnswer, where: string) {
  for (const [name, value] of Object.entries(responseHeaders('page', POLICY))) {
    expect(answer.headers[name], `${where}: ${name}`).toBe(value)
  }
}

/** The same under /api/, as the forms service sends its own. */
function expectServiceHeaders(answer: RawAnswer, where: string) {
  for (const [name, value] of Object.entries(responseHeaders('api', POLICY))) {
    expect(answer.headers[name], `${where}: ${name}`).toBe(value)
  }
}

describe.skipIf(!nginxInstalled())('the nginx block on a site of its own', () => {
  let root = ''
  let nginx: NginxServer
  let port = 0
  /** npm start's server on the same site. */
  let site: FastifyInstance
  let sitePort = 0
  /** Where the block looks for the forms service: nothing listens there, unless a test says. */
  let servicePort = 0

  beforeAll(async () => {
    root = await temporaryFolder('nginx-block-')
    for (const [path, text] of Object.entries(SITE)) {
      await mkdir(dirname(join(root, path)), { recursive: true })
      await writeFile(join(root, path), text)
    }
    ;[port = 0, servicePort = 0] = await freePorts(2)
    site = await createApp({ root, logLevel: 'silent' })
    sitePort = Number(new URL(await site.listen({ port: 0, host: '127.0.0.1' })).port)
    nginx = await startNginx({
      root,
      port,
      api: `127.0.0.1:${servicePort}`,
      scratch: join(root, '.nginx'),
      // A service that takes a request and never answers is given up after a second, not 60.
      edit: (block) =>
        block.replace(
          'client_max_body_size 64k;',
          'client_max_body_size 64k;\n    proxy_read_timeout 1s;',
        ),
    })
  })

  afterAll(async () => {
    await nginx?.stop()
    await site?.close()
    await removeFolder(root)
  })

  it('refuses what it cannot or will not serve with the headers of the pages', async () => {
    const refusals: [string, string, number][] = [
      ['a control character in the request line', 'GET /\x01 HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['no request line at all', 'HELLO\r\n\r\n', 400],
      ['no Host', 'GET / HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
      ['an address too long', rawRequest('GET', `/${'a'.repeat(10_000)}`), 414],
      ['headers too large', rawRequest('GET', '/', { 'x-large': 'a'.repeat(10_000) }), 400],
      ['TRACE', rawRequest('TRACE', '/en/'), 405],
      ['an unknown method', rawRequest('FOO', '/en/about/'), 405],
      [
        'a form post to a German page',
        rawRequest('POST', '/de/about/', { 'content-length': '0' }),
        405,
      ],
      [
        'a transfer coding nginx does not know',
        rawRequest('POST', '/en/', { 'transfer-encoding': 'gzip' }),
        501,
      ],
      ['HTTP/2.0 in the request line', 'GET / HTTP/2.0\r\nHost: x\r\n\r\n', 505],
    ]
    for (const [what, request, status] of refusals) {
      const answer = await sendRaw(port, request)
      expect(answer.status, what).toBe(status)
      expectPageHeaders(answer, what)
      expect(answer.headers['content-type'], what).toBe('text/plain; charset=utf-8')
      expect(answer.body, what).toBe(`${STATUS_CODES[status]}\n`)
      if (status === 405) expect(answer.headers.allow, what).toBe('GET, HEAD')
    }
    // HSTS too, when a proxy in front says the visitor came over HTTPS.
    const secure = await sendRaw(port, rawRequest('TRACE', '/', { 'x-forwarded-proto': 'https' }))
    expect(secure.headers['strict-transport-security']).toBe(
      responseHeaders('page', POLICY, { https: true })['strict-transport-security'],
    )
  })

  it('answers for the forms service it cannot reach as the service answers, with its headers', async () => {
    const post = (headers: Record<string, string>, body = '') =>
      rawRequest(
        'POST',
        '/api/forms/newsletter',
        { 'content-type': 'application/json', ...headers },
        body,
      )
    const tooLarge = await sendRaw(port, post({ 'content-length': String(65 * 1024) }))
    expect(tooLarge.status).toBe(413)
    expectServiceHeaders(tooLarge, '413')
    expect(JSON.parse(tooLarge.body)).toEqual({ ok: false, reason: 'tooLarge' })

    // Nothing listens: refused.
    const down = await sendRaw(port, post({ 'content-length': '2' }, '{}'))
    expect(down.status).toBe(502)
    expectServiceHeaders(down, '502')
    expect(down.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(down.body)).toEqual({ ok: false, reason: 'unavailable' })

    // A service that takes the request and never answers.
    const held: Socket[] = []
    const hung: Server = createServer((socket) => held.push(socket))
    await new Promise<void>((done) => hung.listen(servicePort, '127.0.0.1', done))
    try {
      const late = await sendRaw(port, post({ 'content-length': '2' }, '{}'), 10_000)
      expect(late.status).toBe(504)
      expectServiceHeaders(late, '504')
      expect(JSON.parse(late.body)).toEqual({ ok: false, reason: 'unavailable' })
    } finally {
      for (const socket of held) socket.destroy()
      await new Promise((done) => hung.close(done))
    }
  })

  it("answers a moved address 301 to the page, on the site, with the pages' headers, as npm start does", async () => {
    // The service behind /api/, as npm run serve:api runs it: the site's moves, none of its files.
    const moved = await createApp({ root, movesOnly: true, logLevel: 'silent' })
    await moved.listen({ port: servicePort, host: '127.0.0.1' })
    try {
      await expectMoves()
    } finally {
      await moved.close()
    }
  })

  async function expectMoves() {
    const moves: [string, string][] = [
      ['/blog/old-title/', '/blog/new-title/'],
      ['/blog/old-title', '/blog/new-title/'],
      ['/page-data/blog/old-title/page-data.json', '/page-data/blog/new-title/page-data.json'],
    ]
    for (const [from, to] of moves) {
      // A Host of another site must not take the visitor there.
      const request = rawRequest('GET', from, { host: 'evil.example' })
      const [ours, theirs] = await Promise.all([sendRaw(sitePort, request), sendRaw(port, request)])
      for (const [answer, who] of [
        [ours, 'npm start'],
        [theirs, 'nginx'],
      ] as const) {
        expect(answer.status, `${who} ${from}`).toBe(301)
        expect(answer.headers.location, `${who} ${from}`).toBe(to)
        expectPageHeaders(answer, `${who} ${from}`)
      }
    }
    // The page itself and an address that never moved answer as before; a page takes no form
    // post, moved or not.
    expect((await sendRaw(port, rawRequest('GET', '/blog/new-title/'))).status).toBe(200)
    const unknown = await sendRaw(port, rawRequest('GET', '/blog/other-title/'))
    expect(unknown.status).toBe(404)
    expect(unknown.body).toBe(SITE['404.html'])
    expectPageHeaders(unknown, 'an unknown address')
    const german = await sendRaw(port, rawRequest('GET', '/de/nichts/'))
    expect([german.status, german.body]).toEqual([404, SITE['de/404.html']])
    const post = rawRequest('POST', '/blog/old-title/', { 'content-length': '0' })
    const [ours, theirs] = await Promise.all([sendRaw(sitePort, post), sendRaw(port, post)])
    expect([theirs.status, theirs.headers.allow]).toEqual([405, 'GET, HEAD'])
    expect(theirs.body).toBe(`${STATUS_CODES[405]}\n`)
    expect(ours.status).toBe(405)
    expectPageHeaders(theirs, 'a form post')
  }

  it('serves no page at an address npm start refuses: an encoded slash, an empty or dot segment', async () => {
    const targets = [
      '/en%2F',
      '/en%2f',
      '/de%2Fabout%2F',
      '/de/about%2F',
      '/de%5Cabout/',
      '/de\\about/',
      '//en/',
      '/en//about/',
      '/en/./',
      '/en/%2e/',
      '/en/about/..',
      '/en/about/%2E%2E/',
      'http://localhost/de%2Fabout%2F',
      // What is no address of another page is served as before.
      '/en/',
      '/de/about/',
      '/en/?next=%2Fde%2F',
      '/en/...x/',
      '/de/nichts/',
    ]
    for (const target of targets) {
      const [ours, theirs] = await Promise.all([
        sendRaw(sitePort, rawRequest('GET', target)),
        sendRaw(port, rawRequest('GET', target)),
      ])
      expect(theirs.status, target).toBe(ours.status)
      expect(theirs.body, target).toBe(ours.body)
      expectPageHeaders(theirs, target)
    }
    // npm start answers the service's JSON 404 (the address begins with /api/); nginx would
    // resolve it to /en/, and answers the 404 page instead.
    expect((await sendRaw(port, rawRequest('GET', '/api/../en/'))).status).toBe(404)
  })

  it('answers many ranges with the page once, never more bytes than it has', async () => {
    const page = SITE['en/about/index.html'] as string
    const size = Buffer.byteLength(page)
    expect(size).toBeGreaterThan(1000)
    const ranges = Array.from({ length: 1000 }, (_, index) => `${index}-${index}`)
    const many = await sendRaw(
      port,
      rawRequest('GET', '/en/about/', { range: `bytes=${ranges.join(',')}` }),
    )
    expect(Buffer.byteLength(many.body)).toBeLessThanOrEqual(size)
    expect(many.status).toBe(200)
    expect(many.body).toBe(page)
    expectPageHeaders(many, 'many ranges')
    // One range is still one: a download resumed.
    const one = await sendRaw(port, rawRequest('GET', '/en/about/', { range: 'bytes=5-' }))
    expect(one.status).toBe(206)
    expect(one.body).toBe(page.slice(5))
    // Past the end: 416, with the pages' headers (nginx repeats them: its range filter refuses
    // after they were added, and adds them again to its refusal).
    const past = await sendRaw(port, rawRequest('GET', '/en/about/', { range: 'bytes=100000-' }))
    expect(past.status).toBe(416)
    for (const [name, value] of Object.entries(responseHeaders('page', POLICY))) {
      expect([value, `${value}, ${value}`], name).toContain(past.headers[name])
    }
  })
})

describe.skipIf(!nginxInstalled())("the nginx block over the editors' releases", () => {
  let dir = ''
  let nginx: NginxServer | undefined
  let service: FastifyInstance | undefined

  afterAll(async () => {
    await nginx?.stop()
    await service?.close()
    await removeFolder(dir)
  })

  /** Writes a release of the site with `files` in place of the moves and pages it differs by. */
  async function release(name: string, files: Record<string, string | undefined>) {
    for (const [path, text] of Object.entries({ ...SITE, ...files })) {
      if (text === undefined) continue
      await mkdir(dirname(join(dir, 'releases', name, path)), { recursive: true })
      await writeFile(join(dir, 'releases', name, path), text)
    }
  }

  /** Puts `name` live as the publishing service does: a new link renamed over `current`. */
  async function switchTo(name: string) {
    const next = join(dir, 'releases', `${CURRENT}.next`)
    await symlink(name, next)
    await rename(next, join(dir, 'releases', CURRENT))
  }

  it('answers a move published after it started with 301, without a reload', async () => {
    dir = await temporaryFolder('nginx-releases-')
    const table = (moves: { from: string; to: string }[]) => JSON.stringify(moves)
    await release('1', { [REDIRECTS_TABLE_FILE]: table([]) })
    // The about page moved to /en/about-us/.
    await release('2', {
      [REDIRECTS_TABLE_FILE]: table([{ from: '/en/about/', to: '/en/about-us/' }]),
      'en/about/index.html': undefined,
      'en/about-us/index.html': '<html lang="en">about us</html>',
      'page-data/en/about-us/page-data.json': '{"path":"/en/about-us/"}',
    })
    // And back again: the page is where it was, its short-lived address leads there.
    await release('3', {
      [REDIRECTS_TABLE_FILE]: table([{ from: '/en/about-us/', to: '/en/about/' }]),
    })
    await switchTo('1')
    const releases = join(dir, 'releases')
    const [port = 0] = await freePorts(1)
    // The service behind /api/, as npm run serve:api runs it: the live release's moves.
    service = await createApp({ releasesDir: releases, movesOnly: true, logLevel: 'silent' })
    const api = new URL(await service.listen({ port: 0, host: '127.0.0.1' })).host
    nginx = await startNginx({
      root: join(releases, CURRENT),
      port,
      api,
      scratch: join(dir, '.nginx'),
    })
    const get = (path: string) => sendRaw(port, rawRequest('GET', path))

    expect((await get('/en/about/')).status).toBe(200)
    expect((await get('/en/about-us/')).status).toBe(404)

    await switchTo('2')
    const moves: [string, string][] = [
      ['/en/about/', '/en/about-us/'],
      ['/en/about', '/en/about-us/'],
      ['/page-data/en/about/page-data.json', '/page-data/en/about-us/page-data.json'],
    ]
    for (const [from, to] of moves) {
      const answer = await get(from)
      expect([answer.status, answer.headers.location], from).toEqual([301, to])
      expectPageHeaders(answer, from)
    }
    expect((await get('/en/about-us/')).status).toBe(200)

    await switchTo('3')
    expect((await get('/en/about/')).status).toBe(200)
    const back = await get('/en/about-us/')
    expect([back.status, back.headers.location]).toEqual([301, '/en/about/'])
    expect(await nginx.errors()).not.toMatch(/\[(crit|alert|emerg)\]/)
  })
})
