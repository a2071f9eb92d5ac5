/**
 * The nginx server block `npm run nginx-config` writes for the built site: the headers of
 * `src/shared/http-headers.ts` for each kind of file, as `npm start` sends them, and on every
 * answer nginx writes itself (a refusal, an error page, the forms service out of reach).
 */
import { STATUS_CODES } from 'node:http'
import {
  CONTENT_TYPES,
  MIN_COMPRESS_BYTES,
  type ResponseKind,
  responseHeaders,
  type SitePolicy,
  TEXT_EXTENSIONS,
} from '../../shared/http-headers'
import { HASHED_IMAGES_DIR } from '../../shared/images'
import { LANGUAGES } from '../../shared/languages'
import { RATES_HISTORY_DIR } from '../../shared/rates/history'
import { SEARCH_ROOT } from '../../shared/search/format'
import { headerName } from './host-config'

export interface NginxOptions {
  /** The built site's folder on the server (absolute). */
  root: string
  /** What nginx listens on: a port or `address:port` (default 80). */
  listen?: string
  /**
   * The forms service behind `/api/`: `host:port` (default `127.0.0.1:8080`, where
   * `npm run serve:api` listens unless `PORT` says otherwise; 8081 is the publishing service's).
   */
  api?: string
  /** `server_name` (default `_`, any). */
  serverName?: string
  /**
   * Send Brotli, with Debian's modules `libnginx-mod-http-brotli-static` (twins) and
   * `libnginx-mod-http-brotli-filter` (compression per request); without, gzip alone.
   */
  brotli?: boolean
}

/** Where `npm run serve:api` listens by default (`PORT`, `HOST`: 8080 on this host). */
export const DEFAULT_FORMS_SERVICE = '127.0.0.1:8080'

/**
 * What the forms service must be told to read the visitors' addresses nginx forwards: without
 * it, every visitor is nginx to its limits per client. On this host nginx comes from 127.0.0.1;
 * from another, from whatever address that host gives it.
 */
export function trustProxyNote(api: string): string {
  const local = /^(127\.|localhost:|\[::1\]:)/.test(api)
  return [
    `Start the forms service (${api}) with ${local ? 'TRUST_PROXY=127.0.0.1' : "TRUST_PROXY set to nginx's address as its host sees it"},`,
    'or it counts every visitor as nginx, and its limits per client become one for all.',
  ].join('\n')
}

const quote = (value: string) => `"${value.replace(/(["\\$])/g, '\\$1').replace(/\n/g, '\\n')}"`

/**
 * What nginx may answer itself rather than from a file or the forms service: a request it
 * cannot parse (400), an address too long (414), a method it refuses (405, TRACE among them),
 * a framing it does not take (411, 501, 505), a body too large (413), a folder without an
 * index (403), a client too slow (408), and the forms service refusing connections (502),
 * too slow (504) or failing (500, 503). Each is sent to a location that writes it with the
 * headers of its place: without, nginx's own page has none. Not 416: the range filter
 * refuses once the location's headers are added, and keeps them (an error page would add its
 * own to them).
 */
const NGINX_STATUSES = [400, 403, 405, 408, 411, 413, 414, 500, 501, 502, 503, 504, 505]
/** Headers too large: nginx says 400, as it does without an error page. */
const HEADERS_TOO_LARGE = 494

/** Byte ranges a request may ask for: one, or many parts cost more than the whole file. */
const MAX_RANGES = 1

/**
 * Where an address with no file goes: the service behind `/api/` knows the moves of the live
 * release (its `_redirects.json`, read afresh as releases switch), so an address moved by a
 * publication since nginx loaded this block answers 301 at once, without a reload.
 */
const MOVED = '@site_moved'

/** Where the site's refusals are written (an internal address, of no file). */
const REFUSED = '/.site-refused'

/** The `error_page` lines of a location: nginx's own answers written by `location`. */
const errorPages = (location: string, indent: string) =>
  [
    `${indent}error_page ${NGINX_STATUSES.join(' ')} ${location};`,
    `${indent}error_page ${HEADERS_TOO_LARGE} =400 ${location};`,
  ].join('\n')

/** The forms service's reason for each of nginx's answers under `/api/`, as it gives them. */
const apiBody = (status: number) =>
  JSON.stringify(
    status === 413
      ? { ok: false, reason: 'tooLarge' }
      : status === 502 || status === 503 || status === 504
        ? { ok: false, reason: 'unavailable' }
        : status >= 500
          ? { ok: false, reason: 'server' }
          : { ok: false, errors: [{ field: '', code: 'invalid' }] },
  )

