import { describe, expect, it } from 'vitest'
import { linksIn, markdownKey, type Rendering, renderRichText } from '../../../src/content/markdown'
import { renderMarkdown } from '../../../src/content/markdown-render'
import { PendingMarkdown } from '../../../src/content/rich-text'

describe('Markdown to HTML at build time', () => {
  it('drops scripts, raw HTML and event handlers', () => {
    const { html } = renderMarkdown(
      'Hello <script>alert(1)</script><img src=x onerror="alert(1)"> [x](javascript:alert(1))',
    )
    expect(html).not.toMatch(/<script|<img|onerror|javascript:/)
    expect(html).toContain('Hello')
  })

  it('keeps the text of links to addresses a browser would run, and drops the link', () => {
    const attempts = [
      '[a](JavaScript:alert(1))',
      '[b](java&#x09;script:alert(1))',
      '[c](vbscript:msgbox(1))',
      '[d](data:text/html;base64,PHNjcmlwdD4=)',
      '<javascript:alert(1)>',
      '[e](file:///etc/passwd)',
    ]
    for (const attempt of attempts) {
      const { html } = renderMarkdown(`Read ${attempt} now.`)
      // As the browser resolves them, every address left is this site's.
      const addresses = [...html.matchAll(/href="([^"]*)"/g)].map(
        (match) =>
          new URL((match[1] ?? '').replace(/&amp;/g, '&'), 'https://bank.example/en/').protocol,
      )
      expect(addresses, attempt).toEqual(addresses.map(() => 'https:'))
      expect(html, attempt).toMatch(/^<p>Read .* now\.<\/p>$/)
    }
    expect(renderMarkdown('[a](JavaScript:alert(1))').html).toBe('<p>a</p>')
  })

  it('drops raw HTML blocks whole and shows images only from this site or the web', () => {
    const { html } = renderMarkdown(
      '<div onclick="x()">\n<iframe src="https://evil.example/"></iframe>\n</div>\n\nAfter.\n\n![Chart](/images/chart.png) ![Pixel](data:image/png;base64,AAAA)',
    )
    expect(html).not.toMatch(/<div|<iframe|onclick|data:/)
    expect(html).toContain('<p>After.</p>')
    expect(html).toContain('<img src="/images/chart.png" alt="Chart">')
    expect(html).toContain('Pixel')
  })

  it('links written addresses and e-mail addresses, not bare domain names', () => {
    const { html } = renderMarkdown(
      'See https://www.bafin.de/ or write to help@bank.example, not bank.example.',
    )
    expect(html).toContain(
      '<a href="https://www.bafin.de/" target="_blank" rel="noopener noreferrer">https://www.bafin.de/</a>',
    )
    expect(html).toContain('<a href="mailto:help@bank.example">help@bank.example</a>')
    expect(html).toContain('not bank.example.')
  })

  it('gives headings ids made by the slug helper, numbered when they repeat', () => {
    const { html } = renderMarkdown('## Über uns\n\n## Über uns\n\n### Gebühren & Preise')
    expect(html).toContain('<h2 id="ueber-uns">Über uns</h2>')
    expect(html).toContain('<h2 id="ueber-uns-2">Über uns</h2>')
    expect(html).toContain('<h3 id="gebuehren-and-preise">Gebühren &amp; Preise</h3>')
  })

  it('opens other sites in a new tab without opener or referrer, and leaves internal links alone', () => {
    const { html } = renderMarkdown('[BaFin](https://www.bafin.de/) and [support](/en/support/)')
    expect(html).toContain(
      '<a href="https://www.bafin.de/" target="_blank" rel="noopener noreferrer">BaFin</a>',
    )
    expect(html).toContain('<a href="/en/support/">support</a>')
    expect(linksIn({ html })).toEqual(['https://www.bafin.de/', '/en/support/'])
  })

  it('keeps phone and e-mail links, which visitors use to reach support', () => {
    const { html } = renderMarkdown(
      'Call [+49 30 1234](tel:+49301234) or write to [us](mailto:help@bank.example).',
    )
    expect(html).toContain('<a href="tel:+49301234">+49 30 1234</a>')
    expect(html).toContain('<a href="mailto:help@bank.example">us</a>')
  })

  it('renders tables and lists', () => {
    const { html } = renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |\n\n- one\n- two')
    expect(html).toContain('<table>')
    expect(html).toContain('<li>two</li>')
  })

  it('refuses a level-1 heading, in either syntax: the page title is the only one', () => {
    expect(() => renderMarkdown('# Title')).toThrow(/expected headings from "##" down/)
    expect(() => renderMarkdown('Title\n=====')).toThrow(/expected headings from "##" down/)
  })

  it('marks the language of a link or of words in brackets written {lang=…} after them', () => {
    const { html } = renderMarkdown(
      'See [Informations clients](/en/informations-clients/){lang=fr} or the ' +
        '[Schlichtungsstelle](https://www.bundesbank.de/){lang=de}; ask the [Gerichtsstand]{lang=de} *first*.',
    )
    expect(html).toBe(
      '<p>See <a href="/en/informations-clients/" lang="fr">Informations clients</a> or the ' +
        '<a href="https://www.bundesbank.de/" lang="de" target="_blank" rel="noopener noreferrer">' +
        'Schlichtungsstelle</a>; ask the <span lang="de">Gerichtsstand</span> <em>first</em>.</p>',
    )
    // As the CMS's rich-text editor saves it, escaped.
    expect(renderMarkdown('the \\[Gerichtsstand\\]{lang=de}').html).toBe(
      '<p>the <span lang="de">Gerichtsstand</span></p>',
    )
    // Brackets and braces alone stay text.
    expect(renderMarkdown('Plain [brackets] and {lang=fr} alone.').html).toBe(
      '<p>Plain [brackets] and {lang=fr} alone.</p>',
    )
  })

  it('refuses a language the site has no texts in, naming it and the ones it has', () => {
    expect(() => renderMarkdown('[x](/en/){lang=xx}')).toThrow(
      'expected a language in {lang=xx}: en, de, fr, it, es',
    )
    expect(() => renderMarkdown('[Wort]{lang=}')).toThrow('expected a language in {lang=}')
    // Emphasis inside the brackets would leave the syntax on the page.
    expect(() => renderMarkdown('[*Wort*]{lang=de}')).toThrow(/expected plain words/)
  })

  it('takes a heading id from its words, code included, not from markup', () => {
    const { html } = renderMarkdown('## The `sepa` *instant* [scheme](/en/sepa/)')
    expect(html).toContain('<h2 id="the-sepa-instant-scheme">')
  })

  it('renders every pending text in place, from the cache where it can, and names failures', async () => {
    const cache = new Map<string, Rendering>([
      [markdownKey('from the cache'), { html: '<p>cached</p>' }],
    ])
    const data = {
      intro: new PendingMarkdown('from the cache'),
      sections: [{ body: new PendingMarkdown('**bold**') }, { body: new PendingMarkdown('# h1') }],
    }
    const errors: string[] = []
    await renderRichText(
      data,
      (path, message) => errors.push(`${path.join('.')}: ${message}`),
      cache,
    )
    expect(data).toEqual({
      intro: { html: '<p>cached</p>' },
      sections: [{ body: { html: '<p><strong>bold</strong></p>' } }, { body: { html: '' } }],
    })
    expect(errors).toEqual([
      'sections.1.body: expected headings from "##" down; the page title is the only level-1 heading',
    ])
    // New renderings, failures included, are kept for next time.
    expect(cache.get(markdownKey('**bold**'))).toEqual({ html: '<p><strong>bold</strong></p>' })
    expect(cache.get(markdownKey('# h1'))).toMatchObject({ error: expect.any(String) })
  })
})
