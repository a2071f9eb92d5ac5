/**
 * What the schemas tell the editor about a field: the hint under it, made from the field's
 * description, and the metadata registered beside a schema (the CMS configuration is generated
 * from it; the fields' own registrations are in fields.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { editorMeta, hintOf } from '../../../../src/content/schema/editor'

describe('hintOf', () => {
  it('begins the description with a capital letter and keeps the rest as written', () => {
    expect(hintOf('the page title')).toBe('The page title')
    expect(hintOf("the card network's name (e.g. Mastercard)")).toBe(
      "The card network's name (e.g. Mastercard)",
    )
    expect(hintOf('"ascending"')).toBe('"ascending"')
    expect(hintOf('The brand name')).toBe('The brand name')
  })

  it('capitalises letters beyond ASCII, and leaves an empty description empty', () => {
    expect(hintOf('über uns')).toBe('Über uns')
    expect(hintOf('édition')).toBe('Édition')
    expect(hintOf('')).toBe('')
  })
})

describe('editorMeta', () => {
  it('keeps what a schema registered, and nothing for one that registered nothing', () => {
    const date = z.string().register(editorMeta, { widget: 'date', hint: 'The day.' })
    expect(editorMeta.get(date)).toEqual({ widget: 'date', hint: 'The day.' })
    expect(editorMeta.get(z.string())).toBeUndefined()
  })

  it('belongs to the schema registered, not to one derived from it', () => {
    const slug = z.string().register(editorMeta, { reference: 'service' })
    expect(editorMeta.get(slug.optional())).toBeUndefined()
    expect(editorMeta.get(slug.optional().unwrap())).toEqual({ reference: 'service' })
  })
})
