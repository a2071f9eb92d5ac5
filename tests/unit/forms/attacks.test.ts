/**
 * The server as an attacker tries it: requests written byte for byte on a socket
 * against the site and the forms service of one app, each a defect found by probing, each
 * answered as a bank's security team expects.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { connect, createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FormsStore } from '../../../src/forms/store'
import { healthRoutes } from '../../../src/http/health'
import { createApp } from '../../../src/server/app'
import {
  databases,
  linkIn,
  SITE_URL,
  signUp,
  startService,
  type TestService,
} from '../../support/forms'
import { type RawAnswer, rawRequest, sendAndReset, sendRaw } from '../../support/raw-http'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let root: string

beforeAll(async () => {
  root = await temporaryFolder('dist-attacks-')
  const put = async (path: string, data: string) => {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), data)
  }
  await put('en/index.html', '<title>English home</title>')
  await put('en/newsletter/index.html', '<title>Newsletter</title>')
  await put('en/café/index.html', '<title>Café</title>')
  await put('en/404/index.html', '<title>English 404</title>')
  await put('de/404/index.html', '<title>Deutsche 404</title>')
  await put('404.html', '<title>English 404</title>')
})

afterAll(async () => {
  await removeFolder(root)
})

/** A CSP report of the legacy format (`report-uri`), as a browser sends it. */
const VIOLATION = {
  'document-uri': 'http://localhost/en/about/',
  'effective-directive': 'script-src-elem',
  'blocked-uri': 'https://evil.example/steal.js',
  disposition: 'enforce',
}

/** The service's and the pages' headers that every answer must carry. */
function expectPolicyHeaders(answer: RawAnswer, what: string) {
  expect(answer.headers['content-security-policy'], what).toBeTruthy()
  expect(answer.headers['x-content-type-options'], what).toBe('nosniff')
  expect(answer.headers['x-frame-options'], what).toBe('DENY')
  expect(answer.headers['referrer-policy'], what).toBeTruthy()
}

