/**
 * The nginx server block `npm run nginx-config` writes for the built site: the headers of
 * `src/shared/http-headers.ts` for each kind of file, as `npm start` sends them.
 */
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
const DEFAULT_FORMS_SERVICE = '127.0.0.1:8080'

const quote = (value: string) => `"${value.replace(/(["\\$])/g, '\\$1')}"`

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
    try_files $uri $uri/ =404;
${headersOf('page')}
  }`,
    )
    .join('')
  return `# The site's server block, written by \`npm run nginx-config\` from src/shared/http-headers.ts
# and the policy the site was built with; include it in nginx's http block.

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

server {
  listen ${options.listen ?? '80'};
  server_name ${options.serverName ?? '_'};
  root ${quote(options.root)};
  index index.html;
  server_tokens off;
  absolute_redirect off;
  types {
${types}
  }
  default_type application/octet-stream;

  # Text of 1 KB or more goes compressed: from the twins made with the bundles and drawings,
  # else compressed per request (pages and data: the build writes no twins for them), at the
  # levels of the copies npm start keeps in memory.
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
  error_page 404 /404.html;

  location / {
    try_files $uri $uri/ =404;
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
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    client_max_body_size 64k;
  }
}
`
}
