/**
 * The mailbox an address reaches, for limits that an attacker cannot spread over many spellings
 * of one person's address. Used for the number of sign-ups (and so of confirmation mails) one
 * mailbox may have, never for sending. Two addresses (lowercase, the domain in ASCII, as
 * `normalizeEmail` gives them) count as one mailbox when these rules make them equal:
 *
 * - Gmail (`gmail.com`, `googlemail.com`, one domain): the local part ends before its first `+`,
 *   and its dots are dropped (`v.i.c.t.i.m+x@googlemail.com` is `victim@gmail.com`).
 * - Proton (`proton.me`, `protonmail.com`, `protonmail.ch`, `pm.me`, one domain): it ends
 *   before its first `+`, and its dots, hyphens and underscores are dropped.
 * - Fastmail (a domain with a label `fastmail`, such as `fastmail.com` or `fastmail.fm`, and
 *   `messagingengine.com`, `sent.com`): it ends before its first `+`; an address at a
 *   subdomain is its subdomain's mailbox whatever its local part (`anything@victim.fastmail.com`
 *   is `victim@fastmail.com`), and an underscore counts as a hyphen (the subdomain of
 *   `vic_tim` is spelt `vic-tim`).
 * - Any other domain: it ends before its first `+` or `-` that is not its first character
 *   (`victim+1@…`, `victim-1@…`: `+` is most providers' sub-address, `-` Yahoo's and that of
 *   servers set up so, qmail's default). Two people whose addresses differ only after a `-`
 *   share the limit, which costs them nothing unless they sign up several times an hour.
 *
 * A `%` in the local part (`victim%example.com@relay`, routed by the relay to another host) is
 * refused by the form's validation; quotes and comments are too. Not covered: subdomain
 * addressing at a domain of one's own hosted by Fastmail or a provider like it, and a domain
 * that delivers every local part to one mailbox (catch-all): each spelling there is a mailbox of
 * its own, and only the service's caps (per client network and in all) hold.
 */

const GMAIL = { domains: new Set(['gmail.com', 'googlemail.com']), as: 'gmail.com' }
const PROTON = {
  domains: new Set(['proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me']),
  as: 'proton.me',
}
/** Fastmail's domains besides those with a label `fastmail`. */
const FASTMAIL_DOMAINS = new Set(['messagingengine.com', 'sent.com'])

/** `local` ended before the first of `delimiters` that is not its first character. */
function before(local: string, delimiters: RegExp): string {
  const found = delimiters.exec(local.slice(1))
  return found ? local.slice(0, found.index + 1) : local
}

/** Where a Fastmail domain starts among `labels` (the subdomain is the label before it). */
function fastmailStart(labels: string[]): number {
  for (let index = 0; index < labels.length - 1; index++) {
    if (labels[index] === 'fastmail') return index
    if (FASTMAIL_DOMAINS.has(labels.slice(index).join('.'))) return index
  }
  return -1
}

/** The mailbox of a normalised (lowercase, ASCII domain) address. */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@')
  const local = email.slice(0, at).toLowerCase()
  const domain = email.slice(at + 1).toLowerCase()
  if (GMAIL.domains.has(domain)) {
    return `${before(local, /\+/).replaceAll('.', '')}@${GMAIL.as}`
  }
  if (PROTON.domains.has(domain)) {
    return `${before(local, /\+/).replace(/[._-]/g, '')}@${PROTON.as}`
  }
  const labels = domain.split('.')
  const fastmail = fastmailStart(labels)
  if (fastmail >= 0) {
    const base = labels.slice(fastmail).join('.')
    const user = fastmail > 0 ? (labels[fastmail - 1] ?? '') : before(local, /\+/)
    return `${user.replaceAll('_', '-')}@${base}`
  }
  return `${before(local, /[+-]/)}@${domain}`
}
