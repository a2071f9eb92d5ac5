/**
 * The mailbox an address reaches (limits per mailbox), in TypeScript for new sign-ups and in SQL
 * for the rows the migration found: both give the same answer for every spelling.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../../src/server/forms/database'
import { MAILBOX_SQL, mailboxOf } from '../../../src/server/forms/mailbox'

const CASES: [string, string][] = [
  ['victim@example.com', 'victim@example.com'],
  ['victim+1@example.com', 'victim@example.com'],
  ['victim+a+b@example.com', 'victim@example.com'],
  ['v.ictim+news@example.com', 'v.ictim@example.com'],
  ['+only@example.com', '+only@example.com'],
  ['v.i.c.t.i.m@gmail.com', 'victim@gmail.com'],
  ['vic.tim+x@googlemail.com', 'victim@gmail.com'],
  ['victim@gmail.com.evil.example', 'victim@gmail.com.evil.example'],
  ['first.last@xn--bcher-kva.de', 'first.last@xn--bcher-kva.de'],
]

describe('mailboxOf', () => {
  let db: Database
  beforeAll(async () => {
    db = await openDatabase({ migrate: false })
  }, 30_000)
  afterAll(async () => {
    await db.close()
  })

  it.each(CASES)('%s reaches %s', (email, mailbox) => {
    expect(mailboxOf(email)).toBe(mailbox)
  })

  it('says the same in SQL, as the migration computed it for stored rows', async () => {
    for (const [email, mailbox] of CASES) {
      const [row] = await db.query<{ mailbox: string }>(
        `SELECT ${MAILBOX_SQL} AS mailbox FROM (SELECT $1::text AS email) AS stored`,
        [email],
      )
      expect(row?.mailbox, email).toBe(mailbox)
    }
  })
})
