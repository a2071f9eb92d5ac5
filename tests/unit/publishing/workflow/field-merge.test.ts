/**
 * A content file merged field by field: main's changes to fields the draft left alone are
 * kept, the draft's own changes win, and where both changed a field differently the draft's
 * value is kept and named.
 */
import { describe, expect, it } from 'vitest'
import { mergeContentFile, mergeFields } from '../../../../src/publishing/workflow/field-merge'

describe('mergeFields', () => {
  it('takes each side’s change to a field the other left alone, removals too', () => {
    const base = { title: 'A', intro: 'I', old: 'x', list: [1, 2] }
    const ours = { title: 'A, drafted', intro: 'I', old: 'x', list: [1, 2] }
    const theirs = { title: 'A', intro: 'I, on main', list: [1, 2, 3], added: true }
    expect(mergeFields(base, ours, theirs)).toEqual({
      merged: { title: 'A, drafted', intro: 'I, on main', list: [1, 2, 3], added: true },
      overridden: [],
    })
  })

  it('keeps the draft’s value where both changed it differently, naming the field by its path', () => {
    const base = { seo: { description: 'Old', image: 'a.png' }, faq: [{ q: 'Q' }] }
    const ours = { seo: { description: 'Draft', image: 'a.png' }, faq: [{ q: 'Q, drafted' }] }
    const theirs = { seo: { description: 'Main', image: 'b.png' }, faq: [{ q: 'Q, main' }] }
    expect(mergeFields(base, ours, theirs)).toEqual({
      merged: { seo: { description: 'Draft', image: 'b.png' }, faq: [{ q: 'Q, drafted' }] },
      overridden: ['seo.description', 'faq'],
    })
  })

  it('treats fields named like Object’s own as fields', () => {
    const base = JSON.parse('{"title": "A"}')
    const ours = JSON.parse('{"title": "A, drafted"}')
    const theirs = JSON.parse('{"title": "A", "constructor": "c", "__proto__": {"x": 1}}')
    const { merged } = mergeFields(base, ours, theirs)
    expect(Object.keys(merged)).toEqual(['title', 'constructor', '__proto__'])
    expect(merged.constructor).toBe('c')
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
  })

  it('keeps a field both changed alike, and one the draft removed that main changed', () => {
    expect(mergeFields({ a: 1, b: 1 }, { a: 2 }, { a: 2, b: 3 })).toEqual({
      merged: { a: 2 },
      overridden: ['b'],
    })
  })
})

describe('mergeContentFile', () => {
  const buffer = (text: string) => Buffer.from(text)

  it('merges a Markdown post’s front matter and body as fields', () => {
    const base = '---\ntitle: Post\ndate: 2026-01-01\n---\nBody\n'
    const ours = '---\ntitle: Post, drafted\ndate: 2026-01-01\n---\nBody\n'
    const theirs = '---\ntitle: Post\ndate: 2026-02-01\n---\nBody, fixed on main\n'
    const merged = mergeContentFile(
      'content/en/blog/post.md',
      buffer(base),
      buffer(ours),
      buffer(theirs),
    )
    expect(merged?.content.toString()).toBe(
      '---\ntitle: Post, drafted\ndate: 2026-02-01\n---\nBody, fixed on main\n',
    )
    expect(merged?.overridden).toEqual([])
  })

  it('takes main’s edit of a post’s body when the draft’s body differs from the base only in line ends and blank lines', () => {
    const base = '---\r\ntitle: Post\r\n---\r\n\r\nBody\r\n\r\n'
    const ours = '---\ntitle: Post, drafted\n---\nBody\n'
    const theirs = '---\r\ntitle: Post\r\n---\r\n\r\nBody, fixed on main\r\n'
    const merged = mergeContentFile(
      'content/en/blog/post.md',
      buffer(base),
      buffer(ours),
      buffer(theirs),
    )
    expect(merged?.content.toString()).toBe('---\ntitle: Post, drafted\n---\nBody, fixed on main\n')
    expect(merged?.overridden).toEqual([])
  })

  it('leaves alone what is no content document, or does not read', () => {
    const text = buffer('a,b\n')
    expect(mergeContentFile('content/rates.csv', text, text, text)).toBeUndefined()
    expect(mergeContentFile('public/images/x.svg', text, text, text)).toBeUndefined()
    expect(
      mergeContentFile(
        'content/en/pages/a.yaml',
        buffer('a: 1\n'),
        buffer('a: [\n'),
        buffer('a: 2\n'),
      ),
    ).toBeUndefined()
  })
})
