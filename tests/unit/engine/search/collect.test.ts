import { describe, expect, it } from 'vitest'
import { searchScope, sectionOf } from '../../../../src/engine/search/collect'
import type { LayoutData, PageData, TemplateName } from '../../../../src/shared/types'

function pageData(
  path: string,
  template: TemplateName,
  extra: { neutral?: boolean; canonical?: string; noindex?: true; trail?: string[] } = {},
): PageData {
  return {
    path,
    componentChunkName: template,
    staticQueryHashes: [],
    result: {
      language: {
        language: 'en',
        languages: ['en', 'de'],
        defaultLanguage: 'en',
        redirect: false,
        routed: true,
        originalPath: path,
        ignoredPaths: [],
      },
      head: {
        title: 'T',
        description: 'D',
        lang: 'en',
        canonical: `https://bank.example${extra.canonical ?? path}`,
        alternates: [],
        feeds: [],
        manifest: '/manifest-en.webmanifest',
        image: { url: '', width: 1, height: 1, alt: '' },
        ...(extra.noindex ? { noindex: true as const } : {}),
      },
      content: {},
      languageNeutral: extra.neutral ?? false,
      ...(extra.trail
        ? { breadcrumbs: { en: extra.trail.map((label, i) => ({ label, href: `/${i}/` })) } }
        : {}),
    },
  } as PageData
}

describe('what the search finds', () => {
  it.each([
    ['/en/support/faq/', 'page', 'page'],
    ['/en/services/cards/', 'service', 'page'],
    ['/en/support/bison/', 'support-client', 'page'],
    ['/en/customer-information/spain/de-iban/spanish/', 'customer-information', 'page'],
    ['/blog/a-post/', 'blog-post', 'page'],
    ['/en/privacy-policy/', 'legal', 'title'],
    ['/en/newsletter-success/', 'confirmation', 'none'],
    ['/en/404/', 'not-found', 'none'],
    ['/blog/category/x/', 'blog-category', 'none'],
  ] as const)('%s (%s): %s', (path, template, scope) => {
    expect(searchScope(pageData(path, template))).toBe(scope)
  })

  it('leaves out language-neutral pages, pages kept from search engines and copies', () => {
    expect(searchScope(pageData('/blog/', 'page', { neutral: true }))).toBe('none')
    expect(searchScope(pageData('/en/unsubscribed/', 'page', { noindex: true }))).toBe('none')
    expect(searchScope(pageData('/', 'home', { canonical: '/en/' }))).toBe('none')
    expect(searchScope(pageData('/en/', 'home'))).toBe('page')
  })

  it('names the part of the site a page belongs to by the navigation, else its breadcrumb', () => {
    const layout = {
      navigation: [
        { label: 'Services', href: '/en/services/' },
        { label: 'Blog', href: '/blog/' },
        { label: 'Home', href: '/en/' },
      ],
      footer: [{ title: 'Customers', links: [{ label: 'Support', href: '/en/support/' }] }],
    } as LayoutData
    expect(sectionOf(pageData('/en/services/cards/', 'service'), layout)).toBe('Services')
    expect(sectionOf(pageData('/en/support/faq/', 'page'), layout)).toBe('Support')
    expect(sectionOf(pageData('/blog/a-post/', 'blog-post'), layout)).toBe('Blog')
    // The page itself and the home are no sections.
    expect(sectionOf(pageData('/en/services/', 'page'), layout)).toBeUndefined()
    expect(
      sectionOf(pageData('/en/studies/x/', 'study', { trail: ['Home', 'Studies', 'X'] }), layout),
    ).toBe('Studies')
  })
})
