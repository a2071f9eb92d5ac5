import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../../src/content/collections'
import { loadContent } from '../../../../src/content/load'
import { sharingTags } from '../../../../src/engine/pages/html-document'
import { createPageData, createStaticQueries } from '../../../../src/engine/pages/page-data'
import { breadcrumbTrails } from '../../../../src/engine/routes/breadcrumbs'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import { addBlogPost, memorySource, validDocuments } from '../../../fixtures/content'

const documents = validDocuments()
addBlogPost(documents)
const content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
const routes = createRouteTable(content)
const page = (path: string) => {
  const found = routes.find((route) => route.route.path === path)
  if (!found) throw new Error(`no page ${path}`)
  return found
}
const home = { en: content.layouts.en.strings.home, de: content.layouts.de.strings.home }

describe('breadcrumbs', () => {
  it('lead from the language home through the pages above to the page itself', () => {
    const survey = page('/de/services/splitpay/survey/')
    expect(survey.breadcrumbs?.de).toEqual([
      { label: home.de, href: '/de/' },
      { label: page('/de/services/').content.de?.title, href: '/de/services/' },
      { label: page('/de/services/splitpay/').content.de?.title, href: '/de/services/splitpay/' },
      { label: survey.content.de?.title, href: '/de/services/splitpay/survey/' },
    ])
    expect(survey.breadcrumbs?.en).toBeUndefined()
  })

  it('lead a blog post, outside the language prefixes, home and through the blog', () => {
    const post = routes.find((route) => route.route.template === 'blog-post')
    if (!post) throw new Error('no blog post')
    const trail = post.breadcrumbs?.[post.language] ?? []
    expect(trail.map((item) => item.href)).toEqual([
      `/${post.language}/`,
      '/blog/',
      post.route.path,
    ])
  })

  it('are given in every language on language-neutral pages', () => {
    const archive = page('/blog/')
    expect(archive.breadcrumbs?.en?.map((item) => item.label)).toEqual([
      home.en,
      archive.content.en?.title,
    ])
    expect(archive.breadcrumbs?.de?.[0]).toEqual({ label: home.de, href: '/de/' })
  })

  it('say which page of a list a later page is', () => {
    const archive = page('/blog/')
    const second = {
      ...archive,
      route: { ...archive.route, path: '/blog/page/2/' },
      pagination: { page: 2, pages: 3 },
    }
    const pages = new Map(routes.map((route) => [route.route.path, route]))
    pages.set(second.route.path, second)
    const labels = {
      en: { home: home.en, pageOf: 'Page {page} of {pages}' },
      de: { home: home.de, pageOf: 'Seite {page} von {pages}' },
    }
    const trails = breadcrumbTrails(second, pages, labels)
    expect(trails?.en?.map((item) => item.label)).toEqual([
      home.en,
      archive.content.en?.title,
      'Page 2 of 3',
    ])
    expect(trails?.de?.at(-1)).toEqual({ label: 'Seite 2 von 3', href: '/blog/page/2/' })
  })

  it('and the head say the language of a page written in another than its own', async () => {
    const store = validDocuments()
    for (const language of ['en', 'de'])
      store.set(`${language}/pages/clientes.yaml`, {
        title: 'Información para clientes',
        description: 'Información para clientes residentes en España, con sus documentos.',
        intro: 'Para los clientes residentes en España.',
        contentLanguage: 'es',
      })
    const spanish = await loadContent(memorySource(store), { collections: ALL_COLLECTIONS })
    const table = createRouteTable(spanish)
    const found = table.find((route) => route.route.path === '/en/clientes/')
    if (!found) throw new Error('no Spanish page')
    expect(found.breadcrumbs?.en?.map((item) => item.lang)).toEqual([undefined, 'es'])
    const data = createPageData(
      found,
      createStaticQueries(spanish),
      spanish,
      'https://bank.example',
    )
    expect(data.result.head).toMatchObject({ lang: 'en', titleLang: 'es', textLang: 'es' })
    // Shared, it is a Spanish page, whose twin under /de/ is Spanish too.
    const tags = sharingTags(data.result.head, 'Test Bank', 'page')
    expect(tags).toContain('<meta property="og:locale" content="es_ES">')
    expect(tags).not.toContain('og:locale:alternate')
    expect(
      createPageData(page('/en/imprint/'), createStaticQueries(content), content, '').result.head
        .titleLang,
    ).toBeUndefined()
  })

  it('are left out on the homes and the 404 pages, and reach the page data', () => {
    for (const path of ['/', '/en/', '/de/', '/en/404/'])
      expect(page(path).breadcrumbs).toBeUndefined()
    const queries = createStaticQueries(content)
    const data = createPageData(page('/en/imprint/'), queries, content, 'https://bank.example')
    expect(data.result.breadcrumbs?.en?.map((item) => item.href)).toEqual(['/en/', '/en/imprint/'])
  })
})