describe('the site, attacked', () => {
  let service: TestService
  let port: number
  const get = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
    sendRaw(port, rawRequest(method, target, headers))

  beforeAll(async () => {
    service = await startService({}, { root })
    await service.app.register(healthRoutes, { checks: [] })
    await service.app.listen({ port: 0, host: '127.0.0.1' })
    const address = service.app.server.address()
    port = typeof address === 'object' && address ? address.port : 0
  }, 30_000)
  afterAll(async () => {
    await service.close()
  })

  it('never redirects to another host: encoded slashes, backslashes, dot segments and // are 404', async () => {
    for (const target of [
      '/%2Fevil.example/..%2Fen',
      '/%2Fevil.example/..%2Fen/',
      '/%5Cevil.example/..%2Fen/newsletter',
      '/%5C%5Cevil.example/en',
      '/%E2%82%AC/..%2Fen',
      '/%0d%0aSet-Cookie:%20x=1/..%2Fen',
      '//anything/en/',
      '//evil.example/en',
      '/en//newsletter',
      '/en/%2E%2E/en',
      '/./en',
      '/en/.',
    ]) {
      const answer = await get(target)
      expect(answer.status, target).toBe(404)
      expect(answer.headers.location, target).toBeUndefined()
      expect(answer.headers['set-cookie'], target).toBeUndefined()
      expect(answer.body, target).toContain('English 404')
      expectPolicyHeaders(answer, target)
    }
  })

  it('has one address per page: an encoded slash is no slash, and no address (404)', async () => {
    for (const target of [
      '/en%2f',
      '/en%2F',
      '/en%2Fnewsletter/',
      '/%2Fen/',
      '/en/newsletter%2F',
    ]) {
      const answer = await get(target)
      expect(answer.status, target).toBe(404)
      expect(answer.headers.location, target).toBeUndefined()
      expect(answer.body, target).toContain('English 404')
      expectPolicyHeaders(answer, target)
    }
    // Other escapes name the same characters as the site writes them: the same page.
    expect((await get('/%65n/')).status).toBe(200)
  })

  it('takes absolute-form targets as HTTP/1.1 servers must, by the host they name (RFC 9112, 3.2.2)', async () => {
    for (const target of [
      'http://localhost/en/',
      'HTTP://LOCALHOST:8080/en/?a=1',
      'https://x/en/',
    ]) {
      const answer = await get(target)
      expect(answer.status, target).toBe(200)
      expect(answer.body, target).toContain('English home')
      expectPolicyHeaders(answer, target)
    }
    const redirect = await get('http://localhost/en/newsletter?ref=mail')
    expect(redirect.status).toBe(301)
    expect(redirect.headers.location).toBe('/en/newsletter/?ref=mail')
    // The same rules as for a path alone: no redirect to another host, nothing guessed at.
    const smuggled = await get('http://localhost/%2Fevil.example/..%2Fen')
    expect(smuggled.status).toBe(404)
    expect(smuggled.headers.location).toBeUndefined()
    // The host named in the target is the request's host, whatever the Host header says.
    const signUpForm = 'email=ada%40example.com&topics=services&consent=yes&version=v1&language=en'
    const fromHost = await sendRaw(
      port,
      rawRequest(
        'POST',
        'http://bank.example:8080/api/forms/newsletter',
        {
          host: 'other.example',
          origin: 'http://bank.example:8080',
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(signUpForm.length),
        },
        signUpForm,
      ),
    )
    expect(fromHost.status).toBe(303)
    // What is no absolute URI of HTTP is no target.
    for (const target of [
      'ftp://localhost/en/',
      'http:///en/',
      'http://user@localhost/en/',
      'http://local host/en/',
      'localhost/en/',
    ]) {
      const answer = await get(target)
      expect(answer.status, target).toBe(400)
      expectPolicyHeaders(answer, target)
    }
  })

  it('answers a request with no Host, two, or one that names no host with 400 and the headers (RFC 9112, 3.2)', async () => {
    const bad = [
      'GET /en/ HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n',
      'GET /en/ HTTP/1.1\r\nHost: localhost\r\nhost: localhost\r\n\r\n',
      'GET http://localhost/en/ HTTP/1.1\r\nHost: a\r\nHOST: b\r\n\r\n',
      'GET /en/ HTTP/1.1\r\nConnection: close\r\n\r\n',
      'GET /en/ HTTP/1.1\r\nHost: evil.example/en\r\n\r\n',
      'GET /en/ HTTP/1.1\r\nHost: user@evil.example\r\n\r\n',
      'GET /en/ HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n',
    ]
    for (const request of bad) {
      const answer = await sendRaw(port, request)
      expect(answer.status, request).toBe(400)
      expect(answer.headers.connection, request).toBe('close')
      expectPolicyHeaders(answer, request)
    }
    for (const request of [
      'GET /en/ HTTP/1.1\r\nHost: localhost:8080\r\nConnection: close\r\n\r\n',
      'GET /en/ HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n',
      'GET /en/ HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n',
      'GET /en/ HTTP/1.0\r\n\r\n',
    ]) {
      expect((await sendRaw(port, request)).status, request).toBe(200)
    }
  })

  it('answers an expectation it cannot meet with 417 and the headers', async () => {
    const answer = await sendRaw(
      port,
      rawRequest('POST', '/api/consent', { expect: 'something', 'content-length': '0' }),
    )
    expect(answer.status).toBe(417)
    expectPolicyHeaders(answer, '417')
  })

  it('answers a body it refuses unread with no 100 Continue first: 413 for one declared too large, 405, 403', async () => {
    for (const [request, status] of [
      [
        rawRequest('POST', '/api/forms/newsletter', {
          expect: '100-continue',
          'content-type': 'application/json',
          'content-length': '10000000',
        }),
        413,
      ],
      [rawRequest('POST', '/en/', { expect: '100-continue', 'content-length': '10' }), 405],
      [
        rawRequest('POST', '/api/consent', {
          expect: '100-continue',
          origin: 'https://evil.example',
          'content-type': 'application/json',
          'content-length': '10',
        }),
        403,
      ],
    ] as const) {
      const answer = await sendRaw(port, request)
      expect(answer.status, request).toBe(status)
      expect(answer.text, request).not.toContain('100 Continue')
      expectPolicyHeaders(answer, String(status))
    }
    // A body the route takes is asked for, and answered.
    const body = '{"choices":{}}'
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1')
    })
    const closed = new Promise((done) => socket.on('close', done))
    socket.write(
      rawRequest('POST', '/api/consent', {
        expect: '100-continue',
        'content-type': 'application/json',
        'content-length': String(body.length),
      }),
    )
    for (let wait = 0; wait < 40 && !received; wait++) await new Promise((r) => setTimeout(r, 50))
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/)
    socket.end(body)
    await closed
    expect(received).toMatch(/\r\n\r\nHTTP\/1\.1 [2-4]\d\d /)
  })

  it('answers a request line of another version than HTTP/1.0 and 1.1 with 505 and the headers', async () => {
    for (const version of ['HTTP/2.0', 'HTTP/0.9', 'HTTP/1.2', 'HTTP/3.0']) {
      const answer = await sendRaw(port, `GET /en/ ${version}\r\nHost: localhost\r\n\r\n`)
      expect(answer.status, version).toBe(505)
      expectPolicyHeaders(answer, version)
    }
  })

  it('redirects a folder to its slash on this site, encoding what it repeats', async () => {
    expect((await get('/en')).headers.location).toBe('/en/')
    expect((await get('/en/newsletter?ref=mail')).headers.location).toBe('/en/newsletter/?ref=mail')
    const cafe = await get('/en/caf%C3%A9')
    expect(cafe.status).toBe(301)
    expect(cafe.headers.location).toBe('/en/caf%C3%A9/')
    expectPolicyHeaders(cafe, 'café')
    expect((await get('/en/caf%C3%A9/')).body).toContain('Café')
  })

  it('answers methods other than GET and HEAD on pages with 405 and Allow, with the headers', async () => {
    for (const method of ['PUT', 'DELETE', 'POST', 'PATCH', 'OPTIONS']) {
      const answer = await get('/en/', { 'content-length': '0' }, method)
      expect(answer.status, method).toBe(405)
      expect(answer.headers.allow, method).toBe('GET, HEAD')
      expectPolicyHeaders(answer, method)
    }
    const api = await get('/api/nothing', { 'content-length': '0' }, 'PUT')
    expect(api.status).toBe(404)
    expect(api.headers['content-security-policy']).toContain("default-src 'none'")
  })

  it('answers other methods on the service’s routes with 405 and the methods they take', async () => {
    const routes: [string, string, string[]][] = [
      ['/api/forms/newsletter', 'POST', ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']],
      ['/api/forms/nothing', 'POST', ['GET', 'PUT']],
      ['/api/subscriptions/confirm?token=x', 'GET, HEAD, POST', ['PUT', 'DELETE', 'OPTIONS']],
      ['/api/subscriptions/unsubscribe?token=x', 'GET, HEAD, POST', ['PATCH', 'DELETE']],
      ['/api/consent', 'POST', ['GET', 'HEAD', 'PUT', 'OPTIONS']],
      ['/api/csp-report', 'POST', ['GET', 'DELETE']],
      ['/healthz', 'GET, HEAD', ['POST', 'PUT', 'OPTIONS']],
      ['/readyz', 'GET, HEAD', ['POST', 'DELETE']],
    ]
    for (const [target, allow, methods] of routes) {
      for (const method of methods) {
        const answer = await get(target, { 'content-length': '0' }, method)
        expect(answer.status, `${method} ${target}`).toBe(405)
        expect(answer.headers.allow, `${method} ${target}`).toBe(allow)
        expect(answer.headers['referrer-policy'], `${method} ${target}`).toBe('no-referrer')
        expectPolicyHeaders(answer, `${method} ${target}`)
      }
    }
    // The service alone (no site) says the same.
    const alone = await createApp({ logLevel: 'silent' })
    const answer = await alone.inject({ method: 'GET', url: '/api/csp-report' })
    expect(answer.statusCode).toBe(405)
    expect(answer.headers.allow).toBe('POST')
    expect((await alone.inject({ method: 'GET', url: '/api/nothing' })).statusCode).toBe(404)
    await alone.close()
  })

  it('gives the headers to the answers Fastify and Node write, and echoes no address', async () => {
    for (const target of ['/%zz', '/api/forms/%E0%A4%A', '/en/%ff%fe']) {
      const answer = await get(target)
      expect(answer.status, target).toBeGreaterThanOrEqual(400)
      expect(answer.status, target).toBeLessThan(500)
      expect(answer.body, target).not.toContain(target.slice(1))
      expectPolicyHeaders(answer, target)
    }
    const large = await get('/en/', { 'x-large': 'a'.repeat(40_000) })
    expect(large.status).toBe(431)
    expectPolicyHeaders(large, '431')
    const framing = await sendRaw(
      port,
      'POST /api/consent HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    )
    expect(framing.status).toBe(400)
    expectPolicyHeaders(framing, 'framing')
    const garbage = await sendRaw(port, 'HELLO\r\n\r\n')
    expect(garbage.status).toBe(400)
    expectPolicyHeaders(garbage, 'garbage')
  })

  it('answers a client too slow to send its request with 408 and the headers', async () => {
    const accepted = new Promise<import('node:net').Socket>((done) =>
      service.app.server.once('connection', done),
    )
    const client = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    client.on('data', (chunk: Buffer) => chunks.push(chunk))
    const closed = new Promise((done) => client.on('close', done))
    const socket = await accepted
    // Part of a request's head, then nothing (slow-clients.test.ts waits for the real timeout).
    client.write('GET /en/ HTTP/1.1\r\nHo')
    while (socket.bytesRead === 0) await new Promise((done) => setTimeout(done, 5))
    // What Node reports when requestTimeout passes (it checks every 30 s, too slow to wait for).
    const timeout = Object.assign(new Error('Request timeout'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    })
    service.app.server.emit('clientError', timeout, socket)
    await closed
    const text = Buffer.concat(chunks).toString('latin1')
    expect(text).toMatch(/^HTTP\/1\.1 408 /)
    expect(text.toLowerCase()).toContain('content-security-policy:')
    expect(text.toLowerCase()).toContain('x-frame-options: deny')
  })

  it('answers 304 without a length, and matches lists of tags and * as nginx does', async () => {
    const first = await get('/en/')
    const etag = first.headers.etag ?? ''
    expect(etag).toMatch(/^W\/"/)
    const same = await get('/en/', { 'if-none-match': etag })
    expect(same.status).toBe(304)
    expect(same.headers['content-length']).toBeUndefined()
    expect((await get('/en/', { 'if-none-match': `"other", ${etag}` })).status).toBe(304)
    expect((await get('/en/', { 'if-none-match': etag.slice(2) })).status).toBe(304)
    expect((await get('/en/', { 'if-none-match': '*' })).status).toBe(304)
    expect((await get('/en/', { 'if-none-match': '"other", "else"' })).status).toBe(200)
  })
})

describe.each(databases())('the forms service, attacked, on $name', (database) => {
  let service: TestService
  let clock = Date.parse('2026-11-25T10:00:00Z')
  const logs: string[] = []

  beforeAll(async () => {
    service = await startService(database, {
      now: () => new Date(clock),
      rateLimit: 10,
      logs,
      mailsPerHour: 8,
    })
  }, 30_000)
  afterAll(async () => {
    await service.close()
  })
  beforeEach(async () => {
    clock = Date.parse('2026-11-25T10:00:00Z')
    logs.length = 0
    await service.reset()
  })

  const pathOf = (link: string) => link.replace(SITE_URL, '')
  let posted = 0
  const post = (payload: unknown, headers: Record<string, string> = {}, form = 'newsletter') =>
    service.app.inject({
      method: 'POST',
      url: `/api/forms/${form}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(payload),
      // Each sign-up from a network of its own: the limits per mailbox are what is tried here.
      remoteAddress: `10.${Math.floor(posted / 250) % 250}.${posted++ % 250}.1`,
    })
  const snapshot = async () => ({
    subscribers: await service.query('SELECT * FROM subscribers ORDER BY id'),
    tokens: await service.query('SELECT * FROM subscriber_tokens ORDER BY hash'),
    events: await service.query('SELECT * FROM subscription_events ORDER BY id'),
  })
  const settle = () => new Promise((done) => setTimeout(done, 300))

  it('changes nothing when the unsubscribe link is opened (GET or HEAD): the confirmation still works', async () => {
    await post(signUp('ada@example.com'))
    const [mail] = await service.inbox.waitFor(1)
    const before = await snapshot()
    const unsubscribe = pathOf(linkIn(mail, '/unsubscribe'))
    for (const method of ['GET', 'HEAD'] as const) {
      const answer = await service.app.inject({ method, url: unsubscribe })
      expect(answer.statusCode, method).toBe(200)
      // The page's address holds its token: its button sends the origin only, never the address.
      expect(answer.headers['referrer-policy']).toBe('strict-origin')
    }
    expect(await snapshot()).toEqual(before)
    const confirm = pathOf(linkIn(mail, '/confirm'))
    const confirmed = await service.app.inject({
      method: 'POST',
      url: confirm,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        // What a browser sends from the page: where it comes from, whatever its Origin says.
        origin: 'null',
        'sec-fetch-site': 'same-origin',
      },
      payload: '',
    })
    expect(confirmed.headers.location).toBe('/en/newsletter-confirmed/')
    // The confirmation's answer keeps its token out of the next page's referrer.
    expect(confirmed.headers['referrer-policy']).toBe('no-referrer')
  })

  it('sends one mailbox three confirmation mails an hour however its address is spelt', async () => {
    for (let n = 1; n <= 10; n++) {
      const answer = await post(signUp(`victim+${n}@example.com`))
      expect(answer.statusCode).toBe(200)
      expect(answer.json()).toEqual({ ok: true, redirect: '/en/newsletter-success/' })
    }
    for (const spelling of [
      'v.i.c.tim@gmail.com',
      'vic.tim+a@googlemail.com',
      'VICTIM@gmail.com',
    ]) {
      await post(signUp(spelling))
    }
    await post(signUp('victi.m+x@gmail.com'))
    await post(signUp('victim+y@gmail.com'))
    await service.inbox.waitFor(6)
    await settle()
    const byRecipient = service.inbox.countByRecipient()
    const toExample = [...byRecipient].filter(([to]) => to.endsWith('@example.com'))
    const toGmail = [...byRecipient].filter(([to]) => /@(gmail|googlemail)\.com$/.test(to))
    expect(toExample.reduce((sum, [, count]) => sum + count, 0)).toBe(3)
    expect(toGmail.reduce((sum, [, count]) => sum + count, 0)).toBe(3)
    expect(logs.join('')).toContain('sign-up for a mailbox that had its mails; none sent')
    // An hour later three more; six in a day at most.
    for (const hours of [1, 2]) {
      clock += hours === 1 ? 61 * 60_000 : 60 * 60_000
      for (let n = 11; n <= 14; n++) await post(signUp(`victim+${n}x${hours}@example.com`))
    }
    await service.inbox.waitFor(9)
    await settle()
    const total = [...service.inbox.countByRecipient()]
      .filter(([to]) => to.endsWith('@example.com'))
      .reduce((sum, [, count]) => sum + count, 0)
    expect(total).toBe(6)
  })

  it('spends none of a mailbox’s allowance on sign-ups that mail nothing', async () => {
    expect((await post(signUp('victim@example.com'))).statusCode).toBe(200)
    const [first] = await service.inbox.waitFor(1)
    // Repeats within the cooling period mail nothing, and so spend nothing.
    for (let n = 0; n < 6; n++)
      expect((await post(signUp('victim@example.com'))).statusCode).toBe(200)
    await service.app.inject({ method: 'POST', url: pathOf(linkIn(first, '/confirm')) })
    // Nor do sign-ups of a confirmed address, an hour later.
    clock += 61 * 60_000
    for (let n = 0; n < 6; n++)
      expect((await post(signUp('victim@example.com'))).statusCode).toBe(200)
    await settle()
    expect(service.inbox.mails).toHaveLength(1)
    // The owner still has the mailbox's three mails of this hour.
    const { topics: _, ...noTopics } = signUp('victim@example.com')
    expect((await post(noTopics, {}, 'productupdates')).statusCode).toBe(200)
    await post(signUp('victim+shop@example.com'))
    await post(signUp('victim-news@example.com'))
    await service.inbox.waitFor(4)
    await settle()
    expect(service.inbox.mails).toHaveLength(4)
    // And no more: a fourth mail this hour is still refused.
    await post(signUp('victim+4@example.com'))
    await settle()
    expect(service.inbox.mails).toHaveLength(4)
  })

  it('counts one sign-up of a mailbox when many of one address race, and mails once', async () => {
    // The store itself, as many processes at once would call it: on PostgreSQL every statement
    // of a round starts before the first commits.
    const store = new FormsStore(service.database, { now: () => new Date(clock), mailsPerHour: 0 })
    for (const racer of ['racer', 'runner', 'sprinter']) {
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, () =>
          store.signUp({
            list: 'newsletter',
            email: `${racer}@example.com`,
            language: 'en',
            topics: ['services'],
            consentVersion: 'v1',
            consentText: 'Yes, please.',
          }),
        ),
      )
      expect(outcomes.filter((outcome) => outcome.outcome === 'queued')).toHaveLength(1)
      const [quota] = await service.query<{ hour_count: number; day_count: number }>(
        'SELECT hour_count, day_count FROM mailbox_quota WHERE mailbox = $1',
        [`${racer}@example.com`],
      )
      expect(quota, racer).toEqual({ hour_count: 1, day_count: 1 })
    }
    // The mailbox's two other mails of the hour are still there.
    await post(signUp('racer+1@example.com'))
    await post(signUp('racer+2@example.com'))
    await service.inbox.waitFor(5)
    await settle()
    const toRacer = service.inbox.mails.filter((mail) => mail.to?.[0]?.address?.startsWith('racer'))
    expect(toRacer).toHaveLength(3)
  })

  it('counts sub-addresses with a hyphen, Proton’s and Fastmail’s spellings as one mailbox, and refuses % routing', async () => {
    const spellings = {
      'example.com': [
        'victim-1@example.com',
        'victim-2@example.com',
        'victim+3@example.com',
        'victim-4+x@example.com',
        'victim@example.com',
      ],
      proton: [
        'first.last@proton.me',
        'first-last@pm.me',
        'firstlast+a@protonmail.com',
        'first_last@protonmail.ch',
        'f.i.r.s.t.l.a.s.t@proton.me',
      ],
      fastmail: [
        'shop@victim.fastmail.com',
        'bank@victim.fastmail.com',
        'victim+news@fastmail.com',
        'victim@fastmail.com',
        'any@thing.victim.fastmail.com',
      ],
    }
    for (const group of Object.values(spellings)) {
      for (const email of group) expect((await post(signUp(email))).statusCode, email).toBe(200)
      // An hour apart: the service's cap here (8 an hour) is not what is tried.
      clock += 61 * 60_000
    }
    await service.inbox.waitFor(9)
    await settle()
    const mailed = (group: string[]) =>
      group.reduce((sum, to) => sum + (service.inbox.countByRecipient().get(to) ?? 0), 0)
    expect(mailed(spellings['example.com'])).toBe(3)
    expect(mailed(spellings.proton)).toBe(3)
    expect(mailed(spellings.fastmail)).toBe(3)
    expect(service.inbox.mails).toHaveLength(9)
    for (const email of [
      'victim%example.com@relay.example',
      'victim%40example.com@relay.example',
    ]) {
      const routed = await post(signUp(email))
      expect(routed.statusCode, email).toBe(422)
      expect(routed.json().errors).toEqual([{ field: 'email', code: 'email' }])
    }
  })

  it('stops confirmation mails at the service’s hourly cap, says so once in the log, stores nothing more', async () => {
    for (let n = 1; n <= 8; n++)
      expect((await post(signUp(`person${n}@example.com`))).statusCode).toBe(200)
    await service.inbox.waitFor(8)
    const before = await snapshot()
    const refused = await post(signUp('person9@example.com'))
    expect(refused.statusCode).toBe(503)
    expect(refused.headers['retry-after']).toBe('600')
    expect(refused.json()).toEqual({ ok: false, reason: 'unavailable' })
    const page = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=person10%40example.com&topics=services&consent=yes&version=v1&language=de',
    })
    expect(page.statusCode).toBe(503)
    expect(page.body).toContain('<html lang="de">')
    expect(await snapshot()).toEqual(before)
    const capLines = logs.filter((line) => line.includes('confirmation mail cap reached'))
    expect(capLines).toHaveLength(1)
    expect(capLines[0]).toContain('"level":40')
    clock += 61 * 60_000
    expect((await post(signUp('person11@example.com'))).statusCode).toBe(200)
  })

  it('refuses forms posted from another site, and takes them from its own pages', async () => {
    const before = await snapshot()
    const hostile: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://partner.lumora-bank.example' },
      { 'sec-fetch-site': 'cross-site', origin: SITE_URL },
    ]
    for (const headers of hostile) {
      const json = await post(signUp('ada@example.com'), headers)
      expect(json.statusCode, JSON.stringify(headers)).toBe(403)
      expect(json.json()).toEqual({ ok: false, reason: 'crossSite' })
      const form = await service.app.inject({
        method: 'POST',
        url: '/api/forms/newsletter',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'accept-language': 'de-DE,de;q=0.9,en;q=0.5',
          ...headers,
        },
        payload: 'email=ada%40example.com&topics=services&consent=yes&version=v1&language=de',
      })
      expect(form.statusCode).toBe(403)
      expect(form.body).toContain('Dieses Formular kann nur auf unserer Website gesendet werden')
      for (const url of [
        '/api/consent',
        '/api/subscriptions/confirm?token=x',
        '/api/subscriptions/unsubscribe?token=x',
      ]) {
        const other = await service.app.inject({ method: 'POST', url, headers, payload: '' })
        expect(other.statusCode, url).toBe(403)
      }
    }
    await settle()
    expect(await snapshot()).toEqual(before)
    expect(service.inbox.mails).toHaveLength(0)
    // From the site's own page, with and without script, by SITE_URL or the host it was sent to.
    const own = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: SITE_URL,
        'sec-fetch-site': 'same-origin',
      },
      payload: 'email=ada%40example.com&topics=services&consent=yes&version=v1&language=en',
    })
    expect(own.statusCode).toBe(303)
    expect(own.headers.location).toBe('/en/newsletter-success/')
    const byHost = await post(signUp('bea@example.com'), {
      host: 'localhost:8080',
      origin: 'http://localhost:8080',
      'sec-fetch-site': 'same-origin',
    })
    expect(byHost.statusCode).toBe(200)
    await service.inbox.waitFor(2)
  })

  it('logs the form’s own field names only, and unknown ones as a count', async () => {
    const urlencodedJson = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '{"email":"victim.pii@example.org"}',
    })
    expect(urlencodedJson.statusCode).toBe(422)
    const longName = await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${'n'.repeat(60_000)}=1&email=x`,
    })
    expect(longName.statusCode).toBe(422)
    const text = logs.join('')
    expect(text).toContain('form rejected')
    expect(text).toContain('"unknownFields":1')
    expect(text).not.toContain('victim.pii')
    expect(Math.max(...logs.map((line) => line.length))).toBeLessThan(1000)
  })

  it('holds every route to its body limit for every content type, multipart too (413)', async () => {
    const boundary = 'attack'
    const multipart = (size: number) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="f"\r\n\r\n${'x'.repeat(size)}\r\n--${boundary}--\r\n`
    for (const [url, limit] of [
      ['/api/forms/newsletter', 64 * 1024],
      ['/api/subscriptions/confirm?token=x', 4096],
      ['/api/subscriptions/unsubscribe?token=x', 4096],
      ['/api/consent', 2048],
    ] as const) {
      for (const type of [
        `multipart/form-data; boundary=${boundary}`,
        'application/json',
        'application/x-www-form-urlencoded',
      ]) {
        const answer = await service.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': type },
          payload: multipart(limit + 10),
        })
        expect(answer.statusCode, `${url} ${type}`).toBe(413)
      }
    }
  })

  it('refuses a text answer with half a surrogate pair as invalid (422), as it does a NUL', async () => {
    for (const comment of ['"a\\ud800b"', '"\\udfff"', '"a\\udc00\\ud800"']) {
      const answer = await service.app.inject({
        method: 'POST',
        url: '/api/forms/survey',
        headers: { 'content-type': 'application/json' },
        payload: `{"answers.role":"partner","answers.satisfaction":"3","version":"3","language":"en","answers.comment":${comment}}`,
      })
      expect(answer.statusCode, comment).toBe(422)
      expect(answer.json()).toEqual({
        ok: false,
        errors: [{ field: 'answers.comment', code: 'invalid' }],
      })
    }
    // A whole pair is a character like any other.
    const emoji = await post(
      {
        'answers.role': 'partner',
        'answers.satisfaction': '3',
        version: '3',
        language: 'en',
        'answers.comment': 'ok 👍',
      },
      {},
      'survey',
    )
    expect(emoji.statusCode).toBe(200)
    expect(logs.join('')).not.toContain('"level":50')
  })

  it('refuses C1 control characters in a text answer (422), and so keeps them out of the export', async () => {
    for (const character of ['\u0080', '\u0085', '\u009b', '\u009f']) {
      const answer = await post(
        {
          'answers.role': 'partner',
          'answers.satisfaction': '3',
          version: '3',
          language: 'en',
          'answers.comment': `before${character}after`,
        },
        {},
        'survey',
      )
      expect(answer.statusCode, `U+${character.codePointAt(0)?.toString(16)}`).toBe(422)
      expect(answer.json()).toEqual({
        ok: false,
        errors: [{ field: 'answers.comment', code: 'invalid' }],
      })
    }
    expect(await service.query('SELECT * FROM survey_responses')).toEqual([])
    // The first printable characters past them are text like any other.
    const printable = await post(
      {
        'answers.role': 'partner',
        'answers.satisfaction': '3',
        version: '3',
        language: 'en',
        'answers.comment': 'a\u00a0b \u00e9',
      },
      {},
      'survey',
    )
    expect(printable.statusCode).toBe(200)
  })

  it('stores each chosen topic and answer once, and refuses more choices than offered (422)', async () => {
    const flood = await post(signUp('ada@example.com', { topics: Array(3000).fill('services') }))
    expect(flood.statusCode).toBe(422)
    expect(flood.json().errors).toEqual([{ field: 'topics', code: 'choice' }])
    const survey = {
      'answers.role': 'partner',
      'answers.satisfaction': '3',
      version: '3',
      language: 'en',
    }
    const answers = await post(
      { ...survey, 'answers.services': Array(5000).fill('cards') },
      {},
      'survey',
    )
    expect(answers.statusCode).toBe(422)
    expect(answers.json().errors).toEqual([{ field: 'answers.services', code: 'choice' }])
    expect(await service.query('SELECT * FROM survey_responses')).toEqual([])
    expect(await service.query('SELECT * FROM subscribers')).toEqual([])
    // Twice the same value, as a hand-made request may send it: kept once.
    const twice = await post(signUp('ada@example.com', { topics: ['services', 'services'] }))
    expect(twice.statusCode).toBe(200)
    const repeated = await post(
      { ...survey, 'answers.services': ['loans', 'loans', 'cards'] },
      {},
      'survey',
    )
    expect(repeated.statusCode).toBe(200)
    const [subscriber] = await service.query<{ topics: string[] }>('SELECT topics FROM subscribers')
    expect(subscriber?.topics).toEqual(['services'])
    const [proof] = await service.query<{ topics: string[] }>(
      'SELECT topics FROM subscription_events',
    )
    expect(proof?.topics).toEqual(['services'])
    const [response] = await service.query<{ answers: Record<string, unknown> }>(
      'SELECT answers FROM survey_responses',
    )
    expect(response?.answers.services).toEqual(['loans', 'cards'])
  })

  it('counts a text answer in characters, so twenty emoji fit an answer of twenty', async () => {
    const survey = (comment: string) => ({
      'answers.role': 'partner',
      'answers.satisfaction': '3',
      'answers.comment': comment,
      version: '3',
      language: 'en',
    })
    expect((await post(survey('👍'.repeat(20)), {}, 'survey')).statusCode).toBe(200)
    const [response] = await service.query<{ answers: Record<string, unknown> }>(
      'SELECT answers FROM survey_responses',
    )
    expect(response?.answers.comment).toBe('👍'.repeat(20))
    const long = await post(survey('👍'.repeat(21)), {}, 'survey')
    expect(long.statusCode).toBe(422)
    expect(long.json().errors).toEqual([{ field: 'answers.comment', code: 'tooLong' }])
  })

  it('refuses addresses at reserved domains and broken international names, in the visitor’s language', async () => {
    const reserved = [
      'x@printer.local',
      'x@mail.invalid',
      'x@site.test',
      'x@host.example',
      'x@app.localhost',
      'x@hiddenservice.onion',
      'x@router.home.arpa',
      'x@corp.internal',
    ]
    for (const email of reserved) {
      const answer = await post(signUp(email))
      expect(answer.statusCode, email).toBe(422)
      expect(answer.json().errors, email).toEqual([{ field: 'email', code: 'emailDomain' }])
    }
    const broken = await post(signUp('x@xn--a.org'))
    expect(broken.statusCode).toBe(422)
    expect(broken.json().errors).toEqual([{ field: 'email', code: 'email' }])
    // Without script: a page naming the field and what to do, in the form's language.
    const page = (email: string, language: string) =>
      service.app.inject({
        method: 'POST',
        url: '/api/forms/newsletter',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        payload: new URLSearchParams({
          email,
          topics: 'services',
          consent: 'yes',
          version: 'v1',
          language,
        }).toString(),
        remoteAddress: `10.200.${posted++ % 250}.1`,
      })
    const english = await page('x@printer.local', 'en')
    expect(english.statusCode).toBe(422)
    expect(english.body).toContain(
      '<strong>E-mail address:</strong> We cannot send e-mails to this domain',
    )
    const german = await page('x@printer.local', 'de')
    expect(german.body).toContain(
      '<strong>E-Mail-Adresse:</strong> An diese Domain können wir keine E-Mails senden',
    )
    await settle()
    expect(service.inbox.mails).toHaveLength(0)
    expect(await service.query('SELECT * FROM subscribers')).toEqual([])
  })

  it('takes no address literal for a domain', async () => {
    for (const email of ['ip@127.0.0.10', 'ip@[127.0.0.1]', 'ip@0x7f.1', 'ip@example.123']) {
      const answer = await post(signUp(email))
      expect(answer.statusCode, email).toBe(422)
      expect(answer.json().errors).toEqual([{ field: 'email', code: 'email' }])
    }
  })
})

describe.each(databases())(
  'the forms service, attacked from many addresses, on $name',
  (database) => {
    let service: TestService
    let port: number
    let ipv6: Server
    let ipv6Port: number
    const logs: string[] = []

    beforeAll(async () => {
      service = await startService(database, {
        rateLimit: 10,
        logs,
        mailsPerHour: 100,
        // Behind a proxy the client is the address it forwards; without the header, the socket's.
        trustProxy: true,
      })
      await service.app.listen({ port: 0, host: '127.0.0.1' })
      const address = service.app.server.address()
      port = typeof address === 'object' && address ? address.port : 0
      // The same server on ::1 (the one IPv6 address loopback has): each connection is handed
      // to it as it is, its peer ::1.
      ipv6 = createServer((socket) => service.app.server.emit('connection', socket))
      await new Promise<void>((done) => ipv6.listen(0, '::1', done))
      const ipv6Address = ipv6.address()
      ipv6Port = typeof ipv6Address === 'object' && ipv6Address ? ipv6Address.port : 0
    }, 30_000)
    afterAll(async () => {
      await new Promise((done) => ipv6.close(done))
      await service.close()
    })
    beforeEach(async () => {
      logs.length = 0
      await service.reset()
    })

    /**
     * A form posted over TCP from `from`: an address of 127.0.0.0/8 (Linux answers on all of
     * it), or ::1, optionally naming the client a proxy forwards for.
     */
    const postFrom = (
      from: { localAddress: string; forwardedFor?: string },
      path: string,
      payload: unknown,
      type = 'application/json',
    ) => {
      const body = JSON.stringify(payload)
      const v6 = from.localAddress.includes(':')
      return sendRaw(
        {
          port: v6 ? ipv6Port : port,
          host: v6 ? '::1' : '127.0.0.1',
          localAddress: from.localAddress,
        },
        rawRequest(
          'POST',
          path,
          {
            'content-type': type,
            'content-length': String(Buffer.byteLength(body)),
            ...(from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {}),
          },
          body,
        ),
      )
    }
    type From = Parameters<typeof postFrom>[0]
    const answerFrom = (from: From) => postFrom(from, '/api/forms/survey', survey)
    const signUpFrom = (from: From, email: string) =>
      postFrom(from, '/api/forms/newsletter', signUp(email))
    /** A CSP report, as a browser sends it, from `from`. */
    const reportFrom = (from: From, report: Record<string, unknown> = VIOLATION) =>
      postFrom(from, '/api/csp-report', { 'csp-report': report }, 'application/csp-report')
    const survey = {
      'answers.role': 'partner',
      'answers.satisfaction': '3',
      version: '3',
      language: 'en',
    }

    it('holds one network to its share of the hour’s confirmation mails (4 of 100), however many addresses it posts from; every other network is served', async () => {
      // One IPv4 /24, each sign-up a new address from an address of its own: the rate limit
      // per address never applies. Past the 100 of the cap, had one network taken them all.
      const flood: RawAnswer[] = []
      for (let n = 0; n < 120; n++) {
        flood.push(await signUpFrom({ localAddress: `127.0.0.${n + 2}` }, `flood${n}@example.com`))
      }
      expect(flood.map((answer) => answer.status)).toEqual([
        ...Array(4).fill(200),
        ...Array(116).fill(429),
      ])
      const refused = flood.at(-1) as RawAnswer
      expect(JSON.parse(refused.body)).toEqual({ ok: false, reason: 'rateLimited' })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000)
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600)
      // Visitors from ten other networks.
      for (let n = 1; n <= 10; n++) {
        const visitor = await signUpFrom(
          { localAddress: `127.0.${n}.7` },
          `visitor${n}@example.com`,
        )
        expect(visitor.status, `127.0.${n}.7`).toBe(200)
      }
      // An IPv6 client counts in its /64 (the share), its /56 (twice) and its /48 (four
      // times), forwarded by a trusted proxy or not.
      const v6: number[] = []
      for (let host = 1; host <= 6; host++) {
        const from = { localAddress: '::1', forwardedFor: `2001:db8:20:2::${host}` }
        v6.push((await signUpFrom(from, `six${host}@example.com`)).status)
      }
      expect(v6).toEqual([200, 200, 200, 200, 429, 429])
      // Other /64s of the same /56: four more, then the /56 had its 8.
      const sameSlash56: number[] = []
      for (const subnet of [3, 4, 5, 6, 7]) {
        const from = { localAddress: '::1', forwardedFor: `2001:db8:20:${subnet}::1` }
        sameSlash56.push((await signUpFrom(from, `net${subnet}@example.com`)).status)
      }
      expect(sameSlash56).toEqual([200, 200, 200, 200, 429])
      // Another /56 of the same /48 is served; so is the proxy itself.
      const next = { localAddress: '::1', forwardedFor: '2001:db8:20:100::1' }
      expect((await signUpFrom(next, 'next@example.com')).status).toBe(200)
      expect((await signUpFrom({ localAddress: '::1' }, 'proxy@example.com')).status).toBe(200)
      await service.inbox.waitFor(4 + 10 + 4 + 4 + 2)
      const [shares] = await service.query<{ rows: number; plain: number }>(
        `SELECT count(*)::int AS rows, count(*) FILTER (WHERE network ~ '[.:]')::int AS plain
         FROM client_quota`,
      )
      // One row per network and group, none holding an address: IPv4 11; the six /64s that
      // mailed, their two /56s and one /48; the proxy's /64, /56 and /48.
      expect(shares).toEqual({ rows: 11 + (6 + 2 + 1) + 3, plain: 0 })
      expect(logs.join('')).toContain('sign-up from a network that had its share of mails')
      expect(logs.join('')).not.toMatch(/127\.0\.|2001:db8/)
    })

    it('spends none of a mailbox’s allowance on sign-ups a network’s share refuses', async () => {
      const attacker = (n: number) => ({ localAddress: `127.0.0.${n + 2}` })
      for (let n = 0; n < 4; n++) {
        expect((await signUpFrom(attacker(n), `filler${n}@example.com`)).status).toBe(200)
      }
      // The network had its share: its sign-ups of the victim are refused, and cost her nothing.
      for (let n = 4; n < 10; n++) {
        expect((await signUpFrom(attacker(n), `victim+${n}@example.com`)).status).toBe(429)
      }
      for (let n = 1; n <= 3; n++) {
        const own = await signUpFrom({ localAddress: `127.0.${n}.9` }, `victim+own${n}@example.com`)
        expect(own.status).toBe(200)
      }
      await service.inbox.waitFor(7)
      const toVictim = service.inbox.mails.filter((mail) =>
        mail.to?.[0]?.address?.startsWith('victim+own'),
      )
      expect(toVictim).toHaveLength(3)
    })

    it('logs a client that resets its connection mid-request at info level at most', async () => {
      const body = JSON.stringify(signUp('reset@example.com'))
      const head = rawRequest('POST', '/api/forms/newsletter', {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      })
      // Gone halfway through its body, and gone once all of it was sent.
      await sendAndReset({ port, localAddress: '127.0.0.40' }, head + body.slice(0, 20))
      await sendAndReset({ port, localAddress: '127.0.0.41' }, head + body, 0)
      await new Promise((done) => setTimeout(done, 300))
      const levels = logs.map((line) => (JSON.parse(line) as { level: number }).level)
      expect(logs.filter((_, index) => (levels[index] ?? 0) > 30)).toEqual([])
      expect(logs.join('')).not.toContain('database unavailable')
      expect(logs.join('')).toContain('request aborted by the client')
    })

    it('counts an IPv6 client by its /64 in the rate limit, and one /64 apart from the next', async () => {
      const statuses: number[] = []
      for (let host = 1; host <= 11; host++) {
        const forwardedFor = `2001:db8:10:2::${host.toString(16)}`
        statuses.push((await answerFrom({ localAddress: '::1', forwardedFor })).status)
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429])
      const next = await answerFrom({ localAddress: '::1', forwardedFor: '2001:db8:10:3::1' })
      expect(next.status).toBe(200)
      // The proxy's own request (no header) is its own client: ::1's /64.
      expect((await answerFrom({ localAddress: '::1' })).status).toBe(200)
    })

    it('logs a CSP report in one line of a kilobyte at most, whatever its fields hold', async () => {
      /** 2,000 characters or more (what a field is read up to) of `unit`. */
      const long = (unit: string) => unit.repeat(Math.ceil(2000 / unit.length))
      const reports = [
        // The report: a host of 2,000 characters in blocked-uri.
        { ...VIOLATION, 'blocked-uri': `https://${long('a').slice(0, 1980)}.example/x.js` },
        { ...VIOLATION, 'blocked-uri': `${long('x').slice(0, 1980)}://host/` },
        { ...VIOLATION, 'blocked-uri': long('z').slice(0, 1999) },
        { ...VIOLATION, 'document-uri': `https://site.example/${long('\\"é')}` },
        { ...VIOLATION, 'source-file': `foo:${long('\\')}` },
        { ...VIOLATION, 'effective-directive': long('\u0001"') },
        { ...VIOLATION, 'line-number': Number.MAX_SAFE_INTEGER, disposition: long('\u0085') },
        // Every field at its longest at once (a field is cut long before 2,000 characters).
        {
          'document-uri': `https://site.example/${'\\"é'.repeat(300)}`,
          'effective-directive': '\u0001'.repeat(300),
          'blocked-uri': `${long('x').slice(0, 1980)}://host/`,
          'source-file': `foo:${'\\'.repeat(300)}`,
          'line-number': -Number.MAX_SAFE_INTEGER,
          disposition: '\u0085'.repeat(300),
        },
      ]
      for (const report of reports) {
        expect((await reportFrom({ localAddress: '127.0.0.30' }, report)).status).toBe(204)
      }
      const lines = logs.filter((line) => line.includes('content security policy violation'))
      expect(lines).toHaveLength(reports.length)
      for (const line of logs) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(1024)
    })

    it('counts an IPv6 client by its /64 for CSP reports too', async () => {
      const statuses: number[] = []
      for (let host = 1; host <= 21; host++) {
        const forwardedFor = `2001:db8:11:2::${host.toString(16)}`
        statuses.push((await reportFrom({ localAddress: '::1', forwardedFor })).status)
      }
      expect(statuses).toEqual([...Array(20).fill(204), 429])
      const next = await reportFrom({ localAddress: '::1', forwardedFor: '2001:db8:11:3::1' })
      expect(next.status).toBe(204)
    })
  },
)

