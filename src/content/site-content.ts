/** The validated site content: what loading the store gives the build, entry by entry. */
import type { z } from 'zod'
import type { Language } from '../shared/languages'
import type { Redirect } from '../shared/redirects'
import type { SiteSettings, TemplateName } from '../shared/types'
import type { FormsContent } from './forms'
import type { RatesContent } from './rates'
import type { CollectionName } from './schema/collection-name'
import type { blogArchive, LayoutContent } from './schema/entries'

type ArchiveFields = z.output<typeof blogArchive>

/** One validated entry with where it lives. */
export interface ContentEntry {
  collection: CollectionName
  file: string
  /** Pairs twins: the path below the language folder (`services/cards`). */
  name: string
  /** Folder language, or a blog post's own; undefined for language-neutral entries. */
  language: Language | undefined
  /** The path without language prefix: `/services/cards/`, `/blog/my-post/`. */
  originalPath: string
  /** True when the page lives under `/{language}/`. */
  routed: boolean
  template: TemplateName
  data: { title?: string; description?: string; [field: string]: unknown }
}

/** A move the store records, with where it is written down (for the build's own checks). */
export interface RecordedRedirect extends Redirect {
  file: string
  field: string
}

export interface SiteContent {
  settings: SiteSettings
  layouts: Record<Language, LayoutContent>
  blogArchive: ArchiveFields
  /** Mailing lists and surveys (`forms/`), language-neutral. */
  forms: FormsContent
  /** The ECB's and the card networks' exchange rates (`exchange-rates/`). */
  rates: RatesContent
  entries: ContentEntry[]
  /** The moves the entries record (`redirectFrom`), from each earlier address to the entry's. */
  redirects: RecordedRedirect[]
}
