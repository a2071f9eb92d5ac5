import { describe, expect, it, onTestFinished } from 'vitest'
import { ALL_COLLECTIONS, locate } from '../../../src/content/collections'
import { loadContent } from '../../../src/content/load'
import { memorySource, problemsOf, validDocuments } from '../../fixtures/content'
import {
  blogCategoryEntry,
  blogPostEntry,
  caseStudyEntry,
  serviceEntry,
  supportCategoryEntry,
  supportClientEntry,
} from '../../fixtures/entries'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** The valid store, with a service, support category and client in both languages. */
function store(): Map<string, unknown> {
  const documents = validDocuments()
  for (const language of ['en', 'de']) {
    documents.set(`${language}/pages/services/cards.yaml`, serviceEntry())
    documents.set(`${language}/support-categories/banking-apps.yaml`, supportCategoryEntry())
    documents.set(`${language}/pages/support/kontist.yaml`, supportClientEntry('banking-apps'))
  }
  documents.set('blog/categories/regulation.yaml', blogCategoryEntry())
  return documents
}

describe('collections', () => {
  it.each([
    ['en/pages/about.yaml', 'page', 'about', 'en'],
    ['de/pages/services/cards.yaml', 'service', 'services/cards', 'de'],
    ['en/pages/services.yaml', 'page', 'services', 'en'],
    ['en/pages/services/splitpay/survey.yaml', 'page', 'services/splitpay/survey', 'en'],
    ['en/pages/case-studies/nuri.yaml', 'caseStudy', 'case-studies/nuri', 'en'],
    ['en/pages/support/kontist.yaml', 'supportClient', 'support/kontist', 'en'],
    ['en/pages/support/faq.yaml', 'page', 'support/faq', 'en'],
    [
      'en/pages/support/instant-consumer-lending.yaml',
      'page',
      'support/instant-consumer-lending',
      'en',
    ],
    [
      'de/pages/customer-information/italy/it-iban/italian.yaml',
      'customerInformation',
      'customer-information/italy/it-iban/italian',
      'de',
    ],
    ['de/pages/imprint.yaml', 'legalPage', 'imprint', 'de'],
    ['en/pages/accessibility.yaml', 'legalPage', 'accessibility', 'en'],
    ['en/pages/studies/embedded-finance.yaml', 'study', 'studies/embedded-finance', 'en'],
    ['en/support-categories/banking-apps.yaml', 'supportCategory', 'banking-apps', 'en'],
    ['de/jobs/compliance-officer.yaml', 'jobPosting', 'compliance-officer', 'de'],
    ['en/press/launch.md', 'pressRelease', 'launch', 'en'],
    ['blog/posts/what-is-baas.md', 'blogPost', 'what-is-baas', undefined],
    ['blog/categories/regulation.yaml', 'blogCategory', 'regulation', undefined],
  ])('%s is a %s named %s (%s)', (file, collection, name, language) => {
    expect(locate(file, ALL_COLLECTIONS)).toMatchObject({
      collection: { name: collection },
      name,
      language,
    })
  })

  it.each([
    'fr/pages/about.yaml',
    'en/press/launch.yaml',
    'en/jobs/Job.yaml',
    'blog/posts/x.yaml',
    'en/other/x.yaml',
  ])('does not know %s', (file) => {
    expect(locate(file, ALL_COLLECTIONS)).toBeUndefined()
  })
})

