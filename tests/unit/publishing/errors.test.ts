/**
 * The one table of the service's refusals (src/publishing/errors.ts): every code has a status
 * and a sentence in English and in German, and an error says what its row says.
 */
import { describe, expect, it } from 'vitest'
import {
  ERROR_CODES,
  ERRORS,
  type ErrorCode,
  PublishingError,
  wordedAlready,
} from '../../../src/publishing/errors'

/** Every fact any row names. */
const params = {
  reason: 'Only people with the reviewer role may approve drafts.',
  id: 'pages/about',
  files: ['content/en/pages/about.yaml'],
  status: 'published',
  expected: 'draft, pending_review, pending_publish',
  seconds: 120,
  details: 'vite: cannot resolve x',
  problems: [{ file: 'en/pages/about.yaml', field: 'title', message: 'expected text' }],
  folder: '20261126T041503Z-0123456789ab',
  local: '2026-03-29T02:30',
  ref: 'refs/heads/cms/pages/about',
  holder: 'the draft',
  entries: [{ path: 'content/x', mode: '120000' }],
  advice: 'remove it',
  path: '../etc/passwd',
  email: 'ada@bank.example',
  before: 'ada@old.example',
  roles: 'owner',
  max: '60',
}

const made = (code: ErrorCode) => new PublishingError(code, ...([params] as never as []))

describe('the table of refusals', () => {
  it('gives every code a status of a refusal or an outage', () => {
    expect(ERROR_CODES.length).toBeGreaterThan(50)
    for (const code of ERROR_CODES) {
      const { status } = made(code)
      expect(Number.isInteger(status), code).toBe(true)
      expect(status >= 400 && status < 600, `${code}: ${status}`).toBe(true)
    }
  })

  it('says every code in English and in German, German as German', () => {
    for (const code of ERROR_CODES) {
      const error = made(code)
      for (const text of [error.in('en'), error.in('de')]) {
        expect(text.trim().length, code).toBeGreaterThan(0)
        expect(text, code).not.toMatch(/undefined|\[object /)
      }
      // A rule's reason comes in the person's language already; every other is said twice.
      if (wordedAlready(code)) expect(error.in('de'), code).toBe(error.in('en'))
      else expect(error.in('de'), code).not.toBe(error.in('en'))
    }
  })

  it('makes the English sentence the message, unless the logs read something else', () => {
    for (const code of ERROR_CODES) {
      const error = made(code)
      if ('log' in ERRORS[code]) expect(error.message, code).not.toBe(error.in('en'))
      else expect(error.message, code).toBe(error.in('en'))
    }
    expect(
      new PublishingError('ref-moved', { ref: 'refs/heads/main', expected: null }).message,
    ).toBe('refs/heads/main moved since it was read (expected no branch)')
  })

  it('quotes the protocol’s English in a German sentence', () => {
    expect(new PublishingError('not-draft-id', { id: '../main' }).in('de')).toBe(
      'Der Dienst meldet auf Englisch: „not a draft id: "../main" (expected <collection>/<slug>)“',
    )
    expect(new PublishingError('comment-length').in('de')).toBe(
      'Bitte schreiben Sie einen Kommentar mit 1 bis 5.000 Zeichen.',
    )
  })
})
