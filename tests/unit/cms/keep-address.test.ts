import { describe, expect, it } from 'vitest'
import { addressPlaceOf, keepAddress, keepPostAddress } from '../../../src/cms/keep-address'

describe("a post's address as a save leaves it", () => {
  it('is made from the title when the post is first saved, right after the title', () => {
    const saved = keepPostAddress({ title: 'Über Gebühren & Co.', body: 'x' }, null)
    expect(saved).toEqual({
      title: 'Über Gebühren & Co.',
      slug: 'ueber-gebuehren-and-co',
      body: 'x',
    })
    expect(Object.keys(saved)).toEqual(['title', 'slug', 'body'])
  })

  it('takes the address an editor types for a new post', () => {
    expect(keepPostAddress({ title: 'Fees', slug: 'card-fees' }, null).slug).toBe('card-fees')
  })

  it('is kept when the title changes, or the field is sent empty', () => {
    const stored = { title: 'How we tset', slug: 'how-we-tset' }
    expect(keepPostAddress({ title: 'How we test', slug: 'how-we-tset' }, stored)).toEqual({
      title: 'How we test',
      slug: 'how-we-tset',
    })
    expect(keepPostAddress({ title: 'How we test' }, stored).slug).toBe('how-we-tset')
  })

  it("keeps a stored post's address from its title when it had no field yet", () => {
    expect(keepPostAddress({ title: 'New title' }, { title: 'Old title' }).slug).toBe('old-title')
  })

  it('records a deliberate change as a move, and a move back takes it out', () => {
    const stored = { title: 'T', slug: 'old' }
    const moved = keepPostAddress({ title: 'T', slug: 'new' }, stored)
    expect(moved).toEqual({ title: 'T', slug: 'new', redirectFrom: ['/blog/old/'] })
    expect(
      keepPostAddress({ title: 'T', slug: 'new', redirectFrom: ['/blog/old/'] }, stored),
    ).toEqual(moved)
    expect(
      keepPostAddress(
        { title: 'T', slug: 'old', redirectFrom: ['/blog/old/'] },
        { title: 'T', slug: 'new', redirectFrom: ['/blog/old/'] },
      ),
    ).toEqual({ title: 'T', slug: 'old', redirectFrom: ['/blog/new/'] })
  })
})

describe("a page's address as a save leaves it", () => {
  const service = (language: string) => {
    const place = addressPlaceOf(`${language}/pages/services/cards.yaml`)
    if (!place) throw new Error('a service keeps its address in a field')
    return place
  }

  it('is its file name when it had none, new or stored, whatever the title', () => {
    expect(keepAddress({ title: 'Card issuing' }, null, service('en')).slug).toBe('cards')
    expect(keepAddress({ title: 'New title' }, { title: 'Cards' }, service('de'))).toEqual({
      title: 'New title',
      slug: 'cards',
    })
  })

  it("records a move from the address of the file's language", () => {
    for (const language of ['en', 'de'])
      expect(
        keepAddress({ title: 'T', slug: 'card-issuing' }, { title: 'T' }, service(language)),
      ).toEqual({
        title: 'T',
        slug: 'card-issuing',
        redirectFrom: [`/${language}/services/cards/`],
      })
    const job = addressPlaceOf('de/jobs/analyst.yaml')
    expect(job?.addressOf('data-analyst')).toBe('/de/careers/data-analyst/')
    const category = addressPlaceOf('blog/categories/news.yaml')
    expect(category && keepAddress({ slug: 'updates' }, { name: {} }, category)).toEqual({
      slug: 'updates',
      redirectFrom: ['/blog/category/news/'],
    })
  })

  it('is no field of pages the specification places, nor of other files', () => {
    for (const file of ['en/pages/imprint.yaml', 'en/pages/about.yaml', 'en/layout.yaml'])
      expect(addressPlaceOf(file)).toBeUndefined()
  })
})
