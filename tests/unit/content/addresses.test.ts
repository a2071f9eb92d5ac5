import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../src/content/collections'
import { loadContent } from '../../../src/content/load'
import { hostRedirectsFile } from '../../../src/engine/site-files/host-config'
import { memorySource, problemsOf, validDocuments } from '../../fixtures/content'
import { blogPostEntry, serviceEntry } from '../../fixtures/entries'

/** The valid store with a category and two posts, `a` and `b`. */
function store(): Map<string, unknown> {
  const documents = validDocuments()
  documents.set('blog/categories/regulation.yaml', {
    name: { en: 'Regulation', de: 'Regulierung' },
    description: { en: 'Rules.', de: 'Regeln.' },
  })
  documents.set('blog/posts/a.md', blogPostEntry('Instant payments', 'regulation'))
  documents.set('blog/posts/b.md', blogPostEntry('Card fees', 'regulation'))
  return documents
}

const post = (documents: Map<string, unknown>, file: string) =>
  documents.get(file) as Record<string, unknown>

const load = (documents: Map<string, unknown>) =>
  loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })

describe('addresses that last', () => {
  it('keeps a post at its address when its title changes', async () => {
    const documents = store()
    documents.set('blog/posts/a.md', {
      ...post(documents, 'blog/posts/a.md'),
      title: 'Instant paymnets, fixed',
    })
    const content = await load(documents)
    const entry = content.entries.find((candidate) => candidate.file === 'blog/posts/a.md')
    expect(entry?.originalPath).toBe('/blog/instant-payments/')
    expect(content.redirects).toEqual([])
  })

  it('records a move, and links to the earlier address lead to the new one', async () => {
    const documents = store()
    documents.set('blog/posts/a.md', {
      ...post(documents, 'blog/posts/a.md'),
      slug: 'instant-payments-explained',
      redirectFrom: ['/blog/instant-payments/'],
    })
    documents.set('blog/posts/b.md', {
      ...post(documents, 'blog/posts/b.md'),
      body: 'See [instant payments](/blog/instant-payments/#rules).',
    })
    const content = await load(documents)
    expect(content.redirects).toEqual([
      {
        from: '/blog/instant-payments/',
        to: '/blog/instant-payments-explained/',
        file: 'blog/posts/a.md',
        field: 'redirectFrom.0',
      },
    ])
    const b = content.entries.find((candidate) => candidate.file === 'blog/posts/b.md')
    expect((b?.data.body as { html: string } | undefined)?.html).toContain(
      'href="/blog/instant-payments-explained/#rules"',
    )
    expect(hostRedirectsFile(content.redirects)).toContain(
      [
        '/blog/instant-payments/  /blog/instant-payments-explained/  301',
        '/blog/instant-payments  /blog/instant-payments-explained/  301',
        '/page-data/blog/instant-payments/page-data.json  /page-data/blog/instant-payments-explained/page-data.json  301',
      ].join('\n'),
    )
  })

  it('refuses two posts at one address, naming both files and the field', async () => {
    const documents = store()
    documents.set('blog/posts/b.md', {
      ...post(documents, 'blog/posts/b.md'),
      slug: 'instant-payments',
    })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'blog/posts/b.md',
        field: 'slug',
        message:
          'expected a unique address; blog/posts/a.md already publishes /blog/instant-payments/',
      },
    ])
  })

  it('refuses a redirect loop between two posts, naming both files', async () => {
    const documents = store()
    documents.set('blog/posts/a.md', {
      ...post(documents, 'blog/posts/a.md'),
      redirectFrom: ['/blog/card-fees/'],
    })
    documents.set('blog/posts/b.md', {
      ...post(documents, 'blog/posts/b.md'),
      redirectFrom: ['/blog/instant-payments/'],
    })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'blog/posts/a.md',
        field: 'redirectFrom.0',
        message:
          'expected no redirect loop; this leads /blog/card-fees/ to /blog/instant-payments/, and blog/posts/b.md › redirectFrom.0 leads /blog/instant-payments/ back to /blog/card-fees/',
      },
      {
        file: 'blog/posts/b.md',
        field: 'redirectFrom.0',
        message:
          'expected no redirect loop; this leads /blog/instant-payments/ to /blog/card-fees/, and blog/posts/a.md › redirectFrom.0 leads /blog/card-fees/ back to /blog/instant-payments/',
      },
    ])
  })

  it("refuses a live page's address, its own, the site's folders and a claimed one", async () => {
    const documents = store()
    for (const language of ['en', 'de'])
      documents.set(`${language}/pages/services/cards.yaml`, serviceEntry())
    documents.set('blog/posts/a.md', {
      ...post(documents, 'blog/posts/a.md'),
      redirectFrom: [
        '/en/services/cards/',
        '/blog/instant-payments/',
        '/blog/old/',
        '/page-data/x/',
      ],
    })
    documents.set('blog/posts/b.md', {
      ...post(documents, 'blog/posts/b.md'),
      redirectFrom: ['/blog/old/'],
    })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'blog/posts/a.md',
        field: 'redirectFrom.0',
        message:
          'expected an address no page has; en/pages/services/cards.yaml publishes /en/services/cards/ (move or delete that page first)',
      },
      {
        file: 'blog/posts/a.md',
        field: 'redirectFrom.1',
        message:
          "expected an earlier address, not this entry's own (/blog/instant-payments/): a redirect from it to itself would loop",
      },
      {
        file: 'blog/posts/a.md',
        field: 'redirectFrom.3',
        message:
          'expected an earlier address of a page; /page-data/x/ is where the site keeps its /page-data/ files',
      },
      {
        file: 'blog/posts/b.md',
        field: 'redirectFrom.0',
        message:
          'expected one destination for /blog/old/; blog/posts/a.md › redirectFrom.2 already leads it to /blog/instant-payments/',
      },
    ])
  })

  it('names an earlier address that is no address of the site', async () => {
    const documents = store()
    documents.set('blog/posts/a.md', {
      ...post(documents, 'blog/posts/a.md'),
      redirectFrom: ['/', 'https://evil.example/'],
    })
    const expected =
      'expected an address of this site in lowercase letters, digits and hyphens, between slashes, e.g. /blog/old-title/'
    expect(await problemsOf(documents)).toEqual([
      { file: 'blog/posts/a.md', field: 'redirectFrom.0', message: expected },
      { file: 'blog/posts/a.md', field: 'redirectFrom.1', message: expected },
    ])
  })

  it('names a post without its address field', async () => {
    const documents = store()
    const { slug: _slug, ...rest } = post(documents, 'blog/posts/a.md')
    documents.set('blog/posts/a.md', rest)
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'blog/posts/a.md',
        field: 'slug',
        message: "expected the post's address (its slug) as text",
      },
    ])
  })
})
