/** The data model (docs/runtime.md, "The data model"), shared by build and browser runtime. */
import type { ConsentTexts, TrackingIds } from './consent'
import type { Language } from './languages'

/** One page of the site: where it lives and, for pages answering a pattern, the pattern. */
export interface RouteRecord {
  /** The page's own path, with a trailing slash: `/en/services/cards/`. */
  path: string
  /** A pattern the page answers too: `/de/*` for the German 404 page. */
  matchPath?: string
  /** The template that renders it; becomes the page data's `componentChunkName`. */
  template: TemplateName
  /** The content language of the page; undefined where the page has none (`/blog/`). */
  language: Language | undefined
}

/** What every page receives about languages (gatsby-plugin-react-i18next's context). */
export interface LanguageContext {
  language: Language
  languages: readonly Language[]
  defaultLanguage: Language
  /** Always false: the language redirect is off (docs/routes.md, "Languages"). */
  redirect: false
  /** True on pages under a language prefix. */
  routed: boolean
  /** The path without its language prefix. */
  originalPath: string
  ignoredPaths: readonly string[]
}

/** One `<link rel="alternate" hreflang>` of a page. */
export interface AlternateLink {
  hreflang: string
  href: string
}

/** A blog feed the page names for autodiscovery. */
export interface FeedLink {
  href: string
  title: string
}

/** What the document head shows for a page; written by the build, updated by the runtime. */
export interface PageHead {
  title: string
  description: string
  /** `lang` of the document. */
  lang: Language
  /** The title's language where the page's text is in another (a page for customers abroad). */
  titleLang?: string
  /**
   * The language the page's text declares (customer information, pages for customers abroad),
   * the same in its twin under the other prefix: such a page is shared in that locale alone.
   */
  textLang?: string
  /** Absolute URL of the canonical page. */
  canonical: string
  alternates: AlternateLink[]
  /** The blog feeds in the page's language (every language's on language-neutral pages). */
  feeds: FeedLink[]
  /** The web manifest of the page's language. */
  manifest: string
  /** What a shared link shows (`og:image`): the page's own image or the site's card. */
  image: { url: string; width: number; height: number; alt: string }
  /** Pages a form or an e-mail link leads to: not for search engines (`robots` noindex). */
  noindex?: true
}

/** The templates a page can name. Each is its own chunk in the browser. */
export type TemplateName =
  | 'home'
  | 'page'
  | 'confirmation'
  | 'form'
  | 'rates'
  | 'not-found'
  | 'service'
  | 'case-study'
  | 'support-category'
  | 'support-client'
  | 'customer-information'
  | 'legal'
  | 'study'
  | 'job-posting'
  | 'press-release'
  | 'blog-archive'
  | 'blog-category'
  | 'blog-post'

/**
 * Content of a page in one language: the validated entry of its content type (see
 * src/content/schema/entries.ts); every type has a title, most an introduction.
 */
export interface PageContent {
  title: string
  intro?: string
  [field: string]: unknown
}

/** One entry of a generated list: services, case studies, jobs, releases, posts. */
export interface ListingItem {
  title: string
  href: string
  summary?: string
  /** ISO date of releases, posts and job postings. */
  date?: string
  /** Language of the linked page where it may differ from the page's (blog posts, documents). */
  language?: string
  /** A short label: a post's category, a job's team, a document's country. */
  label?: string
  icon?: string
  /** Nested entries: the partners of a support category. */
  children?: ListingItem[]
}

/**
 * The blog's lists (the archive's pages and each category), which mix English and German
 * posts: this page's posts in the order each language's visitors see first, the whole list's
 * count per language, and the topics to move between. The browser shows the order or the
 * language the visitor chose (`src/site/components/blog-list/`).
 */
export interface BlogList {
  /** This page's posts with one language's first: under `de`, the German posts, then the rest. */
  postsFirst: Record<Language, ListingItem[]>
  /** Posts of each language in the whole list (every page of the archive, or the category). */
  counts: Record<Language, number>
  /** Posts per page of a paginated list. */
  perPage: number
  /** The categories, named in each interface language; the list shows "all topics" first. */
  topics: { href: string; name: Record<Language, string> }[]
}

/**
 * Pages of a paginated list (the blog archive): which this is, of how many. The list links its
 * neighbours by `blogArchivePath`, as many as the visitor's choice of language fills.
 */
export interface Pagination {
  page: number
  pages: number
}

/** The `result` of a page's data: everything its template renders. */
export interface PageResult {
  language: LanguageContext
  head: PageHead
  /** Content per language: one entry on routed pages, every language on language-neutral ones. */
  content: Partial<Record<Language, PageContent>>
  /** True on language-neutral pages, whose interface language is detected in the browser. */
  languageNeutral: boolean
  /** Entries the page lists, generated from the content store. */
  listing?: ListingItem[]
  pagination?: Pagination
  /** The blog's archive and category pages: their posts by language and the topics. */
  blog?: BlogList
  /** The breadcrumb trail per language shown: home, the pages above, the page itself. */
  breadcrumbs?: Partial<Record<Language, NavigationItem[]>>
}

