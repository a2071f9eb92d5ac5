/**
 * What an editing interface needs to know about a field beyond its type: which editor to show,
 * which other content type a field names, and a hint. The schemas register it; the CMS
 * configuration is generated from the schemas, so it cannot drift from the content model.
 */
import { z } from 'zod'
import type { CollectionName } from './collection-name'

export interface EditorMeta {
  /** Markdown text, a calendar date, or an image of the site's own. */
  widget?: 'markdown' | 'date' | 'image'
  /** The field holds the name (file name) of an entry of this content type. */
  reference?: CollectionName
  /** Shown under the field: what belongs in it. */
  hint?: string
  /**
   * Required in the store, but the editor may leave it empty: the editor's backend fills it
   * when it saves (a post's address, from its title when the post is created).
   */
  filledOnSave?: boolean
  /** One value for both languages of a twin (a page's address): set once, copied to the other. */
  sameInEveryLanguage?: boolean
}

export const editorMeta = z.registry<EditorMeta>()

/** "the page title" → "The page title". */
export const hintOf = (what: string) => what.charAt(0).toUpperCase() + what.slice(1)
