import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostHeadersFile, sitePolicy } from '../../../src/engine/site-files/host-config'
import { nginxConfig } from '../../../src/engine/site-files/nginx-block'
import { readCspReports } from '../../../src/http/csp-report'
import { createApp } from '../../../src/server/app'
import {
  API_CONTENT_SECURITY_POLICY,
  DRAWING_CONTENT_SECURITY_POLICY,
  pageContentSecurityPolicy,
  SITE_POLICY_FILE,
  type SitePolicy,
} from '../../../src/shared/http-headers'
import { staticHostHeaders } from '../../support/host-config'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const TRACKING = {
  gtmId: 'GTM-ABC1234',
  gaMeasurementId: 'G-ABC123DEF4',
  adsIds: ['AW-123456789'],
  linkedinPartnerId: '424242',
  twitterPixelId: 'o1abc',
}

/** The directives of a policy by name. */
const directives = (policy: string) =>
  new Map(
    policy.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/)
      return [name, values] as const
    }),
  )

let root: string
let app: FastifyInstance
const logs: string[] = []

beforeAll(async () => {
  root = await temporaryFolder('dist-headers-')
  const put = async (path: string, data: string) => {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), data)
  }
  await put('en/about/index.html', '<title>about</title>')
  await put('404.html', '<title>404</title>')
  await put('en/404/index.html', '<title>404</title>')
  await put('assets/entry-abc.js', 'x')
  await put('page-data/en/about/page-data.json', '{}')
  await put('rates/mastercard/0123456789/USD.json', '{"currency":"USD","days":[]}')
  await put('search/en/index.json', '{}')
  await put('search/en/Ab12cd34Ef56/c0.json', '{}')
  await put('sw.js', 'self')
  await put('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>')
  await put('_headers', '/*\n  X: y\n')
  await put('.env', 'SECRET=1')
  await put(
    SITE_POLICY_FILE,
    JSON.stringify(sitePolicy({ adsIds: [], linkedinPartnerId: '424242' })),
  )
  app = await createApp({
    root,
    logLevel: 'info',
    logStream: { write: (line) => logs.push(line) },
    trustProxy: '127.0.0.1',
  })
})

afterAll(async () => {
  await app.close()
  await removeFolder(root)
})

describe('the content security policy', () => {
  it('uses only directives Chromium, Firefox and WebKit all know (an unknown one is a console error on every page)', () => {
    const known = new Set([
      'default-src',
      'script-src',
      'style-src',
      'style-src-attr',
      'img-src',
      'font-src',
      'connect-src',
      'frame-src',
      'worker-src',
      'media-src',
      'object-src',
      'base-uri',
      'form-action',
      'frame-ancestors',
      'report-uri',
    ])
    for (const text of [
      pageContentSecurityPolicy(sitePolicy({ ...TRACKING })),
      API_CONTENT_SECURITY_POLICY,
    ]) {
      const policy = directives(text)
      expect([...policy.keys()].filter((name) => !known.has(name))).toEqual([])
    }
  })

  it('allows scripts from the site only, never inline or eval, and nothing can frame the site', () => {
    const policy = directives(pageContentSecurityPolicy(sitePolicy({ adsIds: [] })))
    expect(policy.get('default-src')).toEqual(["'self'"])
    expect(policy.get('script-src')).toEqual(["'self'"])
    expect(policy.get('object-src')).toEqual(["'none'"])
    expect(policy.get('base-uri')).toEqual(["'self'"])
    expect(policy.get('form-action')).toEqual(["'self'"])
    expect(policy.get('frame-ancestors')).toEqual(["'none'"])
    expect(policy.get('report-uri')).toEqual(['/api/csp-report'])
    // The document's two inline stylesheets, by their hashes; no 'unsafe-inline' for them.
    expect(policy.get('style-src')).toEqual([
      "'self'",
      expect.stringMatching(/^'sha256-[\w+/]+=*'$/),
      expect.stringMatching(/^'sha256-[\w+/]+=*'$/),
    ])
  })

  it("allows a tracker's hosts only when its identifier is configured", () => {
    const none = pageContentSecurityPolicy(sitePolicy({ adsIds: [] }))
    for (const host of ['googletagmanager', 'licdn', 'ads-twitter', 'doubleclick']) {
      expect(none).not.toContain(host)
    }
    const linkedin = directives(
      pageContentSecurityPolicy(sitePolicy({ adsIds: [], linkedinPartnerId: '424242' })),
    )
    expect(linkedin.get('script-src')).toEqual(["'self'", 'https://snap.licdn.com'])
    expect(linkedin.get('connect-src')).toContain('https://px.ads.linkedin.com')
    expect(linkedin.get('script-src')).not.toContain('https://www.googletagmanager.com')
    const all = directives(pageContentSecurityPolicy(sitePolicy(TRACKING)))
    expect(all.get('script-src')).toEqual(
      expect.arrayContaining([
        'https://www.googletagmanager.com',
        'https://snap.licdn.com',
        'https://static.ads-twitter.com',
      ]),
    )
    expect(all.get('connect-src')).toContain('https://*.google-analytics.com')
    expect(all.get('frame-src')).toContain('https://td.doubleclick.net')
  })
})