describe('references and addresses', () => {
  it('accepts a store whose references all exist', async () => {
    const documents = store()
    documents.set(
      'blog/posts/rules.md',
      blogPostEntry('New rules for instant payments', 'regulation'),
    )
    const content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
    const post = content.entries.find((entry) => entry.collection === 'blogPost')
    expect(post?.originalPath).toBe('/blog/new-rules-for-instant-payments/')
  })

  it('reports references to entries that do not exist, with the field', async () => {
    const documents = store()
    documents.set('en/pages/case-studies/nuri.yaml', caseStudyEntry(['cards', 'lending']))
    documents.set('de/pages/case-studies/nuri.yaml', caseStudyEntry(['cards']))
    documents.set('de/pages/support/kontist.yaml', supportClientEntry('business'))
    documents.set('blog/posts/rules.md', blogPostEntry('Rules', 'law'))
    expect(await problemsOf(documents)).toEqual(
      expect.arrayContaining([
        {
          file: 'en/pages/case-studies/nuri.yaml',
          field: 'services.1',
          message: 'expected an existing service entry; there is no "lending"',
        },
        {
          file: 'de/pages/support/kontist.yaml',
          field: 'category',
          message: 'expected an existing supportCategory entry; there is no "business"',
        },
        {
          file: 'blog/posts/rules.md',
          field: 'category',
          message: 'expected an existing blogCategory entry; there is no "law"',
        },
      ]),
    )
  })

  it('reports two posts whose address fields give the same address', async () => {
    const documents = store()
    documents.set('blog/posts/a.md', blogPostEntry('Instant payments', 'regulation'))
    documents.set('blog/posts/b.md', blogPostEntry('Instant Payments!', 'regulation', 'de'))
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'blog/posts/b.md',
        field: 'slug',
        message:
          'expected a unique address; blog/posts/a.md already publishes /blog/instant-payments/',
      },
    ])
  })

  it("reports a page's text language the site has no texts in, at its field", async () => {
    const documents = store()
    const about = documents.get('en/pages/about.yaml') as Record<string, unknown>
    documents.set('en/pages/about.yaml', { ...about, contentLanguage: 'pt' })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'en/pages/about.yaml',
        field: 'contentLanguage',
        message: "expected the language of the page's text: en, de, fr, it, es",
      },
    ])
  })

  it('reports a level-1 heading in Markdown at its field', async () => {
    const documents = store()
    documents.set('en/pages/services/cards.yaml', { ...serviceEntry(), regulatory: '# Rules' })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'en/pages/services/cards.yaml',
        field: 'regulatory',
        message: 'expected headings from "##" down; the page title is the only level-1 heading',
      },
    ])
  })

  it('reports broken links inside Markdown and links to documents nobody publishes', async () => {
    const documents = store()
    documents.set('en/pages/services/cards.yaml', {
      ...serviceEntry(),
      whatItIs: 'See [terms](/en/terms/) and [the sheet](/documents/nothing.pdf).',
    })
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'en/pages/services/cards.yaml',
        field: 'whatItIs',
        message: 'expected a link to an existing page; nothing is published at /en/terms/',
      },
      {
        file: 'en/pages/services/cards.yaml',
        field: 'whatItIs',
        message:
          'expected a link to an existing document; nothing is published at /documents/nothing.pdf',
      },
    ])
  })

  it('needs twins for jobs and press releases too', async () => {
    const documents = store()
    documents.set('de/support-categories/business.yaml', supportCategoryEntry())
    expect(await problemsOf(documents)).toEqual([
      {
        file: 'de/support-categories/business.yaml',
        field: '',
        message:
          'expected a en twin at en/support-categories/business.yaml; every page exists in every language',
      },
    ])
  })
})

describe('images', () => {
  it('reports an image that is not in the public folder, and accepts one that is', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises')
    const { join } = await import('node:path')
    const publicDir = await temporaryFolder('public-')
    onTestFinished(() => removeFolder(publicDir))
    await mkdir(join(publicDir, 'images', 'blog'), { recursive: true })
    await writeFile(join(publicDir, 'images', 'blog', 'cover.svg'), '<svg/>')
    const documents = store()
    documents.set('blog/posts/rules.md', blogPostEntry('Rules', 'regulation'))
    const options = { collections: ALL_COLLECTIONS, publicDir }
    await expect(loadContent(memorySource(documents), options)).resolves.toBeTruthy()
    documents.set('blog/posts/rules.md', {
      ...blogPostEntry('Rules', 'regulation'),
      cover: { src: '/images/blog/missing.svg', alt: 'A cover' },
    })
    await expect(loadContent(memorySource(documents), options)).rejects.toThrow(
      'blog/posts/rules.md › cover.src: expected an existing image; there is no public/images/blog/missing.svg',
    )
    // An image in a folder the build writes (the sharing cards) is no image of the content,
    // even where such a file exists.
    await mkdir(join(publicDir, 'images', 'cards'), { recursive: true })
    await writeFile(join(publicDir, 'images', 'cards', 'blog-cover.png'), 'x')
    documents.set('blog/posts/rules.md', {
      ...blogPostEntry('Rules', 'regulation'),
      cover: { src: '/images/cards/blog-cover.png', alt: 'A cover' },
    })
    await expect(loadContent(memorySource(documents), options)).rejects.toThrow(
      'blog/posts/rules.md › cover.src: expected an image of the content; /images/cards/blog-cover.png is in /images/cards/, where the build writes files of its own',
    )
  })
})
