/**
 * Sign-in through a real OpenID Connect provider (`oidc-provider`, its development login pages)
 * with three people of the bank: the code flow with PKCE and a client secret, the roles read
 * from the group claim through the settings' map at every sign-in, someone without a mapped
 * group turned away, a tampered or replayed callback refused, passkeys off meanwhile.
 */

import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readAudit } from '../../../../src/publishing/audit/trail'
import { createPublishingApp, SESSION_COOKIE } from '../../../../src/publishing/http/app'
import { OIDC_COOKIE } from '../../../../src/publishing/people/oidc'
import type { PublishingService } from '../../../../src/publishing/service'
import { markup } from '../../../support/html'
import {
  OIDC_ACCOUNTS,
  OIDC_CLIENT,
  OIDC_ROLE_MAP,
  startOidcProvider,
} from '../../../support/oidc-provider'
import { openServiceWithStandInBuild } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const CMS = 'http://localhost:8081'

let dir: string
let server: Awaited<ReturnType<typeof startOidcProvider>>
let service: PublishingService
let app: FastifyInstance

beforeAll(async () => {
  server = await startOidcProvider(CMS)
  const issuer = server.issuer

  dir = await temporaryFolder('publishing-oidc-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = {
    DATA_DIR: join(dir, 'data'),
    PUBLISHING_REMOTE: remote.gitDir,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_ROLE_MAP,
  }
  service = await openServiceWithStandInBuild(env)
  app = await createPublishingApp(service, { logLevel: 'silent', signInLimit: 0 })
})

afterAll(async () => {
  await app?.close()
  await service?.close()
  await server?.close()
  await removeFolder(dir)
})

/** Follows the provider's redirects and login pages as a browser would, as `login`. */
async function atProvider(start: string, login: string): Promise<string> {
  const jar = new Map<string, string>()
  const send = async (url: string, body?: URLSearchParams) => {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body ? { body } : {}),
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const [name = '', ...value] = pair.split('=')
      jar.set(name, value.join('='))
    }
    return response
  }
  let url = start
  for (let step = 0; step < 20; step += 1) {
    if (url.startsWith(CMS)) return url
    const response = await send(url)
    const location = response.headers.get('location')
    if (location) {
      url = new URL(location, url).href
      continue
    }
    const page = markup(await response.text())
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]
    if (!action) throw new Error(`no form at ${url}: ${page.slice(0, 300)}`)
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1] ?? ''
    const fields = new URLSearchParams({ prompt })
    if (prompt === 'login') {
      fields.set('login', login)
      fields.set('password', 'any')
    }
    const submitted = await send(new URL(action, url).href, fields)
    url = new URL(submitted.headers.get('location') ?? url, url).href
  }
  throw new Error('the provider never sent the person back')
}

/** The whole sign-in of `login`: the answer of the service's last step, and the cookies. */
async function signIn(login: string, tamper?: (search: string) => string) {
  const started = await app.inject({
    method: 'POST',
    url: '/sign-in/provider',
    headers: { origin: CMS, 'content-type': 'application/json' },
    payload: {},
  })
  expect(started.statusCode).toBe(200)
  const flowCookie = String(started.headers['set-cookie']).split(';')[0] as string
  expect(String(started.headers['set-cookie'])).toMatch(/HttpOnly; Secure; SameSite=Lax/)
  const next = started.json().next as string
  const authorize = new URL(next)
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
  const back = await atProvider(next, login)
  const search = new URL(back).search
  const finished = await app.inject({
    method: 'POST',
    url: '/sign-in/provider/callback',
    headers: { origin: CMS, 'content-type': 'application/json', cookie: flowCookie },
    payload: { search: tamper ? tamper(search) : search },
  })
  return { finished, search, flowCookie }
}

