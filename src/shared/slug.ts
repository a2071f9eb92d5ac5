/**
 * The slug helper (docs/routes.md, "Slugs"): lowercase; transliterate accented characters; spaces
 * become hyphens; `&` becomes `-and-`; other non-word characters are dropped; repeated
 * hyphens collapse; leading and trailing hyphens are trimmed.
 */

/** Letters that Unicode decomposition does not reduce to ASCII on its own. */
const TRANSLITERATIONS: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  å: 'a',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
}

export function slugify(input: string): string {
  const lower = input.toLowerCase()
  let transliterated = ''
  for (const char of lower) transliterated += TRANSLITERATIONS[char] ?? char
  return transliterated
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, '-and-')
    .replace(/\s+/g, '-')
    .replace(/[^\w-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
}

/**
 * The slugs of several texts, each unique among them: a repeated one gets `-2`, `-3`… (the FAQ
 * questions of a page, which become the ids a link can point at).
 */
export function uniqueSlugs(texts: readonly string[]): string[] {
  const seen = new Map<string, number>()
  return texts.map((text) => {
    const slug = slugify(text) || 'item'
    const count = (seen.get(slug) ?? 0) + 1
    seen.set(slug, count)
    return count === 1 ? slug : `${slug}-${count}`
  })
}
