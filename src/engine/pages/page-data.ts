/** Page data and shared (static query) data of the protocol, as the build writes them. */
import type { SiteContent } from '../../content/site-content'
import {
  LANGUAGES,
  type Language,
  langWhereDifferent,
  localizePath,
  textLanguageOf,
} from '../../shared/languages'
import type { AlternateLink, LayoutData, PageContent, PageData, PageHead } from '../../shared/types'
import { CARD_SIZE, imageFields, SITE_CARD } from '../assets/content-images'
import type { BuildPage } from '../build-page'
import { contentHash } from '../content-hash'
import { languageContext } from '../routes/route-table'
import { feedLinks } from './feed-links'

export interface StaticQuery {
  hash: string
  json: string
  data: LayoutData
}

/** The shared data of each language (navigation, footer, interface strings), keyed by language. */
export function createStaticQueries(content: SiteContent): Record<Language, StaticQuery> {
  const queries = {} as Record<Language, StaticQuery>
  for (const language of LANGUAGES) {
    const layout = content.layouts[language]
    const data: LayoutData = {
      language,
      brandName: content.settings.brandName,
      company: content.settings,
      legalEntity: content.settings.legalEntity,
      navigation: layout.navigation,
      footer: layout.footer,
      cookieSettings: layout.cookieSettings,
      ...(layout.consent ? { consent: layout.consent } : {}),
      search: layout.search,
      strings: layout.strings,
    }
    const json = JSON.stringify(data)
    queries[language] = { hash: contentHash(json), json, data }
  }
  return queries
}

export function manifestPath(language: Language): string {
  return `/manifest-${language}.webmanifest`
}

/**
 * The page in every language, for `hreflang`: pages under a language prefix have a twin in
 * each language (`/` counts as the English home); blog posts and language-neutral pages have
 * none. Pages answering a pattern (the 404s) have none either.
 */
export function alternates(page: BuildPage, siteUrl: string): AlternateLink[] {
  const twinned = page.routed || page.route.path === '/'
  if (!twinned || page.route.matchPath) return []
  const links = LANGUAGES.map((language) => ({
    hreflang: language,
    href: `${siteUrl}${localizePath(page.originalPath, language)}`,
  }))
  const fallback = links.find((link) => link.hreflang === LANGUAGES[0])
  return fallback ? [...links, { hreflang: 'x-default', href: fallback.href }] : links
}

/** The page's first image with a raster form, or the site's card. */
function shareImage(content: PageContent, brandName: string, siteUrl: string): PageHead['image'] {
  const image = imageFields(content).find((field) => field.card)
  if (image?.card) {
    return {
      url: `${siteUrl}${image.card}`,
      width: image.responsive?.width ?? CARD_SIZE.width,
      height: image.responsive?.height ?? CARD_SIZE.height,
      // A decorative image has no text of its own; the card then stands for the page.
      alt: image.alt || content.title,
    }
  }
  return { url: `${siteUrl}${SITE_CARD}`, ...CARD_SIZE, alt: brandName }
}

function head(page: BuildPage, brandName: string, siteUrl: string): PageHead {
  const content = page.content[page.language]
  if (!content) throw new Error(`${page.route.path} has no ${page.language} content`)
  const title =
    page.originalPath === '/'
      ? `${brandName} – ${content.title}`
      : `${content.title} | ${brandName}`
  const textLang = textLanguageOf(content)
  const titleLang = langWhereDifferent(textLang, page.language)
  return {
    title,
    description: content.description,
    lang: page.language,
    ...(titleLang ? { titleLang } : {}),
    ...(textLang ? { textLang } : {}),
    canonical: `${siteUrl}${page.canonicalPath}`,
    alternates: alternates(page, siteUrl),
    feeds: feedLinks(page.languageNeutral ? LANGUAGES : [page.language], brandName),
    manifest: manifestPath(page.language),
    image: shareImage(content, brandName, siteUrl),
    ...(page.route.template === 'confirmation' ? { noindex: true as const } : {}),
  }
}

export function createPageData(
  page: BuildPage,
  queries: Record<Language, StaticQuery>,
  content: SiteContent,
  siteUrl: string,
): PageData {
  const languages = page.languageNeutral ? LANGUAGES : [page.language]
  const pageContent: PageData['result']['content'] = {}
  for (const language of languages) {
    const fields = page.content[language]
    if (!fields) continue
    // The description belongs in the head, not twice in the page data.
    const { description: _description, ...rest } = fields
    pageContent[language] = rest
  }
  return {
    path: page.route.path,
    ...(page.route.matchPath ? { matchPath: page.route.matchPath } : {}),
    componentChunkName: page.route.template,
    staticQueryHashes: languages.map((language) => queries[language].hash),
    result: {
      language: languageContext(page),
      head: head(page, content.settings.brandName, siteUrl),
      content: pageContent,
      languageNeutral: page.languageNeutral,
      ...(page.listing ? { listing: page.listing } : {}),
      ...(page.pagination ? { pagination: page.pagination } : {}),
      ...(page.blog ? { blog: page.blog } : {}),
      ...(page.breadcrumbs ? { breadcrumbs: page.breadcrumbs } : {}),
    },
  }
}
