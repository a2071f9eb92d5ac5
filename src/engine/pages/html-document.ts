/** The HTML document around a rendered page. */
import {
  ANNOUNCER_ELEMENT_ID,
  BOOT_DATA_ELEMENT_ID,
  IMAGE_FADE_MS,
  ROOT_ELEMENT_ID,
  THEME_COLOR,
} from '../../shared/constants'
import { escapeHtml, scriptJson } from '../../shared/html'
import { isLanguage, type Language, LOCALE_DATA } from '../../shared/languages'
import type { BootData, PageHead } from '../../shared/types'
import type { PageAssets } from '../assets/bundle'

export { escapeHtml }

export function headTags(head: PageHead): string {
  const tags = [
    head.titleLang
      ? `<title lang="${escapeHtml(head.titleLang)}">${escapeHtml(head.title)}</title>`
      : `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    `<link rel="canonical" href="${escapeHtml(head.canonical)}">`,
    ...head.alternates.map(
      (link) =>
        `<link rel="alternate" hreflang="${escapeHtml(link.hreflang)}" href="${escapeHtml(link.href)}">`,
    ),
    ...head.feeds.map(
      (feed) =>
        `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(feed.title)}" href="${escapeHtml(feed.href)}">`,
    ),
    `<link rel="manifest" href="${escapeHtml(head.manifest)}">`,
    ...(head.noindex ? ['<meta name="robots" content="noindex">'] : []),
  ]
  return tags.join('\n')
}

/** Templates whose pages are articles when shared; the rest are websites. */
const ARTICLE_TEMPLATES = new Set(['blog-post', 'press-release'])

/**
 * The form Open Graph expects: `en-GB` → `en_GB` for the site's languages; a text language of
 * its own (`es` on a page for customers in Spain) with its country of the same letters, `es_ES`.
 */
const ogLocale = (language: string) =>
  isLanguage(language)
    ? LOCALE_DATA[language].intl.replace('-', '_')
    : `${language}_${language.toUpperCase()}`

/**
 * How the page looks when shared: Open Graph and the Twitter card. Crawlers of social
 * networks read the first load only, so client navigation leaves these as they are.
 */
export function sharingTags(head: PageHead, siteName: string, template: string): string {
  const property = (name: string, value: string) =>
    `<meta property="${name}" content="${escapeHtml(value)}">`
  // A page that declares its text's language (Spanish; a contract's) has its twin in that
  // language too: no alternate locale.
  const others = head.textLang
    ? []
    : head.alternates
        .map((link) => link.hreflang)
        .filter((hreflang): hreflang is Language => isLanguage(hreflang) && hreflang !== head.lang)
  return [
    property('og:type', ARTICLE_TEMPLATES.has(template) ? 'article' : 'website'),
    property('og:site_name', siteName),
    property('og:title', head.title),
    property('og:description', head.description),
    property('og:url', head.canonical),
    property('og:locale', ogLocale(head.textLang ?? head.lang)),
    ...others.map((language) => property('og:locale:alternate', ogLocale(language))),
    property('og:image', head.image.url),
    property('og:image:width', String(head.image.width)),
    property('og:image:height', String(head.image.height)),
    property('og:image:alt', head.image.alt),
    `<meta name="twitter:card" content="summary_large_image">`,
  ].join('\n')
}

/**
 * Without script the phone menu cannot open: its links then show unfolded and the button that
 * would do nothing is left out (below the header's breakpoint, 64 rem, where the menu folds).
 * Other controls that only script can work (`data-needs-script`) are left out too.
 */
const NO_SCRIPT_CSS =
  '@media (max-width:63.99rem){[data-site-menu]{display:block!important}[data-menu-button]{display:none!important}}[data-needs-script]{display:none!important}'

/** The design's values the stylesheet reads, fixed for the whole site. */
const ROOT_CSS = `:root{--color-brand:${THEME_COLOR};--duration-image-fade:${IMAGE_FADE_MS}ms}`

/**
 * The text of every inline `<style>` and `<script>` a page carries (JSON data blocks aside,
 * which never run): the Content-Security-Policy allows exactly these by their hashes.
 */
export const INLINE_BLOCKS = { styles: [ROOT_CSS, NO_SCRIPT_CSS], scripts: [] as string[] }

/** The page's code: after its first paint through the boot script, or named directly. */
function scriptTags(assets: PageAssets): string {
  if (assets.boot) {
    return `<script type="module" src="${assets.boot}" data-entry="${assets.entry}" data-modules="${assets.preload.join(' ')}"></script>`
  }
  return [
    `<script type="module" src="${assets.entry}"></script>`,
    ...assets.preload.map((href) => `<link rel="modulepreload" href="${href}">`),
  ].join('\n')
}

export function renderDocument(
  boot: BootData,
  appHtml: string,
  assets: PageAssets,
  /** JSON-LD documents for search engines (first load only). */
  structured: readonly object[] = [],
): string {
  const { head } = boot.page.result
  const siteName = Object.values(boot.staticQueries)[0]?.brandName ?? ''
  return `<!doctype html>
<html lang="${head.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${headTags(head)}
${sharingTags(head, siteName, boot.page.componentChunkName)}${structured
  .map((item) => `\n<script type="application/ld+json">${scriptJson(item)}</script>`)
  .join('')}
<meta name="theme-color" content="${THEME_COLOR}">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<style>${ROOT_CSS}</style>
<noscript><style>${NO_SCRIPT_CSS}</style></noscript>
${assets.fonts.map((href) => `<link rel="preload" href="${href}" as="font" type="font/woff2" crossorigin>`).join('\n')}
${assets.styles.map((href) => `<link rel="stylesheet" href="${href}">`).join('\n')}
${scriptTags(assets)}
</head>
<body>
<div id="${ROOT_ELEMENT_ID}">${appHtml}</div>
<div id="${ANNOUNCER_ELEMENT_ID}" class="visually-hidden" aria-live="assertive" aria-atomic="true"></div>
<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">${scriptJson(boot)}</script>
</body>
</html>
`
}