/** An nginx map from each of nginx's own statuses to a text. */
const statusMap = (variable: string, textOf: (status: number) => string) =>
  [
    `map $status ${variable} {`,
    ...NGINX_STATUSES.map((status) => `  ${status} ${quote(textOf(status))};`),
    '}',
  ].join('\n')

/**
 * An nginx server block that serves the built site as `npm start` does: the same headers for
 * each kind of file, precompressed twins, the 404 page of the address's language with status
 * 404, and `/api/` passed to the forms service. Include it in the `http` block.
 */
export function nginxConfig(policy: SitePolicy, options: NginxOptions): string {
  const headersOf = (kind: ResponseKind) =>
    Object.entries(responseHeaders(kind, policy))
      .map(([name, value]) => `    add_header ${headerName(name)} ${quote(value)} always;`)
      .concat('    add_header Strict-Transport-Security $site_hsts always;')
      .join('\n')
  // As the types map below names them, parameters and all: nginx matches the whole string.
  const compressedTypes = [
    ...new Set(
      [...TEXT_EXTENSIONS].flatMap((extension) => {
        const type = CONTENT_TYPES[extension]
        return type ? [quote(type)] : []
      }),
    ),
  ].join(' ')
  const types = Object.entries(CONTENT_TYPES)
    .map(([extension, type]) => `    ${quote(type)} ${extension.slice(1)};`)
    .join('\n')
  const notFound = LANGUAGES.slice(1)
    .map(
      (language) => `
  location /${language}/ {
    error_page 404 /${language}/404.html;
${errorPages(REFUSED, '    ')}
    try_files $uri $uri/ ${MOVED};
${headersOf('page')}
  }`,
    )
    .join('')
  // The service's own headers give way to the pages' (else each would be sent twice).
  const hidden = [...Object.keys(responseHeaders('page', policy)), 'strict-transport-security']
    .map((name) => `    proxy_hide_header ${headerName(name)};`)
    .join('\n')
  return `# The site's server block, written by \`npm run nginx-config\` from src/shared/http-headers.ts
# and the policy the site was built with; include it in nginx's http block.
${trustProxyNote(options.api ?? DEFAULT_FORMS_SERVICE)
  .split('\n')
  .map((line) => `# ${line}`)
  .join('\n')}

upstream site_forms_service {
  server ${options.api ?? DEFAULT_FORMS_SERVICE};
  keepalive 16;
}

# HSTS only for requests that came over HTTPS, here or at a proxy in front that says so.
map "$scheme:$http_x_forwarded_proto" $site_hsts {
  default "";
  "~^https:" ${quote(responseHeaders('page', policy, { https: true })['strict-transport-security'] as string)};
  "~:https$" ${quote(responseHeaders('page', policy, { https: true })['strict-transport-security'] as string)};
}

# The line nginx's own answers carry, as npm start words its own.
${statusMap('$site_refusal', (status) => `${STATUS_CODES[status] ?? 'Error'}\n`)}
# The same under /api/, as the forms service's JSON words them.
${statusMap('$site_api_refusal', apiBody)}
# An address the site never writes (src/http/request-path.ts: an encoded slash or backslash,
# a backslash, an empty segment, a dot segment) names no page, though nginx would decode and
# merge it into one: 404, as npm start answers, never a page at a second address. The forms
# service judges its own addresses; nginx's answers after a refusal are at an internal one.
map $request_uri $site_odd_target {
  default 0;
  "~*^[^?]*(?:%2f|%5c|\\x5c|//|/(?:\\.|%2e){1,2}(?![^/?]))" 1;
}
map "$site_odd_target$uri" $site_unwritten {
  default 0;
  "~^1(?!/api/|${REFUSED.replace('.', '\\.')})" 1;
}

# The 404 page of the address's language (English for an address the site never writes, as
# npm start answers it).
map "$site_unwritten$uri" $site_not_found_page {
  default /404.html;
${LANGUAGES.slice(1)
  .map((language) => `  "~^0/${language}/" /${language}/404.html;`)
  .join('\n')}
}

# A 405 names the methods the site's pages take (the service's routes are its own).
map "$status $request_uri" $site_allow {
  default "";
  "~^405 (?!/api/)" "GET, HEAD";
}

