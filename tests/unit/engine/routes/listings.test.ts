/**
 * Lists that name other entries link each at its address, which need not be its file name: a
 * case study's services, a support category's partner pages.
 */
import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../../src/content/collections'
import { loadContent } from '../../../../src/content/load'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import { memorySource, validDocuments } from '../../../fixtures/content'
import {
  caseStudyEntry,
  serviceEntry,
  supportCategoryEntry,
  supportClientEntry,
} from '../../../fixtures/entries'

async function pagesWith(documents: Map<string, unknown>) {
  const content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
  return createRouteTable(content)
}

describe('lists of moved entries', () => {
  it("link a case study's services and a category's partners at their addresses", async () => {
    const documents = validDocuments()
    for (const language of ['en', 'de']) {
      documents.set(`${language}/pages/services/cards.yaml`, {
        ...serviceEntry(),
        slug: 'card-issuing',
      })
      documents.set(`${language}/pages/case-studies/acme.yaml`, caseStudyEntry(['cards']))
      documents.set(`${language}/support-categories/apps.yaml`, {
        ...supportCategoryEntry(),
        slug: 'banking-apps',
      })
      documents.set(`${language}/pages/support/acme.yaml`, {
        ...supportClientEntry('apps'),
        slug: 'acme-help',
      })
    }
    const pages = await pagesWith(documents)
    const at = (path: string) => pages.find((page) => page.route.path === path)
    expect(at('/de/case-studies/acme/')?.listing).toEqual([
      { title: 'cards', href: '/de/services/card-issuing/' },
    ])
    expect(at('/en/support/categories/banking-apps/')?.listing?.map((item) => item.href)).toEqual([
      '/en/support/acme-help/',
    ])
  })
})
