/**
 * The site's moved addresses: each earlier address answers 301 with the entry's address, and
 * its page data with the page data of the entry, so a client navigation follows the move too.
 * The build writes the table (`_redirects.json`); `npm start`, `npm run nginx-config` and the
 * static hosts' `_redirects` are made from it. A redirect's target is always a path of this
 * site, never another host.
 */
import { PAGE_DATA_PREFIX, pageDataUrl } from './paths'

/** One move: an earlier address and the page's address now, both `/…/` paths of the site. */
export interface Redirect {
  from: string
  to: string
}

/** The table the build writes beside `_headers.json`, read by `npm start` and nginx-config. */
export const REDIRECTS_TABLE_FILE = '_redirects.json'
/** The file of Netlify's and Cloudflare Pages' redirect rules. */
export const HOST_REDIRECTS_FILE = '_redirects'

/** The redirect status: the move is permanent, so search engines carry the page's rank over. */
export const REDIRECT_STATUS = 301

/**
 * Every request path a move answers, with where it leads: the page's address, the same
 * without its trailing slash, and its page data.
 */
export function redirectRules(redirects: readonly Redirect[]): [string, string][] {
  return redirects.flatMap(({ from, to }): [string, string][] => [
    [from, to],
    [from.slice(0, -1), to],
    [pageDataUrl(from), pageDataUrl(to)],
  ])
}

/** Looks a request path up in the table: the address it moved to, or undefined. */
export function redirectLookup(
  redirects: readonly Redirect[],
): (pathname: string) => string | undefined {
  const rules = new Map(redirectRules(redirects))
  return (pathname) => rules.get(pathname)
}

/** True for a table entry that is safe to serve: two paths of this site, not a host. */
export function isSiteRedirect(value: unknown): value is Redirect {
  if (typeof value !== 'object' || value === null) return false
  const { from, to } = value as Partial<Redirect>
  const sitePath = (path: unknown) =>
    typeof path === 'string' && /^\/(?:[a-z0-9-]+\/)+$/.test(path) && !path.startsWith('//')
  return sitePath(from) && sitePath(to) && !String(from).startsWith(`${PAGE_DATA_PREFIX}/`)
}
