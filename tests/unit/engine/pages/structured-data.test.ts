import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../../src/content/collections'
import { loadContent } from '../../../../src/content/load'
import { structuredData } from '../../../../src/engine/pages/structured-data'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import { slugify } from '../../../../src/shared/slug'
import { addBlogPost, memorySource, validDocuments } from '../../../fixtures/content'
import { structuredDataProblems } from '../../../support/structured-data'

const SITE = 'https://bank.example'
const documents = validDocuments()
addBlogPost(documents)
for (const language of ['en', 'de']) {
  documents.set(`${language}/jobs/engineer.yaml`, {
    title: 'Engineer',
    description: 'Build the bank.',
    intro: 'Join us.',
    team: 'Engineering',
    datePosted: '2026-11-01',
    validThrough: '2027-01-31',
    employmentType: 'FULL_TIME',
    location: { city: 'Berlin', country: 'DE' },
    remote: true,
    salary: { currency: 'EUR', min: 70000, max: 90000, unit: 'YEAR' },
    body: 'What you will do.',
    applyEmail: 'jobs@example.com',
  })
  documents.set(`${language}/press/news.md`, {
    title: 'Lumora opens an office',
    description: 'A new office in Berlin.',
    date: '2026-10-01',
    body: 'Text.',
  })
}
const content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
const routes = createRouteTable(content)
const context = {
  siteUrl: SITE,
  settings: content.settings,
}
const pages = new Map(routes.map((route) => [route.route.path, route]))
const typesOf = (path: string) => {
  const page = pages.get(path)
  if (!page) throw new Error(`no page ${path}`)
  const items = structuredData(page, context)
  for (const item of items) expect(structuredDataProblems(item), path).toEqual([])
  return items.map((item) => item['@type'])
}

describe('structured data', () => {
  it('every page writes only valid JSON-LD', () => {
    for (const page of routes) {
      for (const item of structuredData(page, context))
        expect(structuredDataProblems(item), page.route.path).toEqual([])
    }
  })

  it('names the bank on the home pages, and each page its type and place', () => {
    expect(typesOf('/')).toEqual(['Organization'])
    expect(typesOf('/de/')).toEqual(['Organization'])
    expect(typesOf('/de/careers/engineer/')).toEqual(['BreadcrumbList', 'JobPosting'])
    expect(typesOf('/en/press/news/')).toEqual(['BreadcrumbList', 'NewsArticle'])
    expect(typesOf('/blog/hello-from-the-bank/')).toEqual(['BreadcrumbList', 'BlogPosting'])
    expect(typesOf('/en/404/')).toEqual([])
  })

  it("lists a page's questions as FAQPage, each at its answer's anchor, in plain text", () => {
    const service = routes.find((route) => route.route.template === 'service')
    if (!service) throw new Error('no service page')
    const faq = structuredData(service, context).find((item) => item['@type'] === 'FAQPage') as
      | { mainEntity: { name: string; url: string; acceptedAnswer: { text: string } }[] }
      | undefined
    const items = service.content[service.language]?.faq as { question: string }[]
    expect(faq?.mainEntity.map((question) => question.name)).toEqual(
      items.map((item) => item.question),
    )
    for (const question of faq?.mainEntity ?? []) {
      expect(question.url).toBe(`${SITE}${service.route.path}#${slugify(question.name)}`)
      expect(question.acceptedAnswer.text).not.toMatch(/[<>]|\s[.,;:]/)
    }
    expect(typesOf('/en/imprint/')).not.toContain('FAQPage')
  })

  it("writes an answer's words as a sentence reads them, links and paragraphs included", async () => {
    const store = validDocuments()
    const cards = store.get('en/pages/services/cards.yaml') as Record<string, unknown>
    store.set('en/pages/services/cards.yaml', {
      ...cards,
      faq: [
        {
          question: 'Where can I complain?',
          answer: 'Write to [BaFin](https://www.bafin.de/), *please*.\n\nOr call us &amp; wait.',
        },
      ],
    })
    const loaded = await loadContent(memorySource(store), { collections: ALL_COLLECTIONS })
    const cardsPage = createRouteTable(loaded).find(
      (route) => route.route.path === '/en/services/cards/',
    )
    if (!cardsPage) throw new Error('no cards page')
    const faq = structuredData(cardsPage, { siteUrl: SITE, settings: loaded.settings }).find(
      (item) => item['@type'] === 'FAQPage',
    ) as { mainEntity: { acceptedAnswer: { text: string } }[] } | undefined
    expect(faq?.mainEntity[0]?.acceptedAnswer.text).toBe(
      'Write to BaFin, please. Or call us & wait.',
    )
  })

  it('builds breadcrumbs from the home down, in the page language', () => {
    const page = pages.get('/de/careers/engineer/')
    if (!page) throw new Error('no job page')
    const [breadcrumbs] = structuredData(page, context) as {
      itemListElement: { name: string; item: string }[]
    }[]
    expect(breadcrumbs?.itemListElement.map((item) => item.item)).toEqual([
      `${SITE}/de/`,
      `${SITE}/de/careers/`,
      `${SITE}/de/careers/engineer/`,
    ])
    expect(breadcrumbs?.itemListElement[0]?.name).toBe(content.layouts.de.strings.home)
  })

  it('rejects what Google would: a remote job without applicant location, a long headline', () => {
    expect(
      structuredDataProblems({
        '@context': 'https://schema.org',
        '@type': 'NewsArticle',
        headline: 'x'.repeat(111),
      }).length,
    ).toBeGreaterThan(0)
    expect(structuredDataProblems({ '@type': 'Thing' })).toEqual(['unknown @type Thing'])
  })
})
