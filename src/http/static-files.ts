/**
 * Serves the built site: text in the coding the client prefers by its q-values (Brotli on a
 * tie), from its twins where it has them (`npm run build` and the publishing service write
 * them: ../engine/assets/twins.ts), else compressed once on its first request and kept in
 * memory, the
 * headers of `src/shared/http-headers.ts` for each kind of file (the policy the site was built
 * with, from its `_headers.json`), ETags with 304 answers, and the 404 page of the address's
 * language for unknown paths (German under `/de/`, English elsewhere) with status 404, and a
 * 301 to the page's address for an address it moved from (`_redirects.json`). The
 * hosts' configuration files (`/_headers`, `/_headers.json`) and dot files are not served.
 */
import { createReadStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import type { IncomingHttpHeaders } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import { Readable } from 'node:stream'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import {
  CACHE_CONTROL,
  CONTENT_TYPES,
  EMPTY_POLICY,
  MIN_COMPRESS_BYTES,
  responseHeaders,
  responseKind,
  SITE_POLICY_FILE,
  type SitePolicy,
  TEXT_EXTENSIONS,
} from '../shared/http-headers'
import { notFoundPathFor } from '../shared/paths'
import {
  isSiteRedirect,
  REDIRECT_STATUS,
  REDIRECTS_TABLE_FILE,
  type Redirect,
  redirectLookup,
} from '../shared/redirects'
import { encodePath } from './request-path'

/** The cache policy of a request path (see `CACHE_CONTROL`). */
export function cacheControl(path: string): string {
  return CACHE_CONTROL[responseKind(path)]
}

export interface StaticResponse {
  status: number
  headers: Record<string, string>
  body?: Readable
  /** A redirect to the page an address moved to (its Location is final), not to a folder. */
  moved?: boolean
}

interface Found {
  file: string
  /** The request path the file stands for (for cache policy and type). */
  path: string
  size: number
  mtimeMs: number
}

async function fileAt(root: string, path: string): Promise<Found | undefined> {
  const file = join(root, path)
  try {
    const info = await stat(file)
    return info.isFile() ? { file, path, size: info.size, mtimeMs: info.mtimeMs } : undefined
  } catch {
    return undefined
  }
}

/** The codings the server offers, in its own order of preference (smaller first). */
const CODINGS = ['br', 'gzip'] as const
type Coding = (typeof CODINGS)[number]
const SUFFIXES: Record<Coding, string> = { br: '.br', gzip: '.gz' }
/** A weight as RFC 9110 (12.4.2) writes it: 0 to 1 with at most three decimals. */
const WEIGHT = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/

/**
 * The codings of ours that `Accept-Encoding` accepts, the client's favourite first (RFC 9110,
 * 12.5.3): codings and parameter names in any case, spaces around `;` and `,`, a coding at
 * `q=0` refused, `*` for any coding not named (`*;q=0` refuses them), `x-gzip` as `gzip`; a
 * weight that is no weight accepts nothing. No header, or `identity` alone, accepts none of
 * ours: the file is sent as it is.
 */
export function acceptedEncodings(header: string | string[] | undefined): Coding[] {
  const weights = new Map<string, number>()
  for (const element of String(header ?? '').split(',')) {
    const [name = '', ...parameters] = element.split(';').map((part) => part.trim())
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase()
    if (!coding || weights.has(coding)) continue
    let weight = 1
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=').map((part) => part.trim())
      if (key.toLowerCase() === 'q') weight = WEIGHT.test(value) ? Number(value) : 0
    }
    weights.set(coding, weight)
  }
  const any = weights.get('*') ?? 0
  const weightOf = (coding: Coding) => weights.get(coding) ?? any
  return CODINGS.filter((coding) => weightOf(coding) > 0).sort((a, b) => weightOf(b) - weightOf(a))
}

/**
 * Whether `If-None-Match` names the file's ETag: `*`, or a list of tags of which one matches by
 * the weak comparison (RFC 9110, 13.1.2: the opaque tags equal, `W/` or not), as nginx does.
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const wanted = opaque(etag)
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === wanted)
}

/**
 * The policy a built site was made with (its `_headers.json`). A folder without one gets the
 * strictest, unless one is `required` (a configuration for the site is being written).
 */
