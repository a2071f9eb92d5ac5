/**
 * JSON-LD for search engines, written into the first load of each page: the bank as an
 * Organization on the home pages, a BreadcrumbList on every page below a home, JobPosting,
 * BlogPosting or NewsArticle where the page is one, and FAQPage where it answers questions.
 */

import { ICON_PATH } from '../../shared/constants'
import { LOCALE_DATA, textLanguageOf } from '../../shared/languages'
import { uniqueSlugs } from '../../shared/slug'
import type { SiteSettings } from '../../shared/types'
import type { BuildPage } from '../build-page'
import { decodeEntities } from '../html-scan'

type JsonLd = Record<string, unknown>

export interface StructuredDataContext {
  siteUrl: string
  settings: SiteSettings
}

const CONTEXT = 'https://schema.org'

function organization({ siteUrl, settings }: StructuredDataContext): JsonLd {
  return {
    '@type': 'Organization',
    '@id': `${siteUrl}/#organization`,
    name: settings.brandName,
    legalName: settings.legalEntity,
    url: `${siteUrl}/`,
    logo: `${siteUrl}${ICON_PATH}`,
    email: settings.email,
    telephone: settings.phone.replace(/ /g, ''),
    vatID: settings.vatId,
    address: {
      '@type': 'PostalAddress',
      streetAddress: settings.address.street,
      postalCode: settings.address.postalCode,
      addressLocality: settings.address.city,
      addressCountry: settings.address.country,
    },
    contactPoint: [
      {
        '@type': 'ContactPoint',
        contactType: 'customer support',
        email: settings.email,
        telephone: settings.phone.replace(/ /g, ''),
      },
      { '@type': 'ContactPoint', contactType: 'press', email: settings.pressEmail },
    ],
  }
}

/** The breadcrumb trail the page shows (see breadcrumbs.ts), for search results. */
function breadcrumbs(page: BuildPage, context: StructuredDataContext): JsonLd | undefined {
  const trail = page.breadcrumbs?.[page.language]
  if (!trail || page.languageNeutral) return undefined
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.label,
      item: `${context.siteUrl}${item.href}`,
    })),
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

function article(page: BuildPage, context: StructuredDataContext): JsonLd | undefined {
  const fields = page.content[page.language]
  if (!fields) return undefined
  const url = `${context.siteUrl}${page.route.path}`
  const publisher = { '@id': `${context.siteUrl}/#organization` }
  const base = {
    '@context': CONTEXT,
    headline: fields.title,
    description: fields.description,
    inLanguage: LOCALE_DATA[page.language].intl,
    mainEntityOfPage: url,
    url,
    publisher: { ...organization(context), ...publisher },
  }
  if (page.route.template === 'blog-post') {
    const cover = fields.cover as { src?: string } | undefined
    return {
      ...base,
      '@type': 'BlogPosting',
      datePublished: text(fields.date),
      dateModified: text(fields.date),
      author: { '@type': 'Person', name: text(fields.author) },
      ...(cover?.src ? { image: [`${context.siteUrl}${cover.src}`] } : {}),
      ...(text(fields.categoryName) ? { articleSection: text(fields.categoryName) } : {}),
    }
  }
  if (page.route.template === 'press-release') {
    return {
      ...base,
      '@type': 'NewsArticle',
      datePublished: text(fields.date),
      dateModified: text(fields.date),
      author: {
        '@type': 'Organization',
        name: context.settings.brandName,
        url: `${context.siteUrl}/`,
      },
      image: [`${context.siteUrl}${ICON_PATH}`],
    }
  }
  return undefined
}

interface JobFields {
  title: string
  body?: { html: string }
  intro?: string
  datePosted?: string
  validThrough?: string
  employmentType?: string
  location?: { city: string; country: string }
  remote?: boolean
  salary?: { currency: string; min: number; max: number; unit: string }
}

