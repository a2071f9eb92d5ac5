/**
 * A page as the build carries it from the route table to the page data. Its own module: the
 * route table fills in listings and breadcrumbs with helpers that take pages themselves.
 */
import type { Language } from '../shared/languages'
import type {
  BlogList,
  ListingItem,
  NavigationItem,
  PageContent,
  Pagination,
  RouteRecord,
} from '../shared/types'

/** A breadcrumb trail per language: home, the pages above, the page itself. */
export type BreadcrumbTrails = Partial<Record<Language, NavigationItem[]>>

export interface BuildPage {
  route: RouteRecord
  /** The path without its language prefix. */
  originalPath: string
  /** Language of the page's interface at build time. */
  language: Language
  routed: boolean
  languageNeutral: boolean
  /** Where search engines should look: `/` points at `/en/`. */
  canonicalPath: string
  content: Partial<Record<Language, PageContent & { description: string }>>
  listing?: ListingItem[]
  pagination?: Pagination
  blog?: BlogList
  /** Home, the pages above and the page itself, per language the page shows. */
  breadcrumbs?: BreadcrumbTrails
}
