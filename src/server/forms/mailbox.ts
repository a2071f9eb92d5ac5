/**
 * The mailbox an address reaches, for limits that an attacker cannot spread over many spellings
 * of one person's address: `victim+1@…` … `victim+10@…` all reach `victim@…`, and at providers
 * that ignore dots in the local part (Gmail), `v.i.c.t.i.m@gmail.com` does too. Used for the
 * number of confirmation mails one mailbox may receive, never for sending.
 *
 * The migration that added the column computes the same key in SQL for rows stored before it
 * (`MAILBOX_SQL`); a test holds the two to the same answers.
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

/**
 * `mailboxOf` in SQL, of the column `email` (stored lowercase), for the rows stored before the
 * column existed.
 */
export const MAILBOX_SQL = `CASE
  WHEN split_part(email, '@', 2) IN (${GMAIL_DOMAINS.map((domain) => `'${domain}'`).join(', ')})
  THEN replace(regexp_replace(split_part(email, '@', 1), '^([^+]+)[+].*$', '\\1'), '.', '') || '@${GMAIL}'
  ELSE regexp_replace(split_part(email, '@', 1), '^([^+]+)[+].*$', '\\1') || '@' || split_part(email, '@', 2)
END`
