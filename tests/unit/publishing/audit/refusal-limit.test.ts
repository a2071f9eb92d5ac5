/**
 * Two small findings of an attacker's probe, through the service's real routes: one author
 * wrote about 9,300 refusals a minute into the audit trail (now a minute's share one by one,
 * the rest counted into one entry, every answer as before); and an image named with 300
 * characters answered 500 with the server's temporary path (now 400, naming field and limit).
 */
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUSALS_PER_MINUTE } from '../../../../src/publishing/audit/refusal-limit'
import { type AuditEntry, readAudit, verifyAudit } from '../../../../src/publishing/audit/trail'
import { createPublishingApp, SESSION_COOKIE } from '../../../../src/publishing/http/app'
import { startSession } from '../../../../src/publishing/people/people'
import type { PublishingService } from '../../../../src/publishing/service'
import { ada, addPeople, rita } from '../../../support/people'
import { openServiceWithStandInBuild } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ORIGIN = 'http://localhost:8081'
const START = Date.UTC(2026, 10, 29, 9, 0, 0)
let now = START
let dir: string
let service: PublishingService
let app: FastifyInstance
const cookie: Record<string, string> = {}

beforeAll(async () => {
  dir = await temporaryFolder('publishing-refusal-limits-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir }
  service = await openServiceWithStandInBuild(env, () => new Date(now))
  app = await createPublishingApp(service, { logLevel: 'silent' })
  await addPeople(service.database, [ada, rita])
  for (const { email } of [ada, rita]) {
    cookie[email] = `${SESSION_COOKIE}=${(await startSession(service.database, email)).token}`
  }
})

afterAll(async () => {
  await app.close()
  await service.close()
  await removeFolder(dir)
})

const cms = (email: string, action: string, params: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: '/api/cms',
    headers: {
      cookie: cookie[email] as string,
      origin: ORIGIN,
      'content-type': 'application/json',
    },
    payload: { action, params },
  })

/** A save outside the workflow: refused (403) by the editor's protocol, and recorded. */
const refusedSave = (email: string) =>
  cms(email, 'persistEntry', {
    dataFiles: [{ path: 'content/pages/en/about.yaml', slug: 'about', raw: 'title: x\n' }],
    assets: [],
    options: { collectionName: 'pages', useWorkflow: false },
  })

const refusalsOf = async (email: string): Promise<AuditEntry[]> =>
  (await readAudit(service.database, { limit: 100_000 })).filter(
    (entry) => entry.action === 'refusal' && entry.actor === email,
  )

/** Sends `count` refused saves as `email`; every answer the same 403. */
async function refuse(email: string, count: number) {
  const first = await refusedSave(email)
  expect(first.statusCode).toBe(403)
  for (let sent = 1; sent < count; sent++) {
    const answer = await refusedSave(email)
    expect({ status: answer.statusCode, body: answer.body }).toEqual({
      status: 403,
      body: first.body,
    })
  }
}

describe('a person’s refusals in the trail', () => {
  it('writes a minute’s share one by one, then counts the rest into one entry when the minute ends', async () => {
    await refuse(ada.email, REFUSALS_PER_MINUTE)
    expect(await refusalsOf(ada.email)).toHaveLength(REFUSALS_PER_MINUTE)
    // The minute's last seconds (its end is a timer of real time: three seconds from here),
    // 20 more, answered alike, written as nothing yet.
    now = START + 57_000
    await refuse(ada.email, 20)
    expect(await refusalsOf(ada.email)).toHaveLength(REFUSALS_PER_MINUTE)
    // Someone else's refusals are theirs: written.
    await refuse(rita.email, 2)
    expect(await refusalsOf(rita.email)).toHaveLength(2)
    // The minute ends: one entry says how many were held.
    let summary: AuditEntry | undefined
    for (let waited = 0; !summary && waited < 200; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      summary = (await refusalsOf(ada.email)).find(
        (entry) => entry.details.code === 'refusals-held',
      )
    }
    expect(summary).toMatchObject({
      actor: ada.email,
      subject: `refusals of ${ada.email}`,
      at: new Date(START + 60_000).toISOString(),
      details: {
        code: 'refusals-held',
        count: 20,
        codes: { request: 20 },
        from: new Date(START).toISOString(),
        until: new Date(START + 60_000).toISOString(),
      },
    })
    expect(String(summary?.details.reason)).toMatch(/^20 more refusals of ada@bank\.example/)
    expect(await refusalsOf(ada.email)).toHaveLength(REFUSALS_PER_MINUTE + 1)
    expect(await verifyAudit(service.database)).toMatchObject({ ok: true })
  })

  it('writes what a minute held before the person’s next entry, at the latest', async () => {
    now = START + 120_000
    const before = (await refusalsOf(ada.email)).length
    await refuse(ada.email, REFUSALS_PER_MINUTE + 10)
    expect(await refusalsOf(ada.email)).toHaveLength(before + REFUSALS_PER_MINUTE)
    // A new minute, before the old one's timer: its count first, then the new refusal.
    now = START + 185_000
    await refuse(ada.email, 1)
    const [held, next] = (await refusalsOf(ada.email)).slice(-2)
    expect(held?.details).toMatchObject({ code: 'refusals-held', count: 10 })
    expect(next?.details).toMatchObject({ code: 'request' })
    expect(await verifyAudit(service.database)).toMatchObject({ ok: true })
  })
})

describe('an image’s name', () => {
  it('of 300 characters is refused with 400, naming the field and the limit and no path of the server', async () => {
    now = START + 600_000
    const name = `${'a'.repeat(296)}.svg`
    const image = {
      path: `public/images/blog/${name}`,
      content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
      encoding: 'base64',
    }
    const alone = await cms(ada.email, 'persistMedia', { asset: image })
    expect(alone.statusCode).toBe(400)
    expect(alone.json().error).toMatch(
      /^asset\.path: the name "a{40}…" is 300 characters long; a file’s or folder’s name may be 100 characters at most/,
    )
    const withEntry = await cms(ada.email, 'persistEntry', {
      dataFiles: [{ path: 'content/pages/en/about.yaml', slug: 'about', raw: 'title: x\n' }],
      assets: [image],
      options: { collectionName: 'pages', useWorkflow: true },
    })
    expect(withEntry.statusCode).toBe(400)
    expect(withEntry.json().error).toMatch(/^assets\[0\]\.path: .* 100 characters at most/)
    for (const answer of [alone, withEntry]) {
      expect(answer.body).not.toContain(tmpdir())
      expect(answer.body).not.toContain('publishing-')
    }
    expect(await service.drafts.ids()).toEqual([])
  })
})
