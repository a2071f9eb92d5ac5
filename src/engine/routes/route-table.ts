/**
 * The route table: every page the build writes, derived from the validated content.
 * Spec pages under `/en/` and `/de/`, `/` (the English home, not redirected), the
 * language-neutral `/blog/` and the per-language 404 pages with their match paths.
 */
import { ContentValidationError } from '../../content/errors'
import type { RecordedRedirect, SiteContent } from '../../content/site-content'
import { DEFAULT_LANGUAGE, IGNORED_PATHS, LANGUAGES, type Language } from '../../shared/languages'
import { notFoundMatchPath } from '../../shared/paths'
import type { LanguageContext, TemplateName } from '../../shared/types'
import type { BuildPage } from '../build-page'
import { attachBreadcrumbs, type BreadcrumbLabels } from './breadcrumbs'
import { attachListings } from './listings'

export function createRouteTable(content: SiteContent): BuildPage[] {
  const pages: BuildPage[] = []
  for (const entry of content.entries) {
    const fields = {
      ...entry.data,
      title: entry.data.title ?? '',
      description: entry.data.description ?? '',
    }
    if (entry.collection === 'blogCategory') {
      const name = entry.data.name as Record<Language, string>
      const description = entry.data.description as unknown as Record<Language, string>
      pages.push(
        neutralPage(entry.originalPath, entry.template, {
          en: { ...fields, title: name.en, description: description.en },
          de: { ...fields, title: name.de, description: description.de },
        }),
      )
      continue
    }
    const language = entry.language ?? DEFAULT_LANGUAGE
    if (!entry.routed) {
      // Blog posts: outside the prefixes, in the language of the post.
      pages.push({
        route: { path: entry.originalPath, template: entry.template, language },
        originalPath: entry.originalPath,
        language,
        routed: false,
        languageNeutral: false,
        canonicalPath: entry.originalPath,
        content: { [language]: fields },
      })
      continue
    }
    const path = `/${language}${entry.originalPath}`
    const isNotFound = entry.template === 'not-found'
    pages.push({
      route: {
        path,
        template: entry.template,
        language,
        ...(isNotFound ? { matchPath: notFoundMatchPath(language) } : {}),
      },
      originalPath: entry.originalPath,
      language,
      routed: true,
      languageNeutral: false,
      canonicalPath: path,
      content: { [language]: fields },
    })
    if (entry.originalPath === '/' && language === DEFAULT_LANGUAGE) {
      pages.push({
        route: { path: '/', template: entry.template, language },
        originalPath: '/',
        language,
        routed: false,
        languageNeutral: false,
        canonicalPath: path,
        content: { [language]: fields },
      })
    }
  }
  pages.push(neutralPage('/blog/', 'blog-archive', content.blogArchive))
  const labels = Object.fromEntries(
    LANGUAGES.map((language) => {
      const { home, pageOf } = content.layouts[language].strings
      return [language, { home, pageOf }]
    }),
  ) as BreadcrumbLabels
  return attachBreadcrumbs(attachListings(pages, content), labels).sort((a, b) =>
    a.route.path.localeCompare(b.route.path),
  )
}

/** A page without a language of its own: it carries every language's content. */
function neutralPage(
  path: string,
  template: TemplateName,
  content: BuildPage['content'],
): BuildPage {
  return {
    route: { path, template, language: undefined },
    originalPath: path,
    language: DEFAULT_LANGUAGE,
    routed: false,
    languageNeutral: true,
    canonicalPath: path,
    content,
  }
}

export function languageContext(page: BuildPage): LanguageContext {
  return {
    language: page.language,
    languages: LANGUAGES,
    defaultLanguage: DEFAULT_LANGUAGE,
    redirect: false,
    routed: page.routed,
    originalPath: page.originalPath,
    ignoredPaths: IGNORED_PATHS,
  }
}

/**
 * The build's own pages (the blog's later archive pages, a category's) are no entries, so the
 * content's check cannot see them: a move recorded onto one of them is refused here, as the
 * content's problems are.
 */
export function refuseRedirectsOverPages(
  redirects: readonly RecordedRedirect[],
  pages: readonly BuildPage[],
  contentDir?: string,
): void {
  const paths = new Set(pages.map((page) => page.route.path))
  const problems = redirects
    .filter((redirect) => paths.has(redirect.from))
    .map((redirect) => ({
      file: redirect.file,
      field: redirect.field,
      message: `expected an address no page has; the build publishes a page at ${redirect.from}`,
    }))
  if (problems.length > 0) throw new ContentValidationError(problems, contentDir)
}
