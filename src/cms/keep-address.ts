/**
 * A blog post's address as a save leaves it: set once, from the title when the post is first
 * saved (unless the editor typed one), then kept whatever the title becomes. An editor who
 * changes the address on purpose moves the post: the address it had is added to its
 * `redirectFrom`, so every link to it leads to the post; moving it back takes that one out
 * again, so the post never redirects from its own address.
 */
import { slugify } from '../shared/slug'

type Fields = Record<string, unknown>

const blogAddress = (slug: string) => `/blog/${slug}/`

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : '')

/** The fields to write for a post saved as `sent`, over what is `stored` (null: a new post). */
export function keepPostAddress(sent: Fields, stored: Fields | null): Fields {
  const storedSlug = stored ? text(stored.slug) || slugify(text(stored.title)) : ''
  const slug = text(sent.slug) || storedSlug || slugify(text(sent.title))
  const earlier = Array.isArray(sent.redirectFrom)
    ? sent.redirectFrom.filter((item): item is string => typeof item === 'string')
    : []
  const moves = earlier.filter((address) => address !== blogAddress(slug))
  if (storedSlug && storedSlug !== slug && !moves.includes(blogAddress(storedSlug)))
    moves.push(blogAddress(storedSlug))
  // The address right after the title, as in every post file.
  const { title, slug: _slug, redirectFrom: _moves, ...rest } = sent
  return {
    ...(title === undefined ? {} : { title }),
    slug,
    ...(moves.length > 0 ? { redirectFrom: moves } : {}),
    ...rest,
  }
}
