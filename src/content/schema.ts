/** zod schemas of the content types the engine reads. Later content types extend this module. */
import { z } from 'zod'

const text = (what: string, max: number) =>
  z
    .string({ error: `expected ${what} as text` })
    .trim()
    .min(1, { error: `expected ${what}, found an empty text` })
    .max(max, { error: `expected ${what} of at most ${max} characters` })

/** An internal path (`/en/about/`) or an absolute URL (`https://…`, `mailto:…`). */
const href = z
  .string({ error: 'expected a link as text' })
  .regex(/^(\/|https?:\/\/|mailto:|tel:)/, {
    error: 'expected a link starting with "/", "https://", "mailto:" or "tel:"',
  })

export const siteSettingsSchema = z.strictObject({
  brandName: text('the brand name', 60),
  shortName: text('the short name (12 characters at most, for home screens)', 12),
  legalEntity: text('the legal entity', 120),
})
export type SiteSettings = z.infer<typeof siteSettingsSchema>

const navigationItemSchema = z.strictObject({ label: text('a link label', 60), href })

export const uiStringsSchema = z.strictObject({
  skipToContent: text('the skip-link text', 60),
  primaryNavigation: text('the label of the primary navigation', 60),
  languageSwitcherLabel: text('the label of the language switcher', 60),
  languageName: text('the language name in itself', 30),
  navigatedTo: text('the prefix of the navigation announcement', 60),
  footerNavigation: text('the label of the footer navigation', 60),
  home: text('the label of the home link', 60),
})

export const layoutSchema = z.strictObject({
  navigation: z.array(navigationItemSchema).min(1, { error: 'expected at least one link' }),
  footer: z.array(
    z.strictObject({
      title: text('a group title', 60),
      links: z.array(navigationItemSchema).min(1, { error: 'expected at least one link' }),
    }),
  ),
  strings: uiStringsSchema,
})
export type LayoutContent = z.infer<typeof layoutSchema>

export const TEMPLATE_NAMES = ['home', 'page', 'not-found', 'blog-archive'] as const

export const pageFieldsSchema = z.strictObject({
  title: text('the page title', 120),
  description: text('the meta description', 300),
  intro: text('the introduction', 2000),
})
export type PageFields = z.infer<typeof pageFieldsSchema>

export const pageSchema = pageFieldsSchema.extend({
  template: z.enum(['home', 'page'], { error: 'expected template "home" or "page"' }).optional(),
})

/** The blog archive has no language of its own, so it carries every language's text. */
export const blogArchiveSchema = z.strictObject({ en: pageFieldsSchema, de: pageFieldsSchema })
