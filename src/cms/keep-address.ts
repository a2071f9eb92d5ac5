/**
 * A page's address as a save leaves it: set once, when the entry is first saved (unless the
 * editor typed one: a post's from its title, a page's from its file name, which the editor made
 * from the title), then kept whatever the title becomes. An entry stored without an address
 * keeps the one it has (a page's file name's). An editor who changes the address on purpose
 * moves the page: the address it had is added to its `redirectFrom`, so every link to it leads
 * to the page; moving it back takes that one out again, so the page never redirects from its
 * own address.
 */
import { addressFieldOf, locate } from '../content/collections'
import { slugify } from '../shared/slug'

type Fields = Record<string, unknown>

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : '')

/** Where an entry's address comes from: the store file it is saved to. */
export interface AddressPlace {
  /** The page's address for a slug: `/blog/{slug}/`, `/en/services/{slug}/`. */
  addressOf(slug: string): string
  /** The slug of an entry without one: a post's title's, a page's file name's. */
  fallback(fields: Fields): string
}

/** The place of a post: `/blog/{slug}/`, from its title. */
const POST: AddressPlace = {
  addressOf: (slug) => `/blog/${slug}/`,
  fallback: (fields) => slugify(text(fields.title)),
}

/** The place of a store file whose content type keeps its address in a field; else undefined. */
export function addressPlaceOf(file: string): AddressPlace | undefined {
  const located = locate(file)
  if (!located || !addressFieldOf(located.collection.name)) return undefined
  if (located.collection.name === 'blogPost') return POST
  const { collection, language, name } = located
  return {
    addressOf: (slug) => `${language ? `/${language}` : ''}${collection.path(name, { slug })}`,
    fallback: () => name.split('/').at(-1) ?? name,
  }
}

/** The fields to write for an entry saved as `sent`, over what is `stored` (null: a new one). */
export function keepAddress(sent: Fields, stored: Fields | null, place: AddressPlace): Fields {
  const storedSlug = stored ? text(stored.slug) || place.fallback(stored) : ''
  const slug = text(sent.slug) || storedSlug || place.fallback(sent)
  const earlier = Array.isArray(sent.redirectFrom)
    ? sent.redirectFrom.filter((item): item is string => typeof item === 'string')
    : []
  const moves = earlier.filter((address) => address !== place.addressOf(slug))
  if (storedSlug && storedSlug !== slug && !moves.includes(place.addressOf(storedSlug)))
    moves.push(place.addressOf(storedSlug))
  // The address right after the title, as in every file of the store.
  const { title, slug: _slug, redirectFrom: _moves, ...rest } = sent
  return {
    ...(title === undefined ? {} : { title }),
    slug,
    ...(moves.length > 0 ? { redirectFrom: moves } : {}),
    ...rest,
  }
}

/** A blog post's fields as a save leaves them (see `keepAddress`). */
export const keepPostAddress = (sent: Fields, stored: Fields | null): Fields =>
  keepAddress(sent, stored, POST)
