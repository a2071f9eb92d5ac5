import type { AnchorHTMLAttributes } from 'react'
import { classifyLink, linkAttributes } from '../../shared/links'

/** Any URL of another origin works as base: only the origin comparison matters here. */
const RENDER_BASE = 'https://site.invalid/'

export type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }

/**
 * An anchor that opens other sites in a new tab without opener or referrer. Internal links
 * need nothing else: the runtime intercepts their clicks.
 */
export function Link({ href, children, ...rest }: LinkProps) {
  return (
    <a href={href} {...linkAttributes(classifyLink(href, RENDER_BASE))} {...rest}>
      {children}
    </a>
  )
}