function jobPosting(page: BuildPage, context: StructuredDataContext): JsonLd | undefined {
  if (page.route.template !== 'job-posting') return undefined
  const job = page.content[page.language] as unknown as JobFields | undefined
  if (!job) return undefined
  const { settings, siteUrl } = context
  return {
    '@context': CONTEXT,
    '@type': 'JobPosting',
    title: job.title,
    description: job.body?.html ?? job.intro,
    datePosted: job.datePosted,
    validThrough: job.validThrough,
    employmentType: job.employmentType,
    hiringOrganization: {
      '@type': 'Organization',
      name: settings.legalEntity,
      sameAs: `${siteUrl}/`,
      logo: `${siteUrl}${ICON_PATH}`,
    },
    jobLocation: {
      '@type': 'Place',
      address: {
        '@type': 'PostalAddress',
        addressLocality: job.location?.city,
        addressCountry: job.location?.country,
      },
    },
    ...(job.remote
      ? {
          jobLocationType: 'TELECOMMUTE',
          applicantLocationRequirements: { '@type': 'Country', name: job.location?.country },
        }
      : {}),
    ...(job.salary
      ? {
          baseSalary: {
            '@type': 'MonetaryAmount',
            currency: job.salary.currency,
            value: {
              '@type': 'QuantitativeValue',
              minValue: job.salary.min,
              maxValue: job.salary.max,
              unitText: job.salary.unit,
            },
          },
        }
      : {}),
    directApply: false,
    url: `${siteUrl}${page.route.path}`,
  }
}

interface FaqItem {
  question: string
  answer: { html: string }
}

/** The page's questions as its FAQ lists show them: each list's ids as `Faq` derives them. */
function faqLists(fields: Record<string, unknown>): FaqItem[][] {
  const lists: FaqItem[][] = []
  if (Array.isArray(fields.faq)) lists.push(fields.faq as FaqItem[])
  for (const section of Array.isArray(fields.sections) ? fields.sections : []) {
    const { type, items } = section as { type?: string; items?: FaqItem[] }
    if (type === 'faq' && items) lists.push(items)
  }
  return lists
}

/** Tags that end a line of text; the others sit inside a sentence ("to <a>BaFin</a>."). */
const BLOCK_TAG = /<\/?(p|br|li|ul|ol|h[1-6]|table|tr|td|th|blockquote|pre)\b[^>]*>/gi

/** An answer's words, as a search engine shows them: no markup, entities decoded. */
function plainText(html: string): string {
  return decodeEntities(html.replace(BLOCK_TAG, ' ').replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim()
}

/** FAQPage: every question of the page, each with its answer and its own address. */
function faqPage(page: BuildPage, { siteUrl }: StructuredDataContext): JsonLd | undefined {
  const fields = page.content[page.language]
  if (!fields || page.languageNeutral) return undefined
  const url = `${siteUrl}${page.route.path}`
  const questions = faqLists(fields).flatMap((items) => {
    const ids = uniqueSlugs(items.map((item) => item.question))
    return items.map((item, index) => ({
      '@type': 'Question',
      name: item.question,
      url: `${url}#${ids[index]}`,
      acceptedAnswer: { '@type': 'Answer', text: plainText(item.answer.html) },
    }))
  })
  if (questions.length === 0) return undefined
  return {
    '@context': CONTEXT,
    '@type': 'FAQPage',
    url,
    inLanguage: textLanguageOf(fields) ?? LOCALE_DATA[page.language].intl,
    mainEntity: questions,
  }
}

/** The JSON-LD documents of one page. */
export function structuredData(page: BuildPage, context: StructuredDataContext): JsonLd[] {
  const isHome = page.originalPath === '/'
  return [
    isHome ? { '@context': CONTEXT, ...organization(context) } : undefined,
    breadcrumbs(page, context),
    article(page, context),
    jobPosting(page, context),
    faqPage(page, context),
  ].filter((item): item is JsonLd => item !== undefined)
}