describe('CSP reports, flooded from many addresses', () => {
  it('keeps room for every client’s first reports when a few dozen addresses send all they may', async () => {
    // An app of its own: its minute of reports starts now.
    const app = await createApp({ logLevel: 'silent' })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const report = (localAddress: string) => {
      const body = JSON.stringify({ 'csp-report': VIOLATION })
      return sendRaw(
        { port, localAddress },
        rawRequest(
          'POST',
          '/api/csp-report',
          {
            'content-type': 'application/csp-report',
            'content-length': String(Buffer.byteLength(body)),
          },
          body,
        ),
      ).then((answer) => answer.status)
    }
    try {
      // 40 addresses, each sending its 20 reports of the minute and one more.
      const flood = await Promise.all(
        Array.from({ length: 40 }, async (_, n) => {
          const statuses: number[] = []
          for (let i = 0; i < 21; i++) statuses.push(await report(`127.0.0.${100 + n}`))
          return statuses
        }),
      )
      const taken = flood.flat().filter((status) => status === 204).length
      // Half the minute's 600 for everyone's further reports, and each one's first two.
      expect(taken).toBeGreaterThanOrEqual(300)
      expect(taken).toBeLessThanOrEqual(300 + 40 * 2)
      for (const statuses of flood) expect(statuses.slice(0, 2)).toEqual([204, 204])
      expect(flood.flat().filter((status) => status !== 204 && status !== 429)).toEqual([])
      // Visitors from elsewhere are heard, each of their first two reports.
      const visitors: number[] = []
      for (let n = 1; n <= 50; n++) {
        visitors.push(await report(`127.0.1.${n}`), await report(`127.0.1.${n}`))
      }
      expect(visitors).toEqual(Array(100).fill(204))
    } finally {
      await app.close()
    }
  })
})
