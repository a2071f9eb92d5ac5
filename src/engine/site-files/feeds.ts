/**
 * One RSS 2.0 feed per language for the blog, at `/blog/rss-{language}.xml`
 * (`pages/feed-links.ts` names them in every page's head).
 */
import type { SiteContent } from '../../content/site-content'
import { LANGUAGES, type Language, LOCALE_DATA } from '../../shared/languages'
import { feedLink, feedPath } from '../pages/feed-links'
import { escapeHtml } from '../pages/html-document'

/** RFC 822 dates, as RSS wants them; posts carry a calendar day, published at noon UTC. */
const rssDate = (day: string) => new Date(`${day}T12:00:00Z`).toUTCString()

export function rssFeed(content: SiteContent, language: Language, siteUrl: string): string {
  const { brandName } = content.settings
  const categories = new Map(
    content.entries
      .filter((entry) => entry.collection === 'blogCategory')
      .map((entry) => [entry.name, (entry.data.name as Record<Language, string>)[language]]),
  )
  const posts = content.entries
    .filter((entry) => entry.collection === 'blogPost' && entry.language === language)
    .sort((a, b) => String(b.data.date).localeCompare(String(a.data.date)))
  const archive = content.blogArchive[language]
  const tag = (name: string, value: string) => `<${name}>${escapeHtml(value)}</${name}>`
  const items = posts.map((post) => {
    const link = `${siteUrl}${post.originalPath}`
    const category = categories.get(String(post.data.category))
    return [
      '    <item>',
      `      ${tag('title', String(post.data.title))}`,
      `      ${tag('link', link)}`,
      `      <guid isPermaLink="true">${escapeHtml(link)}</guid>`,
      `      ${tag('pubDate', rssDate(String(post.data.date)))}`,
      `      ${tag('dc:creator', String(post.data.author))}`,
      ...(category ? [`      ${tag('category', category)}`] : []),
      `      ${tag('description', String(post.data.description))}`,
      '    </item>',
    ].join('\n')
  })
  const newest = posts[0]?.data.date
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    ${tag('title', feedLink(language, brandName).title)}
    ${tag('link', `${siteUrl}/blog/`)}
    <atom:link href="${escapeHtml(`${siteUrl}${feedPath(language)}`)}" rel="self" type="application/rss+xml"/>
    ${tag('description', archive.description)}
    ${tag('language', LOCALE_DATA[language].intl)}
${newest ? `    ${tag('lastBuildDate', rssDate(String(newest)))}\n` : ''}${items.join('\n')}
  </channel>
</rss>
`
}

/** Every feed of the build: path and text. */
export function rssFeeds(content: SiteContent, siteUrl: string): [string, string][] {
  return LANGUAGES.map((language) => [feedPath(language), rssFeed(content, language, siteUrl)])
}