describe('headers sent by npm start', () => {
  const security = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'cross-origin-opener-policy': 'same-origin',
    'x-frame-options': 'DENY',
  }

  it('gives every document the security headers and its cache policy', async () => {
    const cases: [string, number, string][] = [
      ['/en/about/', 200, 'no-cache'],
      ['/en/missing/', 404, 'no-cache'],
      ['/sw.js', 200, 'no-cache'],
      ['/rates/mastercard/0123456789/XXX.json', 404, 'no-cache'],
      ['/en/about', 301, 'no-cache'],
    ]
    for (const [path, status, cache] of cases) {
      const response = await app.inject(path)
      expect(response.statusCode, path).toBe(status)
      expect(response.headers, path).toMatchObject({ ...security, 'cache-control': cache })
      expect(String(response.headers['permissions-policy']), path).toContain('camera=()')
      expect(response.headers['content-security-policy'], path).toBeTruthy()
      expect(response.headers['strict-transport-security'], path).toBeUndefined()
    }
  })

  it('sends what pages fetch with a sandboxing policy and nosniff, not the documents’ headers', async () => {
    const cases: [string, string][] = [
      ['/page-data/en/about/page-data.json', 'no-cache'],
      ['/assets/entry-abc.js', 'public, max-age=31536000, immutable'],
      ['/rates/mastercard/0123456789/USD.json', 'public, max-age=31536000, immutable'],
      // The search's index is revalidated; the files of its version are named by their folder.
      ['/search/en/index.json', 'no-cache'],
      ['/search/en/Ab12cd34Ef56/c0.json', 'public, max-age=31536000, immutable'],
      ['/icon.svg', 'no-cache'],
    ]
    for (const [path, cache] of cases) {
      const response = await app.inject(path)
      expect(response.statusCode, path).toBe(200)
      expect(response.headers, path).toMatchObject({
        'cache-control': cache,
        'x-content-type-options': 'nosniff',
        'content-security-policy': DRAWING_CONTENT_SECURITY_POLICY,
      })
      for (const name of ['permissions-policy', 'referrer-policy', 'x-frame-options'])
        expect(response.headers[name], `${path} ${name}`).toBeUndefined()
    }
  })

  it('sends the policy the site was built with', async () => {
    const page = String((await app.inject('/en/about/')).headers['content-security-policy'])
    expect(page).toContain('https://snap.licdn.com')
    expect(page).not.toContain('googletagmanager')
  })

  it('sends HSTS only over HTTPS, as a trusted proxy says', async () => {
    const https = await app.inject({
      url: '/en/about/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '127.0.0.1',
    })
    expect(https.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains')
    const untrusted = await app.inject({
      url: '/en/about/',
      headers: { 'x-forwarded-proto': 'https' },
      remoteAddress: '203.0.113.9',
    })
    expect(untrusted.headers['strict-transport-security']).toBeUndefined()
  })

  it("never serves the hosts' configuration or dot files", async () => {
    for (const path of ['/_headers', `/${SITE_POLICY_FILE}`, '/.env']) {
      const response = await app.inject(path)
      expect(response.statusCode, path).toBe(404)
      expect(response.body, path).not.toMatch(/X: y|SECRET|tracking/)
    }
  })

  it('gives the service alone (no site) its headers on every answer', async () => {
    const alone = await createApp({ logLevel: 'silent' })
    try {
      for (const path of ['/en/', '/api/nothing']) {
        const response = await alone.inject(path)
        expect(response.statusCode, path).toBe(404)
        expect(response.headers, path).toMatchObject({
          ...security,
          'referrer-policy': 'no-referrer',
          'cache-control': 'no-store',
        })
        expect(String(response.headers['content-security-policy']), path).toContain(
          "default-src 'none'",
        )
      }
    } finally {
      await alone.close()
    }
  })

  it('gives the API its own strict policy', async () => {
    const response = await app.inject('/api/anything')
    // Its pages load their stylesheet and Inter from /api/ and the icon; nothing inline, no
    // script, nothing from another host, no frame.
    expect(response.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self'; font-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    )
    // Its links carry tokens: none reaches the next page's referrer.
    expect(response.headers).toMatchObject({ ...security, 'referrer-policy': 'no-referrer' })
  })
})

describe('POST /api/csp-report', () => {
  const violation = {
    'document-uri': 'http://localhost/en/about/?email=ada@example.com',
    'effective-directive': 'script-src-elem',
    'blocked-uri': 'https://evil.example/steal.js?token=secret',
    'source-file': 'http://localhost/assets/entry.js?x=1',
    'line-number': 12,
    disposition: 'enforce',
  }

  it('logs what was blocked and where, without queries or addresses', async () => {
    logs.length = 0
    const response = await app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({ 'csp-report': violation }),
    })
    expect(response.statusCode).toBe(204)
    const line = logs.find((entry) => entry.includes('content security policy violation'))
    expect(JSON.parse(String(line)).csp).toEqual({
      page: '/en/about/',
      directive: 'script-src-elem',
      blocked: 'https://evil.example',
      source: '/assets/entry.js',
      line: 12,
      disposition: 'enforce',
    })
    expect(logs.join('')).not.toMatch(/ada@example|secret|steal/)
  })

  it('reads the Reporting API format, inline blocks by their keyword', () => {
    expect(
      readCspReports([
        {
          type: 'csp-violation',
          body: {
            documentURL: 'https://site.example/de/',
            effectiveDirective: 'script-src-elem',
            blockedURL: 'inline',
            disposition: 'enforce',
          },
        },
        { type: 'deprecation', body: {} },
      ]),
    ).toEqual([
      {
        page: '/de/',
        directive: 'script-src-elem',
        blocked: 'inline',
        source: undefined,
        disposition: 'enforce',
      },
    ])
  })

  it('refuses what is no report, too large, or too many from one address', async () => {
    const post = (payload: string, remoteAddress = '198.51.100.7') =>
      app.inject({
        method: 'POST',
        url: '/api/csp-report',
        headers: { 'content-type': 'application/csp-report' },
        payload,
        remoteAddress,
      })
    expect((await post('not json')).statusCode).toBe(400)
    expect((await post('{"x":1}')).statusCode).toBe(400)
    expect(
      (await post(JSON.stringify({ 'csp-report': { pad: 'x'.repeat(20_000) } }))).statusCode,
    ).toBe(413)
    const statuses: number[] = []
    for (let i = 0; i < 25; i++) {
      statuses.push(
        (await post(JSON.stringify({ 'csp-report': violation }), '198.51.100.8')).statusCode,
      )
    }
    expect(statuses.filter((status) => status === 204)).toHaveLength(20)
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429, 429])
    // Another visitor is not held back by the first one's flood.
    expect(
      (await post(JSON.stringify({ 'csp-report': violation }), '198.51.100.9')).statusCode,
    ).toBe(204)
  })

  it('counts each report of a batch, and logs no more of it than the client may send', async () => {
    logs.length = 0
    const batch = (count: number) =>
      app.inject({
        method: 'POST',
        url: '/api/csp-report',
        headers: { 'content-type': 'application/reports+json' },
        payload: JSON.stringify(
          Array.from({ length: count }, () => ({
            type: 'csp-violation',
            body: { documentURL: 'https://site.example/en/', effectiveDirective: 'img-src' },
          })),
        ),
        remoteAddress: '198.51.100.20',
      })
    expect((await batch(15)).statusCode).toBe(204)
    expect((await batch(15)).statusCode).toBe(204)
    expect((await batch(1)).statusCode).toBe(429)
    const lines = logs.filter((line) => line.includes('content security policy violation'))
    expect(lines).toHaveLength(20)
  })
})

