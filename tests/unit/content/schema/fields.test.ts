/**
 * The field types every content type is built of, each on its own: what it accepts, what it
 * makes of it (trimmed text, a date from YAML, Markdown waiting to be rendered) and what it
 * refuses, with the message the editor reads beside the field.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { ContentProblem } from '../../../../src/content/errors'
import { PendingMarkdown } from '../../../../src/content/rich-text'
import { editorMeta } from '../../../../src/content/schema/editor'
import {
  categorySlug,
  entrySlug,
  href,
  image,
  isoDate,
  link,
  markdown,
  postSlug,
  redirectFrom,
  reference,
  sitePath,
  slug,
  text,
} from '../../../../src/content/schema/fields'
import { validateDocument } from '../../../../src/content/validate-document'

/** The problems of `data` as the store reports them: `field: message`, field '' for the whole. */
function problems(schema: z.ZodType, data: unknown): string[] {
  const found: ContentProblem[] = []
  validateDocument(schema, { file: 'x.yaml', data }, found)
  return found.map((problem) => `${problem.field}: ${problem.message}`)
}

const parsed = <T>(schema: z.ZodType<T>, data: unknown): T => schema.parse(data)

describe('text', () => {
  const title = text('the page title', 10)

  it('trims the text and counts its length after trimming', () => {
    expect(parsed(title, '  About  ')).toBe('About')
    expect(parsed(title, ` ${'x'.repeat(10)} `)).toBe('x'.repeat(10))
  })

  it('refuses an empty text, a text too long and a value that is no text, each by name', () => {
    expect(problems(title, '   ')).toEqual([': expected the page title, found an empty text'])
    expect(problems(title, 'x'.repeat(11))).toEqual([
      ': expected the page title of at most 10 characters',
    ])
    expect(problems(title, 42)).toEqual([': expected the page title as text'])
    expect(problems(title, undefined)).toEqual([': expected the page title as text'])
  })

  it('tells the editor what belongs in the field and its limit', () => {
    expect(editorMeta.get(title)).toEqual({ hint: 'The page title; at most 10 characters.' })
  })
})

describe('markdown', () => {
  const body = markdown('the legal text')

  it('keeps the source for rendering after validation', () => {
    const value = parsed(body, '## Terms\n\nText.') as unknown
    expect(value).toBeInstanceOf(PendingMarkdown)
    expect((value as PendingMarkdown).source).toBe('## Terms\n\nText.')
  })

  it('refuses an empty or blank text and a value that is no text', () => {
    expect(problems(body, '')).toEqual([': expected the legal text, found an empty text'])
    expect(problems(body, ' \n\t ')).toEqual([': expected the legal text, found an empty text'])
    expect(problems(body, ['a'])).toEqual([': expected the legal text as Markdown text'])
  })

  it('is edited as Markdown', () => {
    expect(editorMeta.get(body)?.widget).toBe('markdown')
    expect(editorMeta.get(body)?.hint).toMatch(/^The legal text, in Markdown;/)
  })
})

describe('href and link', () => {
  it.each([
    '/en/about/',
    '/documents/terms.pdf',
    'https://www.bafin.de/',
    'mailto:info@bank.example',
    'tel:+49301234567',
  ])('accepts %s', (value) => {
    expect(parsed(href, value)).toBe(value)
  })

  it('trims a link', () => {
    expect(parsed(href, ' /en/ ')).toBe('/en/')
  })

  it.each(['http://bank.example/', 'javascript:alert(1)', 'en/about/', 'www.bank.example', ''])(
    'refuses %j, naming the beginnings it takes',
    (value) => {
      expect(problems(href, value)).toEqual([
        ': expected a link starting with "/", "https://", "mailto:" or "tel:"',
      ])
    },
  )

  it('needs a label and an address, and nothing else', () => {
    expect(parsed(link, { label: ' Home ', href: '/en/' })).toEqual({ label: 'Home', href: '/en/' })
    expect(problems(link, { href: '/en/' })).toEqual(['label: expected a link label as text'])
    expect(problems(link, { label: 'Home', href: '/en/', target: '_blank' })).toEqual([
      ': unknown field "target": expected only the fields of this content type',
    ])
  })
})

describe('isoDate', () => {
  const updated = isoDate('the date of the last change')

  it('takes a date as text, trimmed, or as the Date a YAML parser may make', () => {
    expect(parsed(updated, '2026-11-16')).toBe('2026-11-16')
    expect(parsed(updated, ' 2024-02-29 ')).toBe('2024-02-29')
    expect(parsed(updated, new Date('2026-11-16T00:00:00Z'))).toBe('2026-11-16')
  })

  it('refuses other forms of a date and other values, asking for YYYY-MM-DD', () => {
    for (const value of ['16.11.2026', '2026-11-16T10:00:00Z', '2026-1-6', 20261116, null]) {
      expect(problems(updated, value), String(value)).toEqual([
        ': expected the date of the last change as a date (YYYY-MM-DD)',
      ])
    }
  })

  it('refuses a day no calendar has', () => {
    for (const value of ['2026-13-01', '2026-00-10', '2026-11-32', '2026-11-00']) {
      expect(problems(updated, value), value).toEqual([
        ': expected the date of the last change to be a real date',
      ])
    }
  })

  it('refuses the days past the end of a shorter month, which Date.parse rolls over', () => {
    for (const value of ['2026-02-29', '2026-02-30', '2024-02-30', '2026-04-31', '2026-11-31']) {
      expect(problems(updated, value), value).toEqual([
        ': expected the date of the last change to be a real date',
      ])
    }
  })

  it('is edited with a date picker', () => {
    expect(editorMeta.get(updated)).toEqual({
      widget: 'date',
      hint: 'The date of the last change.',
    })
  })
})

