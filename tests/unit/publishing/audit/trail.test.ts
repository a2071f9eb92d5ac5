/**
 * The audit trail on PGlite and PostgreSQL: entries linked by their hashes, refused changes in
 * the database itself, a tampered entry found and named, one chain when appends race, exports
 * a spreadsheet cannot be tricked by.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import {
  appendAudit,
  exportAudit,
  readAudit,
  verifyAudit,
} from '../../../../src/publishing/audit/trail'
import { databases } from '../../../support/forms'
import { openPublishingDatabase, type TestDatabase } from '../../../support/publishing'

for (const kind of databases()) {
  describe(`audit trail on ${kind.name}`, () => {
    let database: Database
    let opened: TestDatabase

    beforeEach(async () => {
      opened = await openPublishingDatabase(kind)
      database = opened.database
    })

    afterEach(async () => {
      await opened.close()
    })

    const record = (actor: string, n: number) =>
      appendAudit(database, {
        actor,
        action: 'save',
        subject: `content/en/pages/about.yaml`,
        before: `${n}`.padStart(40, 'a'),
        after: `${n + 1}`.padStart(40, 'b'),
        details: { draft: 'about', n },
      })

    it('links each entry to the one before, and the whole chain checks out', async () => {
      const first = await record('ada@bank.example', 1)
      const second = await appendAudit(database, {
        actor: 'rita@bank.example',
        action: 'approve',
        subject: 'about',
        after: 'c'.repeat(40),
      })
      expect(first.previousHash).toBe('0'.repeat(64))
      expect(second.previousHash).toBe(first.hash)
      expect(await readAudit(database)).toEqual([first, second])
      expect(await verifyAudit(database)).toEqual({ ok: true, entries: 2 })
      expect(await readAudit(database, { actor: 'rita@bank.example' })).toEqual([second])
    })

    it('reads a page at a time, the newest first, and pages back from an entry', async () => {
      for (let n = 1; n <= 5; n++) await record('ada@bank.example', n)
      const ids = (entries: { details: Record<string, unknown> }[]) =>
        entries.map((entry) => entry.details.n)
      const newest = await readAudit(database, { newestFirst: true, limit: 2 })
      expect(ids(newest)).toEqual([5, 4])
      const older = await readAudit(database, {
        newestFirst: true,
        limit: 2,
        beforeId: newest.at(-1)?.id,
      })
      expect(ids(older)).toEqual([3, 2])
      expect(ids(await readAudit(database, { beforeId: 3 }))).toEqual([1, 2])
    })

    it('is append-only in the database itself: no update, delete or truncate', async () => {
      await record('ada@bank.example', 1)
      for (const statement of [
        "UPDATE audit_entries SET actor = 'mallory@evil.example'",
        'DELETE FROM audit_entries',
        'TRUNCATE audit_entries',
      ]) {
        await expect(database.query(statement), statement).rejects.toThrow(/append-only/)
      }
      expect((await readAudit(database))[0]?.actor).toBe('ada@bank.example')
    })

    it('names the entry where someone with the database owner’s rights changed or removed one', async () => {
      for (let n = 1; n <= 4; n++) await record('ada@bank.example', n)
      await database.query('ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_append_only')
      await database.query(
        "UPDATE audit_entries SET subject = 'content/en/pages/other.yaml' WHERE id = 3",
      )
      expect(await verifyAudit(database)).toEqual({
        ok: false,
        entries: 2,
        brokenAt: 3,
        reason: 'its content was changed',
      })
      await database.query('DELETE FROM audit_entries WHERE id = 3')
      expect(await verifyAudit(database)).toMatchObject({
        ok: false,
        brokenAt: 3,
        reason: 'an entry is missing',
      })
    })

    it('keeps one chain when appends race', async () => {
      await Promise.all(
        Array.from({ length: 12 }, (_, n) => record(`person${n % 3}@bank.example`, n)),
      )
      const entries = await readAudit(database)
      expect(entries.map((entry) => entry.id)).toEqual(Array.from({ length: 12 }, (_, n) => n + 1))
      expect(await verifyAudit(database)).toEqual({ ok: true, entries: 12 })
    })

    it('exports CSV and JSON; a field a spreadsheet would run as a formula is defused', async () => {
      await appendAudit(database, {
        actor: 'ada@bank.example',
        action: 'refusal',
        subject: '=HYPERLINK("http://evil.example","open")',
        details: {
          reason: 'only a reviewer, who wrote none of it, may approve, "twice", over\nlines',
        },
      })
      const csv = await exportAudit(database, 'csv')
      const [header, line] = csv.split('\r\n')
      expect(header).toBe('id,at,actor,action,subject,before,after,details,previousHash,hash,keyId')
      expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""open"")"`)
      // Details as JSON in one field, its quotes doubled.
      expect(line).toContain('\\""twice\\""')
      expect(line).toContain('over\\nlines')
      const json = JSON.parse(await exportAudit(database, 'json'))
      expect(json).toHaveLength(1)
      expect(json[0].details.reason).toMatch(/^only a reviewer/)
    })
  })
}
