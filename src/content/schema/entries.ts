/** zod schemas of every content type. One schema per type; the collections table maps files to them. */
import { z } from 'zod'
import type { ConsentTexts } from '../../shared/consent'
import { TEXT_LANGUAGES } from '../../shared/languages'
import type { SearchTexts, SiteSettings, UiStrings } from '../../shared/types'
import { editorMeta } from './editor'
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
  slug,
  text,
} from './fields'
import type { Same } from './same'
import { ICONS, sections } from './sections'

const email = z.email({ error: 'expected an e-mail address' })
const phone = z.string({ error: 'expected a phone number as text' }).regex(/^\+[\d ]{6,20}$/, {
  error: 'expected a phone number in international form, e.g. +49 30 1234567',
})
const address = z.strictObject(
  {
    street: text('the street and number', 120),
    postalCode: text('the postal code', 12),
    city: text('the city', 80),
    country: text('the country', 80),
  },
  { error: 'expected an address with street, postalCode, city and country' },
)

/** The brand is fictional and configured here, in one place. */
export const siteSettings = z.strictObject({
  brandName: text('the brand name', 60),
  shortName: text('the short name (12 characters at most, for home screens)', 12),
  legalEntity: text('the legal entity', 120),
  address,
  email,
  phone,
  pressEmail: email,
  complaintsEmail: email,
  register: z.strictObject({
    court: text('the register court', 120),
    number: text('the register number', 40),
  }),
  vatId: z.string({ error: 'expected the VAT ID as text' }).regex(/^DE\d{9}$/, {
    error: 'expected a German VAT ID: DE and nine digits',
  }),
  managementBoard: z
    .array(text('a board member', 80))
    .min(1, { error: 'expected at least one board member' }),
  supervisoryBoardChair: text('the chair of the supervisory board', 80),
  editorialResponsible: text('the person responsible for editorial content (section 18 MStV)', 120),
  /**
   * The cookie banner's revision: change it when the banner's texts or the trackers change,
   * and every visitor is asked again.
   */
  consentRevision: z
    .string({ error: 'expected the cookie banner revision as text (in quotes: "2")' })
    .regex(/^[\w.-]{1,40}$/, {
      error: 'expected the cookie banner revision in letters, digits, dots and hyphens',
    })
    .default('1'),
  supervisors: z
    .array(
      z.strictObject({
        name: text('the authority', 160),
        address: text("the authority's address", 200),
        url: href,
      }),
    )
    .min(1, { error: 'expected at least one supervisory authority' }),
})
/** Shared code reads the company facts as `SiteSettings`. */
true satisfies Same<z.output<typeof siteSettings>, SiteSettings>

