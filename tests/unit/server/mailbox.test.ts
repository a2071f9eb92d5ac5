/** The mailbox an address reaches, for the limits per mailbox: every spelling of one is one. */
import { describe, expect, it } from 'vitest'
import { mailboxOf } from '../../../src/server/forms/mailbox'

const CASES: [string, string][] = [
  ['victim@example.com', 'victim@example.com'],
  ['victim+1@example.com', 'victim@example.com'],
  ['victim+a+b@example.com', 'victim@example.com'],
  ['v.ictim+news@example.com', 'v.ictim@example.com'],
  ['+only@example.com', '+only@example.com'],
  ['V.I.C.T.I.M@gmail.com', 'victim@gmail.com'],
  ['vic.tim+x@googlemail.com', 'victim@gmail.com'],
  ['victim@gmail.com.evil.example', 'victim@gmail.com.evil.example'],
  ['first.last@xn--bcher-kva.de', 'first.last@xn--bcher-kva.de'],
]

describe('mailboxOf', () => {
  it.each(CASES)('%s reaches %s', (email, mailbox) => {
    expect(mailboxOf(email)).toBe(mailbox)
  })
})
