/**
 * Rollback through the service's HTTP API and its releases page: a publisher rolls back one
 * step alone (an emergency, marked so); further back, the rollback waits for a reviewer, whom
 * the page offers a Confirm button (in their language), and it is done when one confirms it;
 * the page then says what came back and what went, who asked and who confirmed.
 */

import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readAudit } from '../../../../src/publishing/audit/trail'
import { createPublishingApp, SESSION_COOKIE } from '../../../../src/publishing/http/app'
import { startSession } from '../../../../src/publishing/people/people'
import type { Release } from '../../../../src/publishing/publication/release-records'
import type { PublishingService } from '../../../../src/publishing/service'
import { markup } from '../../../support/html'
import { ada, addPeople, paul, person, rita } from '../../../support/people'
import { ABOUT, approvedDraft, openServiceWithStandInBuild } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ORIGIN = 'http://localhost:8081'
/** A reviewer whose editor speaks German. */
const rolf = person('rolf@bank.example', ['reviewer'], 'de')

let dir: string
let service: PublishingService
let app: FastifyInstance
const cookie: Record<string, string> = {}

beforeAll(async () => {
  dir = await temporaryFolder('publishing-rollback-http-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  service = await openServiceWithStandInBuild({
    DATA_DIR: join(dir, 'data'),
    PUBLISHING_REMOTE: remote.gitDir,
  })
  app = await createPublishingApp(service, { logLevel: 'silent' })
  await addPeople(service.database, [ada, rita, paul, rolf])
  for (const { email } of [ada, rita, paul, rolf]) {
    cookie[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
  }
}, 120_000)

afterAll(async () => {
  await app?.close()
  await service?.close()
  await removeFolder(dir)
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

/** The releases page's items as `email` sees them, the live one first. */
const releasesAs = async (email: string) => {
  const page = markup((await as(email, 'GET', '/releases')).body)
  return { page, items: page.split('<li aria-labelledby="release-').slice(1) }
}

describe('rollback on the releases page', () => {
  it('rolls back one step alone as an emergency, and further back only once a reviewer confirms it', async () => {
    const published: Release[] = []
    for (const title of ['First', 'Second', 'Third']) {
      await approvedDraft(service.drafts, title)
      published.push(await service.publisher.publish(paul, 'pages/about'))
    }
    const [first, second, third] = published as [Release, Release, Release]

    // The publisher is offered an emergency's rollback one step back, a request further back.
    let { items } = await releasesAs(paul.email)
    expect(items[0]).toContain('(live)')
    expect(items[0]).not.toContain('Roll back')
    expect(items[1]).toContain(second.folder)
    expect(items[1]).toContain('Roll back to this release now (emergency)')
    expect(items[2]).toContain(first.folder)
    expect(items[2]).toContain('Ask to roll back to this release (a reviewer confirms it)')
    expect((await releasesAs(ada.email)).page).not.toMatch(/[Rr]oll back to this release/)
    expect(
      (await as(ada.email, 'POST', '/api/releases/rollback', { folder: first.folder })).statusCode,
    ).toBe(403)

    // Asked for two steps back: it waits, and nothing changes.
    const asked = await as(paul.email, 'POST', '/api/releases/rollback', { folder: first.folder })
    expect(asked.statusCode).toBe(202)
    expect(asked.json()).toMatchObject({
      folder: first.folder,
      waiting: expect.stringMatching(/a reviewer who did not ask for it must confirm it/),
    })
    const id = asked.json().request as number
    expect(await service.releases.current()).toBe(third.folder)
    ;({ items } = await releasesAs(paul.email))
    expect(items[2]).toContain('A rollback to this release is waiting for a reviewer')
    const request = `<li aria-labelledby="request-${id}">`
    const byPaul = (await releasesAs(paul.email)).page
    expect(byPaul).toContain(request)
    expect(byPaul).toContain('Asked for by paul')
    expect(byPaul).not.toContain('Confirm and roll back')

    // A reviewer sees it with what it would bring back and undo, and a Confirm button.
    const byRita = (await releasesAs(rita.email)).page
    const waiting = byRita.slice(byRita.indexOf(request))
    expect(byRita).toContain('<h2>Rollbacks waiting for a reviewer</h2>')
    expect(waiting).toContain(
      'Would change back:</p><ul><li><code>content/en/pages/about.yaml</code>',
    )
    expect(waiting).toContain('Publications it would undo:</p><ul><li><code>pages/about</code>')
    expect(waiting).toContain('The content coming back was written by ada.')
    // It asks before it rolls back.
    expect(waiting).toMatch(
      new RegExp(
        `<form data-action="/api/releases/confirm" data-reload data-confirm="Roll the live site back to the release of [^"]+\\? Every visitor sees that version within seconds."><input type="hidden" name="id" value="${id}">`,
      ),
    )
    expect(waiting).toContain('Confirm and roll back')
    expect((await releasesAs(rolf.email)).page).toContain('Bestätigen und zurücksetzen')

    const confirmed = await as(rita.email, 'POST', '/api/releases/confirm', { id })
    expect(confirmed.statusCode).toBe(200)
    expect(confirmed.json()).toMatchObject({ folder: first.folder })
    expect(await service.releases.current()).toBe(first.folder)
    ;({ items } = await releasesAs(paul.email))
    expect(items[0]).toContain('(live)')
    expect(items[0]).toContain('Rolled back by rita, asked for by paul')
    expect(items[0]).toContain('Changed back:</p><ul><li><code>content/en/pages/about.yaml</code>')
    expect(items[0]).not.toContain('emergency')
    expect((await releasesAs(rita.email)).page).not.toContain(request)
    // Confirmed twice: refused, and in the trail.
    const twice = await as(rita.email, 'POST', '/api/releases/confirm', { id })
    expect(twice.statusCode).toBe(409)
    expect((await readAudit(service.database)).at(-1)).toMatchObject({
      actor: rita.email,
      action: 'refusal',
      subject: '/api/releases/confirm',
    })

    // One step back (the release it replaced), by the publisher alone: an emergency's.
    ;({ items } = await releasesAs(paul.email))
    expect(items.find((item) => item.includes(third.folder))).toContain(
      'Roll back to this release now (emergency)',
    )
    const emergency = await as(paul.email, 'POST', '/api/releases/rollback', {
      folder: third.folder,
    })
    expect(emergency.statusCode).toBe(200)
    expect(emergency.json()).toMatchObject({ folder: third.folder, emergency: true })
    ;({ items } = await releasesAs(paul.email))
    expect(items[0]).toContain(third.folder)
    expect(items[0]).toContain('<strong class="emergency">(emergency rollback)</strong>')
    expect((await releasesAs(rolf.email)).items[0]).toContain('(Zurücksetzung im Notfall)')
    const trail = await readAudit(service.database)
    expect(trail.filter((entry) => entry.action.startsWith('rollback'))).toMatchObject([
      { actor: paul.email, action: 'rollback-request', subject: first.folder },
      {
        actor: rita.email,
        action: 'rollback',
        subject: first.folder,
        details: { emergency: false, requestedBy: paul.email, confirmedBy: rita.email },
      },
      {
        actor: paul.email,
        action: 'rollback',
        subject: third.folder,
        details: { emergency: true, changes: [ABOUT], publications: [] },
      },
    ])
  }, 120_000)
})
