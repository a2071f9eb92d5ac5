/**
 * The mailbox an address reaches, for limits that an attacker cannot spread over many spellings
 * of one person's address: `victim+1@…` … `victim+10@…` all reach `victim@…`, and at providers
 * that ignore dots in the local part (Gmail), `v.i.c.t.i.m@gmail.com` does too. Used for the
 * number of sign-ups (and so of confirmation mails) one mailbox may have, never for sending.
 */

/** Gmail's domains: its mailboxes ignore dots in the local part, and both names reach one. */
const GMAIL_DOMAINS = ['gmail.com', 'googlemail.com']
const GMAIL = 'gmail.com'

/** The mailbox of a normalised (lowercase, ASCII domain) address. */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@')
  let local = email.slice(0, at).toLowerCase()
  let domain = email.slice(at + 1).toLowerCase()
  const plus = local.indexOf('+')
  if (plus > 0) local = local.slice(0, plus)
  if (GMAIL_DOMAINS.includes(domain)) {
    local = local.replaceAll('.', '')
    domain = GMAIL
  }
  return `${local}@${domain}`
}
