/**
 * The JSON-LD the site writes, checked against what schema.org defines and what Google's rich
 * results require of each type (required properties, absolute URLs, ISO dates).
 */
import { z } from 'zod'

const url = z.url({ protocol: /^https?$/ })
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}/)
const text = z.string().trim().min(1)

const postalAddress = z.object({
  '@type': z.literal('PostalAddress'),
  addressLocality: text,
  addressCountry: text,
})

const organization = z.object({
  '@type': z.literal('Organization'),
  name: text,
  url: url.optional(),
  logo: url.optional(),
})

export const schemas = {
  Organization: organization.extend({
    '@context': z.literal('https://schema.org'),
    '@id': url,
    url,
    logo: url,
    legalName: text,
    address: postalAddress.extend({ streetAddress: text, postalCode: text }),
    contactPoint: z
      .array(z.object({ '@type': z.literal('ContactPoint'), contactType: text }))
      .min(1),
  }),
  BreadcrumbList: z.object({
    '@context': z.literal('https://schema.org'),
    itemListElement: z
      .array(
        z.object({
          '@type': z.literal('ListItem'),
          position: z.number().int().positive(),
          name: text,
          item: url,
        }),
      )
      .min(2)
      .refine((items) => items.every((item, index) => item.position === index + 1), {
        message: 'positions count from 1 in order',
      }),
  }),
  BlogPosting: z.object({
    '@context': z.literal('https://schema.org'),
    headline: text.max(110),
    datePublished: isoDate,
    author: z.object({ '@type': z.literal('Person'), name: text }),
    image: z.array(url).min(1),
    publisher: organization,
    mainEntityOfPage: url,
    inLanguage: text,
  }),
  NewsArticle: z.object({
    '@context': z.literal('https://schema.org'),
    headline: text.max(110),
    datePublished: isoDate,
    author: organization,
    image: z.array(url).min(1),
    publisher: organization,
    mainEntityOfPage: url,
  }),
  JobPosting: z
    .object({
      '@context': z.literal('https://schema.org'),
      title: text,
      description: text,
      datePosted: isoDate,
      validThrough: isoDate,
      employmentType: z.enum(['FULL_TIME', 'PART_TIME', 'CONTRACTOR', 'TEMPORARY', 'INTERN']),
      hiringOrganization: organization.extend({ sameAs: url }),
      jobLocation: z.object({ '@type': z.literal('Place'), address: postalAddress }),
      jobLocationType: z.literal('TELECOMMUTE').optional(),
      applicantLocationRequirements: z
        .object({ '@type': z.literal('Country'), name: text })
        .optional(),
      baseSalary: z
        .object({
          '@type': z.literal('MonetaryAmount'),
          currency: z.string().length(3),
          value: z.object({
            '@type': z.literal('QuantitativeValue'),
            minValue: z.number().positive(),
            maxValue: z.number().positive(),
            unitText: z.enum(['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR']),
          }),
        })
        .optional(),
    })
    .refine((job) => !job.jobLocationType || job.applicantLocationRequirements, {
      message: 'remote jobs name where applicants may live',
    })
    .refine((job) => job.validThrough >= job.datePosted, {
      message: 'validThrough is not before datePosted',
    }),
  FAQPage: z.object({
    '@context': z.literal('https://schema.org'),
    url,
    inLanguage: text,
    mainEntity: z
      .array(
        z.object({
          '@type': z.literal('Question'),
          name: text,
          url: url.refine((address) => new URL(address).hash.length > 1, {
            message: "leads to the question's own anchor",
          }),
          acceptedAnswer: z.object({ '@type': z.literal('Answer'), text }),
        }),
      )
      .min(1)
      .refine((questions) => new Set(questions.map((q) => q.url)).size === questions.length, {
        message: 'every question has an address of its own',
      }),
  }),
} as const

export type StructuredType = keyof typeof schemas

/** The problems of one JSON-LD document, empty when it is valid; unknown types are problems. */
export function structuredDataProblems(item: unknown): string[] {
  const type = (item as { '@type'?: unknown })?.['@type']
  const schema = schemas[type as StructuredType]
  if (!schema) return [`unknown @type ${String(type)}`]
  const result = schema.safeParse(item)
  return result.success
    ? []
    : result.error.issues.map(
        (issue) => `${String(type)} ${issue.path.join('.')}: ${issue.message}`,
      )
}

/** The JSON-LD documents in an HTML page. */
export function structuredDataOf(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
    ([, json]) => JSON.parse(json ?? ''),
  )
}
