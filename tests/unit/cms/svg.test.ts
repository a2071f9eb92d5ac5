/**
 * Drawings editors upload, through the backend the CMS and the publishing service both use: a
 * drawing passes byte for byte, or is refused with what was found and where, and nothing is
 * written. The attacks are the shapes a review of the uploads tried (scripts under any
 * namespace, javascript: links however spelled, HTML inside the drawing, animations that make a
 * link) and the classes of bypass DOMPurify's history records, each written as a file a browser
 * would open.
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCmsBackend } from '../../../src/cms/backend'
import { ROOT } from '../../../src/engine/config'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let dir: string
let backend: ReturnType<typeof createCmsBackend>

beforeAll(async () => {
  dir = await temporaryFolder('cms-svg-')
  await mkdir(join(dir, 'content'))
  backend = createCmsBackend({ contentDir: join(dir, 'content'), publicDir: join(dir, 'public') })
})

afterAll(async () => {
  await removeFolder(dir)
})

const upload = (name: string, data: Buffer | string) =>
  backend.handle({
    action: 'persistMedia',
    params: {
      branch: 'main',
      asset: {
        path: `public/images/blog/${name}`,
        content: Buffer.from(data).toString('base64'),
        encoding: 'base64',
      },
    },
  })

const stored = (name: string) => join(dir, 'public/images/blog', name)

const SVG = 'xmlns="http://www.w3.org/2000/svg"'
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
const svg = (body: string, attributes = '') => `<svg ${SVG}${attributes}>${body}</svg>`
/** A PNG of one pixel, as drawing tools embed pictures. */
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

