/**
 * A crash under load loses nothing acknowledged: the service is killed outright (SIGKILL, no
 * shutdown) while sign-ups pour in and its mails hang at a slow SMTP server, then started
 * again on the same data. Every acknowledged sign-up is stored, the database opens (PGlite's
 * lock of the dead process is taken over), and every queued mail, the ones the dead process
 * had claimed too, is delivered once.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/database/open'
import {
  databases,
  type Inbox,
  killFormsServer,
  linkIn,
  SITE_URL,
  signUp,
  spawnFormsServer,
  startSmtp,
  stopFormsServer,
  until,
} from '../../support/forms'
import { createSchema, type Schema } from '../../support/schema'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const SIGN_UPS = 60

describe.each(databases())('a crash under load on $name', (database) => {
  let inbox: Inbox
  let dataDir = ''
  let schema: Schema | undefined
  // A short lease on PostgreSQL, where another process could be alive; PGlite ends the dead
  // process's leases when it opens.
  const env: NodeJS.ProcessEnv = { DATABASE_URL: '', MAIL_LEASE_SECONDS: '2' }

  beforeAll(async () => {
    dataDir = await temporaryFolder('forms-crash-')
    env.DATA_DIR = dataDir
    inbox = await startSmtp()
    env.SMTP_URL = inbox.url
    if (database.url) {
      schema = await createSchema(database.url, 'crash')
      env.DATABASE_URL = schema.url
    } else {
      delete env.MAIL_LEASE_SECONDS
    }
  })
  afterAll(async () => {
    await inbox.close()
    await schema?.drop()
    await removeFolder(dataDir)
    await rm(`${dataDir}.lock`, { force: true })
  })

  it('keeps every acknowledged sign-up and sends its mail after the restart', async () => {
    // The SMTP server takes the connections but answers no recipient: mails hang in flight.
    inbox.hold()
    const first = await spawnFormsServer(env)
    const answers: string[] = new Array(SIGN_UPS).fill('not sent')
    let next = 0
    let killed: Promise<NodeJS.Signals | null> | undefined
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < SIGN_UPS) {
          const index = next++
          if (index === SIGN_UPS / 2) killed = killFormsServer(first)
          try {
            const response = await fetch(`${first.origin}/api/forms/newsletter`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(signUp(`crash${index}@example.com`)),
            })
            answers[index] = String(response.status)
          } catch {
            answers[index] = 'refused'
          }
        }
      }),
    )
    expect(await killed).toBe('SIGKILL')
    const acknowledged = answers.flatMap((answer, index) =>
      answer === '200' ? [`crash${index}@example.com`] : [],
    )
    expect(acknowledged.length).toBeGreaterThanOrEqual(SIGN_UPS / 2 - 6)
    expect(acknowledged.length).toBeLessThan(SIGN_UPS)
    expect(answers.every((answer) => answer === '200' || answer === 'refused')).toBe(true)
    // Nothing was received: the held mails died with their connections.
    inbox.release()
    expect(inbox.mails).toHaveLength(0)

    const second = await spawnFormsServer(env)
    try {
      // Every acknowledged address gets its mail (those the dead process held after its lease).
      await until(
        async () => acknowledged.every((email) => inbox.countByRecipient().has(email)),
        15_000,
      )
      // Then nothing more for 2.5 s, past any lease and a poll: a second copy of any mail, or
      // the mail of a sign-up stored but not answered, would have come by then.
      let seen = -1
      let since = Date.now()
      await until(async () => {
        if (inbox.mails.length !== seen) {
          seen = inbox.mails.length
          since = Date.now()
        }
        return Date.now() - since > 2500
      }, 15_000)
    } finally {
      expect(await stopFormsServer(second)).toBe(0)
    }
    const counts = inbox.countByRecipient()
    for (const email of acknowledged) expect(counts.get(email), email).toBe(1)
    expect([...counts.values()].every((count) => count === 1)).toBe(true)

    const db = await openDatabase({
      url: env.DATABASE_URL || undefined,
      dataDir: database.url ? undefined : join(dataDir, 'db'),
    })
    try {
      const rows = await db.query<{ email: string; requested: number; sent: boolean }>(
        `SELECT s.email,
           (SELECT count(*)::int FROM subscription_events e
            WHERE e.subscriber_id = s.id AND e.event = 'requested') AS requested,
           EXISTS (SELECT 1 FROM mail_jobs j
                   WHERE j.subscriber_id = s.id AND j.sent_at IS NOT NULL) AS sent
         FROM subscribers s`,
      )
      const stored = new Set(rows.map((row) => row.email))
      for (const email of acknowledged) expect(stored.has(email), email).toBe(true)
      // Whatever was stored (a sign-up may commit as the process dies, unanswered) is whole.
      expect(rows.every((row) => row.requested === 1 && row.sent)).toBe(true)
      expect(rows.length).toBe(inbox.mails.length)
    } finally {
      await db.close()
    }
  }, 60_000)

  it('keeps every link working when a mail the dead process had delivered is sent again', async () => {
    // The mail server takes the mail but the process dies before it hears so, and before it
    // marks it sent: after the restart it is sent again, with new links.
    inbox.mails.length = 0
    inbox.holdReplies()
    const first = await spawnFormsServer(env)
    const email = 'twice@example.com'
    const answer = await fetch(`${first.origin}/api/forms/newsletter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signUp(email)),
    })
    expect(answer.status).toBe(200)
    await inbox.waitFor(1, 15_000)
    expect(await killFormsServer(first)).toBe('SIGKILL')
    inbox.release()
    const second = await spawnFormsServer(env)
    try {
      const mails = await inbox.waitFor(2, 15_000)
      expect(mails.map((mail) => mail.to?.[0]?.address)).toEqual([email, email])
      const links = mails.map((mail) => linkIn(mail, '/confirm'))
      expect(new Set(links).size).toBe(2)
      const at = (link: string) => link.replace(SITE_URL, second.origin)
      const open = (link: string) => fetch(at(link), { redirect: 'manual' })
      const press = (link: string) => fetch(at(link), { method: 'POST', redirect: 'manual' })
      // Either link would confirm: each shows its button.
      for (const link of links) expect((await open(link)).status).toBe(200)
      // The first mail's link confirms; then both show the subscription confirmed.
      const confirmed = await press(links[0] as string)
      expect(confirmed.headers.get('location')).toBe('/en/newsletter-confirmed/')
      for (const link of links) {
        expect((await open(link)).headers.get('location')).toBe('/en/newsletter-confirmed/')
        expect((await press(link)).headers.get('location')).toBe('/en/newsletter-confirmed/')
      }
      // Both mails' unsubscribe links work.
      for (const mail of mails) expect((await open(linkIn(mail, '/unsubscribe'))).status).toBe(200)
    } finally {
      expect(await stopFormsServer(second)).toBe(0)
    }
  }, 60_000)
})
