/**
 * Role grants through the publishing service's HTTP API and its people page: an administrator
 * with a second identity of her own cannot give it the reviewer's and publisher's roles alone
 * while another administrator exists; the other confirms on /people, where each grant waiting
 * is listed with the buttons the rules allow the viewer; a replaced invitation link says so in
 * the browser's language; and every step and refusal is in the trail.
 */

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../../src/engine/config'
import { CHECKPOINT_REF } from '../../../../src/publishing/audit/anchors'
import { readAudit, verifyAudit } from '../../../../src/publishing/audit/trail'
import { createPublishingApp, SESSION_COOKIE } from '../../../../src/publishing/http/app'
import {
  acceptInvitation,
  sessionPerson,
  startSession,
} from '../../../../src/publishing/people/people'
import type { PublishingService } from '../../../../src/publishing/service'
import { RefusedError } from '../../../../src/publishing/workflow/drafts'
import { documentOf, markup } from '../../../support/html'
import { addPeople, person } from '../../../support/people'
import { ABOUT, approveSeen, openServiceWithStandInBuild } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ORIGIN = 'http://localhost:8081'
const anna = person('anna@bank.example', ['administrator', 'author'])
const bob = person('bob@bank.example', ['administrator'], 'de')
const SECOND = 'anna.private@mail.example'

let dir: string
let service: PublishingService
let app: FastifyInstance
const cookie: Record<string, string> = {}

beforeAll(async () => {
  dir = await temporaryFolder('publishing-grants-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  service = await openServiceWithStandInBuild({
    DATA_DIR: join(dir, 'data'),
    PUBLISHING_REMOTE: remote.gitDir,
    AUDIT_KEY: 'the bank’s audit key kept in its vault (32+)',
  })
  app = await createPublishingApp(service, { logLevel: 'silent' })
  await addPeople(service.database, [anna, bob])
  for (const { email } of [anna, bob]) {
    cookie[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
  }
}, 60_000)

afterAll(async () => {
  await app?.close()
  await service?.close()
  if (dir) await removeFolder(dir)
})

const post = (who: string | undefined, url: string, payload: object, language = 'en') =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      origin: ORIGIN,
      'content-type': 'application/json',
      'accept-language': language,
      ...(who ? { cookie: cookie[who] as string } : {}),
    },
    payload,
  })
const page = async (who: string) => {
  const answer = await app.inject({ url: '/people', headers: { cookie: cookie[who] as string } })
  expect(answer.statusCode).toBe(200)
  return markup(answer.body)
}
const entries = async (after: number) =>
  (await readAudit(service.database, { afterId: after, limit: 10_000 })).map(
    ({ actor, action, subject, details }) => ({ actor, action, subject, details }),
  )
const lastId = async () =>
  (await readAudit(service.database, { newestFirst: true, limit: 1 }))[0]?.id ?? 0

