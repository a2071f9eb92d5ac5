/**
 * Which file holds which content type, where its page lives and whether it needs a twin in
 * the other language: the content model's routing, written down as data.
 */
import type { z } from 'zod'
import { LANGUAGES, type Language } from '../shared/languages'
import type { TemplateName } from '../shared/types'
import type { CollectionName } from './schema/collection-name'
import * as schemas from './schema/entries'

export interface Collection {
  name: CollectionName
  schema: z.ZodType
  /** Needs an entry of the same name in every language. */
  twin: boolean
  /** The page's path without language prefix, from the entry's name and data. */
  path(name: string, data: Record<string, unknown>): string
  /**
   * The field that holds the page's address, for pages editors may move (`slug`); without
   * one, the address comes from the file name and stays where the specification puts it.
   */
  addressField?: 'slug'

  /** The template of an entry, from its name and (for pages with a form) its data. */
  template(name: string, data: Record<string, unknown>): TemplateName
}

const folderPath = (prefix: string) => (name: string) => `${prefix}${name}/`
const pagePath = (name: string) => {
  const parts = name.split('/')
  if (parts.at(-1) === 'index') parts.pop()
  return parts.length === 0 ? '/' : `/${parts.join('/')}/`
}

/**
 * The address of a page editors may move: its `slug` field in place of its file name's last
 * part; an entry saved before it had one keeps the address of its file name, so none moves.
 */
const ownAddress =
  (path: (name: string) => string) =>
  (name: string, data: Record<string, unknown>): string => {
    const slug = typeof data.slug === 'string' && data.slug !== '' ? data.slug : undefined
    return path(slug ? name.replace(/[^/]+$/, slug) : name)
  }

/**
 * The pages a form or an e-mail link leads to: newsletter-success, newsletter-confirmed,
 * unsubscribed, link-expired, …
 */
const OUTCOME_PAGE = /^([a-z0-9-]+-(success|confirmed)|unsubscribed|link-expired)$/

/** True for a page with exchange rates: its template carries the rate tables' code. */
export const hasRates = (data: Record<string, unknown>) =>
  Array.isArray(data.sections) &&
  data.sections.some(
    (section: { type?: unknown }) => section?.type === 'ecbRates' || section?.type === 'cardRates',
  )

/** True for a page with a `form` section: its template carries the forms' code. */
export const hasForm = (data: Record<string, unknown>) =>
  Array.isArray(data.sections) &&
  data.sections.some((section: { type?: unknown }) => section?.type === 'form')

const COLLECTIONS: Record<CollectionName, Collection> = {
  page: {
    name: 'page',
    schema: schemas.page,
    twin: true,
    path: pagePath,
    template: (name, data) =>
      name === 'index'
        ? 'home'
        : name === '404'
          ? 'not-found'
          : OUTCOME_PAGE.test(name)
            ? 'confirmation'
            : hasForm(data)
              ? 'form'
              : hasRates(data)
                ? 'rates'
                : 'page',
  },
  service: {
    name: 'service',
    schema: schemas.service,
    twin: true,
    path: ownAddress(pagePath),
    addressField: 'slug',
    template: () => 'service',
  },
  caseStudy: {
    name: 'caseStudy',
    schema: schemas.caseStudy,
    twin: true,
    path: ownAddress(pagePath),
    addressField: 'slug',
    template: () => 'case-study',
  },
  supportClient: {
    name: 'supportClient',
    schema: schemas.supportClient,
    twin: true,
    path: ownAddress(pagePath),
    addressField: 'slug',
    template: () => 'support-client',
  },
  customerInformation: {
    name: 'customerInformation',
    schema: schemas.customerInformation,
    twin: true,
    path: pagePath,
    template: () => 'customer-information',
  },
  legalPage: {
    name: 'legalPage',
    schema: schemas.legalPage,
    twin: true,
    path: pagePath,
    template: () => 'legal',
  },
  study: {
    name: 'study',
    schema: schemas.study,
    twin: true,
    path: ownAddress(pagePath),
    addressField: 'slug',
    template: () => 'study',
  },
  supportCategory: {
    name: 'supportCategory',
    schema: schemas.supportCategory,
    twin: true,
    path: ownAddress(folderPath('/support/categories/')),
    addressField: 'slug',
    template: () => 'support-category',
  },
  jobPosting: {
    name: 'jobPosting',
    schema: schemas.jobPosting,
    twin: true,
    path: ownAddress(folderPath('/careers/')),
    addressField: 'slug',
    template: () => 'job-posting',
  },
  pressRelease: {
    name: 'pressRelease',
    schema: schemas.pressRelease,
    twin: true,
    path: ownAddress(folderPath('/press/')),
    addressField: 'slug',
    template: () => 'press-release',
  },
  blogPost: {
    name: 'blogPost',
    schema: schemas.blogPost,
    twin: false,
    // The post's own address field, never its title: a new title keeps the address.
    path: (_name, data) => `/blog/${String(data.slug ?? '')}/`,
    addressField: 'slug',
    template: () => 'blog-post',
  },
  blogCategory: {
    name: 'blogCategory',
    schema: schemas.blogCategory,
    twin: false,
    path: ownAddress(folderPath('/blog/category/')),
    addressField: 'slug',
    template: () => 'blog-category',
  },
}