describe('drawings editors upload: what passes', () => {
  it('takes every drawing of the blog byte for byte', async () => {
    const folder = join(ROOT, 'public/images/blog')
    const names = (await readdir(folder)).filter((name) => name.endsWith('.svg'))
    expect(names.length).toBeGreaterThan(10)
    for (const name of names) {
      const original = await readFile(join(folder, name))
      const { status, body } = await upload(name, original)
      expect({ name, status, body }).toMatchObject({ name, status: 200 })
      expect((await readFile(stored(name))).equals(original), name).toBe(true)
    }
  })

  it('takes what drawing tools export: prolog, comments, gradients, filters, styles, text, embedded pictures', async () => {
    const drawing = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Generator: a drawing tool -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg ${SVG} ${XLINK} version="1.1" viewBox="0 0 1200 630" xml:space="preserve">
  <title>Cards &amp; accounts</title>
  <desc>Three cards, 3&lt;4</desc>
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1" gradientUnits="objectBoundingBox">
      <stop offset="0" stop-color="#ffd8bf"/><stop offset="1" stop-color="#e4650f"/>
    </linearGradient>
    <clipPath id="card"><rect width="300" height="200" rx="22"/></clipPath>
    <filter id="soft"><feGaussianBlur stdDeviation="4"/><feOffset dx="2" dy="2"/></filter>
    <pattern id="dots" width="10" height="10" patternUnits="userSpaceOnUse"><circle cx="5" cy="5" r="2"/></pattern>
    <linearGradient id="sky-again" xlink:href="#sky"/>
  </defs>
  <style><![CDATA[ .card { fill: url(#sky); stroke: #1c1b1a } ]]></style>
  <g clip-path="url(#card)" filter="url('#soft')" style="opacity: .9; fill: url( &quot;#dots&quot; )">
    <rect class="card" width="1200" height="630"/>
    <path d="M10 10 L 100 100 Z" fill="url(#sky-again)"/>
    <text x="110" y="440" font-family="Inter, sans-serif" font-size="32">Konto &amp; Karte</text>
  </g>
  <image x="0" y="0" width="1" height="1" xlink:href="data:image/png;base64,${PIXEL}"/>
  <a href="#card"><circle cx="190" cy="250" r="40"/></a>
</svg>
`
    const { status } = await upload('exported.svg', drawing)
    expect(status).toBe(200)
    expect(await readFile(stored('exported.svg'), 'utf8')).toBe(drawing)
  })
})

describe('drawings editors upload: what is refused, and why', () => {
  const refusals: [string, string | Buffer, RegExp][] = [
    // The shapes the review of the uploads tried.
    [
      'a script element',
      svg('<script>alert(1)</script>'),
      /contains script \(a <script> element\), which the site does not run: remove it$/,
    ],
    [
      'a script element in the SVG namespace under a prefix',
      svg('<s:script>alert(1)</s:script>', ' xmlns:s="http://www.w3.org/2000/svg"'),
      /contains script \(a <s:script> element\); the namespace xmlns:s=/,
    ],
    [
      'a script element of XHTML',
      svg('<h:script>alert(1)</h:script>', ' xmlns:h="http://www.w3.org/1999/xhtml"'),
      /contains script \(a <h:script> element\)/,
    ],
    [
      'a script element with a default namespace of its own',
      svg('<g><script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script></g>'),
      /contains script \(a <script> element\)/,
    ],
    [
      'a javascript: link in xlink:href',
      svg(`<a xlink:href="javascript:alert(1)"><text>x</text></a>`, ` ${XLINK}`),
      /contains script \(a javascript: address in xlink:href on <a>\), which the site does not run/,
    ],
    [
      'a javascript: link in href, mixed case, with a tab and leading space',
      svg('<a href=" JaVa&#x09;ScRiPt:alert(1)"><text>x</text></a>'),
      /contains script \(a javascript: address in href on <a>\)/,
    ],
    [
      'a javascript: link spelled with character references',
      svg(`<a xlink:href="&#106;avascript&#58;alert(1)"><text>x</text></a>`, ` ${XLINK}`),
      /contains script \(a javascript: address in xlink:href on <a>\)/,
    ],
    [
      'a javascript: link under another prefix for XLink',
      svg(
        '<a l:href="javascript:alert(1)"><text>x</text></a>',
        ' xmlns:l="http://www.w3.org/1999/xlink"',
      ),
      /contains script \(a javascript: address in l:href on <a>\)/,
    ],
    [
      'HTML in a foreignObject',
      svg(
        '<foreignObject width="100" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject>',
      ),
      /contains HTML \(a <foreignObject> element\), which a drawing on the site may not have/,
    ],
    [
      'HTML straight inside the drawing',
      svg('<g><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"/></g>'),
      /contains HTML \(an <iframe> element\)/,
    ],
    [
      'a <set> that turns a link into javascript:',
      svg('<a><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'),
      /contains an animation \(a <set> element\)/,
    ],
    [
      'an <animate> of xlink:href to javascript:',
      svg(
        '<a><animate attributeName="xlink:href" values="javascript:alert(1)" begin="0s"/><text>x</text></a>',
        ` ${XLINK}`,
      ),
      /contains an animation \(an <animate> element\)/,
    ],
    [
      'an <animateTransform> aimed at href',
      svg(
        '<a><animateTransform attributeName="href" values="javascript:alert(1)"/><text>x</text></a>',
      ),
      /the attribute attributeName="href" on <animateTransform>/,
    ],
    [
      'an <animateMotion> whose path is a javascript: link',
      svg('<animateMotion dur="1s"><mpath href="javascript:alert(1)"/></animateMotion>'),
      /contains script \(a javascript: address in href on <mpath>\)/,
    ],
    // Event handlers, in any case and namespace.
    [
      'an onload attribute',
      svg('', ' onload="alert(1)"'),
      /contains script \(the attribute onload="alert\(1\)" on <svg>\), which the site does not run: remove it$/,
    ],
    [
      'event handlers in other cases',
      svg('<rect onClick="alert(1)" ONMOUSEOVER="alert(2)"/>'),
      /script \(the attribute ONMOUSEOVER="alert\(2\)" on <rect>\); script \(the attribute onClick=/,
    ],
    [
      'an event handler in the XML Events namespace',
      svg('', ' xmlns:ev="http://www.w3.org/2001/xml-events" ev:onload="alert(1)"'),
      /contains script \(the attribute ev:onload="alert\(1\)" on <svg>\)/,
    ],
    [
      'an XML Events handler element',
      svg('<handler xmlns="http://www.w3.org/2001/xml-events" event="load">alert(1)</handler>'),
      /contains a <handler> element/,
    ],
    [
      'a nested drawing with a handler',
      svg(`<svg ${SVG} onload="alert(1)"/>`),
      /contains script \(the attribute onload="alert\(1\)" on <svg>\)/,
    ],
    // Parser tricks: entities and default attributes of a document type, processing
    // instructions, markup in text, comments and CDATA sections (mXSS where copied into HTML).
    [
      'an entity that expands to a script',
      `<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]>${svg('&x;')}`,
      /declares entities or attributes in its document type/,
    ],
    [
      'an onload added by the document type',
      `<!DOCTYPE svg [<!ATTLIST svg onload CDATA "alert(1)">]>${svg('')}`,
      /declares entities or attributes in its document type/,
    ],
    [
      'a stylesheet processing instruction (XSLT)',
      `<?xml-stylesheet type="text/xsl" href="data:text/xml;base64,PHg+"?>${svg('')}`,
      /contains a processing instruction \(<\?xml-stylesheet …\?>\)/,
    ],
    [
      'a processing instruction inside',
      svg('<?php echo 1 ?>'),
      /contains a processing instruction \(<\?php …\?>\)/,
    ],
    [
      'markup hidden in a <style> as text',
      svg('<style>&lt;/style&gt;&lt;img src=x onerror=alert(1)&gt;</style>'),
      /contains text that reads as markup \("<\/style><img src=x onerror=alert\(1\)>" in <style>\)/,
    ],
    [
      'markup hidden in a <title> as text',
      svg('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>'),
      /contains text that reads as markup \("<\/title><script>alert\(1\)<\/script>" in <title>\)/,
    ],
    [
      'markup in a CDATA section',
      svg('<![CDATA[<img src=x onerror=alert(1)>]]>'),
      /contains text that reads as markup \("<img src=x onerror=alert\(1\)>" in <svg>\)/,
    ],
    [
      'markup in a comment',
      svg('<!-- </title><script>alert(1)</script> -->'),
      /contains a comment holding markup/,
    ],
    [
      'a declared encoding other than UTF-8 (bytes read otherwise than checked)',
      `<?xml version="1.0" encoding="ISO-2022-JP"?>${svg('')}`,
      /declares the encoding "ISO-2022-JP": save the drawing as UTF-8$/,
    ],
    [
      'a file that is not UTF-8 (UTF-16)',
      Buffer.from(`\ufeff${svg('<script>alert(1)</script>')}`, 'utf16le'),
      /is not UTF-8 text: save the drawing as UTF-8$/,
    ],
    [
      'a file that is not well-formed',
      svg('<rect><script>alert(1)</script>'),
      /is not a well-formed SVG drawing: /,
    ],
    [
      'an undefined entity',
      svg('<text>&nbsp;</text>'),
      /is not a well-formed SVG drawing: .*undefined entity/,
    ],
    [
      'a root element outside the SVG namespace',
      '<svg><script>alert(1)</script></svg>',
      /is not an SVG drawing: it begins with <svg>, not <svg xmlns="http:\/\/www.w3.org\/2000\/svg">/,
    ],
    // Nothing outside the drawing: no other document, picture, stylesheet or font.
    [
      'a picture from another site',
      svg('<image href="https://tracker.example/pixel.png" width="1" height="1"/>'),
      /contains a reference outside the drawing \(href="https:\/\/tracker.example\/pixel.png" on <image>\)/,
    ],
    [
      'a picture by a scheme-relative address',
      svg('<image href="//tracker.example/pixel.png"/>'),
      /a reference outside the drawing \(href="\/\/tracker.example\/pixel.png" on <image>\)/,
    ],
    [
      'a file of the server the build runs on',
      svg('<image href="file:///etc/passwd"/>'),
      /a reference outside the drawing \(href="file:\/\/\/etc\/passwd" on <image>\)/,
    ],
    [
      'a file beside the drawing',
      svg(`<image xlink:href="../../secret.png"/>`, ` ${XLINK}`),
      /a reference outside the drawing \(xlink:href="..\/..\/secret.png" on <image>\)/,
    ],
    [
      'an embedded drawing (a document of its own)',
      svg('<image href="data:image/svg+xml;base64,PHN2Zy8+"/>'),
      /a reference outside the drawing \(href="data:image\/svg\+xml;base64,PHN2Zy8\+" on <image>\)/,
    ],
    [
      'a <use> of another document',
      svg('<use href="https://evil.example/sprite.svg#icon"/>'),
      /contains a <use> element/,
    ],
    [
      'a <use> of a data: document',
      svg(`<use xlink:href="data:image/svg+xml;base64,PHN2Zy8+#x"/>`, ` ${XLINK}`),
      /contains a <use> element/,
    ],
    [
      'a gradient from another document',
      svg('<linearGradient id="g" href="https://evil.example/g.svg#g"/>'),
      /a reference outside the drawing \(href="https:\/\/evil.example\/g.svg#g" on <linearGradient>\)/,
    ],
    [
      'a filter image from another site',
      svg('<filter id="f"><feImage href="https://evil.example/x.png"/></filter>'),
      /a reference outside the drawing \(href="https:\/\/evil.example\/x.png" on <feImage>\)/,
    ],
    [
      'a link to another site',
      svg('<a href="https://evil.example/"><text>x</text></a>'),
      /a reference outside the drawing \(href="https:\/\/evil.example\/" on <a>\)/,
    ],
    [
      'a fill from another document',
      svg('<rect fill="url(https://evil.example/p.svg#p)"/>'),
      /a reference outside the drawing \("url\(https:\/\/evil.example\/p.svg#p" in fill on <rect>\)/,
    ],
    [
      'a background picture in a style attribute',
      svg(`<rect style="fill: red; background: url('//evil.example/x.png')"/>`),
      /a reference outside the drawing \("url\('\/\/evil.example\/x.png" in style on <rect>\)/,
    ],
    [
      'an @import in a stylesheet',
      svg('<style>@import "https://evil.example/a.css"; rect { fill: red }</style>'),
      /a CSS rule that loads files \("@import/,
    ],
    [
      'a web font',
      svg('<style>@font-face { font-family: x; src: url(https://evil.example/x.woff2) }</style>'),
      /a CSS rule that loads files \("@font-face/,
    ],
    [
      'an image-set() of another site',
      svg(`<rect style="background-image: image-set('https://evil.example/x.png' 1x)"/>`),
      /a CSS image function \("image-set\(/,
    ],
    [
      'url( spelled with a CSS escape',
      svg('<rect style="fill: \\75 rl(https://evil.example/x.svg#p)"/>'),
      /an escaped character in CSS \("\\\\75 rl\(/,
    ],
    [
      'an XInclude of a file of the server',
      svg(
        '<xi:include href="/etc/passwd" parse="text"/>',
        ' xmlns:xi="http://www.w3.org/2001/XInclude"',
      ),
      /contains a <xi:include> element; the namespace xmlns:xi=/,
    ],
    [
      'a base address elsewhere',
      svg('<rect fill="url(#g)"/>', ' xml:base="https://evil.example/"'),
      /the attribute xml:base="https:\/\/evil.example\/" on <svg>/,
    ],
    // What would hold the service: jsdom builds a tree in time that grows with depth times
    // elements, and with the square of one element's attributes (minutes for these, unchecked).
    [
      'elements nested 100,000 deep',
      svg(`${'<g>'.repeat(100_000)}${'</g>'.repeat(100_000)}`),
      /nests elements more than 128 deep, more than a drawing may: flatten its groups$/,
    ],
    [
      'an element with 60,000 attributes',
      svg(`<g ${Array.from({ length: 60_000 }, (_, index) => `a${index}="1"`).join(' ')}/>`),
      /has an element with 60000 attributes, more than a drawing may \(128\)$/,
    ],
    [
      'comments before something else than a drawing (the old check took exponential time)',
      `${'<!---->'.repeat(60)}<html/>`,
      /is not an SVG drawing: it does not begin with <svg>$/,
    ],
    [
      'more elements than any drawing has',
      svg('<rect width="1" height="1"/>'.repeat(20_001)),
      /has more than 20,000 elements, more than a drawing may: simplify it$/,
    ],
  ]

  it.each(refusals)('refuses %s, naming it, and writes nothing', async (_what, drawing, reason) => {
    const { status, body } = await upload('cover.svg', drawing)
    expect(status).toBe(400)
    expect((body as { error: string }).error).toMatch(
      /^cover\.svg (contains|declares|is|has|nests) /,
    )
    expect((body as { error: string }).error).toMatch(reason)
    expect(existsSync(stored('cover.svg'))).toBe(false)
  })

  it('names every finding up to five, and counts the rest', async () => {
    const handlers = Array.from({ length: 7 }, (_, index) => `<rect onclick="alert(${index})"/>`)
    const { body } = await upload('many.svg', svg(handlers.join('')))
    const error = (body as { error: string }).error
    expect(error.match(/script \(the attribute onclick=/g)).toHaveLength(5)
    expect(error).toMatch(/ and 2 more, which the site does not run: remove them$/)
  })

  it('keeps a drawing it refuses from replacing the one before', async () => {
    const before = svg('<rect width="1" height="1"/>')
    expect((await upload('kept.svg', before)).status).toBe(200)
    expect((await upload('kept.svg', svg('<script>alert(1)</script>'))).status).toBe(400)
    expect(await readFile(stored('kept.svg'), 'utf8')).toBe(before)
  })
})

describe('drawings that would cost too much to draw', () => {
  /** The probe's cover: 5 KB, one blur and turbulence applied to 100 shapes (a minute to draw). */
  const FILTER =
    '<defs><filter id="f"><feGaussianBlur stdDeviation="100"/><feTurbulence baseFrequency="0.9"/></filter></defs>'
  const shapes = (count: number, attributes: string) =>
    Array.from(
      { length: count },
      (_, index) => `<rect x="${index}" width="1200" height="630" ${attributes}/>`,
    ).join('')

  const refusals: [string, string, RegExp][] = [
    [
      'a filter applied to 100 shapes',
      svg(FILTER + shapes(100, 'filter="url(#f)"')),
      /^slow\.svg applies filters to 100 elements, more than a drawing may \(8\): filter a group of them once, or fewer shapes$/,
    ],
    [
      'a filter applied to 100 shapes by their style',
      svg(FILTER + shapes(100, 'style="fill: red; filter: url(#f)"')),
      /^slow\.svg applies filters to 100 elements, more than a drawing may \(8\)/,
    ],
    [
      'a filter applied to 100 shapes by a <style> rule',
      svg(`<style>rect { filter: url(#f) }</style>${FILTER}${shapes(100, '')}`),
      /^slow\.svg applies filters to 100 elements, more than a drawing may \(8\)/,
    ],
    [
      'a filter of 40 primitives',
      svg(
        `<defs><filter id="f">${'<feGaussianBlur stdDeviation="50"/>'.repeat(40)}</filter></defs><rect filter="url(#f)"/>`,
      ),
      /^slow\.svg has 40 filter primitives \(<fe…> elements\), more than a drawing may \(16\): use fewer filters$/,
    ],
    [
      'a path of 300 KB',
      svg(`<path d="M0 0${' L1 1'.repeat(60_000)}"/>`),
      /^slow\.svg has 293 KB of path data, more than a drawing may \(256 KB\): simplify its paths$/,
    ],
  ]

  it.each(refusals)(
    'refuses %s, naming file and limit, and writes nothing',
    async (_what, drawing, reason) => {
      expect(Buffer.byteLength(drawing)).toBeLessThan(1024 * 1024)
      const { status, body } = await upload('slow.svg', drawing)
      expect(status).toBe(400)
      expect((body as { error: string }).error).toMatch(reason)
      expect(existsSync(stored('slow.svg'))).toBe(false)
    },
  )

  it('takes a few filtered shapes, a filter turned off and a backdrop-filter', async () => {
    const drawing = svg(
      `<style>rect { filter: none }</style>${FILTER}${shapes(8, 'filter="url(#f)"')}${shapes(20, 'style="backdrop-filter: blur(2px)"')}`,
    )
    expect((await upload('fine.svg', drawing)).status).toBe(200)
  })
})
