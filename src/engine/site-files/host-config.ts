/**
 * The headers of `src/shared/http-headers.ts`, written for the ways the built site is served:
 * `_headers.json` (the policy the site was built with, read by `npm start` and by
 * `npm run nginx-config`) and `_headers` for static hosts that read one (Netlify, Cloudflare
 * Pages); the moved addresses as `_redirects.json` (for `npm start` and nginx-config) and
 * `_redirects` (static hosts); nginx's server block is nginx-block.ts's.
 */
import { createHash } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TrackingIds } from '../../shared/consent'
import {
  HOST_HEADERS_FILE,
  responseHeaders,
  SITE_POLICY_FILE,
  type SitePolicy,
} from '../../shared/http-headers'
import { HASHED_IMAGES_DIR } from '../../shared/images'
import { RATES_HISTORY_DIR } from '../../shared/rates/history'
import {
  HOST_REDIRECTS_FILE,
  REDIRECT_STATUS,
  REDIRECTS_TABLE_FILE,
  type Redirect,
  redirectRules,
} from '../../shared/redirects'
import { SEARCH_ROOT } from '../../shared/search/format'
import { INLINE_BLOCKS } from '../pages/html-document'

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`

/** The policy of a site built with these trackers: their hosts, and the inline blocks' hashes. */
export function sitePolicy(tracking: TrackingIds): SitePolicy {
  return {
    tracking,
    scriptHashes: INLINE_BLOCKS.scripts.map(sha256),
    styleHashes: INLINE_BLOCKS.styles.map(sha256),
  }
}

/** `content-security-policy` → `Content-Security-Policy`, as header files write them. */
export const headerName = (name: string) =>
  name.replace(
    /(^|-)([a-z])/g,
    (_match, dash: string, letter: string) => dash + letter.toUpperCase(),
  )

/**
 * `_headers` of Netlify and Cloudflare Pages. Every rule whose path matches applies, and
 * Cloudflare joins a header set by two rules with a comma, so no two matching rules set the
 * same header except the content policy (two policies are both enforced: the stricter wins).
 * The hosts revalidate what no rule gives a cache policy; they serve HTTPS only, so HSTS is
 * always sent. The rules match by folder, not by extension, so every drawing the site serves
 * is in a folder whose rule sandboxes it: the icon, the editors' images under `/images/`
 * (originals and hashed copies alike; a picture has no use for a page's policy either) and
 * the bundles.
 */
export function hostHeadersFile(policy: SitePolicy): string {
  const page = responseHeaders('page', policy, { https: true })
  const hashed = responseHeaders('hashed', policy)
  const rates = responseHeaders('rates', policy)
  const drawing = responseHeaders('drawing', policy)
  const { 'cache-control': _cache, ...everywhere } = page
  const rule = (path: string, headers: Record<string, string>) =>
    [
      path,
      ...Object.entries(headers).map(([name, value]) => `  ${headerName(name)}: ${value}`),
    ].join('\n')
  return `${[
    '# Response headers for static hosts that read this file (Netlify, Cloudflare Pages).',
    '# Written by the build from src/shared/http-headers.ts; do not edit.',
    rule('/*', everywhere),
    ...['/assets/*', `${SEARCH_ROOT}:language/:version/*`].map((path) =>
      rule(path, {
        'cache-control': hashed['cache-control'] as string,
        'content-security-policy': hashed['content-security-policy'] as string,
      }),
    ),
    rule('/images/*', {
      'content-security-policy': drawing['content-security-policy'] as string,
    }),
    // Under the images' rule already, which gives them their content policy.
    rule(`${HASHED_IMAGES_DIR}/*`, { 'cache-control': hashed['cache-control'] as string }),
    rule(`${RATES_HISTORY_DIR}*`, {
      'cache-control': rates['cache-control'] as string,
      'content-security-policy': rates['content-security-policy'] as string,
    }),
    rule('/icon.svg', { 'content-security-policy': drawing['content-security-policy'] as string }),
    ...['/page-data/*', `${SEARCH_ROOT}:language/index.json`, '/sw.js'].map((path) =>
      rule(path, { 'cache-control': page['cache-control'] as string }),
    ),
  ].join('\n')}\n`
}

/**
 * `_redirects` of Netlify and Cloudflare Pages: each earlier address, with and without its
 * trailing slash, and its page data, to the page's (both hosts send the rule's status and a
 * `Location` of the path as written: a move stays on the site).
 */
export function hostRedirectsFile(redirects: readonly Redirect[]): string {
  return `${[
    '# Moved addresses (redirectFrom in the content), for static hosts that read this file.',
    '# Written by the build; do not edit.',
    ...redirectRules(redirects).map(([from, to]) => `${from}  ${to}  ${REDIRECT_STATUS}`),
  ].join('\n')}\n`
}

/** The headers' policy and the moved addresses, in the files each way of serving reads. */
export async function writeHostConfiguration(
  outDir: string,
  tracking: TrackingIds,
  redirects: readonly Redirect[] = [],
): Promise<SitePolicy> {
  const policy = sitePolicy(tracking)
  const table = redirects.map(({ from, to }) => ({ from, to }))
  await Promise.all([
    writeFile(join(outDir, SITE_POLICY_FILE), `${JSON.stringify(policy, null, 2)}\n`),
    writeFile(join(outDir, HOST_HEADERS_FILE), hostHeadersFile(policy)),
    writeFile(join(outDir, REDIRECTS_TABLE_FILE), `${JSON.stringify(table, null, 2)}\n`),
    writeFile(join(outDir, HOST_REDIRECTS_FILE), hostRedirectsFile(table)),
  ])
  return policy
}