export const uiStrings = z.strictObject({
  skipToContent: text('the skip-link text', 60),
  primaryNavigation: text('the label of the primary navigation', 60),
  menu: text('the label of the menu button on small screens', 30),
  languageSwitcherLabel: text('the label of the language switcher', 60),
  languageName: text('the language name in itself', 30),
  navigatedTo: text('the prefix of the navigation announcement', 60),
  footerNavigation: text('the label of the footer navigation', 60),
  home: text('the label of the home link', 60),
  breadcrumbs: text('the label of the breadcrumb navigation', 60),
  readMore: text('the "read more" link text', 60),
  minutesToRead: text('the reading-time text, with {minutes}', 60),
  publishedOn: text('the publication-date text, with {date}', 60),
  updatedOn: text('the last-updated text, with {date}', 60),
  byAuthor: text('the author text, with {author}', 60),
  previousPage: text('the previous-page link text', 60),
  nextPage: text('the next-page link text', 60),
  pageOf: text('the pagination text, with {page} and {pages}', 60),
  allCategories: text('the all-categories link text', 60),
  categories: text('the categories heading', 60),
  frequentlyAskedQuestions: text('the FAQ heading', 60),
  copyLink: text('the control that copies the link to an FAQ answer', 60),
  linkCopied: text('the announcement once the link is copied', 60),
  download: text('the download text', 60),
  applyNow: text('the apply text', 60),
  location: text('the location label', 60),
  employmentType: text('the employment-type label', 60),
  applyBy: text('the application-deadline text, with {date}', 60),
  postLanguage: text('the label of a post in another language, with {language}', 80),
  postLanguages: text("the label of the choice of the blog posts' language", 60),
  allLanguagesFirst: text('the choice of posts in every language, with {language} first', 60),
  onlyLanguage: text('the choice of posts in one language, with {language}', 60),
  postsShown: text('the announcement of the posts shown, with {count}', 60),
  noMorePosts: text('the text of an archive page after the last of the chosen {language}', 120),
  noPostsInLanguage: text('the text of a topic without posts in the chosen {language}', 120),
  showAllLanguages: text('the button that shows the posts of every language', 60),
  whatItIs: text('the heading "what it is" of service pages', 80),
  whoItIsFor: text('the heading "who it is for" of service pages', 80),
  howIntegrationWorks: text('the heading "how integration works" of service pages', 80),
  regulatoryNotes: text('the heading "regulatory notes" of service pages', 80),
  startingPoint: text('the heading "starting point" of case studies', 80),
  solution: text('the heading "solution" of case studies', 80),
  servicesUsed: text('the heading "services used" of case studies', 80),
  everydayHelp: text('the heading "everyday help" of support pages', 80),
  complaints: text('the heading "complaints" of support pages', 80),
  contactTheBank: text('the heading "contact the bank" of support pages', 80),
  documents: text('the heading "documents" of customer information', 80),
  findings: text('the heading "findings" of studies', 80),
  methodology: text('the heading "methodology" of studies', 80),
  company: text('the heading of the company facts in the imprint', 80),
  managementBoard: text('the label "management board"', 80),
  supervisoryBoardChair: text('the label "chair of the supervisory board"', 80),
  commercialRegister: text('the label "commercial register"', 80),
  vatId: text('the label "VAT ID"', 80),
  supervisoryAuthorities: text('the label "supervisory authorities"', 80),
  editorialResponsible: text('the label "responsible for editorial content"', 80),
  contact: text('the label "contact"', 80),
})
true satisfies Same<z.output<typeof uiStrings>, UiStrings>

const described = (what: string) =>
  z.strictObject({
    label: text(`the name of ${what}`, 60),
    description: text(`what ${what} is for, who provides it and how long its cookies last`, 500),
  })

/**
 * The cookie banner's words. The first layer names purposes, providers and lifetimes before any
 * choice (section 25 TDDDG); the settings layer has a switch per category and per tracker.
 */
export const consentTexts = z.strictObject({
  title: text('the banner title', 80),
  intro: text('the banner introduction', 600),
  acceptAll: text('the "accept all" button', 40),
  rejectAll: text('the "reject all" button', 40),
  settings: text('the "settings" button', 40),
  settingsTitle: text('the title of the settings', 80),
  settingsIntro: text('the introduction of the settings', 600),
  save: text('the "save settings" button', 40),
  close: text('the label of the button that closes the settings', 40),
  necessary: described('the necessary cookies (always on)'),
  categories: z.strictObject({
    analytics: described('the analytics category'),
    conversion: described('the conversion-tracking category'),
  }),
  trackers: z.strictObject({
    googleanalytics: described('Google Analytics'),
    adwords: described('Google Ads conversion tracking'),
    twitter: described('the X (Twitter) pixel'),
    linkedin: described('the LinkedIn Insight Tag'),
  }),
  alwaysOn: text('the state of the necessary cookies ("always on")', 40),
  /** Shown beside a privacy-policy opt-out link once it took effect. */
  optedOut: text('the note after an opt-out ("{service}" stands for the service\'s name)', 120),
  privacyLink: link,
})
true satisfies Same<z.output<typeof consentTexts>, ConsentTexts>

export const searchTexts = z.strictObject({
  button: text("the label of the header's search button", 30),
  title: text('the title of the search dialog', 80),
  label: text('the label of the search field', 60),
  placeholder: text('the example in the empty search field', 80),
  close: text('the label of the button that closes the search', 60),
  hint: text('how the search works by keyboard', 200),
  loading: text('the note while the search loads', 80),
  results: text('the number of results, with {count}', 60),
  oneResult: text('the text for one result', 60),
  noResults: text('the note when nothing is found, with {query}', 120),
  showMore: text('the label of the button that shows more results', 60),
  otherLanguage: text('the button that searches the pages of the other language', 80),
  ownLanguage: text("the button that searches this language's pages again", 80),
  otherLanguageResults: text('the note above results in the other language', 120),
  error: text('the note when the search cannot be loaded', 160),
  offline: text('the note when the search was never loaded and there is no connection', 200),
  offlineResults: text('the note that offline only the pages on this device are found', 200),
  retry: text('the label of the button that tries again', 40),
})
true satisfies Same<z.output<typeof searchTexts>, SearchTexts>