const sessionOf = (answer: { headers: Record<string, unknown> }) =>
  ([answer.headers['set-cookie']].flat() as string[])
    .map((line) => line.split(';')[0] as string)
    .find(
      (pair) => pair.startsWith(`${SESSION_COOKIE}=`) && pair.length > SESSION_COOKIE.length + 1,
    )

describe('sign-in with the bank’s identity provider', () => {
  it('signs three people in with the roles their groups map to', async () => {
    const expected = {
      ada: ['author'],
      rita: ['reviewer'],
      paul: ['administrator', 'publisher'],
    }
    for (const [login, roles] of Object.entries(expected)) {
      const { finished } = await signIn(login)
      expect(finished.statusCode, login).toBe(200)
      const session = sessionOf(finished)
      expect(session, login).toBeTruthy()
      const me = await app.inject({ url: '/api/me', headers: { cookie: session as string } })
      expect(me.json()).toMatchObject({
        email: OIDC_ACCOUNTS[login]?.email,
        name: OIDC_ACCOUNTS[login]?.name,
      })
      expect([...me.json().roles].sort()).toEqual(roles)
    }
    const signIns = (await readAudit(service.database)).filter(
      (entry) => entry.action === 'sign-in',
    )
    expect(signIns.map((entry) => entry.details.method)).toEqual(['oidc', 'oidc', 'oidc'])
  })

  it('turns away someone whose groups map to no role', async () => {
    const { finished } = await signIn('mallory')
    expect(finished.statusCode).toBe(401)
    expect(finished.json().error).toMatch(/no role in the publishing service/)
    expect(sessionOf(finished)).toBeUndefined()
    expect((await readAudit(service.database)).at(-1)).toMatchObject({
      action: 'sign-in-refused',
    })
  })

  it('keeps a person to the provider’s account they signed in with: another claiming the address is refused', async () => {
    const { finished } = await signIn('impostor')
    expect(finished.statusCode).toBe(401)
    expect(finished.json().error).toMatch(
      /ada@bank\.example belongs to another account of the identity provider/,
    )
    expect(sessionOf(finished)).toBeUndefined()
    // Ada's record and roles are as they were; she still signs in.
    const again = await signIn('ada')
    expect(again.finished.statusCode).toBe(200)
    const me = await app.inject({
      url: '/api/me',
      headers: { cookie: sessionOf(again.finished) as string },
    })
    expect(me.json()).toMatchObject({ name: 'Ada Author', roles: ['author'] })
  })

  it('refuses a callback whose state was changed, and a code used twice', async () => {
    const tampered = await signIn('ada', (search) => search.replace(/state=[^&]+/, 'state=forged'))
    expect(tampered.finished.statusCode).toBe(401)
    const { finished, search, flowCookie } = await signIn('rita')
    expect(finished.statusCode).toBe(200)
    const replayed = await app.inject({
      method: 'POST',
      url: '/sign-in/provider/callback',
      headers: { origin: CMS, 'content-type': 'application/json', cookie: flowCookie },
      payload: { search },
    })
    expect(replayed.statusCode).toBe(401)
    const withoutFlow = await app.inject({
      method: 'POST',
      url: '/sign-in/provider/callback',
      headers: { origin: CMS, 'content-type': 'application/json' },
      payload: { search },
    })
    expect(withoutFlow.statusCode).toBe(401)
    expect(withoutFlow.json().error).toMatch(/not started here/)
  })

  it('turns passkeys off and prints no first administrator’s link meanwhile', async () => {
    const page = await app.inject({ url: '/sign-in' })
    expect(page.body).toContain('provider-sign-in')
    expect(page.body).not.toContain('passkey-sign-in')
    const options = await app.inject({
      method: 'POST',
      url: '/sign-in/options',
      headers: { origin: CMS, 'content-type': 'application/json' },
      payload: {},
    })
    expect(options.statusCode).toBe(403)
    expect(String(page.headers['set-cookie'] ?? '')).not.toContain(OIDC_COOKIE)
  })
})
