/**
 * What the static site reads of a request target: its path, decoded once, and its query, or the
 * reason it is no address of the site. An address the site could never have written is not
 * guessed at: a decoded path that holds a backslash, a control character, an empty segment
 * (`//`) or a dot segment (`/./`, `/../`) is answered 404, never redirected, so that no
 * `Location` can be made to name another host (`/%2Fevil.example/..%2Fen` decodes to
 * `//evil.example/../en`, which a browser reads as a host). An encoded slash (`%2F`) is no slash
 * (RFC 3986, 2.2: a reserved character encoded is another character): `/en%2f` names no page and
 * is answered 404 too, so that no page has a second address, and none is redirected to.
 */

export type SiteTarget =
  | { ok: true; path: string; query: string }
  | { ok: false; status: 400 | 404; reason: string }

/** A control character (C0 or DEL) or a backslash anywhere in `text`. */
function hasControlOrBackslash(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true
  }
  return false
}
const ENCODED_SLASH = /%2f/i
const DOT_SEGMENT = /\/\.{1,2}(?:\/|$)/
/** What a query may hold as it is repeated in a `Location`: visible ASCII only. */
const SAFE_QUERY = /^[\u0021-\u007e]*$/

/** Reads a request target (`request.url`: path and query, as sent). */
export function siteTarget(target: string): SiteTarget {
  const mark = target.indexOf('?')
  const rawPath = mark === -1 ? target : target.slice(0, mark)
  const rawQuery = mark === -1 ? '' : target.slice(mark + 1)
  if (!rawPath.startsWith('/')) return { ok: false, status: 400, reason: 'not a path' }
  if (ENCODED_SLASH.test(rawPath)) return { ok: false, status: 404, reason: 'encoded slash' }
  let path: string
  try {
    path = decodeURIComponent(rawPath)
  } catch {
    return { ok: false, status: 400, reason: 'malformed escape' }
  }
  if (hasControlOrBackslash(path)) {
    return { ok: false, status: 404, reason: 'control character or backslash' }
  }
  if (path.includes('//')) return { ok: false, status: 404, reason: 'empty segment' }
  if (DOT_SEGMENT.test(path)) return { ok: false, status: 404, reason: 'dot segment' }
  return { ok: true, path, query: SAFE_QUERY.test(rawQuery) ? rawQuery : '' }
}

/**
 * A decoded site path written for a `Location` header: each segment percent-encoded, so the
 * header holds ASCII only and names the same path on the same host.
 */
export function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/')
}

/** The address a folder without its slash redirects to: always a path of this site. */
export function slashRedirect(target: { path: string; query: string }): string {
  const location = `${encodePath(target.path)}/${target.query ? `?${target.query}` : ''}`
  // Belt and braces: a path that begins with one slash and no second is on this host.
  if (!/^\/(?![/\\])/.test(location)) throw new Error(`not a site path: ${location}`)
  return location
}

/**
 * An authority as `Host` or an absolute target writes it (RFC 3986, 3.2.2 and 3.2.3): a name
 * or IPv4 address (no user, no path, no spaces), or an IPv6 literal, and perhaps a port.
 */
const AUTHORITY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9\-._~!$&'()*+,;=%]*)(?::\d*)?$/i
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)(.*)$/is

/**
 * An absolute-form request target (`GET http://host/en/ HTTP/1.1`), which HTTP/1.1 servers must
 * accept (RFC 9112, 3.2.2): its path and query as sent (nothing resolved or decoded here, so
 * that the path is judged as any other) and the host it names, which stands for the request's
 * `Host` (RFC 9112, 3.3). Undefined when the target is none: another scheme, no host, a user.
 */
export function absoluteTarget(target: string): { host: string; target: string } | undefined {
  const match = ABSOLUTE_FORM.exec(target)
  const host = match?.[1] ?? ''
  const rest = match?.[2] ?? ''
  if (!host || host.startsWith(':') || !AUTHORITY.test(host) || rest.startsWith('#')) {
    return undefined
  }
  return { host, target: rest.startsWith('/') ? rest : `/${rest}` }
}

/**
 * Why a request's `Host` lines make it no request of HTTP/1.1 (RFC 9112, 3.2: answered 400):
 * none in HTTP/1.1, more than one, or one that names no host. `rawHeaders` as Node gives them
 * (names and values in turn, every line kept).
 */
export function hostProblem(rawHeaders: string[], httpVersion: string): string | undefined {
  const hosts: string[] = []
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === 'host') hosts.push(rawHeaders[index + 1] ?? '')
  }
  if (hosts.length > 1) return 'more than one Host'
  if (hosts.length === 0) return httpVersion === '1.0' ? undefined : 'no Host'
  return AUTHORITY.test(hosts[0] ?? '') ? undefined : 'a Host that names no host'
}
