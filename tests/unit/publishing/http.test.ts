/**
 * The publishing service as an attacker meets it: writes only from its own origin, reads that
 * change nothing, sessions that belong to someone (and end), limits on bodies and sign-in,
 * policy headers on every answer, a session cookie no script or other site can use, and
 * nothing a person typed in the log.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../src/build/config'
import { readAudit } from '../../../src/publishing/audit'
import { createPublishingApp, SESSION_COOKIE } from '../../../src/publishing/http'
import { IMAGE_POLICY } from '../../../src/publishing/manage'
import { disablePerson, startSession } from '../../../src/publishing/people'
import type { PublishingService } from '../../../src/publishing/service'
import { openServiceWithStandInBuild } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'

let dir: string
let service: PublishingService
let app: FastifyInstance
const logged: string[] = []
const ORIGIN = 'http://localhost:8081'
const cookie: Record<string, string> = {}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'publishing-http-'))
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir }
  service = await openServiceWithStandInBuild(env)
  app = await createPublishingApp(service, {
    logLevel: 'info',
    logStream: { write: (line) => logged.push(line) },
    signInLimit: 3,
  })
  for (const [email, roles] of [
    ['ada@bank.example', ['author']],
    ['rita@bank.example', ['reviewer']],
    ['paul@bank.example', ['publisher']],
    ['gone@bank.example', ['author']],
  ] as const) {
    await service.database.query(
      'INSERT INTO people (email, name, roles, language, created_at) VALUES ($1, $2, $3, $4, now())',
      [email, email.split('@')[0], roles, 'en'],
    )
    cookie[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
  }
  await disablePerson(service.database, 'gone@bank.example')
})

afterAll(async () => {
  await app.close()
  await service.close()
  await rm(dir, { recursive: true, force: true, maxRetries: 10 })
})

const english = () => readFile(join(ROOT, 'content/en/pages/about.yaml'), 'utf8')
const save = async (headers: Record<string, string>, title = 'Safe title') => ({
  method: 'POST' as const,
  url: '/api/cms',
  headers: { 'content-type': 'application/json', ...headers },
  payload: {
    action: 'persistEntry',
    params: {
      dataFiles: [
        {
          path: 'content/pages/en/about.yaml',
          slug: 'about',
          raw: (await english()).replace(/^title: .*$/m, `title: ${title}`),
        },
      ],
      assets: [],
      options: { collectionName: 'pages', useWorkflow: true },
    },
  },
})
const state = async () => ({
  drafts: await service.drafts.ids(),
  audit: (await readAudit(service.database)).length,
})

describe('the publishing service under attack', () => {
  it('takes writes from its own origin only: none, another, or a cross-site fetch are refused', async () => {
    const before = await state()
    const ada = cookie['ada@bank.example'] as string
    const attempts: Record<string, string>[] = [
      { cookie: ada },
      { cookie: ada, origin: 'https://evil.example' },
      { cookie: ada, origin: ORIGIN, 'sec-fetch-site': 'cross-site' },
      { cookie: ada, origin: 'null' },
    ]
    for (const headers of attempts) {
      const answer = await app.inject(await save(headers))
      expect(answer.statusCode).toBe(403)
      expect(answer.json().error).toMatch(/did not come from the editor/)
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
    }
    expect(await state()).toEqual(before)
    const allowed = await app.inject(await save({ cookie: ada, origin: ORIGIN }))
    expect(allowed.statusCode).toBe(200)
    expect(await service.drafts.ids()).toEqual(['pages/about'])
  })

  it('changes nothing on GET or HEAD of any of its addresses', async () => {
    const before = await state()
    for (const url of [
      '/',
      '/sign-in',
      '/invitation',
      '/admin/',
      '/api/me',
      '/api/cms',
      '/people',
      '/audit',
      '/audit.csv',
      '/releases',
      '/schedules',
      '/changes',
      '/changes/image?id=pages/about&path=public/images/x.png',
      '/api/changes/approve',
      '/sign-out',
      '/api/schedules',
      '/api/releases/rollback',
      '/invitation/accept',
    ]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const answer = await app.inject({
          method,
          url,
          headers: { cookie: cookie['ada@bank.example'] as string },
        })
        expect(answer.statusCode, `${method} ${url}`).toBeLessThan(500)
        expect(answer.headers['x-content-type-options'], `${method} ${url}`).toBe('nosniff')
      }
    }
    expect(await state()).toEqual(before)
    // Still signed in: a GET of /sign-out signs no one out.
    expect(
      (
        await app.inject({
          url: '/api/me',
          headers: { cookie: cookie['ada@bank.example'] as string },
        })
      ).statusCode,
    ).toBe(200)
  })

  it('acts for the session’s person only: none, a forged one, or one whose access was taken away opens nothing', async () => {
    const strangers: Record<string, string>[] = [
      {},
      { cookie: `${SESSION_COOKIE}=forged-token` },
      { cookie: cookie['gone@bank.example'] as string },
    ]
    for (const headers of strangers) {
      const answer = await app.inject(await save({ ...headers, origin: ORIGIN }))
      expect(answer.statusCode).toBe(401)
      expect(answer.json().error).toMatch(/sign in/)
    }
    const approve = await app.inject({
      method: 'POST',
      url: '/api/cms',
      headers: {
        'content-type': 'application/json',
        origin: ORIGIN,
        cookie: cookie['ada@bank.example'] as string,
      },
      payload: {
        action: 'updateUnpublishedEntryStatus',
        params: { collection: 'pages', slug: 'about', newStatus: 'pending_publish' },
      },
    })
    expect(approve.statusCode).toBe(403)
    expect(approve.json().error).toMatch(/reviewer/)
  })

  it('limits bodies, takes JSON only, and answers every refusal with its headers', async () => {
    const ada = cookie['ada@bank.example'] as string
    const huge = await app.inject({
      method: 'POST',
      url: '/sign-in/options',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      payload: JSON.stringify({ padding: 'x'.repeat(100_000) }),
    })
    expect(huge.statusCode).toBe(413)
    expect(huge.headers['content-security-policy']).toBeTruthy()
    const form = await app.inject({
      method: 'POST',
      url: '/api/cms',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie: ada },
      payload: 'action=persistEntry',
    })
    expect(form.statusCode).toBe(415)
    const text = await app.inject({
      method: 'POST',
      url: '/api/cms',
      headers: { 'content-type': 'text/plain', origin: ORIGIN, cookie: ada },
      payload: '{"action":"persistEntry"}',
    })
    expect(text.statusCode).toBe(415)
    const put = await app.inject({ method: 'PUT', url: '/api/cms', headers: { origin: ORIGIN } })
    expect(put.statusCode).toBe(405)
    expect(put.headers['x-frame-options']).toBe('DENY')
  })

  it('limits sign-in attempts per address', async () => {
    const attempt = () =>
      app.inject({
        method: 'POST',
        url: '/sign-in',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        payload: { ceremony: 'nothing', response: {} },
      })
    const answers = []
    for (let n = 0; n < 4; n++) answers.push((await attempt()).statusCode)
    expect(answers).toEqual([401, 401, 401, 429])
    const refused = (await readAudit(service.database)).filter(
      (entry) => entry.action === 'sign-in-refused',
    )
    expect(refused.length).toBeGreaterThanOrEqual(3)
  })

  it('behind the bank’s proxy (TRUST_PROXY), limits sign-in per visitor, and no one else can pose as one', async () => {
    const behind = await createPublishingApp(service, {
      logLevel: 'silent',
      trustProxy: '127.0.0.1',
      signInLimit: 2,
    })
    try {
      const attempt = (from: string, forwardedFor: string) =>
        behind
          .inject({
            method: 'POST',
            url: '/sign-in',
            remoteAddress: from,
            headers: {
              'content-type': 'application/json',
              origin: ORIGIN,
              'x-forwarded-for': forwardedFor,
            },
            payload: { ceremony: 'nothing', response: {} },
          })
          .then((answer) => answer.statusCode)
      const proxy = '127.0.0.1'
      const one = [await attempt(proxy, '203.0.113.1'), await attempt(proxy, '203.0.113.1')]
      expect([...one, await attempt(proxy, '203.0.113.1')]).toEqual([401, 401, 429])
      // Another visitor through the same proxy has attempts of their own.
      expect(await attempt(proxy, '203.0.113.2')).toBe(401)
      // Someone reaching the service directly is counted by their own address, whatever
      // they claim to be forwarding for.
      const direct = '198.51.100.7'
      expect([
        await attempt(direct, '203.0.113.3'),
        await attempt(direct, '203.0.113.4'),
        await attempt(direct, '203.0.113.5'),
      ]).toEqual([401, 401, 429])
    } finally {
      await behind.close()
    }
  })

  it('keeps a person’s text and the session out of the log', async () => {
    const secret = 'Confidential launch of the Lumora card'
    await app.inject(
      await save({ cookie: cookie['ada@bank.example'] as string, origin: ORIGIN }, secret),
    )
    const log = logged.join('')
    expect(log).not.toContain(secret)
    expect(log).not.toContain((cookie['ada@bank.example'] as string).split('=')[1])
  })

  it('lets a person choose the editor’s language', async () => {
    const ada = cookie['ada@bank.example'] as string
    const choose = (language: string) =>
      app.inject({
        method: 'POST',
        url: '/api/me/language',
        headers: { 'content-type': 'application/json', origin: ORIGIN, cookie: ada },
        payload: { language },
      })
    expect((await choose('fr')).statusCode).toBe(422)
    expect((await choose('de')).statusCode).toBe(200)
    const me = await app.inject({ url: '/api/me', headers: { cookie: ada } })
    expect(me.json().language).toBe('de')
    const page = await app.inject({ url: '/sign-in', headers: { cookie: ada } })
    expect(page.body).toContain('<html lang="de">')
    await choose('en')
  })

  it('answers with its own drawings (the icon, a person’s avatar) in a sandbox', async () => {
    const ada = cookie['ada@bank.example'] as string
    for (const url of ['/icon.svg', '/api/me/avatar.svg']) {
      const drawing = await app.inject({ url, headers: { cookie: ada } })
      expect(drawing.statusCode, url).toBe(200)
      expect(drawing.headers['content-type'], url).toMatch(/^image\/svg\+xml/)
      expect(drawing.headers['content-security-policy'], url).toBe(IMAGE_POLICY)
    }
  })

  it('sets the session cookie so no script and no other site can use it', async () => {
    const answer = await app.inject({
      method: 'POST',
      url: '/sign-out',
      headers: {
        origin: ORIGIN,
        accept: 'application/json',
        cookie: cookie['rita@bank.example'] as string,
      },
    })
    const set = String(answer.headers['set-cookie'])
    expect(set).toMatch(/^__Host-publishing-session=;/)
    for (const attribute of ['Path=/', 'HttpOnly', 'Secure', 'SameSite=Strict']) {
      expect(set).toContain(attribute)
    }
    const after = await app.inject({
      url: '/api/me',
      headers: { cookie: cookie['rita@bank.example'] as string },
    })
    expect(after.statusCode).toBe(401)
  })
})

describe('the page of changes', () => {
  const PNG_PATH = 'public/images/branch-office.png'
  beforeAll(async () => {
    // Sessions of their own: the tests above end some.
    for (const email of ['ada@bank.example', 'rita@bank.example', 'paul@bank.example']) {
      cookie[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
    }
  })
  const as = (email: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: {
        cookie: cookie[email] as string,
        ...(payload ? { origin: ORIGIN, 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { payload } : {}),
    })

  it('lists an image uploaded on its own, shows it to the reviewer safely, and offers each person their actions', async () => {
    const { default: sharp } = await import('sharp')
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#123456' } })
      .png()
      .toBuffer()
    const uploaded = await as('ada@bank.example', 'POST', '/api/cms', {
      action: 'persistMedia',
      params: { asset: { path: PNG_PATH, content: png.toString('base64'), encoding: 'base64' } },
    })
    expect(uploaded.statusCode).toBe(409)
    expect(uploaded.json().error).toMatch(/^Not in the library yet/)

    const reviewer = await as('rita@bank.example', 'GET', '/changes')
    expect(reviewer.statusCode).toBe(200)
    const page = reviewer.body
    const heading = page.match(/<h2 id="([\w-]+)">media\/branch-office.png: in review<\/h2>/)
    expect(heading).not.toBeNull()
    expect(page).toContain(`<code>${PNG_PATH}</code> (new)`)
    // Every draft has an Approve button: each names its draft to a screen reader.
    expect(page).toContain(`aria-describedby="${heading?.[1]}" disabled>Approve</button>`)
    expect(page).not.toContain('>Publish now</button>')
    const author = (await as('ada@bank.example', 'GET', '/changes')).body
    expect(author).not.toContain('>Approve</button>')
    expect(author).toContain('>Discard</button>')

    const image = await as(
      'rita@bank.example',
      'GET',
      `/changes/image?id=media/branch-office.png&path=${PNG_PATH}`,
    )
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/png')
    expect(image.headers['content-security-policy']).toContain('sandbox')
    expect(image.rawPayload.equals(png)).toBe(true)
    const stranger = await app.inject({
      url: `/changes/image?id=media/branch-office.png&path=${PNG_PATH}`,
    })
    expect(stranger.statusCode).toBe(401)
    const other = await as(
      'rita@bank.example',
      'GET',
      '/changes/image?id=media/branch-office.png&path=public/images/blog/designing-idempotent-payment-apis.svg',
    )
    expect(other.statusCode).toBe(404)
  })

  it('approves and publishes by the four-eyes rules, each refusal a message', async () => {
    const id = { id: 'media/branch-office.png' }
    const own = await as('ada@bank.example', 'POST', '/api/changes/approve', id)
    expect(own.statusCode).toBe(403)
    expect(own.json().error).toMatch(/reviewer/)
    const early = await as('paul@bank.example', 'POST', '/api/changes/publish', id)
    expect(early.statusCode).toBe(403)
    expect((await as('rita@bank.example', 'POST', '/api/changes/approve', id)).statusCode).toBe(200)
    expect((await as('rita@bank.example', 'POST', '/api/changes/publish', id)).statusCode).toBe(403)
    const published = await as('paul@bank.example', 'POST', '/api/changes/publish', id)
    expect(published.statusCode).toBe(200)
    expect(published.json().release).toMatch(/^\d/)
    const main = (await service.repo.resolve('refs/heads/main')) as string
    expect(await service.repo.readFile(main, PNG_PATH)).not.toBeNull()
    expect((await as('rita@bank.example', 'GET', '/changes')).body).not.toContain(
      'media/branch-office.png',
    )
    const unknown = await as('rita@bank.example', 'POST', '/api/changes/approve', {
      id: '../main',
    })
    expect(unknown.statusCode).toBe(400)
  })

  it('serves the live site’s images to signed-in people, for the preview beside the editor', async () => {
    const path = '/images/blog/designing-idempotent-payment-apis.svg'
    const image = await as('rita@bank.example', 'GET', path)
    expect(image.statusCode).toBe(200)
    expect(image.headers['content-type']).toBe('image/svg+xml')
    expect(image.headers['content-security-policy']).toContain('sandbox')
    expect(image.body).toBe(await readFile(join(ROOT, 'public', path), 'utf8'))
    expect((await app.inject({ url: path })).statusCode).toBe(404)
    for (const other of [
      '/images/../site.yaml',
      '/images/%2e%2e/content/site.yaml',
      '/images/none.png',
    ]) {
      expect((await as('rita@bank.example', 'GET', other)).statusCode, other).toBe(404)
    }
  })
})