export const layout = z.strictObject({
  navigation: z.array(link).min(1, { error: 'expected at least one link' }),
  footer: z.array(
    z.strictObject({
      title: text('a group title', 60),
      links: z.array(link).min(1, { error: 'expected at least one link' }),
    }),
  ),
  /**
   * The footer's "cookie settings" link: it reopens the consent settings; without script it
   * leads to where the privacy policy explains them.
   */
  cookieSettings: link,
  /** The cookie banner's words (optional until a language has them). */
  consent: consentTexts.optional(),
  /** The site search's button and dialog. */
  search: searchTexts,
  strings: uiStrings,
})
export type LayoutContent = z.infer<typeof layout>

const pageBase = {
  title: text('the page title', 120),
  description: text('the meta description', 300),
  intro: text('the introduction', 2000),
}

/** The fields of every entry with a page of its own: its earlier addresses. */
const movable = { redirectFrom }

/**
 * The fields of a page editors may move (a service, a job posting, …): the page's fields with
 * its address right after its title. Pages the specification fixes (legal texts, customer
 * information, the routes of docs/routes.md) have no such field: code links to them there.
 */
const movablePage = {
  title: pageBase.title,
  slug: entrySlug,
  description: pageBase.description,
  intro: pageBase.intro,
}

/**
 * A page built from sections: home, about, careers, press, forms and their success pages. A
 * page for customers abroad is written in their language and says so, so that the page marks
 * its text (`lang`) and screen readers speak it in that language.
 */
export const page = z.strictObject({
  ...pageBase,
  contentLanguage: z
    .enum(TEXT_LANGUAGES, {
      error: `expected the language of the page's text: ${TEXT_LANGUAGES.join(', ')}`,
    })
    .register(editorMeta, {
      hint: "The language the page's text is written in, where it is not the site's language (es for a page for customers in Spain).",
    })
    .optional(),
  sections: sections.default([]),
  ...movable,
})

const faqItems = z
  .array(z.strictObject({ question: text('a question', 200), answer: markdown('the answer') }))
  .min(1, { error: 'expected at least one question' })

/** A service: what it is, who it is for, how integration works, regulatory notes and an FAQ. */
export const service = z.strictObject({
  ...movablePage,
  summary: text('the one-line summary for the services list', 200),
  icon: z.enum(ICONS, { error: `expected an icon: ${ICONS.join(', ')}` }),
  whatItIs: markdown('what the service is'),
  audience: z.array(text('an audience', 200)).min(1, { error: 'expected at least one audience' }),
  integration: z
    .array(z.strictObject({ title: text('a step title', 100), text: text('a step text', 500) }))
    .min(2, { error: 'expected at least two integration steps' }),
  regulatory: markdown('the regulatory notes'),
  faq: faqItems,
  sections: sections.default([]),
  ...movable,
})

export const caseStudy = z.strictObject({
  ...movablePage,
  partner: text('the partner name', 60),
  summary: text('the one-line summary for the list', 200),
  services: z.array(reference('service', 'a service (its file name under services/)')).min(1, {
    error: 'expected at least one service the partner uses',
  }),
  challenge: markdown('the starting point'),
  solution: markdown('the solution'),
  sections: sections.default([]),
  ...movable,
})

export const supportCategory = z.strictObject({
  ...movablePage,
  order: z.number({ error: 'expected the position in the list as a number' }).int(),
  ...movable,
})

/** A partner's support page: where its customers get help, how to complain, how to reach the bank. */
export const supportClient = z.strictObject({
  ...movablePage,
  partner: text('the partner name', 60),
  category: reference(
    'supportCategory',
    'the support category (its file name under support-categories/)',
  ),
  products: text('what the bank provides behind the partner', 300),
  everydayHelp: markdown('where to get everyday help'),
  complaints: markdown('how to complain'),
  contactBank: markdown('how to reach the bank'),
  faq: faqItems.optional(),
  ...movable,
})

