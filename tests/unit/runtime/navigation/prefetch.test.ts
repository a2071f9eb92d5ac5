import { describe, expect, it } from 'vitest'
import {
  connectionAllowsPrefetch,
  prefetchTarget,
} from '../../../../src/runtime/navigation/prefetch'

const here = { href: 'https://bank.example/en/about/', pathname: '/en/about/' }

describe('prefetch guards', () => {
  it.each([
    [undefined, true],
    [{}, true],
    [{ effectiveType: '4g' }, true],
    [{ effectiveType: '3g' }, true],
    [{ effectiveType: '2g' }, false],
    [{ effectiveType: 'slow-2g' }, false],
    [{ saveData: true, effectiveType: '4g' }, false],
    [{ saveData: false, effectiveType: '4g' }, true],
  ])('connection %j allows prefetch: %s', (connection, allowed) => {
    expect(connectionAllowsPrefetch(connection)).toBe(allowed)
  })

  it('prefetches internal links by their normalized path', () => {
    expect(prefetchTarget('/en/services', here, new Set(), undefined)).toBe('/en/services/')
    expect(prefetchTarget('https://bank.example/de/?q=1#x', here, new Set(), undefined)).toBe(
      '/de/',
    )
  })

  it('never prefetches the current page, a page done before, plain or external links', () => {
    expect(prefetchTarget('/en/about/#team', here, new Set(), undefined)).toBeNull()
    expect(prefetchTarget('/en/services/', here, new Set(['/en/services/']), undefined)).toBeNull()
    expect(prefetchTarget('/documents/terms.pdf', here, new Set(), undefined)).toBeNull()
    expect(prefetchTarget('mailto:a@bank.example', here, new Set(), undefined)).toBeNull()
    expect(prefetchTarget('https://www.bafin.de/', here, new Set(), undefined)).toBeNull()
  })

  it('never prefetches with data saver or on 2g', () => {
    expect(prefetchTarget('/en/services/', here, new Set(), { saveData: true })).toBeNull()
    expect(prefetchTarget('/en/services/', here, new Set(), { effectiveType: '2g' })).toBeNull()
  })
})
