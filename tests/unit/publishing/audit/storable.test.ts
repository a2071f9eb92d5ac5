/**
 * Text the database cannot store: found with where it is, named in the person's language, and
 * kept by the trail in a form PostgreSQL takes (PGlite here, the real server in CI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  findUnstorable,
  storableText,
  unstorableMessage,
} from '../../../../src/publishing/audit/storable'
import { appendAudit, readAudit, verifyAudit } from '../../../../src/publishing/audit/trail'
import { databases } from '../../../support/forms'
import { openPublishingDatabase, type TestDatabase } from '../../../support/publishing'

describe('text the database cannot store', () => {
  it('is found where it is, keys included, and named', () => {
    expect(findUnstorable({ a: ['fine', { b: 'x\u0000y' }] })).toEqual({
      field: 'a.1.b',
      what: 'nul',
    })
    expect(findUnstorable({ 'k\u0000': 1 })).toEqual({ field: 'k\\u0000', what: 'nul' })
    expect(findUnstorable('\udc00', 'comment')).toEqual({
      field: 'comment',
      what: { surrogate: 'U+DC00' },
    })
    // A surrogate pair is a character like any other.
    expect(findUnstorable({ emoji: '🏦 \u00e4' })).toBeUndefined()
    expect(unstorableMessage({ field: 'note', what: 'nul' }, 'de')).toBe(
      'note enthält ein NUL-Zeichen (U+0000), das nicht gespeichert werden kann: Entfernen Sie es. Nichts wurde geändert.',
    )
    expect(storableText('a\u0000b\ud800c🏦')).toBe('a\\u0000b\\ud800c🏦')
  })

  for (const kind of databases()) {
    describe(`in the trail (${kind.name})`, () => {
      let opened: TestDatabase
      beforeAll(async () => {
        opened = await openPublishingDatabase(kind)
      })
      afterAll(() => opened.close())

      it('records a refusal whatever text it carries, and the chain stays intact', async () => {
        await appendAudit(opened.database, {
          actor: 'ada@bank.example\u0000',
          action: 'refusal',
          subject: 'pages/\ud800about',
          details: { reason: 'bad\u0000path', 'key\u0000': ['\udfff'] },
        })
        const [entry] = (await readAudit(opened.database)).slice(-1)
        expect(entry).toMatchObject({
          actor: 'ada@bank.example\\u0000',
          subject: 'pages/\\ud800about',
          details: { reason: 'bad\\u0000path', 'key\\u0000': ['\\udfff'] },
        })
        expect(await verifyAudit(opened.database)).toMatchObject({ ok: true })
      })
    })
  }
})
