/**
 * The feed links every page's head names for autodiscovery: the blog's feed in the page's
 * language, or every feed on language-neutral pages. `site-files/feeds.ts` writes the feeds.
 */
import { type Language, LOCALE_DATA } from '../../shared/languages'
import type { FeedLink } from '../../shared/types'

export const feedPath = (language: Language) => `/blog/rss-${language}.xml`

export function feedLink(language: Language, brandName: string): FeedLink {
  return {
    href: feedPath(language),
    title: `${brandName} Blog (${LOCALE_DATA[language].nativeName})`,
  }
}

export function feedLinks(languages: readonly Language[], brandName: string): FeedLink[] {
  return languages.map((language) => feedLink(language, brandName))
}
