/**
 * The head of every page the services write themselves (the publishing service's screens and
 * editor, the forms service's pages): UTF-8, a phone's width, never indexed, the bank's icon,
 * Inter preloaded and the service's stylesheet, both by URL from the service's own origin (no
 * inline style, no other host). Inter is preloaded because its faces are `font-display:
 * optional`, as on the site: shown only when there at first paint.
 */
import type { ReactNode } from 'react'

export function ServiceHead({
  title,
  stylesheet,
  font,
  children,
}: {
  title: string
  /** The service's stylesheet (the site's tokens and Inter first, src/http/site-styles.ts). */
  stylesheet: string
  /** Inter's Latin face, where the service serves it. */
  font: string
  children?: ReactNode
}) {
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>{title}</title>
      <link rel="icon" href="/icon.svg" type="image/svg+xml" />
      <link rel="preload" href={font} as="font" type="font/woff2" crossOrigin="anonymous" />
      <link rel="stylesheet" href={stylesheet} />
      {children}
    </head>
  )
}
