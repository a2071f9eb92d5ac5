/**
 * A way back in, over HTTP: a person adds a second passkey on "Your sign-in", renames and
 * removes their own (never another's, the last only when they confirm, never the last
 * administrator's), and ends their other sessions; an administrator resets someone's sign-in
 * (their passkeys removed, their sessions ended, a link that brings the same person back with
 * their roles and history) and ends all of a person's sessions. Every rule is the server's
 * whatever the browser sends; every step and refusal is in the trail, naming no credential.
 */

import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readAudit, verifyAudit } from '../../../../src/publishing/audit/trail'
import { createPublishingApp, SESSION_COOKIE } from '../../../../src/publishing/http/app'
import { listGrants, listPeople, startSession } from '../../../../src/publishing/people/people'
import type { PublishingService } from '../../../../src/publishing/service'
import { markup } from '../../../support/html'
import { Passkey } from '../../../support/passkey'
import { addPeople, person } from '../../../support/people'
import { openServiceWithStandInBuild } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ORIGIN = 'http://localhost:8081'
const anna = person('anna@bank.example', ['administrator', 'author'])
const bob = person('bob@bank.example', ['administrator'], 'de')
const ada = person('ada@bank.example', ['author', 'reviewer'])
const rita = person('rita@bank.example', ['reviewer'])

let dir: string
let service: PublishingService
let app: FastifyInstance
let now = new Date('2026-12-01T09:00:00Z')
const passkeys: Record<string, Passkey[]> = {}

beforeAll(async () => {
  dir = await temporaryFolder('publishing-sign-in-keys-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  service = await openServiceWithStandInBuild(
    { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir },
    () => now,
  )
  app = await createPublishingApp(service, { logLevel: 'silent' })
  await addPeople(service.database, [anna, bob, ada, rita], now)
}, 60_000)

afterAll(async () => {
  await app?.close()
  await service?.close()
  if (dir) await removeFolder(dir)
})

const later = (minutes: number) => {
  now = new Date(now.getTime() + minutes * 60_000)
}
const session = async (email: string) =>
  `${SESSION_COOKIE}=${(await startSession(service.database, email, now)).token}`
const post = (cookie: string | undefined, url: string, payload: object, headers = {}) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      origin: ORIGIN,
      'content-type': 'application/json',
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
    payload,
  })
const get = (cookie: string, url: string) => app.inject({ url, headers: { cookie } })
const me = async (cookie: string) => (await get(cookie, '/api/me')).statusCode

/** Adds a new passkey for the person of `cookie` on "Your sign-in": the answer. */
async function addPasskey(cookie: string, email: string, name: string) {
  const options = await post(cookie, '/api/me/passkeys/options', { name })
  if (options.statusCode !== 200) return options
  const passkey = Passkey.create()
  const { ceremony, options: creation } = options.json()
  const added = await post(cookie, '/api/me/passkeys/add', {
    ceremony,
    response: passkey.register(creation, ORIGIN),
    name,
  })
  if (added.statusCode === 200) passkeys[email] = [...(passkeys[email] ?? []), passkey]
  return added
}

/** Signs in with `passkey`: the session's cookie, or the refusal's status. */
async function signIn(passkey: Passkey): Promise<string | number> {
  const options = await post(undefined, '/sign-in/options', {})
  const { ceremony, options: request } = options.json()
  const answer = await post(undefined, '/sign-in', {
    ceremony,
    response: passkey.signIn(request, ORIGIN),
  })
  if (answer.statusCode !== 200) return answer.statusCode
  const cookie = String(answer.headers['set-cookie']).split(';')[0] ?? ''
  return cookie
}

/** The person's passkeys as "Your sign-in" lists them: their references and names. */
async function listed(cookie: string) {
  const page = markup((await get(cookie, '/me/sign-in')).body)
  return [
    ...page.matchAll(
      /<h3 id="passkey-\d+">([^<]*)<\/h3>[\s\S]*?name="passkey" value="([0-9a-f]+)"/g,
    ),
  ].map((match) => ({ name: match[1], ref: match[2] as string }))
}

