import { describe, expect, it } from 'vitest'
import { isSiteRedirect, redirectLookup } from '../../../src/shared/redirects'

describe('the table of moved addresses', () => {
  const lookup = redirectLookup([{ from: '/blog/old/', to: '/blog/new/' }])

  it('answers the address, without its slash, and its page data', () => {
    expect(lookup('/blog/old/')).toBe('/blog/new/')
    expect(lookup('/blog/old')).toBe('/blog/new/')
    expect(lookup('/page-data/blog/old/page-data.json')).toBe('/page-data/blog/new/page-data.json')
    expect(lookup('/blog/new/')).toBeUndefined()
    expect(lookup('/blog/old/more/')).toBeUndefined()
  })

  it('serves only moves between two paths of the site', () => {
    expect(isSiteRedirect({ from: '/a/', to: '/b/' })).toBe(true)
    for (const to of ['//evil.example/', 'https://evil.example/', '/b', 'b/', '/B/'])
      expect(isSiteRedirect({ from: '/a/', to }), to).toBe(false)
    expect(isSiteRedirect(null)).toBe(false)
  })
})