export const customerInformation = z.strictObject({
  ...pageBase,
  country: text('the country of residence', 60),
  iban: text('the IBAN type', 60),
  contractLanguage: z.enum(TEXT_LANGUAGES, {
    error: `expected the contract language: ${TEXT_LANGUAGES.join(', ')}`,
  }),
  sections: z
    .array(
      z.strictObject({
        heading: text('the section heading', 160),
        body: markdown('the section text'),
      }),
    )
    .min(1, { error: 'expected at least one section' }),
  documents: z
    .array(
      z.strictObject({
        id: slug('the document id'),
        title: text('the document title', 160),
        summary: text('the document summary', 400),
        body: markdown('the document text'),
      }),
    )
    .min(1, { error: 'expected at least one document' }),
  ...movable,
})

/** Imprint, privacy policy, terms of use, accessibility statement. */
export const legalPage = z.strictObject({
  ...pageBase,
  updated: isoDate('the date of the last change'),
  body: markdown('the legal text'),
  ...movable,
})

export const study = z.strictObject({
  ...movablePage,
  published: isoDate('the publication date'),
  findings: z
    .array(
      z.strictObject({ title: text('a finding', 160), text: text('the finding explained', 600) }),
    )
    .min(3, { error: 'expected at least three findings' }),
  methodology: markdown('the methodology'),
  download: z.strictObject({
    label: text('the download label', 120),
    href: z
      .string()
      .regex(/^\/documents\/[\w./-]+\.pdf$/, { error: 'expected a PDF under /documents/' }),
  }),
  ...movable,
})

export const EMPLOYMENT_TYPES = [
  'FULL_TIME',
  'PART_TIME',
  'CONTRACTOR',
  'TEMPORARY',
  'INTERN',
] as const

/** A job posting with everything JobPosting structured data needs. */
export const jobPosting = z.strictObject({
  ...movablePage,
  team: text('the team', 80),
  datePosted: isoDate('the posting date'),
  validThrough: isoDate('the application deadline'),
  employmentType: z.enum(EMPLOYMENT_TYPES, {
    error: `expected one of ${EMPLOYMENT_TYPES.join(', ')}`,
  }),
  location: z.strictObject({
    city: text('the city', 80),
    country: z.string().regex(/^[A-Z]{2}$/, { error: 'expected an ISO country code such as DE' }),
  }),
  remote: z.boolean({ error: 'expected true or false' }),
  salary: z
    .strictObject({
      currency: z.literal('EUR', { error: 'expected EUR' }),
      min: z.number().int().positive(),
      max: z.number().int().positive(),
      unit: z.enum(['YEAR', 'MONTH', 'HOUR']),
    })
    .optional(),
  body: markdown('the job description'),
  applyEmail: email,
  ...movable,
})

export const pressRelease = z.strictObject({
  title: pageBase.title,
  slug: entrySlug,
  description: pageBase.description,
  date: isoDate('the release date'),
  body: markdown('the press release'),
  ...movable,
})

const languageField = z.enum(['en', 'de'], { error: 'expected the language of the post: en or de' })

export const blogPost = z.strictObject({
  title: text('the post title', 120),
  slug: postSlug,
  redirectFrom,
  description: text('the meta description', 300),
  language: languageField,
  date: isoDate('the publication date'),
  author: text('the author', 80),
  category: reference('blogCategory', 'the category (its file name under blog/categories/)'),
  cover: image,
  body: markdown('the post'),
})

export const blogCategory = z.strictObject({
  name: z.strictObject({ en: text('the English name', 60), de: text('the German name', 60) }),
  slug: categorySlug,
  description: z.strictObject({
    en: text('the English description', 300),
    de: text('the German description', 300),
  }),
  ...movable,
})

const archiveFields = z.strictObject({ ...pageBase })
/** The blog archive has no language of its own, so it carries every language's text. */
export const blogArchive = z.strictObject({ en: archiveFields, de: archiveFields })

/** What templates receive for each content type (Markdown fields rendered to HTML). */
export type PageEntry = z.output<typeof page>
export type ServiceEntry = z.output<typeof service>
export type CaseStudyEntry = z.output<typeof caseStudy>
export type SupportCategoryEntry = z.output<typeof supportCategory>
export type SupportClientEntry = z.output<typeof supportClient>
export type CustomerInformationEntry = z.output<typeof customerInformation>
export type LegalPageEntry = z.output<typeof legalPage>
export type StudyEntry = z.output<typeof study>
export type JobPostingEntry = z.output<typeof jobPosting>
export type PressReleaseEntry = z.output<typeof pressRelease>
export type BlogPostEntry = z.output<typeof blogPost> & {
  readingMinutes: number
  categoryName?: string
  categoryHref: string
}
