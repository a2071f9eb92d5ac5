/**
 * Addresses that last: every entry's address, and the moves the store records. An entry's
 * address comes from its `slug` field where its content type has one (blog posts, and the
 * pages editors may add: services, job postings, …; an entry without one keeps its file
 * name's), else from its file name, never from its title; an entry's `redirectFrom` lists its
 * earlier addresses, each answered with a permanent redirect to the entry by every way of
 * serving the site, and links to one follow the move.
 *
 * Refused, naming both files and the field: two entries at one address, twins at two, an
 * earlier address that is a live page's, two entries claiming one earlier address, and a loop
 * (an entry redirecting from its own address, or two entries from each other's).
 */
import type { Redirect } from '../shared/redirects'
import { addressFieldOf } from './collections'
import type { ContentProblem } from './errors'
import type { ContentEntry, RecordedRedirect } from './site-content'

/** The first segments of addresses the site's files have: no page can have moved there. */
const RESERVED = new Set([
  'page-data',
  'assets',
  'images',
  'api',
  'documents',
  'search',
  'rates',
  'admin',
])

/** Addresses the build makes besides the entries' own (the home, the blog's archive). */
const BUILT_PAGES = new Map([
  ['/', 'the home page'],
  ['/blog/', 'the blog archive'],
])

/** An entry's address on the site: `/en/services/cards/`, `/blog/my-post/`. */
export const addressOf = (entry: ContentEntry): string =>
  entry.routed ? `/${entry.language}${entry.originalPath}` : entry.originalPath

const addressField = (entry: ContentEntry) => addressFieldOf(entry.collection) ?? ''

/** No two entries publish the same address. */
export function checkUniquePaths(entries: ContentEntry[], problems: ContentProblem[]): void {
  const owners = new Map<string, string>()
  for (const entry of entries) {
    const path = addressOf(entry)
    const owner = owners.get(path)
    if (owner && owner !== entry.file) {
      problems.push({
        file: entry.file,
        field: addressField(entry),
        message: `expected a unique address; ${owner} already publishes ${path}`,
      })
    }
    owners.set(path, entry.file)
  }
}

/**
 * Twins share one address in their languages (`/en/services/cards/`, `/de/services/cards/`):
 * the language switch and the alternates name the other language's page by it.
 */
export function checkTwinAddresses(entries: ContentEntry[], problems: ContentProblem[]): void {
  const first = new Map<string, ContentEntry>()
  for (const entry of entries) {
    if (!entry.routed) continue
    const key = `${entry.collection}|${entry.name}`
    const twin = first.get(key)
    if (!twin) first.set(key, entry)
    else if (twin.originalPath !== entry.originalPath)
      problems.push({
        file: entry.file,
        field: addressField(entry),
        message: `expected the address of its twin in the other language; ${twin.file} publishes it at ${addressOf(twin)}, this at ${addressOf(entry)} (the address is the same in both languages)`,
      })
  }
}

const earlierOf = (entry: ContentEntry): string[] =>
  Array.isArray(entry.data.redirectFrom) ? (entry.data.redirectFrom as string[]) : []

/**
 * The moves the entries record, each from an earlier address to the entry's; the refusals
 * go to `problems`, and a refused move is left out.
 */
export function collectRedirects(
  entries: ContentEntry[],
  problems: ContentProblem[],
): RecordedRedirect[] {
  const live = new Map<string, ContentEntry>()
  for (const entry of entries) if (!live.has(addressOf(entry))) live.set(addressOf(entry), entry)
  const claimed = new Map<string, RecordedRedirect>()
  for (const entry of entries) {
    const to = addressOf(entry)
    earlierOf(entry).forEach((from, index) => {
      const field = `redirectFrom.${index}`
      const message = refusal(entry, from, to, live, claimed.get(from))
      if (message) problems.push({ file: entry.file, field, message })
      else claimed.set(from, { from, to, file: entry.file, field })
    })
  }
  return [...claimed.values()]
}

/** Why a move from `from` to `to` is refused, or undefined when it is not: a table's rows. */
function refusal(
  entry: ContentEntry,
  from: string,
  to: string,
  live: ReadonlyMap<string, ContentEntry>,
  earlier: RecordedRedirect | undefined,
): string | undefined {
  const first = from.split('/')[1] ?? ''
  if (RESERVED.has(first))
    return `expected an earlier address of a page; ${from} is where the site keeps its /${first}/ files`
  if (from === to)
    return `expected an earlier address, not this entry's own (${to}): a redirect from it to itself would loop`
  const built = BUILT_PAGES.get(from)
  if (built) return `expected an address no page has; ${from} is ${built}`
  const owner = live.get(from)
  if (owner) {
    const back = earlierOf(owner).indexOf(to)
    if (back >= 0)
      return `expected no redirect loop; this leads ${from} to ${to}, and ${owner.file} › redirectFrom.${back} leads ${to} back to ${from}`
    return `expected an address no page has; ${owner.file} publishes ${from} (move or delete that page first)`
  }
  if (!earlier) return undefined
  if (earlier.file === entry.file) return `expected ${from} once; it is listed twice`
  return `expected one destination for ${from}; ${earlier.file} › ${earlier.field} already leads it to ${earlier.to}`
}

/** `href` with its address moved: `/blog/old/#part` → `/blog/new/#part`. */
function moved(href: string, targets: ReadonlyMap<string, string>): string {
  const cut = href.search(/[?#]/)
  const path = cut < 0 ? href : href.slice(0, cut)
  const to = targets.get(path)
  return to === undefined ? href : `${to}${cut < 0 ? '' : href.slice(cut)}`
}

/**
 * Links follow moves: every `href` field and every link in rendered rich text that names an
 * earlier address names the entry's address instead (in place; rich text is replaced, not
 * changed, since renderings are shared with the Markdown cache).
 */
export function followMoves(value: unknown, redirects: readonly Redirect[]): void {
  if (redirects.length === 0) return
  const targets = new Map(redirects.map((redirect) => [redirect.from, redirect.to]))
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return
    const record = node as Record<string, unknown>
    for (const [key, child] of Object.entries(record)) {
      if (key === 'href' && typeof child === 'string') {
        record[key] = moved(child, targets)
      } else if (isRichText(child)) {
        const html = child.html.replace(
          /(<a [^>]*href=")([^"]*)"/g,
          (_match, start: string, href: string) => `${start}${moved(href, targets)}"`,
        )
        if (html !== child.html) record[key] = { ...child, html }
      } else visit(child)
    }
  }
  visit(value)
}

const isRichText = (value: unknown): value is { html: string } =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { html?: unknown }).html === 'string' &&
  Object.keys(value).length === 1
