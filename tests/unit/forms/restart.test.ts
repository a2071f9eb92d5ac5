/**
 * A restart in the middle of a load loses no confirmed record: the service is stopped with
 * SIGTERM while confirmations pour in, started again on the same data, and every confirmation
 * it had acknowledged is still there (PGlite in a data folder, and PostgreSQL when configured).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/database/open'
import {
  databases,
  type Inbox,
  linkIn,
  signUp,
  spawnFormsServer,
  startSmtp,
  stopFormsServer,
} from '../../support/forms'
import { createSchema, type Schema } from '../../support/schema'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const SUBSCRIBERS = 60

async function confirmAt(origin: string, link: string): Promise<string> {
  const url = new URL(link)
  try {
    // The button of the link's page: a POST to the same address.
    const response = await fetch(`${origin}${url.pathname}${url.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    })
    return response.status === 303
      ? (response.headers.get('location') ?? '')
      : `HTTP ${response.status}`
  } catch {
    return 'refused'
  }
}

describe.each(databases())('a restart under load on $name', (database) => {
  let inbox: Inbox
  let dataDir = ''
  let schema: Schema | undefined
  const env: NodeJS.ProcessEnv = { DATABASE_URL: '' }

  beforeAll(async () => {
    dataDir = await temporaryFolder('forms-restart-')
    env.DATA_DIR = dataDir
    inbox = await startSmtp()
    env.SMTP_URL = inbox.url
    if (database.url) {
      schema = await createSchema(database.url, 'restart')
      env.DATABASE_URL = schema.url
    }
  })
  afterAll(async () => {
    await inbox.close()
    await schema?.drop()
    await removeFolder(dataDir)
  })

  it('keeps every confirmation it acknowledged', async () => {
    const first = await spawnFormsServer(env)
    for (let index = 0; index < SUBSCRIBERS; index++) {
      const response = await fetch(`${first.origin}/api/forms/newsletter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(signUp(`person${index}@example.com`)),
      })
      expect(response.status).toBe(200)
    }
    const links = (await inbox.waitFor(SUBSCRIBERS, 20_000)).map((mail) => linkIn(mail, '/confirm'))

    // Confirmations from 6 clients at once; the service is stopped a third of the way in.
    const answers: string[] = new Array(links.length).fill('not sent')
    let next = 0
    let stopped: Promise<number | null> | undefined
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < links.length) {
          const index = next++
          if (index === Math.floor(links.length / 3)) stopped = stopFormsServer(first)
          answers[index] = await confirmAt(first.origin, links[index] as string)
        }
      }),
    )
    expect(await stopped).toBe(0)
    const acknowledged = answers.flatMap((answer, index) =>
      answer === '/en/newsletter-confirmed/' ? [index] : [],
    )
    expect(acknowledged.length).toBeGreaterThan(0)
    expect(acknowledged.length).toBeLessThan(links.length)

    const second = await spawnFormsServer(env)
    try {
      // An acknowledged link answers "confirmed" again; the others confirm now.
      for (const [index, link] of links.entries()) {
        expect(await confirmAt(second.origin, link), `link ${index}`).toBe(
          '/en/newsletter-confirmed/',
        )
      }
    } finally {
      expect(await stopFormsServer(second)).toBe(0)
    }
    const db = await openDatabase({
      url: env.DATABASE_URL || undefined,
      dataDir: database.url ? undefined : join(dataDir, 'db'),
    })
    try {
      const rows = await db.query<{ status: string; confirmed: number }>(
        `SELECT s.status, count(e.id)::int AS confirmed
         FROM subscribers s LEFT JOIN subscription_events e
           ON e.subscriber_id = s.id AND e.event = 'confirmed'
         GROUP BY s.id, s.status`,
      )
      expect(rows).toHaveLength(SUBSCRIBERS)
      expect(rows.every((row) => row.status === 'confirmed' && row.confirmed === 1)).toBe(true)
    } finally {
      await db.close()
    }
  }, 120_000)
})
