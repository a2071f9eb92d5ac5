/**
 * The publishing service as an attacker meets it: writes only from its own origin, reads that
 * change nothing, sessions that belong to someone (and end), limits on bodies and sign-in,
 * policy headers on every answer, a session cookie no script or other site can use, and
 * nothing a person typed in the log.
 */

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../../src/engine/config'
import { readAudit } from '../../../../src/publishing/audit/trail'
import type { GitRepository } from '../../../../src/publishing/git/repository'
import { createPublishingApp, SESSION_COOKIE } from '../../../../src/publishing/http/app'
import { IMAGE_POLICY } from '../../../../src/publishing/http/policy'
import { disablePerson, startSession } from '../../../../src/publishing/people/people'
import type { PublishingService } from '../../../../src/publishing/service'
import { markup } from '../../../support/html'
import { ada, addPeople, paul, person, rita } from '../../../support/people'
import { approveSeen, openServiceWithStandInBuild } from '../../../support/publishing'
import { DEVELOPER, siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let dir: string
let remote: GitRepository
let service: PublishingService
let app: FastifyInstance
const logged: string[] = []
const ORIGIN = 'http://localhost:8081'
const cookie: Record<string, string> = {}

beforeAll(async () => {
  dir = await temporaryFolder('publishing-http-')
  remote = await siteRepository(join(dir, 'bank.git'))
  const env = { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir }
  service = await openServiceWithStandInBuild(env)
  app = await createPublishingApp(service, {
    logLevel: 'info',
    logStream: { write: (line) => logged.push(line) },
    signInLimit: 3,
  })
  const gone = person('gone@bank.example', ['author'])
  await addPeople(service.database, [ada, rita, paul, gone])
  for (const { email } of [ada, rita, paul, gone]) {
    cookie[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
  }
  await disablePerson(service.database, 'gone@bank.example')
})

afterAll(async () => {
  await app.close()
  await service.close()
  await removeFolder(dir)
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
    // Nothing changed but the trail, which records each refusal of her session.
    const refused = (await readAudit(service.database)).slice(before.audit)
    expect(refused.map((entry) => [entry.actor, entry.details.code])).toEqual(
      attempts.map(() => ['ada@bank.example', 'wrong-origin']),
    )
    expect(await state()).toEqual({ ...before, audit: before.audit + attempts.length })
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

  it('answers the framework’s own refusals with its policy headers, and records a signed-in person’s', async () => {
    const ada = cookie['ada@bank.example'] as string
    const before = (await readAudit(service.database)).length
    const json = { 'content-type': 'application/json', origin: ORIGIN, cookie: ada }
    const answers = [
      await app.inject({
        method: 'GET',
        url: `/preview/${'a'.repeat(300)}/b`,
        headers: { cookie: ada },
      }),
      await app.inject({ method: 'GET', url: `/admin/${'a'.repeat(300)}`, headers: json }),
      await app.inject({ method: 'GET', url: '/%' }),
      await app.inject({
        method: 'POST',
        url: '/api/me/language',
        headers: json,
        payload: JSON.stringify({ padding: 'x'.repeat(100_000) }),
      }),
      await app.inject({
        method: 'POST',
        url: '/api/me/language',
        headers: { ...json, 'content-type': 'text/xml' },
        payload: '<x/>',
      }),
      await app.inject({ method: 'POST', url: '/api/me/language', headers: json, payload: '{' }),
      await app.inject({
        method: 'POST',
        url: '/api/me/language',
        headers: { ...json, origin: 'https://evil.example' },
        payload: '{}',
      }),
    ]
    expect(answers.map((answer) => answer.statusCode)).toEqual([414, 414, 400, 413, 415, 400, 403])
    for (const answer of answers) {
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
      expect(answer.headers['x-frame-options']).toBe('DENY')
      expect(answer.json().error).toMatch(/^Refused/)
    }
    const trail = (await readAudit(service.database)).slice(before)
    // Reads change nothing, not even the trail; the refused writes are in it.
    expect(trail.map((entry) => [entry.actor, entry.action, entry.details.code])).toEqual([
      ['ada@bank.example', 'refusal', 'too-large'],
      ['ada@bank.example', 'refusal', 'not-json'],
      ['ada@bank.example', 'refusal', 'malformed'],
      ['ada@bank.example', 'refusal', 'wrong-origin'],
    ])
    // Headers too long for the HTTP parser: answered before any route, with the headers too.
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    const { request } = await import('node:http')
    const overflow = await new Promise<{ status?: number; headers: Record<string, unknown> }>(
      (resolve, reject) => {
        request({ host: '127.0.0.1', port, path: `/${'a'.repeat(20_000)}` }, (response) => {
          response.resume()
          resolve({ status: response.statusCode, headers: response.headers })
        })
          .on('error', reject)
          .end()
      },
    )
    expect(overflow.status).toBe(431)
    expect(overflow.headers['content-security-policy']).toContain("default-src 'none'")
  })

  it('records every refused write of a signed-in person, whatever route refused it, and no stranger’s', async () => {
    const send = (who: string | undefined, url: string, payload: object | string) =>
      app.inject({
        method: 'POST',
        url,
        headers: {
          ...(who ? { cookie: cookie[who] as string } : {}),
          origin: ORIGIN,
          'content-type': 'application/json',
        },
        payload,
      })
    const before = (await readAudit(service.database)).length
    const refused = [
      await send('paul@bank.example', '/api/schedules', { draft: 'pages/none', at: 'soon' }),
      await send('paul@bank.example', '/api/schedules/cancel', { id: 'x' }),
      await send('paul@bank.example', '/api/schedules/cancel', { id: 424242 }),
      await send('paul@bank.example', '/api/releases/rollback', { folder: 'nowhere' }),
      await send('ada@bank.example', '/api/me/language', { language: 'xx' }),
      await send('ada@bank.example', '/admin/preview', { files: 'none' }),
    ]
    expect(refused.map((answer) => answer.statusCode)).toEqual([422, 422, 422, 404, 422, 400])
    const trail = (await readAudit(service.database)).slice(before)
    expect(trail.map((entry) => [entry.actor, entry.action, entry.subject])).toEqual([
      ['paul@bank.example', 'refusal', '/api/schedules'],
      ['paul@bank.example', 'refusal', '/api/schedules/cancel'],
      ['paul@bank.example', 'refusal', '/api/schedules/cancel'],
      ['paul@bank.example', 'refusal', '/api/releases/rollback'],
      ['ada@bank.example', 'refusal', '/api/me/language'],
      ['ada@bank.example', 'refusal', '/admin/preview'],
    ])
    expect(trail[4]?.details).toMatchObject({
      code: 'request',
      status: 422,
      reason: 'The editor speaks English (en) or German (de).',
    })
    // Nobody without an account grows the trail, whatever they send.
    const strangers = [
      await send(undefined, '/api/cms', '{"action":"addNote","params":{"x":"\\u0000"}}'),
      await send(undefined, '/api/changes/approve', '{"id":"\\u0000"}'),
      await send(undefined, '/api/me/language', { language: 'xx' }),
    ]
    expect(strangers.map((answer) => answer.statusCode)).toEqual([400, 400, 401])
    expect((await readAudit(service.database)).length).toBe(before + trail.length)
    // A malformed cookie is no cookie, and a field given twice no list: refusals, not failures.
    for (const value of ['%', '%E0%A4%A']) {
      const malformed = await app.inject({
        url: '/changes',
        headers: { cookie: `${SESSION_COOKIE}=${value}; __Host-publishing-preview=${value}` },
      })
      expect(malformed.statusCode).toBe(303)
      const preview = await app.inject({
        url: '/en/somewhere/',
        headers: { cookie: `${cookie['ada@bank.example']}; __Host-publishing-preview=${value}` },
      })
      expect(preview.statusCode).toBe(404)
    }
    const twice = await app.inject({
      url: '/changes/image?id=pages/about&path=a&path=b',
      headers: { cookie: cookie['rita@bank.example'] as string },
    })
    expect(twice.statusCode).toBe(400)
    expect(twice.json().error).toBe('Refused: query.path is given more than once.')
  })

  it('refuses text the database cannot store with 400, naming the field, and records each refused write', async () => {
    const ada = cookie['ada@bank.example'] as string
    const send = (payload: string, url = '/api/cms') =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie: ada, origin: ORIGIN, 'content-type': 'application/json' },
        payload,
      })
    const cms = (action: string, params: object) => JSON.stringify({ action, params })
    const before = (await readAudit(service.database)).length
    const drafts = await service.drafts.ids()
    const raw = (await english()).replace(/^title: .*$/m, 'title: Nul')
    const attempts: [string, RegExp][] = [
      [
        cms('persistEntry', {
          dataFiles: [{ path: 'content/pages/en/about\u0000.yaml', slug: 'about', raw }],
          assets: [],
          options: { collectionName: 'pages', useWorkflow: true },
        }),
        /^params\.dataFiles\.0\.path holds a NUL character \(U\+0000\), which cannot be stored/,
      ],
      [
        cms('deleteFiles', { paths: ['content/pages/en/imprint.yaml\u0000'] }),
        /^params\.paths\.0 holds a NUL character/,
      ],
      [
        cms('addNote', { collection: 'pages', slug: 'about', note: { content: 'Fine\u0000' } }),
        /^params\.note\.content holds a NUL character/,
      ],
      // A surrogate without its pair, as JSON can spell it.
      [
        '{"action":"addNote","params":{"collection":"pages","slug":"about","note":{"content":"\\ud800"}}}',
        /^params\.note\.content holds an unpaired surrogate \(U\+D800\)/,
      ],
      [JSON.stringify({ comment: 'x\u0000' }), /^comment holds a NUL character/],
    ]
    for (const [index, [payload, error]] of attempts.entries()) {
      const answer = await send(payload, index === 4 ? '/api/changes/request-changes' : '/api/cms')
      expect(answer.statusCode, payload.slice(0, 80)).toBe(400)
      expect(answer.json().error).toMatch(error)
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'")
    }
    // An upload in an encoding nobody knows is the caller's mistake, not the service's.
    const upload = await send(
      cms('persistMedia', {
        asset: { path: 'public/images/x.png', content: 'AAAA', encoding: 'utf-17' },
      }),
    )
    expect(upload.statusCode).toBe(400)
    expect(upload.json().error).toMatch(/x\.png is sent in the encoding "utf-17": expected base64/)
    // A read with such text in its address is refused too, and records nothing.
    const read = await app.inject({
      method: 'GET',
      url: '/changes/image?id=pages/about&path=public/images/%00.png',
      headers: { cookie: ada },
    })
    expect(read.statusCode).toBe(400)

    const trail = (await readAudit(service.database)).slice(before)
    expect(trail.map((entry) => [entry.actor, entry.action, entry.details.code])).toEqual([
      ...attempts.map(() => ['ada@bank.example', 'refusal', 'unstorable-text']),
      ['ada@bank.example', 'refusal', 'request'],
    ])
    expect(trail[0]?.details.field).toBe('params.dataFiles.0.path')
    expect(await service.drafts.ids()).toEqual(drafts)
    expect(logged.join('\n')).not.toContain('Fine')
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
    // Uploaded, as a draft in review: Decap lists it, and the editor says it waits for review.
    expect(uploaded.statusCode).toBe(200)
    expect(uploaded.json()).toMatchObject({
      path: PNG_PATH,
      content: png.toString('base64'),
      notice: expect.stringMatching(/^Uploaded as a draft/),
    })

    const reviewer = await as('rita@bank.example', 'GET', '/changes')
    expect(reviewer.statusCode).toBe(200)
    const page = markup(reviewer.body)
    const heading = page.match(/<h2 id="([\w-]+)">media\/branch-office.png: in review<\/h2>/)
    expect(heading).not.toBeNull()
    expect(page).toContain(`<code>${PNG_PATH}</code> (new)`)
    // Every draft has an Approve button: each names its draft to a screen reader.
    expect(page).toContain(`aria-describedby="${heading?.[1]}" disabled>Approve</button>`)
    expect(page).not.toContain('>Publish now</button>')
    const author = markup((await as('ada@bank.example', 'GET', '/changes')).body)
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
    const version = (await service.drafts.get('media/branch-office.png'))?.head
    const id = { id: 'media/branch-office.png', version }
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
    expect(markup((await as('rita@bank.example', 'GET', '/changes')).body)).not.toContain(
      'media/branch-office.png',
    )
    const unknown = await as('rita@bank.example', 'POST', '/api/changes/approve', {
      id: '../main',
    })
    expect(unknown.statusCode).toBe(400)
  })

  it('approves and publishes only the version the page showed, and says who saved another', async () => {
    const imprint = 'content/en/pages/imprint.yaml'
    const live = await readFile(join(ROOT, imprint), 'utf8')
    const saveTitle = (title: string) =>
      service.drafts.save(
        ada,
        'pages/imprint',
        [{ path: imprint, content: live.replace(/^title: .*$/m, `title: ${title}`) }],
        title,
      )
    const safe = await saveTitle('SAFE')
    await service.drafts.setStatus(ada, 'pages/imprint', 'pending_review')
    // Rita opens the page of changes: it shows SAFE's version, and her form carries it.
    const page = markup((await as('rita@bank.example', 'GET', '/changes')).body)
    expect(page).toContain(`Version ${safe.head.slice(0, 7)}, saved by ada on`)
    expect(page).toMatch(
      new RegExp(
        `data-action="/api/changes/approve"[^>]*>[^]*?name="version" value="${safe.head}"`,
      ),
    )
    const evil = await saveTitle('EVIL')
    await service.drafts.setStatus(ada, 'pages/imprint', 'pending_review')
    const approve = await as('rita@bank.example', 'POST', '/api/changes/approve', {
      id: 'pages/imprint',
      version: safe.head,
    })
    expect(approve.statusCode).toBe(409)
    expect(approve.json().error).toMatch(
      new RegExp(
        `you saw version ${safe.head.slice(0, 7)}, and ada saved version ${evil.head.slice(0, 7)}`,
      ),
    )
    expect((await service.drafts.get('pages/imprint'))?.status).toBe('pending_review')
    // Approved as seen, then saved again: the publisher's page is out of date too.
    const seen = { id: 'pages/imprint', version: evil.head }
    expect((await as('rita@bank.example', 'POST', '/api/changes/approve', seen)).statusCode).toBe(
      200,
    )
    const later = await saveTitle('LATER')
    const publish = await as('paul@bank.example', 'POST', '/api/changes/publish', seen)
    expect(publish.statusCode).toBe(409)
    expect((await service.drafts.get('pages/imprint'))?.head).toBe(later.head)
    const main = (await service.repo.resolve('refs/heads/main')) as string
    expect((await service.repo.readFile(main, imprint))?.toString()).toBe(live)
  })

  it('offers each person only what the rules allow, says why not, and shows text as its source or its changes', async () => {
    const olga = person('olga@bank.example', ['author', 'publisher'])
    const imprint = 'content/en/pages/imprint.yaml'
    await service.drafts.save(
      ada,
      'pages/imprint',
      [
        {
          path: imprint,
          content: (await readFile(join(ROOT, imprint), 'utf8')).replace(
            /^title: .*$/m,
            'title: Imprint, reviewed',
          ),
        },
      ],
      'Imprint',
    )
    // The draft's item on the page: named by the entry's title, its id below it.
    const section = (page: string) =>
      page.split('<li id="').find((item) => item.includes('<code>pages/imprint</code>')) ?? ''
    // Left in draft by Ada: the reviewer is told why she cannot approve it yet.
    const unsubmitted = section(markup((await as('rita@bank.example', 'GET', '/changes')).body))
    expect(unsubmitted).not.toContain('>Approve</button>')
    expect(unsubmitted).toContain(
      'You may not approve it: This draft has not been moved to review by its author',
    )
    // What changed, field by field, the live value beside the draft's and the words marked.
    expect(unsubmitted).toContain('<h4>Title <span class="kind">(changed)</span></h4>')
    expect(unsubmitted).toContain(
      '<div class="after"><p class="side">In this draft</p><p class="text">Imprint<ins><span class="sr-only">[added: </span>, reviewed<span class="sr-only"> end of change]</span></ins></p></div>',
    )
    expect(unsubmitted.match(/class="field-change"/g)).toHaveLength(1)
    await service.drafts.setStatus(ada, 'pages/imprint', 'pending_review')
    const submitted = section(markup((await as('rita@bank.example', 'GET', '/changes')).body))
    expect(submitted).toContain('moved to review by ada')
    expect(submitted).toContain('>Approve</button>')
    // The author sees neither approval nor publication; the publisher nothing to publish yet.
    const forAda = section(markup((await as('ada@bank.example', 'GET', '/changes')).body))
    expect(forAda).not.toMatch(/>(Approve|Publish now)<\/button>/)
    expect(forAda).not.toContain('You may not')
    expect(section(markup((await as('paul@bank.example', 'GET', '/changes')).body))).not.toContain(
      'Publish now',
    )
    await approveSeen(service.drafts, rita, 'pages/imprint')
    expect(section(markup((await as('paul@bank.example', 'GET', '/changes')).body))).toContain(
      '>Publish now</button>',
    )
    // A publisher who wrote part of it is told why not, and offered no button.
    await service.database.query(
      "INSERT INTO people (email, name, roles, language, created_at) VALUES ('olga@bank.example', 'olga', '{author,publisher}', 'en', now()) ON CONFLICT DO NOTHING",
    )
    cookie['olga@bank.example'] =
      `${SESSION_COOKIE}=${(await startSession(service.database, 'olga@bank.example')).token}`
    await service.drafts.save(
      olga,
      'pages/imprint',
      [{ path: imprint, content: 'title: Imprint, by Olga too\n' }],
      'Olga',
    )
    // Her save returned it to draft (Ada had submitted it); she submits it herself.
    await service.drafts.setStatus(olga, 'pages/imprint', 'pending_review')
    await approveSeen(service.drafts, rita, 'pages/imprint')
    const forOlga = section(markup((await as('olga@bank.example', 'GET', '/changes')).body))
    expect(forOlga).not.toContain('>Publish now</button>')
    expect(forOlga).toContain('You may not publish it: You wrote part of this draft')
    expect(section(markup((await as('paul@bank.example', 'GET', '/changes')).body))).toContain(
      '>Publish now</button>',
    )
    await service.drafts.discard(ada, 'pages/imprint')

    // A drawing: its source beside its rendering.
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#336"/></svg>'
    const upload = await as('ada@bank.example', 'POST', '/api/cms', {
      action: 'persistMedia',
      params: {
        asset: {
          path: 'public/images/diagram.svg',
          content: Buffer.from(svg).toString('base64'),
          encoding: 'base64',
        },
      },
    })
    expect(upload.json().notice).toMatch(/^Uploaded as a draft/)
    const drawing = markup((await as('rita@bank.example', 'GET', '/changes')).body)
    expect(drawing).toContain('Source of public/images/diagram.svg, as the draft has it')
    expect(drawing).toContain(
      '&lt;rect width=&quot;10&quot; height=&quot;10&quot; fill=&quot;#336&quot;/&gt;',
    )
    expect(drawing).toContain('alt="Image public/images/diagram.svg as the draft has it"')
    await service.drafts.discard(ada, 'media/diagram.svg')
  })

  it('lists the live release first, each saying what it changed and who approved and published it, and marks content no reviewer approved', async () => {
    // A developer pushes a text change to the bank's repository; the next publication takes
    // it in.
    const imprint = 'content/en/pages/imprint.yaml'
    await remote.commit({
      ref: 'refs/heads/main',
      parent: await remote.resolve('refs/heads/main'),
      changes: [
        {
          path: imprint,
          content: (await readFile(join(ROOT, imprint), 'utf8')).replace(
            /^title: .*$/m,
            'title: Imprint, pushed',
          ),
        },
      ],
      author: DEVELOPER,
      message: 'Imprint title',
    })
    await service.drafts.save(
      ada,
      'pages/about',
      [
        {
          path: 'content/en/pages/about.yaml',
          content: (await english()).replace(/^title: .*$/m, 'title: About, released'),
        },
      ],
      'About',
    )
    const id = { id: 'pages/about', version: (await service.drafts.get('pages/about'))?.head }
    expect(
      (
        await as('ada@bank.example', 'POST', '/api/cms', {
          action: 'updateUnpublishedEntryStatus',
          params: { collection: 'pages', slug: 'about', newStatus: 'pending_review' },
        })
      ).statusCode,
    ).toBe(200)
    expect((await as('rita@bank.example', 'POST', '/api/changes/approve', id)).statusCode).toBe(200)
    expect((await as('paul@bank.example', 'POST', '/api/changes/publish', id)).statusCode).toBe(200)

    const page = markup((await as('paul@bank.example', 'GET', '/releases')).body)
    const items = page.split('<li aria-labelledby="release-').slice(1)
    expect(items.length).toBeGreaterThanOrEqual(2)
    // The live one first, marked, with its files, its approver and its publisher.
    expect(items[0]).toContain('(live)')
    expect(items[0]).toContain('Published by paul, approved by rita')
    expect(items[0]).toContain('<code>content/en/pages/about.yaml</code>')
    expect(items[0]).toContain('content or code that no reviewer here approved')
    expect(items[0]).toMatch(
      /, by Developer &lt;dev@bank\.example&gt;: <code>content\/en\/pages\/imprint\.yaml<\/code>/,
    )
    expect(items[0]).not.toContain('Roll back to this release')
    // The one before: the image, not live, not marked, offered for rollback.
    expect(items[1]).not.toContain('(live)')
    expect(items[1]).toContain('<code>public/images/branch-office.png</code>')
    expect(items[1]).not.toContain('no reviewer here approved')
    expect(items[1]).toContain('Roll back to this release')
    // An author sees the releases, not the rollback.
    expect(markup((await as('ada@bank.example', 'GET', '/releases')).body)).not.toContain(
      'Roll back to this release',
    )
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

describe("the editor's requests in the trail", () => {
  const cms = (action: string, params: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/api/cms',
      headers: {
        cookie: cookie['ada@bank.example'] as string,
        origin: ORIGIN,
        'content-type': 'application/json',
      },
      payload: { action, params },
    })
  const entry = { collection: 'pages', slug: 'never-drafted' }

  it('records no refusal for reading what is not there, and every refusal of a rule', async () => {
    const before = (await readAudit(service.database)).length
    const trail = async () => (await readAudit(service.database)).slice(before)
    // Opening an entry asks for its draft: none is an answer (404), not a refusal.
    expect((await cms('unpublishedEntry', entry)).statusCode).toBe(404)
    expect((await cms('getMediaFile', { path: 'public/images/none.png' })).statusCode).toBe(404)
    expect(await trail()).toEqual([])
    // A path the rules refuse, read or written, and a write to a draft that is not there, are.
    expect((await cms('getEntry', { path: 'content/../../etc/passwd' })).statusCode).toBe(400)
    const status = { ...entry, newStatus: 'pending_review' }
    expect((await cms('updateUnpublishedEntryStatus', status)).statusCode).toBe(404)
    expect((await trail()).map((row) => [row.action, row.actor, row.details.code])).toEqual([
      ['refusal', 'ada@bank.example', 'request'],
      ['refusal', 'ada@bank.example', 'request'],
    ])
  })
})
