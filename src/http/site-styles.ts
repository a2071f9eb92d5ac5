/**
 * The site's look for the services' own pages: a stylesheet made of the site's design tokens
 * and Inter's faces (`src/site/styles/`) followed by a service's own rules, minified by
 * Lightning CSS, and Inter's files to serve beside it. The publishing service's screens
 * (`/_publishing/service.css`) and the forms service's pages (`/api/pages.css`) both stand on
 * it, so they look as the site does and change with it. Each service serves the fonts under
 * its own path: a page's policy allows fonts from its own origin only, never another host.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { THEME_COLOR } from '../shared/constants'

/** The site's stylesheets the services' stand on: its tokens, and Inter's faces. */
const SITE_STYLES = 'src/site/styles'
/** Inter's files, as the site's fonts.css names them (the site's bundler resolves the package). */
const FONT_PACKAGE = '@fontsource-variable/inter/files/'

/** Inter's faces fonts.css names: the variable font's Latin and Latin Extended subsets. */
export const INTER_FILES: ReadonlySet<string> = new Set([
  'inter-latin-wght-normal.woff2',
  'inter-latin-ext-wght-normal.woff2',
])
/** The face every page of English or German text uses, worth preloading. */
export const INTER_LATIN = 'inter-latin-wght-normal.woff2'

/** Where one of `INTER_FILES` is on disk (the site's own copy, from its package). */
export const interFile = (name: string) =>
  join(
    dirname(createRequire(import.meta.url).resolve('@fontsource-variable/inter/package.json')),
    'files',
    name,
  )

/**
 * The site's tokens and Inter's faces (found at `fontPath`), then the service's stylesheets
 * `own` (paths in the project at `root`, in this order), as one minified stylesheet.
 */
export async function siteStylesheet(
  root: string,
  own: string | readonly string[],
  fontPath: string,
) {
  const files = typeof own === 'string' ? [own] : own
  const [{ transform }, tokens, fonts, ...rules] = await Promise.all([
    import('lightningcss'),
    readFile(join(root, SITE_STYLES, 'tokens.css'), 'utf8'),
    readFile(join(root, SITE_STYLES, 'fonts.css'), 'utf8'),
    ...files.map((file) => readFile(join(root, file), 'utf8')),
  ])
  const css = transform({
    filename: files.join(' + '),
    code: Buffer.from(
      [
        // The site writes its brand colour into each page's head; the services' policies
        // allow no inline style, so it is part of the stylesheet here.
        `:root { --color-brand: ${THEME_COLOR}; }`,
        tokens,
        fonts.replaceAll(FONT_PACKAGE, fontPath),
        ...rules,
      ].join('\n'),
    ),
    minify: true,
  })
  return Buffer.from(css.code).toString('utf8')
}