/** Pages under `{language}/pages/` whose content type is not the generic page, by name. */
const PAGE_TYPES: [RegExp, CollectionName][] = [
  [/^services\/[a-z0-9-]+$/, 'service'],
  [/^case-studies\/[a-z0-9-]+$/, 'caseStudy'],
  [/^support\/(?!faq$|instant-consumer-lending$)[a-z0-9-]+$/, 'supportClient'],
  [/^customer-information\/[a-z-]+\/[a-z-]+\/[a-z-]+$/, 'customerInformation'],
  [/^(imprint|privacy-policy|terms-of-use|accessibility)$/, 'legalPage'],
  [/^studies\/[a-z0-9-]+$/, 'study'],
]

/** The field that holds an entry's address (`slug`), or undefined where the file name does. */
export const addressFieldOf = (name: CollectionName): 'slug' | undefined =>
  COLLECTIONS[name].addressField

export const ALL_COLLECTIONS: ReadonlySet<CollectionName> = new Set(
  Object.keys(COLLECTIONS) as CollectionName[],
)

export interface Located {
  collection: Collection
  /** The entry's language: its folder's, or (blog posts) its own field's. */
  language: Language | undefined
  /** The name that pairs twins across languages: the path below the language folder. */
  name: string
}

const LANGUAGE_FILE = new RegExp(
  `^(?<language>${LANGUAGES.join('|')})/(?<folder>pages|support-categories|jobs|press)/(?<name>.+)\\.(?<ext>ya?ml|md)$`,
)

/** The collection of a file, or undefined for a file the store does not know. */
export function locate(
  file: string,
  enabled: ReadonlySet<CollectionName> = ALL_COLLECTIONS,
): Located | undefined {
  const match = LANGUAGE_FILE.exec(file)
  if (match?.groups) {
    const { language = '', folder = '', name = '', ext = '' } = match.groups
    const isMarkdown = ext === 'md'
    if (folder === 'pages' && !isMarkdown) {
      const type = PAGE_TYPES.find(([pattern]) => pattern.test(name))?.[1]
      const collection = COLLECTIONS[type && enabled.has(type) ? type : 'page']
      return { collection, language: language as Language, name }
    }
    const byFolder: Record<string, [CollectionName, boolean]> = {
      'support-categories': ['supportCategory', false],
      jobs: ['jobPosting', false],
      press: ['pressRelease', true],
    }
    const found = byFolder[folder]
    if (found && found[1] === isMarkdown && /^[a-z0-9-]+$/.test(name)) {
      return { collection: COLLECTIONS[found[0]], language: language as Language, name }
    }
    return undefined
  }
  const post = /^blog\/posts\/(?<name>[a-z0-9-]+)\.md$/.exec(file)
  if (post?.groups?.name)
    return { collection: COLLECTIONS.blogPost, language: undefined, name: post.groups.name }
  const category = /^blog\/categories\/(?<name>[a-z0-9-]+)\.ya?ml$/.exec(file)
  if (category?.groups?.name) {
    return { collection: COLLECTIONS.blogCategory, language: undefined, name: category.groups.name }
  }
  return undefined
}

/** The shared data of one language: navigation, footer, interface strings, banner words. */
export const layoutFile = (language: Language) => `${language}/layout.yaml`

export const KNOWN_FILES =
  'site.yaml, blog/archive.yaml, {en,de}/layout.yaml, {en,de}/pages/**.yaml, {en,de}/support-categories/*.yaml, {en,de}/jobs/*.yaml, {en,de}/press/*.md, blog/posts/*.md, blog/categories/*.yaml, forms/lists/*.yaml, forms/surveys/*.yaml, exchange-rates/ecb.xml, exchange-rates/texts.yaml or exchange-rates/{network}.csv'