describe('image', () => {
  it('accepts an image of the site in each format, with its alternative text trimmed', () => {
    for (const src of [
      '/images/logo.svg',
      '/images/blog/cover.png',
      '/images/team/ada-1.jpg',
      '/images/x.jpeg',
      '/images/x.webp',
      '/images/x.avif',
    ]) {
      expect(parsed(image, { src, alt: ' A cover ' }), src).toEqual({ src, alt: 'A cover' })
    }
  })

  it('accepts an empty alternative text (a decorative image) but not a missing one', () => {
    expect(parsed(image, { src: '/images/x.svg', alt: '' })).toEqual({
      src: '/images/x.svg',
      alt: '',
    })
    expect(problems(image, { src: '/images/x.svg' })).toEqual([
      'alt: expected the alternative text (empty "" only for decorative images)',
    ])
  })

  it('refuses images elsewhere and files of other kinds', () => {
    for (const src of [
      'https://cdn.example/x.png',
      '/public/images/x.png',
      '/images/x.gif',
      '/images/x.svg?v=2',
      '/images/../secrets.png',
      '/images/a b.png',
    ]) {
      expect(problems(image, { src, alt: 'x' }), src).toEqual([
        'src: expected an image under /images/ (svg, png, jpg, webp or avif)',
      ])
    }
  })
})

describe('slug', () => {
  const name = slug('the form name')

  it.each(['newsletter', 'a', 'splitpay-survey', 'it-iban-2'])('accepts %s', (value) => {
    expect(parsed(name, value)).toBe(value)
  })

  it.each([
    'Newsletter',
    'news letter',
    'news--letter',
    '-news',
    'news-',
    'news_letter',
    'über',
    '',
  ])('refuses %j', (value) => {
    expect(problems(name, value)).toEqual([
      ': expected the form name in lowercase letters, digits and hyphens',
    ])
  })

  it('refuses a value that is no text', () => {
    expect(problems(name, 7)).toEqual([': expected the form name as text'])
  })
})

describe('the address fields', () => {
  it('fill a new entry’s address on save; only a page’s is one for both languages', () => {
    expect(editorMeta.get(postSlug)).toMatchObject({ filledOnSave: true })
    expect(editorMeta.get(postSlug)?.sameInEveryLanguage).toBeUndefined()
    expect(editorMeta.get(categorySlug.unwrap())).toMatchObject({ filledOnSave: true })
    expect(editorMeta.get(categorySlug.unwrap())?.sameInEveryLanguage).toBeUndefined()
    expect(editorMeta.get(entrySlug.unwrap())).toMatchObject({
      filledOnSave: true,
      sameInEveryLanguage: true,
    })
  })

  it('may be left out for a page and a category (they keep their file name’s address)', () => {
    expect(parsed(entrySlug, undefined)).toBeUndefined()
    expect(parsed(categorySlug, undefined)).toBeUndefined()
    expect(problems(postSlug, undefined)).toEqual([
      ": expected the post's address (its slug) as text",
    ])
    expect(problems(entrySlug, 'Cards')).toEqual([
      ": expected the page's address (its slug) in lowercase letters, digits and hyphens",
    ])
  })
})

describe('sitePath and redirectFrom', () => {
  it.each(['/blog/old-title/', '/en/old-name/', '/de/services/cards-2/', '/x/'])(
    'accepts the earlier address %s',
    (value) => {
      expect(parsed(sitePath, value)).toBe(value)
    },
  )

  it.each([
    '/',
    'blog/old-title/',
    '/blog/old-title',
    '/blog//old/',
    '/Blog/Old/',
    '/blog/old_title/',
    '/blog/old-title/?page=2',
    'https://bank.example/blog/',
  ])('refuses %j, which is no address of the site', (value) => {
    expect(problems(sitePath, value)).toEqual([
      ': expected an address of this site in lowercase letters, digits and hyphens, between slashes, e.g. /blog/old-title/',
    ])
  })

  it('is a list of such addresses, trimmed, or nothing, and names the entry that is wrong', () => {
    expect(parsed(redirectFrom, undefined)).toBeUndefined()
    expect(parsed(redirectFrom, [' /en/old/ ', '/blog/old/'])).toEqual(['/en/old/', '/blog/old/'])
    expect(problems(redirectFrom, '/en/old/')).toEqual([': expected a list of earlier addresses'])
    expect(problems(redirectFrom, ['/en/old/', '/en/Old/'])).toEqual([
      '1: expected an address of this site in lowercase letters, digits and hyphens, between slashes, e.g. /blog/old-title/',
    ])
  })
})

describe('reference', () => {
  it('is a slug that tells the editor which content type it names', () => {
    const category = reference('supportCategory', 'the support category (its file name)')
    expect(parsed(category, 'banking-apps')).toBe('banking-apps')
    expect(editorMeta.get(category)).toEqual({
      reference: 'supportCategory',
      hint: 'The support category (its file name).',
    })
    expect(problems(category, 'Banking Apps')).toEqual([
      ': expected the support category (its file name) in lowercase letters, digits and hyphens',
    ])
  })
})