server {
  listen ${options.listen ?? '80'};
  server_name ${options.serverName ?? '_'};
  root ${quote(options.root)};
  index index.html;
  server_tokens off;
  absolute_redirect off;
  # One range a request (a download resumed); more are answered with the whole file, since a
  # thousand one-byte ranges were answered with several times its bytes.
  max_ranges ${MAX_RANGES};
  types {
${types}
  }
  default_type application/octet-stream;

  # Text of 1 KB or more goes compressed: from its twins (npm run build and the publishing
  # service write them), else compressed per request until its twin exists, at the levels
  # of the copies npm start keeps in memory.
  gzip on;
  gzip_comp_level 6;
  gzip_min_length ${MIN_COMPRESS_BYTES};
  gzip_types ${compressedTypes};
  gzip_static on;
  gzip_vary on;
${
  options.brotli === false
    ? ''
    : `  brotli on;
  brotli_comp_level 6;
  brotli_min_length ${MIN_COMPRESS_BYTES};
  brotli_types ${compressedTypes};
  brotli_static on;
`
}
  if ($site_unwritten) {
    return 404;
  }

  # The 404 page by name: an address would run the check above again, on the same target.
  error_page 404 @site_not_found;
${errorPages(REFUSED, '  ')}

  location @site_not_found {
    try_files $site_not_found_page /404.html =404;
${headersOf('page')}
  }

  # An address with no file: the service behind /api/ answers 301 if the live release moved it
  # (its _redirects.json, read afresh as releases switch: no reload needed when a publication
  # moves an address), else 404, and nginx sends its 404 page, as it does when the service is
  # out of reach. A Location of the service's is a path of this site, passed on as it is.
  location ${MOVED} {
    # A page takes no form post, moved or not (405, as npm start answers).
    error_page 405 ${REFUSED};
    if ($request_method !~ ^(GET|HEAD)$) {
      return 405;
    }
    proxy_pass http://site_forms_service;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_pass_request_body off;
    proxy_set_header Content-Length "";
    proxy_redirect off;
    proxy_intercept_errors on;
    error_page 400 403 404 408 413 414 500 502 503 504 =404 @site_not_found;
${hidden}
${headersOf('page')}
  }

  # nginx's own answers, with the pages' headers (add_header is not inherited by a location
  # that has its own, and nginx's built-in pages get none). The status stays the answer's:
  # an error_page without \`=\` keeps it, whatever \`return\` says. An address, not a named
  # location: a request line nginx could not read has no address to keep.
  location = ${REFUSED} {
    internal;
    default_type "text/plain; charset=utf-8";
    return 200 $site_refusal;
${headersOf('page')}
    add_header Allow $site_allow always;
  }

  location / {
    try_files $uri $uri/ ${MOVED};
${headersOf('page')}
  }
${notFound}

  # The hosts' configuration files and dot files are not part of the site.
  location ~ ^/(_|\\.(?!well-known/)) {
    return 404;
  }

  location ^~ /assets/ {
${headersOf('hashed')}
  }

  location ^~ /page-data/ {
    try_files $uri ${MOVED};
${headersOf('data')}
  }

  # Each language's search index, and the files of its version (the folder hashes them).
  location ^~ ${SEARCH_ROOT} {
    location ~ ^${SEARCH_ROOT}[^/]+/[^/]+/ {
      try_files $uri =404;
${headersOf('hashed').replace(/^ {4}/gm, '      ')}
    }
${headersOf('data')}
  }

  location ^~ ${HASHED_IMAGES_DIR}/ {
${headersOf('hashed')}
  }

  # A page left open across a deploy asks for rates that are gone: a 404, not an error.
  location ^~ ${RATES_HISTORY_DIR} {
    try_files $uri =404;
${headersOf('rates')}
  }

  location ~* \\.svg$ {
${headersOf('drawing')}
  }

  location ^~ /api/ {
    proxy_pass http://site_forms_service;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    # The host as the browser named it, port included: the service takes a form post only
    # from a page whose Origin is SITE_URL's or this host's.
    proxy_set_header Host $http_host;
    # The visitor as nginx saw it, in place of whatever the visitor sent: the service counts
    # its limits per client by this address when TRUST_PROXY names nginx's (see above).
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    client_max_body_size 64k;
    # nginx's own answers here (the body too large, the service out of reach) as the service
    # writes its own: its headers, and JSON its pages read. The service's answers pass as sent.
${errorPages('@site_api_refused', '    ')}
  }

  location @site_api_refused {
    default_type "application/json; charset=utf-8";
    return 200 $site_api_refusal;
${headersOf('api')}
  }
}
`
}