/** `/page-data/{page}/page-data.json`. */
export interface PageData {
  path: string
  matchPath?: string
  componentChunkName: TemplateName
  staticQueryHashes: string[]
  result: PageResult
}

/** `/page-data/app-data.json`. */
export interface AppData {
  webpackCompilationHash: string
}

export interface NavigationItem {
  label: string
  href: string
  /** The label's language where it is not the page's (a page for customers abroad). */
  lang?: string
}

export interface FooterGroup {
  title: string
  links: NavigationItem[]
}

/** The company facts of `content/site.yaml`: imprint, footer, contact details and PDFs. */
export interface SiteSettings {
  brandName: string
  /** For home screens: 12 characters at most. */
  shortName: string
  legalEntity: string
  address: { street: string; postalCode: string; city: string; country: string }
  email: string
  phone: string
  pressEmail: string
  complaintsEmail: string
  register: { court: string; number: string }
  vatId: string
  managementBoard: string[]
  supervisoryBoardChair: string
  editorialResponsible: string
  /** The cookie banner's revision: a new one asks every visitor again. */
  consentRevision: string
  supervisors: { name: string; address: string; url: string }[]
}

/** Interface strings of one language (content/{language}/layout.yaml, under `strings`). */
export interface UiStrings {
  skipToContent: string
  primaryNavigation: string
  menu: string
  languageSwitcherLabel: string
  languageName: string
  navigatedTo: string
  footerNavigation: string
  home: string
  breadcrumbs: string
  readMore: string
  minutesToRead: string
  publishedOn: string
  updatedOn: string
  byAuthor: string
  previousPage: string
  nextPage: string
  pageOf: string
  allCategories: string
  categories: string
  frequentlyAskedQuestions: string
  /** The control under an FAQ answer that copies the link to it. */
  copyLink: string
  /** Announced once the link is copied. */
  linkCopied: string
  download: string
  applyNow: string
  location: string
  employmentType: string
  applyBy: string
  postLanguage: string
  postLanguages: string
  allLanguagesFirst: string
  onlyLanguage: string
  postsShown: string
  noMorePosts: string
  noPostsInLanguage: string
  showAllLanguages: string
  whatItIs: string
  whoItIsFor: string
  howIntegrationWorks: string
  regulatoryNotes: string
  startingPoint: string
  solution: string
  servicesUsed: string
  everydayHelp: string
  complaints: string
  contactTheBank: string
  documents: string
  findings: string
  methodology: string
  company: string
  managementBoard: string
  supervisoryBoardChair: string
  commercialRegister: string
  vatId: string
  supervisoryAuthorities: string
  editorialResponsible: string
  contact: string
}

/** The words of the site search's button and dialog. */
export interface SearchTexts {
  /** The header's button. */
  button: string
  title: string
  /** The label of the search field. */
  label: string
  placeholder: string
  close: string
  /** How the dialog works by keyboard. */
  hint: string
  loading: string
  /** `{count}` results. */
  results: string
  oneResult: string
  /** With `{query}`. */
  noResults: string
  showMore: string
  /** Searches the other language's pages. */
  otherLanguage: string
  /** Back to the pages of this language. */
  ownLanguage: string
  /** Above results in the other language. */
  otherLanguageResults: string
  error: string
  /** Offline, before the search was ever loaded. */
  offline: string
  /** Offline: only the pages this device holds are shown. */
  offlineResults: string
  retry: string
}

/** The shared data of one language: `/page-data/sq/d/{hash}.json`. */
export interface LayoutData {
  language: Language
  brandName: string
  /** Company facts (address, register, supervisors) for the imprint and contact details. */
  company: SiteSettings
  navigation: NavigationItem[]
  footer: FooterGroup[]
  /** The footer's link to the cookie settings (the consent module opens them in place). */
  cookieSettings: NavigationItem
  /** The cookie banner's words. */
  consent?: ConsentTexts
  search: SearchTexts
  legalEntity: string
  strings: UiStrings
}

/** What the build writes into each HTML page so the first load needs no page-data request. */
export interface BootData {
  buildHash: string
  /** False when the build ships the service-worker kill switch. */
  serviceWorker: boolean
  /** The trackers' identifiers of this build (each loads only with consent). */
  tracking: TrackingIds
  page: PageData
  staticQueries: Record<string, LayoutData>
}

/**
 * Files the browser fetches only when a visitor needs them (a currency's rates by day), which
 * the build has at hand while it renders: a page may draw them into its HTML for visitors
 * without script, while its page data stays small. Undefined for an unknown address.
 */
export type BuildResources = (url: string) => unknown