const lastId = async () =>
  (await readAudit(service.database, { newestFirst: true, limit: 1 }))[0]?.id ?? 0
const entriesAfter = async (id: number) =>
  (await readAudit(service.database, { afterId: id, limit: 10_000 })).map(
    ({ actor, action, subject, details }) => ({ actor, action, subject, details }),
  )

describe('a way back in', () => {
  it('a person adds a second passkey, lists, renames and signs in with either', async () => {
    const start = await lastId()
    const cookie = await session(ada.email)
    expect((await addPasskey(cookie, ada.email, 'Work laptop')).statusCode).toBe(200)
    // A minute later: passkeys are listed oldest first (one added at the same instant would
    // be ordered by its random id).
    later(1)
    expect((await addPasskey(cookie, ada.email, 'New phone')).statusCode).toBe(200)
    const keys = await listed(cookie)
    expect(keys.map((key) => key.name)).toEqual(['Work laptop', 'New phone'])
    for (const passkey of passkeys[ada.email] ?? []) {
      expect(await me(String(await signIn(passkey)))).toBe(200)
    }
    const page = markup((await get(cookie, '/me/sign-in')).body)
    expect(page).toContain('last used')
    expect(page).toContain('You are signed in here and in 2 other places')
    const renamed = await post(cookie, '/api/me/passkeys/rename', {
      passkey: keys[1]?.ref,
      name: 'Phone (2026)',
    })
    expect(renamed.statusCode).toBe(200)
    expect((await listed(cookie)).map((key) => key.name)).toEqual(['Work laptop', 'Phone (2026)'])

    const entries = await entriesAfter(start)
    expect(entries.filter((entry) => entry.action === 'passkey-add')).toEqual([
      expect.objectContaining({
        actor: ada.email,
        subject: ada.email,
        details: { passkey: keys[0]?.ref, name: 'Work laptop', via: 'your sign-in' },
      }),
      expect.objectContaining({
        details: { passkey: keys[1]?.ref, name: 'New phone', via: 'your sign-in' },
      }),
    ])
    expect(entries.find((entry) => entry.action === 'passkey-rename')?.details).toEqual({
      passkey: keys[1]?.ref,
      name: 'Phone (2026)',
      before: 'New phone',
    })
    // No credential, public key or token in the trail.
    const text = JSON.stringify(entries)
    for (const passkey of passkeys[ada.email] ?? []) expect(text).not.toContain(passkey.id)
  })

  it('adds a passkey only within 15 minutes of signing in, and only from its own ceremony', async () => {
    const old = await session(rita.email)
    later(16)
    const start = await lastId()
    const refused = await addPasskey(old, rita.email, 'Phone')
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error).toMatch(/sign out and sign in again/)
    // A ceremony begun by Ada, answered from Rita's session, adds nothing to either.
    const fresh = await session(rita.email)
    const adas = await post(await session(ada.email), '/api/me/passkeys/options', { name: 'X' })
    const stolen = await post(fresh, '/api/me/passkeys/add', {
      ceremony: adas.json().ceremony,
      response: Passkey.create().register(adas.json().options, ORIGIN),
      name: 'X',
    })
    expect(stolen.statusCode).toBe(403)
    expect((await listed(fresh)).length).toBe(0)
    expect((await listed(await session(ada.email))).length).toBe(2)
    const codes = (await entriesAfter(start))
      .filter((entry) => entry.action === 'refusal')
      .map((entry) => entry.details.code)
    expect(codes).toEqual(['not-recent', 'ceremony-not-yours'])
    // A name is 1 to 60 characters, refused and recorded otherwise.
    const long = await post(fresh, '/api/me/passkeys/options', { name: 'x'.repeat(61) })
    expect(long.statusCode).toBe(422)
    expect((await entriesAfter(start)).at(-1)).toMatchObject({ action: 'refusal' })
  })

  it('removes only one’s own passkeys, the last only when confirmed, never the last administrator’s', async () => {
    const adas = await session(ada.email)
    const [first, second] = await listed(adas)
    const ritas = await session(rita.email)
    expect((await addPasskey(ritas, rita.email, 'Rita’s phone')).statusCode).toBe(200)
    const start = await lastId()
    // Rita names Ada's passkey: it is not hers, so it is not found among hers.
    const foreign = await post(ritas, '/api/me/passkeys/remove', { passkey: first?.ref })
    expect(foreign.statusCode).toBe(403)
    expect((await listed(adas)).length).toBe(2)
    // Rita's only passkey: refused until she confirms, then removed.
    const [own] = await listed(ritas)
    const unconfirmed = await post(ritas, '/api/me/passkeys/remove', { passkey: own?.ref })
    expect(unconfirmed.statusCode).toBe(403)
    expect(unconfirmed.json().error).toMatch(/only passkey/)
    const confirmed = await post(ritas, '/api/me/passkeys/remove', {
      passkey: own?.ref,
      confirm: 'yes',
    })
    expect(confirmed.statusCode).toBe(200)
    expect(await signIn(passkeys[rita.email]?.[0] as Passkey)).toBe(401)
    // Ada removes one of two: no confirmation needed; that passkey no longer signs in.
    expect((await post(adas, '/api/me/passkeys/remove', { passkey: second?.ref })).statusCode).toBe(
      200,
    )
    expect(await signIn(passkeys[ada.email]?.[1] as Passkey)).toBe(401)
    expect(await me(String(await signIn(passkeys[ada.email]?.[0] as Passkey)))).toBe(200)

    // Anna is the only administrator with a passkey (Bob has none): she may not remove it.
    const annas = await session(anna.email)
    expect((await addPasskey(annas, anna.email, 'Anna’s key')).statusCode).toBe(200)
    const [annasKey] = await listed(annas)
    const last = await post(annas, '/api/me/passkeys/remove', {
      passkey: annasKey?.ref,
      confirm: 'yes',
    })
    expect(last.statusCode).toBe(403)
    expect(last.json().error).toMatch(/No other administrator could sign in/)

    const entries = await entriesAfter(start)
    expect(
      entries.filter((entry) => entry.action === 'refusal').map((entry) => entry.details.code),
    ).toEqual(['unknown-passkey', 'last-passkey', 'last-administrator'])
    expect(
      entries.filter((entry) => entry.action === 'passkey-remove').map((entry) => entry.details),
    ).toEqual([
      {
        passkey: own?.ref,
        name: 'Rita’s phone',
        last: 'confirmed: a reset is needed to sign in again',
      },
      { passkey: second?.ref, name: 'Phone (2026)' },
    ])
  })

  it('ends one’s other sessions, and an administrator ends all of a person’s', async () => {
    const here = await session(ada.email)
    const elsewhere = await session(ada.email)
    const start = await lastId()
    const ended = await post(here, '/api/me/sessions/end-others', {})
    expect(ended.statusCode).toBe(200)
    expect(ended.json().ended).toBeGreaterThanOrEqual(1)
    expect(await me(elsewhere)).toBe(401)
    expect(await me(here)).toBe(200)
    // Only administrators end another person's sessions.
    const refused = await post(here, '/api/people/end-sessions', { email: anna.email })
    expect(refused.statusCode).toBe(403)
    const bobs = await session(bob.email)
    const all = await post(bobs, '/api/people/end-sessions', { email: ada.email })
    expect(all.statusCode).toBe(200)
    expect(all.json()).toMatchObject({ ended: 1, done: '1 Sitzung beendet.' })
    expect(await me(here)).toBe(401)
    const entries = await entriesAfter(start)
    expect(entries.map((entry) => [entry.actor, entry.action, entry.subject])).toEqual([
      [ada.email, 'sessions-end', ada.email],
      [ada.email, 'refusal', 'people'],
      [bob.email, 'sessions-end', ada.email],
    ])
  })

  it('an administrator resets a lost passkey: the same person comes back, history kept, approving roles once a second administrator confirms', async () => {
    // Ada's history before: a choice she made, under her address.
    const before = await session(ada.email)
    expect((await post(before, '/api/me/notices', { notices: 'off' })).statusCode).toBe(200)
    const annas = await session(anna.email)
    const start = await lastId()
    // Not by Ada herself, not by an administrator for themselves.
    expect((await post(before, '/api/people/reset-sign-in', { email: ada.email })).statusCode).toBe(
      403,
    )
    const own = await post(annas, '/api/people/reset-sign-in', { email: anna.email })
    expect(own.statusCode).toBe(403)
    expect(own.json().error).toMatch(/cannot reset your own sign-in/)
    // A GET changes nothing.
    expect((await get(annas, '/api/people/reset-sign-in')).statusCode).toBe(404)
    // Nor from another site.
    const forged = await post(
      annas,
      '/api/people/reset-sign-in',
      { email: ada.email },
      { origin: 'https://evil.example' },
    )
    expect(forged.statusCode).toBe(403)

    const reset = await post(annas, '/api/people/reset-sign-in', { email: ada.email })
    expect(reset.statusCode).toBe(200)
    // Whoever holds the link holds Ada's roles: the reviewer's waits for a second
    // administrator, as a grant does (Anna's word alone would let her approve as Ada).
    expect(reset.json().waiting).toEqual(['reviewer'])
    const token = String(reset.json().link).split('#')[1] ?? ''
    expect(await me(before)).toBe(401)
    expect(await signIn(passkeys[ada.email]?.[0] as Passkey)).toBe(401)
    // An invitation is still refused: she has an account.
    const invited = await post(annas, '/api/people/invite', { email: ada.email, roles: ['author'] })
    expect(invited.statusCode).toBe(422)
    expect(invited.json().error).toMatch(/reset their sign-in/)

    const about = await post(undefined, '/invitation/about', { token })
    expect(about.json()).toEqual({ first: false, roles: ['author'], reset: true })
    const options = await post(undefined, '/invitation/options', { token })
    expect(options.statusCode).toBe(200)
    const newKey = Passkey.create()
    const accepted = await post(undefined, '/invitation/accept', {
      token,
      ceremony: options.json().ceremony,
      response: newKey.register(options.json().options, ORIGIN),
    })
    expect(accepted.statusCode).toBe(200)
    const cookie = String(accepted.headers['set-cookie']).split(';')[0] ?? ''
    expect((await get(cookie, '/api/me')).json()).toMatchObject({ roles: ['author'] })
    // Not confirmed by the administrator who reset her; by the other, and then it is back.
    const [grant] = (await listGrants(service.database, now)).filter(
      (waiting) => waiting.email === ada.email && waiting.via === 'reset',
    )
    expect(grant).toMatchObject({ roles: ['reviewer'], proposedBy: anna.email, state: 'pending' })
    const byAnna = await post(annas, '/api/people/grants/confirm', { id: grant?.id })
    expect(byAnna.statusCode).toBe(403)
    const bobs = await session(bob.email)
    expect((await post(bobs, '/api/people/grants/confirm', { id: grant?.id })).statusCode).toBe(200)
    const back = await get(cookie, '/api/me')
    expect(back.json()).toMatchObject({ email: ada.email, roles: ['author', 'reviewer'] })
    expect(back.json().notices).toBe(false)
    expect(await me(String(await signIn(newKey)))).toBe(200)
    // The link works once.
    expect((await post(undefined, '/invitation/about', { token })).statusCode).toBe(410)
    // One Ada, not two.
    expect((await listPeople(service.database)).filter((p) => p.email === ada.email)).toHaveLength(
      1,
    )

    const entries = await entriesAfter(start)
    expect(
      entries.filter((entry) => entry.action === 'refusal').map((e) => e.details.code),
    ).toEqual([
      'role',
      'own-reset',
      'wrong-origin',
      // The invitation refused (422), recorded by the HTTP layer as every other refusal.
      'request',
      // Anna may not confirm the grant she proposed by resetting.
      'own-grant',
    ])
    const resetEntry = entries.find((entry) => entry.action === 'sign-in-reset')
    expect(resetEntry).toMatchObject({ actor: anna.email, subject: ada.email })
    expect(resetEntry?.details).toMatchObject({
      passkeysRemoved: [expect.objectContaining({ name: 'Work laptop' })],
      sessionsEnded: expect.any(Number),
      rolesKept: ['author'],
      rolesWaiting: ['reviewer'],
    })
    expect(entries.find((entry) => entry.action === 'grant-confirm')).toMatchObject({
      actor: bob.email,
      subject: ada.email,
      details: { roles: ['reviewer'], proposedBy: anna.email, was: 'pending' },
    })
    expect(entries.find((entry) => entry.action === 'passkey-add')).toMatchObject({
      actor: ada.email,
      details: { via: 'reset link', name: null },
    })
    expect(entries.find((entry) => entry.action === 'sign-in')).toMatchObject({
      actor: ada.email,
      details: { method: 'passkey', reset: true },
    })
    // Her history before the reset is still hers.
    const all = await readAudit(service.database, { limit: 10_000 })
    expect(
      all.some((entry) => entry.actor === ada.email && entry.action === 'notice-setting'),
    ).toBe(true)
    expect(JSON.stringify(entries)).not.toContain(passkeys[ada.email]?.[0]?.id)
  })

  it('never leaves the service without an administrator able to sign in', async () => {
    // Bob (no passkey, signed in by session) may not reset Anna, the only one with a passkey.
    const bobs = await session(bob.email)
    const refused = await post(bobs, '/api/people/reset-sign-in', { email: anna.email })
    expect(refused.statusCode).toBe(403)
    expect(refused.json().error).toMatch(/niemand sonst mit Administrationsrechten/)
    // With a passkey of his own, he may: Anna then comes back by her link.
    expect((await addPasskey(bobs, bob.email, 'Bobs Schlüssel')).statusCode).toBe(200)
    const reset = await post(bobs, '/api/people/reset-sign-in', { email: anna.email })
    expect(reset.statusCode).toBe(200)
    // Bob is the only administrator who could confirm her roles, and he reset her: they stay
    // in effect, unconfirmed (an alert fires while they are), as a grant made by the only one.
    expect(reset.json().waiting).toEqual([])
    const annaNow = (await listPeople(service.database)).find((p) => p.email === anna.email)
    expect(annaNow?.roles).toContain('administrator')
    expect(
      (await listGrants(service.database, now)).filter((grant) => grant.email === anna.email),
    ).toMatchObject([{ via: 'reset', awaiting: 'unconfirmed' }])
    // A second reset replaces the first link, which says so.
    const again = await post(bobs, '/api/people/reset-sign-in', { email: anna.email })
    const first = String(reset.json().link).split('#')[1] ?? ''
    const replaced = await post(undefined, '/invitation/about', { token: first })
    expect(replaced.statusCode).toBe(410)
    expect(replaced.json().error).toMatch(/replaced by a newer invitation/)
    expect(again.statusCode).toBe(200)
  })

  it('shows the pages in German, and the chain stays intact', async () => {
    const bobs = await session(bob.email)
    const page = markup((await get(bobs, '/me/sign-in')).body)
    expect(page).toContain('<h1>Ihre Anmeldung</h1>')
    expect(page).toContain('Passkey hinzufügen')
    const people = markup((await get(bobs, '/people')).body)
    expect(people).toContain('Anmeldung zurücksetzen')
    expect(people).toContain('Alle Sitzungen beenden')
    // Not offered for himself: his own are on "Your sign-in".
    expect(people).not.toMatch(
      /value="bob@bank.example">\s*<button[^>]*aria-describedby="person-\d+ reset-hint"/,
    )
    expect((await verifyAudit(service.database)).ok).toBe(true)
  })
})
