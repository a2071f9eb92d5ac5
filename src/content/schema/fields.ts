/** Field types shared by every content type, each with a message saying what is expected. */
import { z } from 'zod'
import { PendingMarkdown, type RichText } from '../rich-text'
import type { CollectionName } from './collection-name'
import { editorMeta, hintOf } from './editor'

/** Plain text, trimmed, between 1 and `max` characters. */
export const text = (what: string, max: number) =>
  z
    .string({ error: `expected ${what} as text` })
    .trim()
    .min(1, { error: `expected ${what}, found an empty text` })
    .max(max, { error: `expected ${what} of at most ${max} characters` })
    .register(editorMeta, { hint: `${hintOf(what)}; at most ${max} characters.` })

/**
 * Markdown: validated here, rendered to sanitised HTML right after validation (see
 * `renderRichText`), so that unchanged texts come from the render cache.
 */
export const markdown = (what: string) =>
  z
    .string({ error: `expected ${what} as Markdown text` })
    .transform((source, context): RichText => {
      if (source.trim() === '') {
        context.addIssue({ code: 'custom', message: `expected ${what}, found an empty text` })
        return { html: '' }
      }
      // Typed as what templates finally receive; the loader renders it before anyone reads it.
      return new PendingMarkdown(source) as unknown as RichText
    })
    .register(editorMeta, {
      widget: 'markdown',
      hint: `${hintOf(what)}, in Markdown; words in another language as [mots]{lang=fr}, a link as [Accueil](/fr/){lang=fr}.`,
    })

/** An internal path (`/en/about/`), a document (`/documents/…`) or an absolute URL. */
export const href = z
  .string({ error: 'expected a link as text' })
  .trim()
  .regex(/^(\/|https:\/\/|mailto:|tel:)/, {
    error: 'expected a link starting with "/", "https://", "mailto:" or "tel:"',
  })

export const link = z.strictObject({ label: text('a link label', 80), href })

/** A calendar date written as YYYY-MM-DD. */
export const isoDate = (what: string) =>
  z
    .union([z.string(), z.date()], { error: `expected ${what} as a date (YYYY-MM-DD)` })
    .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value.trim()))
    .pipe(
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, {
          error: `expected ${what} as a date (YYYY-MM-DD)`,
          abort: true,
        })
        // Date.parse rolls 2026-02-30 over into March; a real date reads back as itself.
        .refine(
          (value) => {
            const time = Date.parse(value)
            return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value
          },
          { error: `expected ${what} to be a real date` },
        ),
    )
    .register(editorMeta, { widget: 'date', hint: `${hintOf(what)}.` })

/** An image of the site's own (under /images/); alt text is required for accessibility. */
export const image = z.strictObject({
  src: z
    .string({ error: 'expected the image path as text' })
    .regex(/^\/images\/[\w/-]+\.(svg|png|jpe?g|webp|avif)$/, {
      error: 'expected an image under /images/ (svg, png, jpg, webp or avif)',
    }),
  alt: z
    .string({ error: 'expected the alternative text (empty "" only for decorative images)' })
    .trim()
    .register(editorMeta, {
      hint: 'What the image shows, for people who cannot see it; written in each language. Uploads: svg, png, jpg, webp or avif, at most 5 MB (drawings 1 MB); the build makes the sizes and formats pages need.',
    }),
})
image.register(editorMeta, { widget: 'image' })

/** A slug made by the slug helper: lowercase letters, digits and single hyphens. */
export const slug = (what: string) =>
  z.string({ error: `expected ${what} as text` }).regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
    error: `expected ${what} in lowercase letters, digits and hyphens`,
  })

/**
 * A blog post's address, `/blog/{slug}/`: set once, when the post is first saved (from its
 * title, unless the editor types one), and never changed by a later title.
 */
export const postSlug = slug("the post's address (its slug)").register(editorMeta, {
  filledOnSave: true,
  hint: "The post's address: /blog/ and this. Filled from the title when the post is first saved, then kept when the title changes. Change it only to move the post: the old address then leads here. · Die Adresse des Beitrags: /blog/ und dieser Teil. Beim ersten Speichern aus dem Titel gebildet und danach behalten, auch wenn sich der Titel ändert. Nur ändern, um den Beitrag umzuziehen: Die alte Adresse führt dann hierher.",
})

/**
 * The address of a page with a twin (a service, a job posting, …): the last part of
 * `/{language}/services/{slug}/`, the same in both languages. Set once, when the page is first
 * saved; an entry without one keeps the address of its file name.
 */
export const entrySlug = slug("the page's address (its slug)")
  .register(editorMeta, {
    filledOnSave: true,
    sameInEveryLanguage: true,
    hint: "The page's address, the same in both languages: the last part of it, e.g. cards in /en/services/cards/. Filled when the page is first saved, then kept when the title changes. Change it only to move the page: the old address then leads here. · Die Adresse der Seite, in beiden Sprachen dieselbe: ihr letzter Teil, z. B. cards in /de/services/cards/. Beim ersten Speichern gesetzt und danach behalten, auch wenn sich der Titel ändert. Nur ändern, um die Seite umzuziehen: Die alte Adresse führt dann hierher.",
  })
  .optional()

/**
 * A blog category's address, `/blog/category/{slug}/`: set once, when the category is first
 * saved; a category without one keeps the address of its file name.
 */
export const categorySlug = slug("the category's address (its slug)")
  .register(editorMeta, {
    filledOnSave: true,
    hint: "The category's address: /blog/category/ and this. Filled when the category is first saved, then kept when its name changes. Change it only to move the category: the old address then leads here. · Die Adresse der Kategorie: /blog/category/ und dieser Teil. Beim ersten Speichern gesetzt und danach behalten, auch wenn sich der Name ändert. Nur ändern, um die Kategorie umzuziehen: Die alte Adresse führt dann hierher.",
  })
  .optional()

/** A site address a visitor may still have: `/en/old-name/`, `/blog/old-title/`. */
export const sitePath = z
  .string({ error: 'expected an earlier address as text, e.g. /blog/old-title/' })
  .trim()
  .regex(/^\/(?:[a-z0-9]+(?:-[a-z0-9]+)*\/)+$/, {
    error:
      'expected an address of this site in lowercase letters, digits and hyphens, between slashes, e.g. /blog/old-title/',
  })

/**
 * Earlier addresses of an entry: each answers with a permanent redirect (301) to the entry's
 * address, and links to one lead to the entry.
 */
export const redirectFrom = z
  .array(sitePath, { error: 'expected a list of earlier addresses' })
  .register(editorMeta, {
    hint: 'Earlier addresses of this page, e.g. /blog/old-title/: each leads here with a permanent redirect. Added by itself when the address changes; remove one only if nobody may still have it. · Frühere Adressen dieser Seite, z. B. /blog/alter-titel/: Jede leitet dauerhaft hierher um. Wird beim Ändern der Adresse von selbst ergänzt; nur entfernen, wenn sie niemand mehr haben kann.',
  })
  .optional()

/** The name (file name) of an entry of another content type; checked when the store loads. */
export const reference = (collection: CollectionName, what: string) =>
  slug(what).register(editorMeta, { reference: collection, hint: `${hintOf(what)}.` })
