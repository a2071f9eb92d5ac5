/**
 * How the runtime treats a link (docs/runtime.md, "Runtime contract": Links).
 * One function with a table-like body, shared by the build (which marks external links)
 * and the browser (which intercepts internal ones).
 */

export type LinkKind =
  /** Navigated by the runtime without a full load. */
  | 'internal'
  /** Left to the browser: `mailto:`, `javascript:`, documents, downloads, content files. */
  | 'plain'
  /** Another site: opens in a new tab without opener or referrer. */
  | 'external'

/** Path fragments whose links are never intercepted. */
const PLAIN_PATH_PARTS = ['documents', 'download', 'content'] as const
const PLAIN_SCHEMES = ['mailto:', 'javascript:', 'tel:'] as const

/** Classifies `href` as seen from a page at `base` (an absolute URL of this site). */
export function classifyLink(href: string, base: string): LinkKind {
  const trimmed = href.trim()
  const lower = trimmed.toLowerCase()
  if (PLAIN_SCHEMES.some((scheme) => lower.startsWith(scheme))) return 'plain'
  let url: URL
  try {
    url = new URL(trimmed, base)
  } catch {
    return 'plain'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'plain'
  if (url.origin !== new URL(base).origin) return 'external'
  if (PLAIN_PATH_PARTS.some((part) => url.pathname.toLowerCase().includes(part))) return 'plain'
  return 'internal'
}

/** The attributes an `<a>` needs for its kind: external links open safely in a new tab. */
export function linkAttributes(kind: LinkKind): { target?: string; rel?: string } {
  return kind === 'external' ? { target: '_blank', rel: 'noopener noreferrer' } : {}
}

/** The subset of a click the interception decision needs. */
export interface ClickFacts {
  button: number
  metaKey: boolean
  ctrlKey: boolean
  shiftKey: boolean
  altKey: boolean
  defaultPrevented: boolean
}

/** The subset of an anchor the interception decision needs. */
export interface AnchorFacts {
  href: string
  target: string
  hasDownload: boolean
}

/**
 * True when the runtime should handle a click itself: a plain left click, not prevented,
 * on an internal link without `download` and with no target other than `_self`.
 */
export function shouldIntercept(click: ClickFacts, anchor: AnchorFacts, base: string): boolean {
  if (click.defaultPrevented || click.button !== 0) return false
  if (click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return false
  if (anchor.hasDownload) return false
  if (anchor.target !== '' && anchor.target.toLowerCase() !== '_self') return false
  return classifyLink(anchor.href, base) === 'internal'
}
