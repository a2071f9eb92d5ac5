/**
 * Every route of the server, tried with what an attacker sends (fast-check): random methods,
 * paths with encoded separators, dot segments and non-ASCII, forged headers, bodies of every
 * content type and size, the e-mails' real links among them, codings a client accepts or
 * refuses; some requests left unfinished (the client stalls, stops sending, or hangs up
 * part-way). For every answer:
 *
 * - no 5xx;
 * - the policy headers of its kind;
 * - a `Location`, if any, on this site and normalised;
 * - 405 with `Allow` naming the methods a route of the service takes, for any other;
 * - a content coding only if the client accepts it, and its favourite;
 * - nothing in the database changed by a GET or HEAD, or by a request not sent whole;
 * - an unfinished request answered (or not) and its connection closed within the server's
 *   timeouts: no request waits forever;
 * - no log line longer than a kilobyte, none with an address a body carried, none of an error.
 *
 * A fixed seed and a bounded number of runs, so `npm test` is the same every time; a failure
 * prints the seed and the shrunk request (`FC_SEED=… FC_RUNS=…` runs others).
 */
import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { linkIn, SITE_URL, signUp, startService, type TestService } from '../../support/forms'
import { type RawAnswer, sendRaw, sendUnfinished } from '../../support/raw-http'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const SEED = Number(process.env.FC_SEED ?? 20261125)
const RUNS = Number(process.env.FC_RUNS ?? 400)
/** Short timeouts, so that unfinished requests end quickly. */
const TRANSPORT = {
  requestTimeoutMs: 600,
  headersTimeoutMs: 300,
  keepAliveTimeoutMs: 1000,
  idleTimeoutMs: 2000,
  maxConnections: 100,
  maxConnectionsPerClient: 100,
  shutdownTimeoutMs: 1000,
}
/** How long an unfinished request may keep its connection: its timeout, and some. */
const UNFINISHED_LIMIT_MS = TRANSPORT.requestTimeoutMs + 1500

let root: string
let service: TestService
let port: number
const logs: string[] = []
/** Real tokens of the e-mails' links, so that GETs of live links are among the requests. */
const tokens: string[] = []