describe('role grants over HTTP', () => {
  it('finding 4: a second identity gets no approving role from one administrator while another exists; the other confirms on /people', async () => {
    const start = await lastId()
    const invited = await post(anna.email, '/api/people/invite', {
      email: SECOND,
      roles: ['reviewer', 'publisher'],
    })
    expect(invited.statusCode).toBe(200)
    expect(invited.json().grant).toMatchObject({ state: 'pending' })
    const token = String(invited.json().link).split('#')[1] ?? ''
    // The link says what it gives now: nothing yet, the two roles waiting.
    const about = await post(undefined, '/invitation/about', { token })
    expect(about.json()).toEqual({ first: false, roles: [], pending: ['reviewer', 'publisher'] })
    await acceptInvitation(service.database, token, { name: 'Anna (private)' })
    cookie[SECOND] = `${SESSION_COOKIE}=${(await startSession(service.database, SECOND)).token}`

    // Anna writes and submits; her second identity may neither approve nor publish.
    const text = (await readFile(join(ROOT, ABOUT), 'utf8')).replace(/^title: .*$/m, 'title: Alone')
    await service.drafts.save(anna, 'pages/about', [{ path: ABOUT, content: text }], 'Alone')
    await service.drafts.setStatus(anna, 'pages/about', 'pending_review')
    const second = await sessionPerson(
      service.database,
      (cookie[SECOND] as string).split('=')[1] as string,
    )
    expect(second?.roles).toEqual([])
    await expect(
      approveSeen(service.drafts, second as never, 'pages/about'),
    ).rejects.toBeInstanceOf(RefusedError)

    // The page lists the grant: Anna is told why she may not confirm it, Bob is offered it.
    const annas = await page(anna.email)
    expect(annas).toContain('anna.private@mail.example')
    expect(annas).toContain('You proposed this grant, so you may not confirm it')
    expect(annas).not.toContain('data-action="/api/people/grants/confirm"')
    expect(annas).toContain('>Withdraw</button>')
    const bobs = await page(bob.email)
    const item = /<li><h3 id="grant-(\d+)">([^<]*)<\/h3>[\s\S]*?<\/li>/.exec(bobs)
    expect(item?.[2]).toBe('Prüfung, Veröffentlichung für anna.private@mail.example')
    expect(item?.[0]).toContain('Wartet: noch nicht wirksam')
    expect(item?.[0]).toContain(
      `<button type="submit" aria-describedby="grant-${item?.[1]}" disabled>Bestätigen</button>`,
    )
    expect(item?.[0]).toContain('>Ablehnen</button>')
    // Her roles' form ticks the waiting ones and says so: saving it again keeps the grant.
    const box = documentOf(bobs).querySelector<HTMLInputElement>('#p0-reviewer')
    expect(box?.checked).toBe(true)
    expect(box?.parentElement?.textContent).toBe(
      ' Prüfung (wartet auf eine zweite Administratorin oder einen zweiten Administrator)',
    )
    const id = Number(item?.[1])

    // Anna's own confirmation, and her second identity's, are refused and recorded.
    const own = await post(anna.email, '/api/people/grants/confirm', { id })
    expect(own.statusCode).toBe(403)
    expect(own.json().error).toMatch(/You proposed this grant/)
    const self = await post(SECOND, '/api/people/grants/confirm', { id })
    expect(self.statusCode).toBe(403)
    expect(self.json().error).toMatch(/administrator/)

    const confirmed = await post(bob.email, '/api/people/grants/confirm', { id })
    expect(confirmed.statusCode).toBe(200)
    const now = await sessionPerson(
      service.database,
      (cookie[SECOND] as string).split('=')[1] as string,
    )
    expect(now?.roles).toEqual(['reviewer', 'publisher'])
    await approveSeen(service.drafts, now as never, 'pages/about')
    expect(await page(bob.email)).toContain('Keine Rechtevergabe wartet.')

    const trail = await entries(start)
    expect(trail.map((entry) => [entry.actor, entry.action, entry.details.code ?? ''])).toEqual([
      [anna.email, 'grant', ''],
      [anna.email, 'invite', ''],
      [anna.email, 'save', ''],
      [anna.email, 'submit', ''],
      [SECOND, 'refusal', 'role'],
      [anna.email, 'refusal', 'own-grant'],
      [SECOND, 'refusal', 'role'],
      [bob.email, 'grant-confirm', ''],
      [SECOND, 'approve', ''],
    ])
    expect(await verifyAudit(service.database)).toMatchObject({ ok: true })
  })

  it('anchors a grant of roles in git before its answer; a refusal waits for the timer', async () => {
    const anchored = async () => {
      const message = (
        await service.repo.git(['log', '-1', '--format=%B', CHECKPOINT_REF])
      ).toString('utf8')
      return Number(
        /^Audit-Trail: (\d+) [0-9a-f]{64} [0-9a-f]{16} [0-9a-f]{64}$/m.exec(message)?.[1],
      )
    }
    const invited = await post(anna.email, '/api/people/invite', {
      email: 'carla@bank.example',
      roles: ['author'],
    })
    expect(invited.statusCode).toBe(200)
    // The checkpoint names the trail as it stood when the answer left: the invitation in it.
    const granted = await lastId()
    expect((await readAudit(service.database, { afterId: granted - 1 }))[0]?.action).toBe('invite')
    expect(await anchored()).toBe(granted)
    const refused = await post(anna.email, '/api/people/grants/confirm', { id: 999_999 })
    expect(refused.statusCode).toBeGreaterThanOrEqual(400)
    expect(await lastId()).toBeGreaterThan(granted)
    expect(await anchored()).toBe(granted)
  })

  it('says a replaced invitation link was replaced, in the browser’s language, and takes the newest', async () => {
    const older = await post(anna.email, '/api/people/invite', {
      email: 'otto@bank.example',
      roles: ['author'],
    })
    const newer = await post(anna.email, '/api/people/invite', {
      email: 'otto@bank.example',
      roles: ['author'],
    })
    const token = (answer: typeof older) => String(answer.json().link).split('#')[1]
    for (const path of ['/invitation/about', '/invitation/options', '/invitation/accept']) {
      const english = await post(undefined, path, { token: token(older), name: 'Otto' })
      expect(english.statusCode, path).toBeGreaterThanOrEqual(400)
      expect(english.json().error, path).toBe(
        'This invitation link was replaced by a newer invitation for the same address: use the newest link you were sent, or ask an administrator for one.',
      )
    }
    const german = await post(undefined, '/invitation/about', { token: token(older) }, 'de-DE')
    expect(german.statusCode).toBe(410)
    expect(german.json().error).toMatch(/^Dieser Einladungslink wurde durch eine neuere Einladung/)
    const used = await post(undefined, '/invitation/about', { token: 'no-such-link' })
    expect(used.json().error).toMatch(/used already or has expired/)
    const current = await post(undefined, '/invitation/about', { token: token(newer) })
    expect(current.json()).toEqual({ first: false, roles: ['author'] })
  })

  it('refuses what it cannot do about people in the administrator’s own language', async () => {
    const german = async (path: string, payload: object) => {
      const answer = await post(bob.email, path, payload)
      expect(answer.statusCode, path).toBe(422)
      return answer.json().error as string
    }
    expect(await german('/api/people/invite', { email: 'otto@bank.example', roles: [] })).toBe(
      'Eine Person braucht mindestens eine Rolle: Kreuzen Sie eine an.',
    )
    expect(await german('/api/people/invite', { email: 'otto', roles: ['author'] })).toBe(
      'Keine E-Mail-Adresse: "otto".',
    )
    expect(await german('/api/people/invite', { email: anna.email, roles: ['author'] })).toMatch(
      /^anna@bank\.example kann sich schon anmelden: Ändern Sie stattdessen die Rollen/,
    )
    expect(await german('/api/people/disable', { email: bob.email })).toBe(
      'Ihren eigenen Zugang können Sie nicht entziehen: Bitten Sie eine andere Person der Administration darum.',
    )
    // The English administrator reads the same in English.
    const english = await post(anna.email, '/api/people/invite', { email: 'otto@bank.example' })
    expect(english.json().error).toBe('A person needs at least one role: tick one.')
  })

  it('refuses the audit trail and people to a reviewer with a page that names each, and logs no error', async () => {
    const lines: string[] = []
    const logged = await createPublishingApp(service, {
      logLevel: 'warn',
      logStream: { write: (line) => lines.push(line) },
    })
    const rita = person('rita.reviewer@bank.example', ['reviewer'], 'de')
    await addPeople(service.database, [rita])
    const own = `${SESSION_COOKIE}=${(await startSession(service.database, rita.email)).token}`
    const refused = async (url: string) => {
      const answer = await logged.inject({ url, headers: { cookie: own } })
      expect(answer.statusCode, url).toBe(403)
      return documentOf(answer.body).querySelector('main p')?.textContent
    }
    expect(await refused('/audit')).toMatch(
      /^Nur Personen mit der Rolle „Administration“ dürfen den Prüfpfad lesen/,
    )
    expect(await refused('/audit.csv')).toMatch(/dürfen den Prüfpfad lesen/)
    expect(await refused('/people')).toMatch(/dürfen Personen und Rollen verwalten/)
    const post = await logged.inject({
      method: 'POST',
      url: '/api/people/invite',
      headers: { cookie: own, origin: ORIGIN, 'content-type': 'application/json' },
      payload: { email: 'otto@bank.example', roles: ['author'] },
    })
    expect(post.statusCode).toBe(403)
    await logged.close()
    // The refusal was answered once: no "reply was already sent", no failed request.
    expect(lines.join('')).toBe('')
  })

  it('offers no change of roles for someone without access, and refuses one, recorded', async () => {
    await addPeople(service.database, [person('gone@bank.example', ['author', 'publisher'])])
    expect(
      (await post(anna.email, '/api/people/disable', { email: 'gone@bank.example' })).statusCode,
    ).toBe(200)
    const html = await page(anna.email)
    const item = html.slice(html.indexOf('gone@bank.example'))
    expect(item.slice(0, item.indexOf('</li>'))).toContain(
      'Invite them again to give them access: they come back with the new invitation’s roles only.',
    )
    const start = await lastId()
    const refused = await post(anna.email, '/api/people/roles', {
      email: 'gone@bank.example',
      roles: ['author', 'publisher'],
    })
    expect(refused.statusCode).toBe(422)
    expect(refused.json().error).toMatch(/has no access: invite them again/)
    expect((await entries(start)).map((entry) => [entry.action, entry.details.code])).toEqual([
      ['refusal', 'request'],
    ])
  })

  it('gives an approving role at once while one administrator is left, and marks it unconfirmed on the page and in the trail', async () => {
    expect((await post(anna.email, '/api/people/disable', { email: bob.email })).statusCode).toBe(
      200,
    )
    await addPeople(service.database, [person('paula@bank.example', ['author'])])
    const start = await lastId()
    const changed = await post(anna.email, '/api/people/roles', {
      email: 'paula@bank.example',
      roles: ['author', 'publisher'],
    })
    expect(changed.json()).toMatchObject({ roles: ['author', 'publisher'], pending: [] })
    const html = await page(anna.email)
    expect(html).toContain(
      'One grant of an approving role took effect without a second administrator’s confirmation (marked “unconfirmed”).',
    )
    expect(html).toContain(
      'Roles: author, publisher <strong class="unconfirmed">(unconfirmed)</strong>',
    )
    const item = /<li><h3 id="grant-\d+">publisher for paula@bank.example<\/h3>[\s\S]*?<\/li>/.exec(
      html,
    )?.[0]
    expect(item).toContain('In effect, unconfirmed: given by one administrator alone')
    expect(item).toContain(
      'No administrator can confirm it yet: neither the one who proposed it nor the person it is for may.',
    )
    expect((await entries(start)).map((entry) => [entry.action, entry.details.state])).toEqual([
      ['role-change', undefined],
      ['grant', 'unconfirmed'],
    ])
  })
})