describe('configuration for other servers', () => {
  const policy: SitePolicy = sitePolicy(TRACKING)

  it('writes _headers for static hosts: security everywhere, a year for hashed files', () => {
    const text = hostHeadersFile(policy)
    const rules = new Map<string, string[]>()
    let current = ''
    for (const line of text.split('\n')) {
      if (line.startsWith('/')) {
        current = line
        rules.set(current, [])
      } else if (line.startsWith('  ')) rules.get(current)?.push(line.trim())
    }
    expect(rules.get('/*')).toEqual(
      expect.arrayContaining([
        'X-Content-Type-Options: nosniff',
        'Referrer-Policy: strict-origin-when-cross-origin',
        'Cross-Origin-Opener-Policy: same-origin',
        `Content-Security-Policy: ${pageContentSecurityPolicy(policy)}`,
        'Strict-Transport-Security: max-age=63072000; includeSubDomains',
      ]),
    )
    // Cloudflare joins a header two matching rules set: only the content policy ever is.
    expect(rules.get('/*')?.some((line) => line.startsWith('Cache-Control'))).toBe(false)
    for (const path of [
      '/en/about/',
      '/icon.svg',
      '/assets/entry-abc.js',
      '/images/blog/cover.svg',
      '/images/_/cover-0123abcd.svg',
      '/page-data/en/about/page-data.json',
      '/search/en/index.json',
      '/search/en/Ab12cd34Ef56/c0.json',
      '/rates/mastercard/0123456789/USD.json',
    ]) {
      const names = staticHostHeaders(text, path)
        .map((line) => line.slice(0, line.indexOf(':')))
        .filter((name) => name !== 'Content-Security-Policy')
      expect(names, path).toEqual([...new Set(names)])
    }
    expect(rules.get('/assets/*')).toContain('Cache-Control: public, max-age=31536000, immutable')
    // Editors' images, drawings among them, as uploaded and as hashed copies: sandboxed.
    expect(rules.get('/images/*')).toEqual([
      `Content-Security-Policy: ${DRAWING_CONTENT_SECURITY_POLICY}`,
    ])
    expect(rules.get('/images/_/*')).toEqual(['Cache-Control: public, max-age=31536000, immutable'])
    expect(rules.get('/page-data/*')).toEqual(['Cache-Control: no-cache'])
    expect(rules.get('/search/:language/index.json')).toEqual(['Cache-Control: no-cache'])
    expect(rules.get('/search/:language/:version/*')).toContain(
      'Cache-Control: public, max-age=31536000, immutable',
    )
    // A currency's rates by day: its folder hashes the rates, so it is kept like a bundle.
    expect(rules.get('/rates/*')).toEqual([
      'Cache-Control: public, max-age=31536000, immutable',
      "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
    ])
  })

  it('writes an nginx server block with the same headers, 404 pages, twins and the API', () => {
    const text = nginxConfig(policy, { root: '/srv/site', listen: '8443', api: '127.0.0.1:9000' })
    expect(text).toContain('listen 8443;')
    expect(text).toContain('root "/srv/site";')
    expect(text).toContain('server 127.0.0.1:9000;')
    expect(text).toContain('gzip_static on;')
    expect(text).toContain('brotli_static on;')
    expect(text).toContain('error_page 404 @site_not_found;')
    expect(text).toContain('try_files $site_not_found_page /404.html =404;')
    // An address with no file is asked of the service, which knows the live release's moves.
    expect(text).toContain('try_files $uri $uri/ @site_moved;')
    expect(text).toContain('location @site_moved {')
    expect(text).toContain('error_page 404 /de/404.html;')
    expect(text).toContain(
      `add_header Content-Security-Policy "${pageContentSecurityPolicy(policy)}" always;`,
    )
    expect(text).toContain('add_header Cache-Control "public, max-age=31536000, immutable" always;')
    expect(text).toContain('"application/manifest+json; charset=utf-8" webmanifest;')
    const rates = text.slice(text.indexOf('location ^~ /rates/ {'))
    expect(rates.slice(0, rates.indexOf('}'))).toContain(
      'add_header Cache-Control "public, max-age=31536000, immutable" always;',
    )
    // The search's index is revalidated, the files of its version kept for good.
    const search = text.slice(text.indexOf('location ^~ /search/ {'))
    const versioned = search.slice(0, search.indexOf('}'))
    expect(versioned).toContain('location ~ ^/search/[^/]+/[^/]+/ {')
    expect(versioned).toContain('add_header Cache-Control "public, max-age=31536000, immutable"')
    const index = search.slice(search.indexOf('}'), search.indexOf('\n  }'))
    expect(index).toContain('add_header Cache-Control "no-cache" always;')
    expect(nginxConfig(policy, { root: '/srv/site', brotli: false })).not.toContain('brotli')
    // By default the forms service where `npm run serve:api` listens (PORT's 8080), not the
    // publishing service's 8081.
    expect(nginxConfig(policy, { root: '/srv/site' })).toContain('server 127.0.0.1:8080;')
    // Its first lines say what the service must be told to count visitors, not nginx.
    expect(nginxConfig(policy, { root: '/srv/site' }).split('\n').slice(0, 4).join('\n')).toContain(
      'with TRUST_PROXY=127.0.0.1',
    )
  })
})