beforeAll(async () => {
  root = await temporaryFolder('dist-properties-')
  const put = async (path: string, data: string | Buffer) => {
    await mkdir(join(root, path, '..'), { recursive: true })
    await writeFile(join(root, path), data)
  }
  await put('en/index.html', '<title>English home</title>')
  await put('de/index.html', '<title>Deutsche Startseite</title>')
  // Large enough to be compressed: the script with the build's gzip twin, the page without.
  await put('en/newsletter/index.html', `<title>Newsletter</title>${'n'.repeat(3000)}`)
  await put('en/café/index.html', '<title>Café</title>')
  await put('en/404/index.html', '<title>English 404</title>')
  await put('de/404/index.html', '<title>Deutsche 404</title>')
  await put('404.html', '<title>English 404</title>')
  await put('assets/entry-abc.js', `console.log(1)${' '.repeat(3000)}`)
  await put('assets/entry-abc.js.gz', gzipSync(`console.log(1)${' '.repeat(3000)}`))
  await put('page-data/en/page-data.json', '{}')
  await put('search/en/index.json', '{}')
  await put('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>')
  await put('sw.js', 'self')
  await put('_headers', '/*\n  X: y\n')
  service = await startService({}, { root, logs, rateLimit: 0, transport: TRANSPORT })
  await service.app.listen({ port: 0, host: '127.0.0.1' })
  const address = service.app.server.address()
  port = typeof address === 'object' && address ? address.port : 0
  // A pending and a confirmed subscriber, whose links the requests may follow.
  for (const email of ['pending@example.com', 'confirmed@example.com']) {
    await service.app.inject({
      method: 'POST',
      url: '/api/forms/newsletter',
      payload: signUp(email),
    })
  }
  const mails = await service.inbox.waitFor(2)
  const confirmed = mails.find((mail) => mail.to?.[0]?.address === 'confirmed@example.com')
  const confirm = new URL(linkIn(confirmed, '/confirm'))
  await service.app.inject({
    method: 'POST',
    url: `${confirm.pathname}${confirm.search}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  })
  for (const mail of mails) {
    for (const kind of ['/confirm', '/unsubscribe']) {
      tokens.push(new URL(linkIn(mail, kind)).searchParams.get('token') ?? '')
    }
  }
}, 60_000)

afterAll(async () => {
  await service?.close()
  await removeFolder(root)
})

/** What the database holds, as one hash: equal before and after means nothing changed. */
async function fingerprint(): Promise<string> {
  const hash = createHash('sha256')
  for (const table of [
    'subscribers',
    'subscriber_tokens',
    'subscription_events',
    'survey_responses',
    'consent_records',
    'mail_jobs',
  ]) {
    const rows = await service.query(`SELECT * FROM ${table}`)
    // Sending the queued mails is the sender's work, not the request's: its columns are left out.
    const kept = rows.map((row) => {
      const { attempts, locked_until, claimed_by, sent_at, failed_at, last_error, ...rest } =
        row as Record<string, unknown>
      return table === 'mail_jobs' ? rest : row
    })
    hash.update(JSON.stringify(kept.map((row) => JSON.stringify(row)).sort()))
  }
  return hash.digest('hex')
}

const SEGMENTS = [
  'en',
  'de',
  'newsletter',
  'caf%C3%A9',
  'café',
  'api',
  'forms',
  'newsletter',
  'survey',
  'subscriptions',
  'confirm',
  'unsubscribe',
  'consent',
  'csp-report',
  'pages.css',
  'fonts',
  'inter-latin-wght-normal.woff2',
  'healthz',
  'assets',
  'entry-abc.js',
  'page-data',
  'search',
  'icon.svg',
  'sw.js',
  '_headers',
  '.env',
  '..',
  '.',
  '',
  '%2E%2E',
  '%2e',
  '%2F',
  '%2f',
  '%5C',
  '%5c',
  '\\',
  '%00',
  '%0d%0aSet-Cookie:%20x=1',
  '%E2%82%AC',
  '%ff%fe',
  '%zz',
  '%',
  'evil.example',
  '@evil.example',
  'http:',
  '%2Fevil.example',
  'x'.repeat(300),
]

const path = fc.oneof(
  fc.constantFrom(
    '/',
    '/en/',
    '/en',
    '/de/',
    '/en/newsletter',
    '/en/newsletter/',
    '/assets/entry-abc.js',
    '/en/caf%C3%A9',
    '/api/forms/newsletter',
    '/api/forms/survey',
    '/api/forms/constructor',
    '/api/subscriptions/confirm',
    '/api/subscriptions/unsubscribe',
    '/api/consent',
    '/api/csp-report',
    '/api/pages.css',
    '/api/fonts/inter-latin-wght-normal.woff2',
    '/healthz',
    '/readyz',
    '/sw.js',
    '/_headers',
    '//evil.example/en/',
    '/%2Fevil.example/..%2Fen',
    '/%5Cevil.example/..%2Fen/newsletter',
  ),
  fc
    .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 6 })
    .map((segments) => `/${segments.join('/')}`),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => `/${encodeURIComponent(text)}`),
)

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom(...['token=x', 'lang=de', 'token=&lang=fr']).map((q) => `?${q}`),
  fc
    .tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom('en', 'de', 'xx'))
    .map(([n, lang]) => `?token=${tokens[n] ?? ''}&lang=${lang}`),
  fc.string({ maxLength: 40 }).map((text) => `?${encodeURIComponent(text)}`),
)

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'HEAD', 'POST') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE'),
  },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{1,10}$/) },
)

/** Addresses the bodies carry: none may reach a log line. */
const ADDRESSES = ['leak.one@example.org', 'leak+two@gmail.com', 'Leak.Three@Example.NET']

const bodyValue = fc.oneof(
  fc.constantFrom(...ADDRESSES),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('a\ud800b', '\udfff', 'a\u0000b', 'yes', 'services', 'v1', 'en', 'de', '3'),
)

const fields = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'email',
      'topics',
      'consent',
      'version',
      'language',
      'website',
      'answers.role',
      'answers.comment',
      'answers.satisfaction',
      '__proto__',
      'List-Unsubscribe',
    ),
    fc.string({ maxLength: 12 }),
  ),
  fc.oneof(bodyValue, fc.array(bodyValue, { maxLength: 3 })),
  { maxKeys: 6 },
)

interface Body {
  type?: string
  text: string
}

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({ text: '' }),
  fields.map((object) => ({ type: 'application/json', text: JSON.stringify(object) })),
  fields.map((object) => ({
    type: 'application/x-www-form-urlencoded',
    text: new URLSearchParams(
      Object.entries(object).flatMap(([key, value]) =>
        (Array.isArray(value) ? value : [value]).map((item) => [key, item]),
      ),
    ).toString(),
  })),
  fc.tuple(fields, fc.integer({ min: 0, max: 70_000 })).map(([object, padding]) => ({
    type: 'multipart/form-data; boundary=fc',
    text: `${Object.entries(object)
      .map(
        ([key, value]) =>
          `--fc\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${String(value)}\r\n`,
      )
      .join(
        '',
      )}--fc\r\nContent-Disposition: form-data; name="pad"\r\n\r\n${'p'.repeat(padding)}\r\n--fc--\r\n`,
  })),
  fc.record({
    type: fc.constantFrom(
      'text/plain',
      'application/csp-report',
      'application/reports+json',
      'application/json; charset=utf-16',
      'application/octet-stream',
      'multipart/form-data',
      '',
    ),
    text: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.integer({ min: 0, max: 100_000 }).map((size) => 'z'.repeat(size)),
    ),
  }),
  fc.constantFrom(...ADDRESSES).map((email) => ({
    type: 'application/x-www-form-urlencoded',
    text: JSON.stringify(signUp(email)),
  })),
  fc.constantFrom(...ADDRESSES).map((email) => ({
    type: 'application/json',
    text: JSON.stringify(signUp(email)),
  })),
)

/** Accept-Encoding headers, and the codings an answer may come in for each ('' for none). */
const CODINGS: Record<string, string[]> = {
  br: ['br', ''],
  gzip: ['gzip', ''],
  'br;q=0, gzip;q=0': [''],
  identity: [''],
  'br;Q=0': [''],
  'BR ; q=0.0 , gzip': ['gzip', ''],
  '*;q=0': [''],
  '*': ['br', ''],
  '*, br;q=0': ['gzip', ''],
  'gzip;q=1, br;q=0.5': ['gzip', ''],
  'gzip;q=0.5, br': ['br', ''],
  'x-gzip': ['gzip', ''],
  'br;q=1.5': [''],
  'identity;q=0, *;q=0': [''],
}

/** The service's routes, and the methods each takes (`Allow`). */
const SERVICE_ROUTES: [RegExp, string][] = [
  [/^\/api\/forms\/[^/]+$/, 'POST'],
  [/^\/api\/subscriptions\/(?:confirm|unsubscribe)$/, 'GET, HEAD, POST'],
  [/^\/api\/consent$/, 'POST'],
  [/^\/api\/csp-report$/, 'POST'],
  // The files of the service's pages: read only.
  [/^\/api\/pages\.css$/, 'GET, HEAD'],
  [/^\/api\/fonts\/[^/]+$/, 'GET, HEAD'],
]
/** The methods whose requests Node passes on (others it refuses itself, 400). */
const KNOWN_METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
  'TRACE',
]

/**
 * How a request is sent: whole, or only up to a byte of its head or of its body (`at`, taken
 * modulo their lengths), then stalled, ended or reset.
 */
type Delivery =
  | { stop: 'whole' }
  | { stop: 'stall' | 'end' | 'reset'; part: 'head' | 'body'; at: number }
const delivery: fc.Arbitrary<Delivery> = fc.oneof(
  { weight: 15, arbitrary: fc.constant({ stop: 'whole' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      stop: fc.constantFrom('stall' as const, 'end' as const, 'reset' as const),
      part: fc.constantFrom('head' as const, 'body' as const),
      at: fc.nat(),
    }),
  },
)

/** The bytes of `request` an unfinished delivery sends: fewer than all. */
function cutAt(request: Buffer, how: { part: 'head' | 'body'; at: number }): number {
  const head = request.indexOf('\r\n\r\n') + 4
  const body = request.length - head
  return how.part === 'body' && body > 0 ? head + (how.at % body) : how.at % head
}

const headers = fc.record(
  {
    origin: fc.constantFrom(SITE_URL, 'https://evil.example', 'null', 'http://localhost'),
    'sec-fetch-site': fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none'),
    'if-none-match': fc.constantFrom('*', '"x"', 'W/"1-2", "3"', ''),
    'accept-encoding': fc.constantFrom(...Object.keys(CODINGS)),
    'accept-language': fc.constantFrom('de-DE,de;q=0.9', 'fr', '*'),
    'x-forwarded-for': fc.constantFrom('203.0.113.9', 'evil', '1.1.1.1, 2.2.2.2'),
    'x-forwarded-proto': fc.constantFrom('https', 'javascript'),
    host: fc.constantFrom('localhost', 'evil.example', 'localhost:1', ''),
    referer: fc.constantFrom(`${SITE_URL}/en/newsletter/`, 'https://evil.example/'),
  },
  { requiredKeys: [] },
)

function request(verb: string, target: string, extra: Record<string, string>, sent: Body): Buffer {
  const bytes = Buffer.from(sent.text, 'utf8')
  const lines = Object.entries({
    host: 'localhost',
    ...extra,
    connection: 'close',
    ...(sent.type !== undefined ? { 'content-type': sent.type } : {}),
    ...(bytes.length > 0 || verb === 'POST' ? { 'content-length': String(bytes.length) } : {}),
  }).map(([name, value]) => `${name}: ${value}`)
  return Buffer.concat([
    Buffer.from(`${verb} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
    bytes,
  ])
}

/** What must hold of every answer. */
function checkAnswer(answer: RawAnswer, target: string) {
  expect(answer.status, target).toBeLessThan(500)
  expect(answer.headers['content-security-policy'], target).toBeTruthy()
  expect(answer.headers['x-content-type-options'], target).toBe('nosniff')
  expect(answer.headers['cache-control'], target).toBeTruthy()
  const location = answer.headers.location
  if (location !== undefined) {
    expect(location, target).toMatch(/^\/(?![/\\])/)
    expect(location, target).not.toMatch(/[\\\s]/)
    const resolved = new URL(location, 'http://localhost')
    expect(resolved.origin, target).toBe('http://localhost')
    expect(resolved.pathname, target).not.toMatch(/\/\.{1,2}(\/|$)|\/\//)
    expect(decodeURIComponent(resolved.pathname), target).not.toMatch(/\/\.{1,2}(\/|$)|\/\/|\\/)
  }
  if (target.startsWith('/api/') && answer.status !== 404) {
    expect(answer.headers['referrer-policy'], target).toBe('no-referrer')
  }
}

/** What must hold of an answer to a request sent whole. */
function checkWholeAnswer(answer: RawAnswer, verb: string, target: string, accepted?: string) {
  const what = `${verb} ${target}`
  const path = target.split('?')[0] ?? ''
  const allow = SERVICE_ROUTES.find(([pattern]) => pattern.test(path))?.[1]
  if (allow && KNOWN_METHODS.includes(verb) && !allow.split(', ').includes(verb)) {
    expect(answer.status, what).toBe(405)
  }
  if (answer.status === 405) {
    expect(answer.headers.allow, what).toBeTruthy()
    expect(answer.headers.allow?.split(', '), what).not.toContain(verb)
    if (allow) expect(answer.headers.allow, what).toBe(allow)
  }
  const coding = answer.headers['content-encoding'] ?? ''
  expect(CODINGS[accepted ?? 'identity'], `${what} (${accepted}): ${coding}`).toContain(coding)
}

describe('every route, tried at random', () => {
  it(`keeps its promises for ${RUNS} requests (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        query,
        headers,
        body,
        delivery,
        async (verb, where, q, extra, sent, how) => {
          const target = `${where}${q}`
          const what = `${verb} ${target}`
          const bytes = request(verb, target, extra, sent)
          const checksDatabase = verb === 'GET' || verb === 'HEAD' || how.stop !== 'whole'
          const before = checksDatabase ? await fingerprint() : ''
          if (how.stop === 'whole') {
            const answer = await sendRaw(port, bytes, 5000)
            checkAnswer(answer, what)
            checkWholeAnswer(answer, verb, target, extra['accept-encoding'])
          } else {
            const count = cutAt(bytes, how)
            const sentPart = `${what} (${how.stop} after ${count} of ${bytes.length} bytes)`
            const { answer, closedByServer } = await sendUnfinished(
              port,
              bytes,
              count,
              how.stop,
              UNFINISHED_LIMIT_MS,
            )
            expect(closedByServer, `${sentPart}: still open`).toBe(true)
            if (answer) checkAnswer(answer, sentPart)
          }
          if (checksDatabase)
            expect(await fingerprint(), `${what} changed the database`).toBe(before)
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    for (const line of logs) {
      expect(line.length, line.slice(0, 200)).toBeLessThan(1024)
      // Nothing failed on the server's side, an aborted request's either.
      expect(line, line.slice(0, 200)).not.toMatch(/"level":(?:50|60)/)
      for (const address of ADDRESSES) {
        expect(line.toLowerCase()).not.toContain(address.toLowerCase())
        expect(line.toLowerCase()).not.toContain(address.toLowerCase().split('@')[0])
      }
    }
  }, 240_000)

  it(`sends a compressible file in the coding the client likes best, never one it refuses (seed ${SEED})`, async () => {
    // Accept-Encoding written as clients may: codings in any case, weights in any spelling,
    // spaces or none; what the answer may be follows from what was written, not from parsing it.
    const entry = fc.record({
      coding: fc.constantFrom('br', 'gzip', 'x-gzip', 'identity', '*', 'compress', 'zstd'),
      weight: fc.option(fc.constantFrom('0', '0.0', '0.000', '0.001', '0.5', '1', '1.0'), {
        nil: undefined,
      }),
      upper: fc.boolean(),
      spaced: fc.boolean(),
    })
    const accept = fc.uniqueArray(entry, {
      maxLength: 5,
      selector: (item) => (item.coding === 'x-gzip' ? 'gzip' : item.coding),
    })
    await fc.assert(
      fc.asyncProperty(
        accept,
        fc.constantFrom('/en/newsletter/', '/assets/entry-abc.js'),
        fc.constantFrom('GET', 'HEAD'),
        async (entries, target, verb) => {
          const header = entries
            .map(({ coding, weight, upper, spaced }) => {
              const name = upper ? coding.toUpperCase() : coding
              if (weight === undefined) return name
              return spaced ? `${name} ; ${upper ? 'Q' : 'q'}=${weight}` : `${name};q=${weight}`
            })
            .join(entries.some((item) => item.spaced) ? ' , ' : ',')
          const weightOf = (coding: string) => {
            const named = entries.find(
              (item) => (item.coding === 'x-gzip' ? 'gzip' : item.coding) === coding,
            )
            const any = entries.find((item) => item.coding === '*')
            const found = named ?? any
            return found ? Number(found.weight ?? 1) : 0
          }
          const br = weightOf('br')
          const gzip = weightOf('gzip')
          const expected = br === 0 && gzip === 0 ? '' : br >= gzip ? 'br' : 'gzip'
          const answer = await sendRaw(
            port,
            request(verb, target, { 'accept-encoding': header }, { text: '' }),
            5000,
          )
          expect(answer.status, header).toBe(200)
          expect(answer.headers['content-encoding'] ?? '', header).toBe(expected)
          expect(answer.headers.vary, header).toBe('Accept-Encoding')
        },
      ),
      { seed: SEED, numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
    )
  }, 60_000)
})
