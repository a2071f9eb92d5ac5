/**
 * Which posts a blog list shows for the visitor's choice of language: every language with the
 * interface's first (the default), or one language's posts only. Pure, so the browser and the
 * tests agree on it.
 */
import type { Language } from '../../../shared/languages'
import type { BlogList, ListingItem, Pagination } from '../../../shared/types'

/** Every language (the interface's first), or one language only. */
export type PostLanguageChoice = 'all' | Language

export interface ShownPosts {
  items: ListingItem[]
  /** Posts the whole list holds for this choice: the announced count. */
  total: number
  /** Pages the archive has for this choice (1 on a category). */
  pages: number
}

export function shownPosts(
  blog: BlogList,
  choice: PostLanguageChoice,
  language: Language,
  pagination: Pagination | undefined,
): ShownPosts {
  const first = choice === 'all' ? language : choice
  const items = blog.postsFirst[first].filter(
    (item) => choice === 'all' || item.language === choice,
  )
  const total =
    choice === 'all'
      ? Object.values(blog.counts).reduce((sum, count) => sum + count, 0)
      : blog.counts[choice]
  const pages = pagination ? Math.max(1, Math.ceil(total / blog.perPage)) : 1
  return { items, total, pages }
}
