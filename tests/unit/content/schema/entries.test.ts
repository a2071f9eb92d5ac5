/**
 * The content types' schemas on their own: a valid entry of each passes, defaults are filled
 * in, and each rule a type adds to its fields (how many items, which values, which form) is
 * refused with the field and a message that says what is expected. Whole-store checks
 * (references, twins, addresses) are in tests/unit/content/.
 */
import { describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { SAMPLE_SETTINGS, sampleEntry, sampleLayout } from '../../../../bench/generate-content'
import type { ContentProblem } from '../../../../src/content/errors'
import {
  blogArchive,
  blogCategory,
  blogPost,
  caseStudy,
  customerInformation,
  EMPLOYMENT_TYPES,
  jobPosting,
  layout,
  legalPage,
  page,
  pressRelease,
  service,
  siteSettings,
  study,
  supportCategory,
  supportClient,
} from '../../../../src/content/schema/entries'
import { ICONS } from '../../../../src/content/schema/sections'
import { validateDocument } from '../../../../src/content/validate-document'
import { TEXT_LANGUAGES } from '../../../../src/shared/languages'
import {
  blogCategoryEntry,
  blogPostEntry,
  caseStudyEntry,
  serviceEntry,
  supportCategoryEntry,
  supportClientEntry,
} from '../../../fixtures/entries'

function problems(schema: z.ZodType, data: unknown): string[] {
  const found: ContentProblem[] = []
  validateDocument(schema, { file: 'x.yaml', data }, found)
  return found.map((problem) => `${problem.field}: ${problem.message}`)
}

const jobEntry = () => ({
  title: 'Compliance officer',
  description: 'Compliance officer (AML) in Berlin – full time, on site or remote.',
  intro: 'Help us keep money laundering out.',
  team: 'Compliance',
  datePosted: '2026-11-01',
  validThrough: '2026-12-31',
  employmentType: 'FULL_TIME',
  location: { city: 'Berlin', country: 'DE' },
  remote: false,
  body: 'What you do.',
  applyEmail: 'jobs@bank.example',
})

const pressEntry = () => ({
  title: 'Launch',
  description: 'The bank launches its platform for partners.',
  date: '2026-11-02',
  body: 'Today we launch.',
})

describe('every content type', () => {
  it.each([
    ['siteSettings', siteSettings, SAMPLE_SETTINGS],
    ['layout', layout, sampleLayout('de')],
    ['page', page, sampleEntry('page', 'about', 'en')],
    ['service', service, serviceEntry()],
    ['caseStudy', caseStudy, caseStudyEntry(['cards'])],
    ['supportCategory', supportCategory, supportCategoryEntry()],
    ['supportClient', supportClient, supportClientEntry('banking-apps')],
    ['customerInformation', customerInformation, sampleEntry('customerInformation', 'x', 'en')],
    ['legalPage', legalPage, sampleEntry('legalPage', 'imprint', 'en')],
    ['study', study, sampleEntry('study', 'studies/embedded-finance', 'en')],
    ['jobPosting', jobPosting, jobEntry()],
    ['pressRelease', pressRelease, pressEntry()],
    ['blogPost', blogPost, blogPostEntry('Hello', 'news')],
    ['blogCategory', blogCategory, blogCategoryEntry()],
  ] as const)('accepts a valid %s', (_name, schema, data) => {
    expect(problems(schema, data)).toEqual([])
  })

  it.each([
    ['page', page],
    ['service', service],
    ['legalPage', legalPage],
    ['blogPost', blogPost],
  ] as const)('refuses a field the %s type does not have, by name', (_name, schema) => {
    expect(problems(schema, { colour: 'red' })).toContain(
      ': unknown field "colour": expected only the fields of this content type',
    )
  })
})

describe('siteSettings', () => {
  it('asks every visitor again only when the banner’s revision is set; it starts at 1', () => {
    expect(siteSettings.parse(SAMPLE_SETTINGS).consentRevision).toBe('1')
    expect(
      siteSettings.parse({ ...SAMPLE_SETTINGS, consentRevision: '2026.1' }).consentRevision,
    ).toBe('2026.1')
    expect(problems(siteSettings, { ...SAMPLE_SETTINGS, consentRevision: 2 })).toEqual([
      'consentRevision: expected the cookie banner revision as text (in quotes: "2")',
    ])
    expect(problems(siteSettings, { ...SAMPLE_SETTINGS, consentRevision: 'v 2' })).toEqual([
      'consentRevision: expected the cookie banner revision in letters, digits, dots and hyphens',
    ])
  })

  it('takes phone numbers in international form only', () => {
    for (const phone of ['+49 30 1234567', '+4930123456']) {
      expect(problems(siteSettings, { ...SAMPLE_SETTINGS, phone }), phone).toEqual([])
    }
    for (const phone of ['030 1234567', '+49-30-1234567', '+49 (30) 1234567', '+49 1']) {
      expect(problems(siteSettings, { ...SAMPLE_SETTINGS, phone }), phone).toEqual([
        'phone: expected a phone number in international form, e.g. +49 30 1234567',
      ])
    }
  })

  it('takes a German VAT ID: DE and nine digits', () => {
    for (const vatId of ['DE12345678', 'DE1234567890', 'de123456789', 'ATU12345678']) {
      expect(problems(siteSettings, { ...SAMPLE_SETTINGS, vatId }), vatId).toEqual([
        'vatId: expected a German VAT ID: DE and nine digits',
      ])
    }
  })

  it('checks each e-mail address, and needs a board member and a supervisor', () => {
    expect(
      problems(siteSettings, {
        ...SAMPLE_SETTINGS,
        pressEmail: 'press at bank',
        managementBoard: [],
        supervisors: [],
      }),
    ).toEqual([
      'pressEmail: expected an e-mail address',
      'managementBoard: expected at least one board member',
      'supervisors: expected at least one supervisory authority',
    ])
  })

  it('says what an address is made of when it is no object', () => {
    expect(problems(siteSettings, { ...SAMPLE_SETTINGS, address: 'Musterstraße 1' })).toEqual([
      'address: expected an address with street, postalCode, city and country',
    ])
  })

  it('keeps the short name short enough for a home screen', () => {
    expect(problems(siteSettings, { ...SAMPLE_SETTINGS, shortName: 'Benchmark Bank' })).toEqual([
      'shortName: expected the short name (12 characters at most, for home screens) of at most 12 characters',
    ])
  })
})

describe('layout', () => {
  it('needs navigation links and footer links, and may leave the cookie banner out', () => {
    const valid = sampleLayout('en')
    expect(layout.parse(valid).consent).toBeUndefined()
    expect(
      problems(layout, {
        ...valid,
        navigation: [],
        footer: [{ title: 'Legal', links: [] }],
      }),
    ).toEqual([
      'navigation: expected at least one link',
      'footer.0.links: expected at least one link',
    ])
  })

  it('needs every interface string, named by its path', () => {
    const { readMore: _, ...strings } = sampleLayout('en').strings
    expect(problems(layout, { ...sampleLayout('en'), strings })).toEqual([
      'strings.readMore: expected the "read more" link text as text',
    ])
  })
})

describe('page', () => {
  it('has no sections unless it names them', () => {
    expect(page.parse(sampleEntry('page', 'about', 'en')).sections).toEqual([])
  })

  it('names its text’s language from the languages the site has texts in', () => {
    for (const contentLanguage of TEXT_LANGUAGES) {
      expect(
        problems(page, { ...sampleEntry('page', 'x', 'en'), contentLanguage }),
        contentLanguage,
      ).toEqual([])
    }
    expect(problems(page, { ...sampleEntry('page', 'x', 'en'), contentLanguage: 'EN' })).toEqual([
      `contentLanguage: expected the language of the page's text: ${TEXT_LANGUAGES.join(', ')}`,
    ])
  })

  it('checks its sections with the section schemas', () => {
    expect(
      problems(page, { ...sampleEntry('page', 'x', 'en'), sections: [{ type: 'cardRates' }] }),
    ).toEqual([
      'sections.0.network: expected the card network (its rate file in exchange-rates/, such as mastercard) as text',
    ])
  })

  it('takes earlier addresses, but no address of its own (its file name places it)', () => {
    const about = sampleEntry('page', 'about', 'en')
    expect(problems(page, { ...about, redirectFrom: ['/en/about-us/'] })).toEqual([])
    expect(problems(page, { ...about, slug: 'about-us' })).toEqual([
      ': unknown field "slug": expected only the fields of this content type',
    ])
  })
})

describe('service', () => {
  it('may carry its own address, the same rule as every slug', () => {
    expect(service.parse({ ...serviceEntry(), slug: 'debit-cards' }).slug).toBe('debit-cards')
    expect(service.parse(serviceEntry()).slug).toBeUndefined()
    expect(problems(service, { ...serviceEntry(), slug: 'Debit Cards' })).toEqual([
      "slug: expected the page's address (its slug) in lowercase letters, digits and hyphens",
    ])
  })

  it('needs an icon of the design system, an audience, two steps and a question', () => {
    expect(
      problems(service, {
        ...serviceEntry(),
        icon: 'rocket',
        audience: [],
        integration: [{ title: 'Contract', text: 'We agree.' }],
        faq: [],
      }),
    ).toEqual([
      `icon: expected an icon: ${ICONS.join(', ')}`,
      'audience: expected at least one audience',
      'integration: expected at least two integration steps',
      'faq: expected at least one question',
    ])
  })
})

describe('caseStudy, supportClient and supportCategory', () => {
  it('need at least one service, a category named by its file name, and a position', () => {
    expect(problems(caseStudy, caseStudyEntry([]))).toEqual([
      'services: expected at least one service the partner uses',
    ])
    expect(problems(supportClient, supportClientEntry('Banking Apps'))).toEqual([
      'category: expected the support category (its file name under support-categories/) in lowercase letters, digits and hyphens',
    ])
    expect(problems(supportCategory, { ...supportCategoryEntry(), order: 'first' })).toEqual([
      'order: expected the position in the list as a number',
    ])
  })
})

describe('customerInformation', () => {
  it('names the contract language from the languages the site has texts in', () => {
    const entry = sampleEntry('customerInformation', 'italy/it-iban/italian', 'en')
    expect(problems(customerInformation, { ...entry, contractLanguage: 'pt' })).toEqual([
      `contractLanguage: expected the contract language: ${TEXT_LANGUAGES.join(', ')}`,
    ])
    expect(problems(customerInformation, { ...entry, sections: [], documents: [] })).toEqual([
      'sections: expected at least one section',
      'documents: expected at least one document',
    ])
  })

  it('names its documents by ids fit for an address', () => {
    const entry = sampleEntry('customerInformation', 'x', 'en')
    const [document] = entry.documents as Record<string, unknown>[]
    expect(
      problems(customerInformation, { ...entry, documents: [{ ...document, id: 'Info Sheet' }] }),
    ).toEqual(['documents.0.id: expected the document id in lowercase letters, digits and hyphens'])
  })
})

describe('legalPage and study', () => {
  it('date their last change and their publication', () => {
    expect(
      problems(legalPage, { ...sampleEntry('legalPage', 'x', 'en'), updated: '2026-02-30' }),
    ).toEqual(['updated: expected the date of the last change to be a real date'])
    expect(legalPage.parse({ ...sampleEntry('legalPage', 'x', 'en') }).updated).toBe('2026-11-16')
  })

  it('need three findings and a PDF under /documents/', () => {
    const entry = sampleEntry('study', 'studies/x', 'en')
    expect(
      problems(study, {
        ...entry,
        findings: (entry.findings as unknown[]).slice(0, 2),
        download: { label: 'Download', href: '/documents/studies/x.docx' },
      }),
    ).toEqual([
      'findings: expected at least three findings',
      'download.href: expected a PDF under /documents/',
    ])
  })
})

describe('jobPosting', () => {
  it('names the employment types structured data knows', () => {
    for (const employmentType of EMPLOYMENT_TYPES) {
      expect(problems(jobPosting, { ...jobEntry(), employmentType })).toEqual([])
    }
    expect(problems(jobPosting, { ...jobEntry(), employmentType: 'full time' })).toEqual([
      `employmentType: expected one of ${EMPLOYMENT_TYPES.join(', ')}`,
    ])
  })

  it('needs an ISO country, true or false for remote, and an address to apply to', () => {
    expect(
      problems(jobPosting, {
        ...jobEntry(),
        location: { city: 'Berlin', country: 'Germany' },
        remote: 'yes',
        applyEmail: 'jobs',
      }),
    ).toEqual([
      'location.country: expected an ISO country code such as DE',
      'remote: expected true or false',
      'applyEmail: expected an e-mail address',
    ])
  })

  it('pays in euros only, when it names a salary', () => {
    const salary = { currency: 'EUR', min: 50_000, max: 70_000, unit: 'YEAR' }
    expect(problems(jobPosting, { ...jobEntry(), salary })).toEqual([])
    expect(problems(jobPosting, { ...jobEntry(), salary: { ...salary, currency: 'USD' } })).toEqual(
      ['salary.currency: expected EUR'],
    )
  })
})

describe('blogPost, blogCategory and blogArchive', () => {
  it('write a post in English or German, with a cover and its address', () => {
    expect(problems(blogPost, { ...blogPostEntry('Hallo', 'news'), language: 'fr' })).toEqual([
      'language: expected the language of the post: en or de',
    ])
    const { slug: _, ...withoutSlug } = blogPostEntry('Hello', 'news')
    expect(problems(blogPost, withoutSlug)).toEqual([
      "slug: expected the post's address (its slug) as text",
    ])
    expect(
      problems(blogPost, { ...blogPostEntry('Hello', 'news'), cover: { src: '/images/x.gif' } }),
    ).toEqual([
      'cover.src: expected an image under /images/ (svg, png, jpg, webp or avif)',
      'cover.alt: expected the alternative text (empty "" only for decorative images)',
    ])
  })

  it('name a category and describe it in both languages', () => {
    expect(
      problems(blogCategory, {
        name: { en: 'Regulation' },
        description: { en: 'Rules.', de: 'Regeln.', fr: 'Règles.' },
      }),
    ).toEqual([
      'name.de: expected the German name as text',
      'description: unknown field "fr": expected only the fields of this content type',
    ])
  })

  it('give the archive its words in every language', () => {
    const words = sampleEntry('page', 'blog', 'en')
    expect(problems(blogArchive, { en: words, de: words })).toEqual([])
    // A missing language is named by its field, in zod's own words.
    expect(problems(blogArchive, { en: words }).map((p) => p.split(':')[0])).toEqual(['de'])
  })
})
