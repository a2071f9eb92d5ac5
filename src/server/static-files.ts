/**
 * Serves the built site: precompressed files where present (Brotli, then gzip), compression
 * on the fly for other text, immutable caching for hashed assets and `no-cache` for HTML and
 * page data, ETags with 304 answers, and the 404 page of the address's language for unknown
 * paths (German under `/de/`, English elsewhere) with status 404.
 */
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingHttpHeaders } from 'node:http'
import { extname, join, normalize, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { constants, createBrotliCompress, createGzip } from 'node:zlib'
import { HASHED_IMAGES_DIR } from '../shared/images'
import { notFoundPathFor } from '../shared/paths'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.pdf': 'application/pdf',
}

const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.xml',
  '.txt',
  '.svg',
])
const MIN_COMPRESS_BYTES = 1024

/** Cache policy by path: hashed bundles never change; everything else is revalidated. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

export function cacheControl(path: string): string {
  if (path.startsWith('/assets/') || path.startsWith(`${HASHED_IMAGES_DIR}/`))
    return 'public, max-age=31536000, immutable'
  if (/\.(html|json|webmanifest|xml|txt)$/.test(path) || path.endsWith('/') || path === '/sw.js') {
    return 'no-cache'
  }
  return 'public, max-age=3600'
}

export interface StaticResponse {
  status: number
  headers: Record<string, string>
  body?: Readable
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

function acceptedEncodings(headers: IncomingHttpHeaders): { br: boolean; gzip: boolean } {
  const accept = String(headers['accept-encoding'] ?? '')
  const allows = (name: string) => new RegExp(`(^|[ ,])${name}(?!;q=0(\\.0*)?(,|$))`).test(accept)
  return { br: allows('br'), gzip: allows('gzip') }
}

export function createStaticHandler(root: string) {
  const rootWithSep = root.endsWith(sep) ? root : `${root}${sep}`

  /** The file for a request path, or a redirect to the slash-terminated folder. */
  async function resolve(pathname: string): Promise<Found | { redirect: string } | undefined> {
    const local = normalize(pathname)
    if (!join(root, local).startsWith(rootWithSep) && join(root, local) !== root) return undefined
    if (pathname.endsWith('/')) return fileAt(root, join(local, 'index.html'))
    const file = await fileAt(root, local)
    if (file) return { ...file, path: pathname }
    if (!extname(pathname) && (await fileAt(root, join(local, 'index.html')))) {
      return { redirect: `${pathname}/` }
    }
    return undefined
  }

  async function send(found: Found, status: number, method: string, headers: IncomingHttpHeaders) {
    const extension = extname(found.file)
    const responseHeaders: Record<string, string> = {
      'content-type': TYPES[extension] ?? 'application/octet-stream',
      'cache-control': cacheControl(found.path),
      'x-content-type-options': 'nosniff',
    }
    // Drawings come from editors: opened on their own, an SVG is a document of this origin, so
    // it may neither run script nor load anything (inside <img> it never could).
    if (extension === '.svg') responseHeaders['content-security-policy'] = SVG_POLICY
    const compressible = COMPRESSIBLE.has(extension)
    if (compressible) responseHeaders.vary = 'Accept-Encoding'
    const etag = `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`
    if (status === 200) {
      responseHeaders.etag = etag
      if (headers['if-none-match'] === etag) return { status: 304, headers: responseHeaders }
    }
    const encodings = compressible ? acceptedEncodings(headers) : { br: false, gzip: false }
    let body: () => Readable = () => createReadStream(found.file)
    let length: number | undefined = found.size
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (!encodings[encoding]) continue
      const precompressed = await fileAt('/', `${found.file}${suffix}`)
      if (precompressed) {
        responseHeaders['content-encoding'] = encoding
        body = () => createReadStream(precompressed.file)
        length = precompressed.size
        break
      }
    }
    if (
      !responseHeaders['content-encoding'] &&
      found.size >= MIN_COMPRESS_BYTES &&
      (encodings.br || encodings.gzip)
    ) {
      const encoding = encodings.br ? 'br' : 'gzip'
      responseHeaders['content-encoding'] = encoding
      length = undefined
      body = () =>
        createReadStream(found.file).pipe(
          encoding === 'br'
            ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
            : createGzip({ level: 6 }),
        )
    }
    if (length !== undefined) responseHeaders['content-length'] = String(length)
    return { status, headers: responseHeaders, body: method === 'HEAD' ? undefined : body() }
  }

  /** Answers a GET or HEAD for `pathname` (already decoded, without query). */
  return async function handle(
    method: string,
    pathname: string,
    headers: IncomingHttpHeaders,
  ): Promise<StaticResponse> {
    if (pathname.includes('\0')) return { status: 400, headers: {} }
    const found = await resolve(pathname)
    if (found && 'redirect' in found) {
      return { status: 301, headers: { location: found.redirect, 'cache-control': 'no-cache' } }
    }
    if (found) return send(found, 200, method, headers)
    const notFound =
      (await fileAt(root, join(notFoundPathFor(pathname), 'index.html'))) ??
      (await fileAt(root, '404.html'))
    if (!notFound) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } }
    return send({ ...notFound, path: '/404.html' }, 404, method, headers)
  }
}