export async function readSitePolicy(
  root: string,
  options: { required?: boolean } = {},
): Promise<SitePolicy> {
  const file = join(root, SITE_POLICY_FILE)
  try {
    return JSON.parse(await readFile(file, 'utf8')) as SitePolicy
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    if (options.required)
      throw new Error(`${file} is missing: build the site first (npm run build)`)
    return EMPTY_POLICY
  }
}

/**
 * The moved addresses of a built site (its `_redirects.json`); none for a folder without one
 * (a site built before addresses could move). An entry that is not a move between two paths of
 * the site is not served: a redirect never leaves the site.
 */
export async function readSiteRedirects(root: string): Promise<Redirect[]> {
  try {
    const table = JSON.parse(await readFile(join(root, REDIRECTS_TABLE_FILE), 'utf8')) as unknown
    return Array.isArray(table) ? table.filter(isSiteRedirect) : []
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}

/**
 * The moves of the built site in `root`, read once, on the first question: the address a
 * request path moved to, or undefined.
 */
export function siteMoves(root: string): (pathname: string) => Promise<string | undefined> {
  let lookup: Promise<(pathname: string) => string | undefined> | undefined
  return (pathname) => {
    lookup ??= readSiteRedirects(root).then(redirectLookup)
    return lookup.then((movedTo) => movedTo(pathname))
  }
}

/** Files of the host's configuration, never content: `/_headers`, `/.well-known` aside. */
const isPrivate = (pathname: string) => /^\/[_.](?!well-known\/)/.test(pathname)

/** What a site's compressed files may take of memory; the least recently sent go first. */
const COMPRESSED_BYTES = 32 * 1024 * 1024
/**
 * Brotli 6 takes a thirtieth of Brotli 11's time for 11 % more bytes (the level of the twins
 * the build wrote for pages before); nginx compresses at the same levels.
 */
const LEVELS = { br: 6, gzip: 6 }
const compressors = {
  br: (data: Buffer) =>
    promisify(brotliCompress)(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: LEVELS.br,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  gzip: (data: Buffer) => promisify(gzip)(data, { level: LEVELS.gzip }),
}

/**
 * Text files compressed once, on their first request, and kept in memory by path, size and
 * modification time (a new release's file is another entry), up to `limit` bytes: a page
 * costs its compression once (about 0.4 ms), then no more than a twin on disk did. Requests that
 * come while it is compressed wait for the same work.
 */
export function compressedCache(limit = COMPRESSED_BYTES) {
  const kept = new Map<string, Promise<Buffer>>()
  const sizes = new Map<string, number>()
  let bytes = 0
  const forget = (key: string) => {
    kept.delete(key)
    bytes -= sizes.get(key) ?? 0
    sizes.delete(key)
  }
  const keyOf = (found: Pick<Found, 'file' | 'size' | 'mtimeMs'>, coding: Coding) =>
    `${coding}\0${found.file}\0${found.size}\0${found.mtimeMs}`
  /** The kept copy, made the most recently used (a Map keeps the order of insertion). */
  const recall = (key: string) => {
    const known = kept.get(key)
    if (known) {
      kept.delete(key)
      kept.set(key, known)
    }
    return known
  }
  return {
    /** The copy kept of this version of the file, if there is one. */
    peek: (found: Pick<Found, 'file' | 'size' | 'mtimeMs'>, coding: Coding) =>
      recall(keyOf(found, coding)),
    get(found: Pick<Found, 'file' | 'size' | 'mtimeMs'>, coding: Coding): Promise<Buffer> {
      const key = keyOf(found, coding)
      const known = recall(key)
      if (known) return known
      const made = readFile(found.file).then((data) => compressors[coding](data))
      kept.set(key, made)
      made.then(
        (data) => {
          if (!kept.has(key)) return
          sizes.set(key, data.length)
          bytes += data.length
          for (const oldest of kept.keys()) {
            if (bytes <= limit || oldest === key) break
            forget(oldest)
          }
        },
        () => forget(key),
      )
      return made
    },
    /** Bytes kept, for tests. */
    get bytes() {
      return bytes
    },
  }
}

export function createStaticHandler(root: string, policy: SitePolicy = EMPTY_POLICY) {
  const compressedBodies = compressedCache()
  const rootWithSep = root.endsWith(sep) ? root : `${root}${sep}`
  const headersOf = (path: string, https: boolean) =>
    responseHeaders(responseKind(path), policy, { https })
  // Read once, on the first request: the table belongs to the site in this folder.
  const movedTo = siteMoves(root)

  /** The file for a request path, or a redirect to the slash-terminated folder. */
  async function resolve(pathname: string): Promise<Found | { redirect: string } | undefined> {
    const local = normalize(pathname)
    if (!join(root, local).startsWith(rootWithSep) && join(root, local) !== root) return undefined
    if (isPrivate(local)) return undefined
    if (pathname.endsWith('/')) return fileAt(root, join(local, 'index.html'))
    const file = await fileAt(root, local)
    if (file) return { ...file, path: pathname }
    if (!extname(pathname) && (await fileAt(root, join(local, 'index.html')))) {
      return { redirect: `${encodePath(pathname)}/` }
    }
    return undefined
  }

  async function send(
    found: Found,
    status: number,
    method: string,
    headers: IncomingHttpHeaders,
    https: boolean,
  ) {
    const extension = extname(found.file)
    const sent: Record<string, string> = {
      'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      ...headersOf(found.path, https),
    }
    // Text of a size worth compressing is sent as the client accepts it (as nginx does with
    // the build's twins); smaller files go as they are, to everyone alike.
    const compressible = TEXT_EXTENSIONS.has(extension) && found.size >= MIN_COMPRESS_BYTES
    if (compressible) sent.vary = 'Accept-Encoding'
    const etag = `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`
    sent.etag = etag
    if (status === 200 && noneMatch(headers['if-none-match'], etag)) {
      return { status: 304, headers: sent }
    }
    const encodings = compressible ? acceptedEncodings(headers['accept-encoding']) : []
    // The client's favourite coding: the twin made with the file (bundles, drawings), else the
    // file compressed once and kept.
    const [favourite] = encodings
    if (!favourite) {
      sent['content-length'] = String(found.size)
      return {
        status,
        headers: sent,
        body: method === 'HEAD' ? undefined : createReadStream(found.file),
      }
    }
    sent['content-encoding'] = favourite
    // A page compressed before is sent from memory without looking for a twin it has not.
    const kept = compressedBodies.peek(found, favourite)
    const twin = kept ? undefined : await fileAt('/', `${found.file}${SUFFIXES[favourite]}`)
    if (twin) {
      sent['content-length'] = String(twin.size)
      return {
        status,
        headers: sent,
        body: method === 'HEAD' ? undefined : createReadStream(twin.file),
      }
    }
    const compressed = await (kept ?? compressedBodies.get(found, favourite))
    sent['content-length'] = String(compressed.length)
    return {
      status,
      headers: sent,
      body: method === 'HEAD' ? undefined : Readable.from([compressed]),
    }
  }

  /**
   * Answers a GET or HEAD for `pathname` (already decoded, without query); `https` when the
   * request came over HTTPS or a trusted proxy says it did.
   */
  return async function handle(
    method: string,
    pathname: string,
    headers: IncomingHttpHeaders,
    https = false,
  ): Promise<StaticResponse> {
    const plain = (status: number, extra: Record<string, string> = {}) => ({
      status,
      headers: { ...headersOf('/', https), ...extra },
    })
    if (pathname.includes('\0')) return plain(400)
    // A moved address answers with the page's, with every page's headers.
    const moved = await movedTo(pathname)
    if (moved) return { ...plain(REDIRECT_STATUS, { location: moved }), moved: true }
    const found = await resolve(pathname)
    if (found && 'redirect' in found) return plain(301, { location: found.redirect })
    if (found) return send(found, 200, method, headers, https)
    const notFound =
      (await fileAt(root, join(notFoundPathFor(pathname), 'index.html'))) ??
      (await fileAt(root, '404.html'))
    if (!notFound) return plain(404, { 'content-type': 'text/plain; charset=utf-8' })
    return send({ ...notFound, path: '/404.html' }, 404, method, headers, https)
  }
}
