import { describe, expect, it } from 'vitest'
import { ALL_COLLECTIONS } from '../../../../src/content/collections'
import { loadContent } from '../../../../src/content/load'
import { POSTS_PER_PAGE } from '../../../../src/engine/routes/listings'
import { createRouteTable } from '../../../../src/engine/routes/route-table'
import type { BlogList, ListingItem } from '../../../../src/shared/types'
import { shownPosts } from '../../../../src/site/components/blog-list/shown'
import { addBlogPost, memorySource, validDocuments } from '../../../fixtures/content'

/** A store with `en` English posts, then `de` German ones, their dates spread over the year. */
async function blogWith(en: number, de: number) {
  const documents = validDocuments()
  addBlogPost(documents)
  documents.delete('blog/posts/hello.md')
  const languages = [
    ...Array.from({ length: en }, () => 'en'),
    ...Array.from({ length: de }, () => 'de'),
  ]
  languages.forEach((language, index) => {
    const day = String(1 + ((index * 7) % 28)).padStart(2, '0')
    documents.set(`blog/posts/post-${index}.md`, {
      title: `Post ${index} ${language}`,
      slug: `post-${index}-${language}`,
      description: `Post number ${index}, written in ${language}.`,
      language,
      date: `2026-${String(1 + (index % 12)).padStart(2, '0')}-${day}`,
      author: 'Ada Example',
      category: 'news',
      cover: { src: '/images/blog/hello.svg', alt: '' },
      body: 'Text.',
    })
  })
  const content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
  return createRouteTable(content)
}

const languagesOf = (items: readonly ListingItem[]) => items.map((item) => item.language)

describe('blog lists', () => {
  it("give each archive page its posts with either language's first, and the counts", async () => {
    const pages = await blogWith(8, 5)
    const archive = pages.filter((page) => page.route.template === 'blog-archive')
    expect(archive.map((page) => page.route.path)).toEqual([
      '/blog/',
      '/blog/page/2/',
      '/blog/page/3/',
    ])
    const [first, second] = archive
    expect(first?.blog?.counts).toEqual({ en: 8, de: 5 })
    expect(first?.blog?.perPage).toBe(POSTS_PER_PAGE)
    expect(languagesOf(first?.blog?.postsFirst.en ?? [])).toEqual(Array(6).fill('en'))
    expect(languagesOf(first?.blog?.postsFirst.de ?? [])).toEqual([...Array(5).fill('de'), 'en'])
    expect(languagesOf(second?.blog?.postsFirst.en ?? [])).toEqual([
      'en',
      'en',
      'de',
      'de',
      'de',
      'de',
    ])
    // Newest first within each language.
    const dates = (first?.blog?.postsFirst.en ?? []).map((item) => item.date ?? '')
    expect(dates).toEqual([...dates].sort().reverse())
    expect(first?.blog?.topics).toEqual([
      { href: '/blog/category/news/', name: { en: 'News', de: 'Neuigkeiten' } },
    ])
  })

  it('give a category all its posts, either language first', async () => {
    const pages = await blogWith(2, 3)
    const category = pages.find((page) => page.route.path === '/blog/category/news/')
    expect(languagesOf(category?.blog?.postsFirst.de ?? [])).toEqual(['de', 'de', 'de', 'en', 'en'])
    expect(category?.blog?.counts).toEqual({ en: 2, de: 3 })
    expect(category?.listing).toBeUndefined()
  })
})

describe('the posts a list shows for the visitor’s choice', () => {
  const item = (language: string, n: number): ListingItem => ({
    title: `${language} ${n}`,
    href: `/blog/${language}-${n}/`,
    language,
  })
  const blog: BlogList = {
    postsFirst: {
      en: [item('en', 1), item('en', 2), item('de', 1)],
      de: [item('de', 1), item('de', 2), item('en', 1)],
    },
    counts: { en: 5, de: 2 },
    perPage: 3,
    topics: [],
  }
  const pagination = { page: 1, pages: 3 }

  it("shows every language with the interface's first by default", () => {
    expect(shownPosts(blog, 'all', 'de', pagination)).toEqual({
      items: blog.postsFirst.de,
      total: 7,
      pages: 3,
    })
    expect(shownPosts(blog, 'all', 'en', pagination).items[0]?.language).toBe('en')
  })

  it("shows one language's posts alone, on as many pages as they fill", () => {
    const german = shownPosts(blog, 'de', 'en', pagination)
    expect(languagesOf(german.items)).toEqual(['de', 'de'])
    expect(german).toMatchObject({ total: 2, pages: 1 })
    expect(shownPosts(blog, 'en', 'de', pagination)).toMatchObject({ total: 5, pages: 2 })
    // A category has no pages to count.
    expect(shownPosts(blog, 'en', 'de', undefined).pages).toBe(1)
  })
})

describe('a moved category', () => {
  it('is listed, linked from its posts and shows them at the address of its field', async () => {
    const documents = validDocuments()
    addBlogPost(documents)
    documents.set('blog/categories/news.yaml', {
      ...(documents.get('blog/categories/news.yaml') as object),
      slug: 'updates',
      redirectFrom: ['/blog/category/news/'],
    })
    const content = await loadContent(memorySource(documents), { collections: ALL_COLLECTIONS })
    expect(content.redirects.map(({ from, to }) => [from, to])).toEqual([
      ['/blog/category/news/', '/blog/category/updates/'],
    ])
    const pages = createRouteTable(content)
    const category = pages.find((page) => page.route.template === 'blog-category')
    expect(category?.route.path).toBe('/blog/category/updates/')
    expect(category?.blog?.postsFirst.en.map((post) => post.href)).toEqual([
      '/blog/hello-from-the-bank/',
    ])
    expect(category?.blog?.topics.map((topic) => topic.href)).toEqual(['/blog/category/updates/'])
    const post = pages.find((page) => page.route.template === 'blog-post')
    expect(post?.content.en).toMatchObject({ categoryHref: '/blog/category/updates/' })
  })
})
