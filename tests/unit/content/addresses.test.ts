import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../src/content/collections'
import { loadContent } from '../../../src/content/load'
import { hostRedirectsFile } from '../../../src/engine/site-files/host-config'
import { memorySource, problemsOf, validDocuments } from '../../fixtures/content'
import {
  blogPostEntry,
  caseStudyEntry,
  serviceEntry,
  supportCategoryEntry,
} from '../../fixtures/entries'

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

/** The valid store with two services in both languages, `cards` and `lending`. */
function pages(): Map<string, unknown> {
  const documents = validDocuments()
  for (const language of ['en', 'de']) {
    documents.set(`${language}/pages/services/cards.yaml`, serviceEntry('Cards'))
    documents.set(`${language}/pages/services/lending.yaml`, serviceEntry('Lending'))
  }
  return documents
}

/** Sets fields of a page in both languages, `/en/…/` standing for each language's address. */
function change(documents: Map<string, unknown>, name: string, fields: Record<string, unknown>) {
  for (const language of ['en', 'de']) {
    const file = `${language}/pages/${name}.yaml`
    const localised = JSON.parse(JSON.stringify(fields).replaceAll('/en/', `/${language}/`))
    documents.set(file, { ...(documents.get(file) as object), ...localised })
  }
}

describe("a page's address", () => {
  it('is its file name while it has no address field, whatever its title', async () => {
    const documents = pages()
    change(documents, 'services/cards', { title: 'Card issuing, renamed' })
    const content = await load(documents)
    const cards = content.entries.filter((entry) => entry.name === 'services/cards')
    expect(cards.map((entry) => entry.originalPath)).toEqual([
      '/services/cards/',
      '/services/cards/',
    ])
  })

  it('moves with its field; the earlier address redirects and links follow', async () => {
    const documents = pages()
    change(documents, 'services/cards', {
      slug: 'card-issuing',
      redirectFrom: ['/en/services/cards/'],
    })
    for (const language of ['en', 'de'])
      documents.set(`${language}/pages/case-studies/penta.yaml`, {
        ...caseStudyEntry(['cards']),
        challenge: `Read [our cards](/${language}/services/cards/#fees).`,
      })
    const content = await load(documents)
    expect(content.redirects.map(({ from, to }) => `${from} → ${to}`)).toEqual([
      '/en/services/cards/ → /en/services/card-issuing/',
      '/de/services/cards/ → /de/services/card-issuing/',
    ])
    const study = content.entries.find((entry) => entry.file === 'en/pages/case-studies/penta.yaml')
    expect((study?.data.challenge as { html: string } | undefined)?.html).toContain(
      'href="/en/services/card-issuing/#fees"',
    )
  })

  it('refuses two pages at one address, naming both files and the field', async () => {
    const documents = pages()
    change(documents, 'services/lending', { slug: 'cards' })
    expect(await problemsOf(documents)).toEqual(
      ['en', 'de'].map((language) => ({
        file: `${language}/pages/services/lending.yaml`,
        field: 'slug',
        message: `expected a unique address; ${language}/pages/services/cards.yaml already publishes /${language}/services/cards/`,
      })),
    )
  })

  it('refuses twins at two addresses, naming both files and the field', async () => {
    const documents = pages()
    documents.set('de/pages/services/cards.yaml', {
      ...(documents.get('de/pages/services/cards.yaml') as object),
      slug: 'karten',
    })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'de/pages/services/cards.yaml',
        field: 'slug',
        message:
          'expected the address of its twin in the other language; en/pages/services/cards.yaml publishes it at /en/services/cards/, this at /de/services/karten/ (the address is the same in both languages)',
      },
    ])
  })

  it('refuses a loop between two pages, and a page redirecting from its own address', async () => {
    const documents = pages()
    change(documents, 'services/cards', { redirectFrom: ['/en/services/lending/'] })
    change(documents, 'services/lending', { redirectFrom: ['/en/services/lending/'] })
    const problems = await problemsOf(documents)
    expect(problems.filter((problem) => problem.file.startsWith('en/'))).toEqual([
      {
        file: 'en/pages/services/cards.yaml',
        field: 'redirectFrom.0',
        message:
          'expected an address no page has; en/pages/services/lending.yaml publishes /en/services/lending/ (move or delete that page first)',
      },
      {
        file: 'en/pages/services/lending.yaml',
        field: 'redirectFrom.0',
        message:
          "expected an earlier address, not this entry's own (/en/services/lending/): a redirect from it to itself would loop",
      },
    ])
    const loop = pages()
    change(loop, 'services/cards', {
      slug: 'card-issuing',
      redirectFrom: ['/en/services/lending/'],
    })
    // Cards moved from lending's address while lending moved from cards': each leads back.
    change(loop, 'services/lending', {
      slug: 'lending',
      redirectFrom: ['/en/services/card-issuing/'],
    })
    expect((await problemsOf(loop)).filter((problem) => problem.file.startsWith('en/'))).toEqual([
      {
        file: 'en/pages/services/cards.yaml',
        field: 'redirectFrom.0',
        message:
          'expected no redirect loop; this leads /en/services/lending/ to /en/services/card-issuing/, and en/pages/services/lending.yaml › redirectFrom.0 leads /en/services/card-issuing/ back to /en/services/lending/',
      },
      {
        file: 'en/pages/services/lending.yaml',
        field: 'redirectFrom.0',
        message:
          'expected no redirect loop; this leads /en/services/card-issuing/ to /en/services/lending/, and en/pages/services/cards.yaml › redirectFrom.0 leads /en/services/lending/ back to /en/services/card-issuing/',
      },
    ])
  })

  it('gives a page in a folder of its type the address of the field', async () => {
    const documents = pages()
    for (const language of ['en', 'de'])
      documents.set(`${language}/support-categories/apps.yaml`, {
        ...supportCategoryEntry(),
        slug: 'banking-apps',
      })
    const content = await load(documents)
    const category = content.entries.find(
      (entry) => entry.file === 'de/support-categories/apps.yaml',
    )
    expect(category?.originalPath).toBe('/support/categories/banking-apps/')
  })
})
