/** The line that says a draft's whole-site preview is one, in the page's language. */
import { describe, expect, it } from 'vitest'
import { withPreviewBanner } from '../../../../src/publishing/http/preview-banner'
import { documentOf } from '../../../support/html'

const page = (lang: string) =>
  `<!doctype html><html lang="${lang}"><head><title>t</title></head><body class="x">\n<div id="root"><a href="#main">Skip</a></div></body></html>`

describe('the preview’s line', () => {
  it('comes first in the body, before the site’s root, and holds nothing to focus', () => {
    const body = documentOf(withPreviewBanner(page('en'))).body
    const banner = body.firstElementChild
    expect(banner?.tagName).toBe('ASIDE')
    expect(banner?.getAttribute('aria-label')).toBe('Preview')
    expect(banner?.nextElementSibling?.id).toBe('root')
    expect(banner?.querySelector('a, button, [tabindex]')).toBeNull()
    expect(body.className).toBe('x')
  })

  it('speaks the page’s language', () => {
    const banner = documentOf(withPreviewBanner(page('de'))).body.firstElementChild
    expect(banner?.getAttribute('aria-label')).toBe('Vorschau')
    expect(banner?.textContent).toMatch(/^Vorschau eines Entwurfs/)
  })
})
