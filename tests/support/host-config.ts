/**
 * The host configurations the build writes, read as their servers read them, for tests that
 * ask what a path is answered with, without the servers themselves:
 * - `_headers` (Netlify, Cloudflare Pages): every rule whose path matches applies; `*` stands
 *   for any characters, `:name` for one segment.
 * - the nginx server block: of the prefix locations the longest match is chosen and, unless it
 *   is `^~`, the first regex location that matches (in order) wins over it; nested locations
 *   are chosen the same way inside the chosen one. The headers are the chosen location's own
 *   `add_header` lines (nginx inherits none when a location has some).
 */

/** The header lines (`Name: value`) `_headers` gives a path: those of every matching rule. */
export function staticHostHeaders(file: string, path: string): string[] {
  const headers: string[] = []
  let matches = false
  for (const line of file.split('\n')) {
    if (line.startsWith('/')) {
      const pattern = line
        .trim()
        .split(/(\*|:[a-z]+)/)
        .map((part) =>
          part === '*'
            ? '.*'
            : part.startsWith(':')
              ? '[^/]+'
              : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')
      matches = new RegExp(`^${pattern}$`).test(path)
    } else if (matches && line.startsWith('  ')) headers.push(line.trim())
  }
  return headers
}

interface Location {
  modifier: string
  pattern: string
  /** The block's own lines, without those of nested locations. */
  lines: string[]
  children: Location[]
}

/** The `location` blocks inside the lines of a block (the server's or a location's). */
function locationsIn(lines: string[]): { own: string[]; locations: Location[] } {
  const own: string[] = []
  const locations: Location[] = []
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string
    const start = /^\s*location\s+(?:(=|~\*|~|\^~)\s+)?(\S+)\s*\{\s*$/.exec(line)
    if (!start) {
      own.push(line)
      continue
    }
    let depth = 1
    const body: string[] = []
    for (index++; index < lines.length && depth > 0; index++) {
      const inner = lines[index] as string
      depth += (inner.match(/\{/g) ?? []).length - (inner.match(/\}/g) ?? []).length
      if (depth > 0) body.push(inner)
    }
    index--
    const nested = locationsIn(body)
    locations.push({
      modifier: start[1] ?? '',
      pattern: start[2] as string,
      lines: nested.own,
      children: nested.locations,
    })
  }
  return { own, locations }
}

function chosen(locations: Location[], path: string): Location | undefined {
  const exact = locations.find(({ modifier, pattern }) => modifier === '=' && pattern === path)
  if (exact) return exact
  const prefix = locations
    .filter(
      ({ modifier, pattern }) => (modifier === '' || modifier === '^~') && path.startsWith(pattern),
    )
    .sort((a, b) => b.pattern.length - a.pattern.length)[0]
  if (prefix?.modifier === '^~') return prefix
  const regex = locations.find(
    ({ modifier, pattern }) =>
      (modifier === '~' || modifier === '~*') &&
      new RegExp(pattern, modifier === '~*' ? 'i' : '').test(path),
  )
  return regex ?? prefix
}

/** The header lines (`Name: value`) the nginx server block sends with a file at `path`. */
export function nginxHeaders(config: string, path: string): string[] {
  const server = config.slice(config.indexOf('\nserver {'))
  let { locations } = locationsIn(server.split('\n').slice(2))
  let location: Location | undefined
  for (let next = chosen(locations, path); next; next = chosen(locations, path)) {
    location = next
    locations = next.children
  }
  return (location?.lines ?? []).flatMap((line) => {
    const header = /^\s*add_header\s+(\S+)\s+"((?:[^"\\]|\\.)*)"/.exec(line)
    return header ? [`${header[1]}: ${(header[2] as string).replace(/\\(.)/g, '$1')}`] : []
  })
}
