// @vitest-environment jsdom
/**
 * The fade of content images: an image marked `data-fade` gets `data-loaded` once its file is
 * in (or has failed, so its alternative text shows), also when added later; one already
 * loaded is marked at once, before the document is marked, so no image seen ever fades out.
 */
import { describe, expect, it } from 'vitest'
import { startImageFade } from '../../../../src/runtime/page/image-fade'

/** A page of its own with the given body; `complete` images count as loaded already. */
function page(body: string, complete: readonly string[] = []): Document {
  const doc = document.implementation.createHTMLDocument('Page')
  doc.body.innerHTML = body
  for (const image of doc.querySelectorAll('img')) {
    Object.defineProperty(image, 'complete', { value: complete.includes(image.id) })
  }
  return doc
}

const image = (doc: Document, id: string) => doc.getElementById(id) as HTMLImageElement
const loaded = (doc: Document, id: string) => image(doc, id).hasAttribute('data-loaded')

describe('startImageFade', () => {
  it('marks images already loaded at once, and the others not yet', () => {
    const doc = page(
      '<img id="seen" data-fade src="/images/a.avif" alt="A"><img id="coming" data-fade src="/images/b.avif" alt="B">',
      ['seen'],
    )
    startImageFade(doc)
    expect(loaded(doc, 'seen')).toBe(true)
    expect(loaded(doc, 'coming')).toBe(false)
    expect(doc.documentElement.hasAttribute('data-image-fade')).toBe(true)
  })

  it('marks the document only after the loaded images, so none is hidden once seen', () => {
    const doc = page(
      '<img id="a" data-fade src="/images/a.avif" alt=""><img id="b" data-fade src="/images/b.avif" alt="">',
      ['a', 'b'],
    )
    const changes: string[] = []
    const observer = new MutationObserver(() => {})
    observer.observe(doc, { attributes: true, subtree: true })
    startImageFade(doc)
    for (const record of observer.takeRecords()) {
      changes.push(
        `${(record.target as Element).id || record.target.nodeName} ${record.attributeName}`,
      )
    }
    observer.disconnect()
    expect(changes).toEqual(['a data-loaded', 'b data-loaded', 'HTML data-image-fade'])
  })

  it('marks an image when its file is in, or when it failed (its text shows then)', () => {
    const doc = page(
      '<img id="ok" data-fade src="/images/a.avif" alt="A"><img id="broken" data-fade src="/images/gone.avif" alt="Gone">',
    )
    startImageFade(doc)
    image(doc, 'ok').dispatchEvent(new Event('load'))
    image(doc, 'broken').dispatchEvent(new Event('error'))
    expect(loaded(doc, 'ok')).toBe(true)
    expect(loaded(doc, 'broken')).toBe(true)
  })

  it('marks images added later (a page the router renders), wherever they sit', () => {
    const doc = page('<main></main>')
    startImageFade(doc)
    const figure = doc.createElement('figure')
    figure.innerHTML = '<picture><img id="late" data-fade src="/images/c.avif" alt="C"></picture>'
    doc.querySelector('main')?.append(figure)
    expect(loaded(doc, 'late')).toBe(false)
    image(doc, 'late').dispatchEvent(new Event('load'))
    expect(loaded(doc, 'late')).toBe(true)
  })

  it('leaves images without data-fade alone (logos, icons): they never fade', () => {
    const doc = page(
      '<img id="logo" src="/images/logo.svg" alt="Bank"><img id="icon" src="/images/i.svg" alt="">',
      ['logo'],
    )
    startImageFade(doc)
    image(doc, 'icon').dispatchEvent(new Event('load'))
    expect(loaded(doc, 'logo')).toBe(false)
    expect(loaded(doc, 'icon')).toBe(false)
  })

  it('marks nothing for a load of another element (a script, a frame)', () => {
    const doc = page('<iframe id="frame" data-fade></iframe>')
    startImageFade(doc)
    image(doc, 'frame').dispatchEvent(new Event('load'))
    expect(loaded(doc, 'frame')).toBe(false)
  })
})
