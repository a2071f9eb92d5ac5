/** The mailbox an address reaches, for the limits per mailbox: every spelling of one is one. */
import { describe, expect, it } from 'vitest'
import { mailboxOf } from '../../../src/forms/mailbox'
import { normalizeEmail } from '../../../src/shared/forms/validate'

const CASES: [string, string][] = [
  ['victim@example.com', 'victim@example.com'],
  ['victim+1@example.com', 'victim@example.com'],
  ['victim+a+b@example.com', 'victim@example.com'],
  ['v.ictim+news@example.com', 'v.ictim@example.com'],
  ['+only@example.com', '+only@example.com'],
  ['+only+x@example.com', '+only@example.com'],
  // Sub-addressing with a hyphen (Yahoo, qmail, servers set up so), at any domain but these below.
  ['victim-1@example.com', 'victim@example.com'],
  ['victim-a+b@yahoo.com', 'victim@yahoo.com'],
  ['victim+a-b@example.com', 'victim@example.com'],
  ['-only-x@example.com', '-only@example.com'],
  // Gmail: dots do not count, and its two domains are one; a hyphen is part of the name.
  ['V.I.C.T.I.M@gmail.com', 'victim@gmail.com'],
  ['vic.tim+x@googlemail.com', 'victim@gmail.com'],
  ['vic-tim@gmail.com', 'vic-tim@gmail.com'],
  ['victim@gmail.com.evil.example', 'victim@gmail.com.evil.example'],
  // Proton: dots, hyphens and underscores do not count; its domains are one.
  ['first.last@proton.me', 'firstlast@proton.me'],
  ['first-last+x@pm.me', 'firstlast@proton.me'],
  ['first_last@protonmail.com', 'firstlast@proton.me'],
  ['firstlast@protonmail.ch', 'firstlast@proton.me'],
  // Fastmail: subdomain addressing, an underscore spelt as a hyphen in the subdomain.
  ['victim+x@fastmail.com', 'victim@fastmail.com'],
  ['anything@victim.fastmail.com', 'victim@fastmail.com'],
  ['any+thing@a.victim.fastmail.com', 'victim@fastmail.com'],
  ['x@vic-tim.fastmail.fm', 'vic-tim@fastmail.fm'],
  ['vic_tim@fastmail.fm', 'vic-tim@fastmail.fm'],
  ['shop@victim.sent.com', 'victim@sent.com'],
  ['victim-x@fastmail.com', 'victim-x@fastmail.com'],
  ['first.last@xn--bcher-kva.de', 'first.last@xn--bcher-kva.de'],
]

describe('mailboxOf', () => {
  it.each(CASES)('%s reaches %s', (email, mailbox) => {
    expect(mailboxOf(email)).toBe(mailbox)
  })
})

describe('addresses that route elsewhere', () => {
  it('refuses % in the local part (victim%other.example@relay.example)', () => {
    expect(normalizeEmail('victim%other.example@relay.example')).toBeUndefined()
    expect(normalizeEmail('a%b@example.com')).toBeUndefined()
    expect(normalizeEmail('victim@example.com')).toBe('victim@example.com')
  })
})
