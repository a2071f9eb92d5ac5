import { describe, expect, it } from 'vitest'
import { decodeEntities } from '../../../../src/engine/html-scan'
import { extractPage } from '../../../../src/engine/search/extract'

const page = (main: string) =>
  `<!doctype html><html lang="en"><head><title>x</title></head><body><header><a href="/">Brand</a></header><main id="main" tabindex="-1">${main}</main><footer>Footer text</footer></body></html>`

describe('the text of a rendered page for the search', () => {
  it('reads the title and cuts the main text into blocks at its headings', () => {
    const extracted = extractPage(
      page(
        '<nav aria-label="Breadcrumb"><a href="/en/">Home</a></nav><article><header><h1 class="t">Support <!-- -->FAQ</h1><p>We answer questions.</p></header>' +
          '<section><h2 id="cards">Cards</h2><p>Block your <strong>card</strong> in the app.</p><ul><li>One</li><li>Two</li></ul></section>' +
          '<h3>Statements</h3><p>In&nbsp;the app &amp; by post.</p></article>',
      ),
    )
    expect(extracted).toEqual({
      title: 'Support FAQ',
      blocks: [
        { heading: '', text: 'We answer questions.' },
        { heading: 'Cards', anchor: 'cards', text: 'Block your card in the app. One Two' },
        // No-break spaces count as spaces.
        { heading: 'Statements', text: 'In the app & by post.' },
      ],
    })
  })

  it('takes an FAQ question from its summary, linked by the id of its details', () => {
    const extracted = extractPage(
      page(
        '<h1>FAQ</h1><details id="lost-card"><summary><h3>Lost card?</h3></summary><div><p>Call 116 116.</p></div></details>' +
          '<details><summary>No id?</summary><p>Still found.</p></details>',
      ),
    )
    expect(extracted.blocks).toEqual([
      { heading: 'Lost card?', anchor: 'lost-card', text: 'Call 116 116.' },
      { heading: 'No id?', text: 'Still found.' },
    ])
  })

  it('leaves out navigation, forms, script, drawings, hidden parts and what is marked to skip', () => {
    const extracted = extractPage(
      page(
        '<h1>Rates</h1><p>Visible text.</p><nav><a href="/x">Next page</a></nav>' +
          '<form><label>E-mail</label><input name="email"><button>Send</button></form>' +
          '<svg viewBox="0 0 1 1"><title>Chart</title><path d="M0 0"/></svg>' +
          '<script type="application/json">{"secret":1}</script>' +
          '<p hidden>Hidden</p><span aria-hidden="true">Icon</span>' +
          '<div data-search="skip"><table><tr><td>1.0834</td></tr></table></div><p>More text.</p>',
      ),
    )
    expect(extracted.blocks).toEqual([{ heading: '', text: 'Visible text. More text.' }])
  })

  it('notes the language of text written in another one than the page', () => {
    const extracted = extractPage(
      page(
        '<article lang="es"><h1>Información</h1><p>Documentos.</p><h2>Contacto</h2><p>Hola.</p></article>',
      ),
    )
    expect(extracted).toEqual({
      title: 'Información',
      lang: 'es',
      blocks: [
        { heading: '', text: 'Documentos.', lang: 'es' },
        { heading: 'Contacto', text: 'Hola.', lang: 'es' },
      ],
    })
  })

  it('reads attributes with > in their values and decodes every kind of entity', () => {
    const extracted = extractPage(
      page('<h1 title="a > b">Title</h1><p><img alt="x > y" src="a.png">Text&#x27;s &#8364; 5</p>'),
    )
    expect(extracted.title).toBe('Title')
    expect(extracted.blocks).toEqual([{ heading: '', text: "Text's € 5" }])
    expect(decodeEntities('&lt;a&gt; &quot;b&quot; &unknown; &#39;')).toBe('<a> "b" &unknown; \'')
  })
})
