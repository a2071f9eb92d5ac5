/**
 * Rich text in the content: validation keeps a Markdown field as `PendingMarkdown`, and
 * `renderRichText` turns every one of them into sanitised HTML afterwards, through a cache of
 * earlier renderings. The renderer (markdown-it) is loaded only for texts the cache
 * does not know, so a build of unchanged texts never loads it.
 */
import { createHash } from 'node:crypto'
import { MarkdownError, PendingMarkdown, type RichText } from './rich-text'

/** A rendering: the HTML, or why the text cannot be rendered. */
export type Rendering = { html: string } | { error: string }

/** Renderings by a hash of their source. */
export interface MarkdownCache {
  get(key: string): Rendering | undefined
  set(key: string, rendering: Rendering): void
}

/** The cache of this process, for the dev server and the CMS, which load the content often. */
export const memoryCache: MarkdownCache = new Map<string, Rendering>()

export const markdownKey = (source: string) =>
  createHash('sha256').update(source).digest('base64url')

/** Renders one Markdown text through the cache; throws MarkdownError. */
export async function renderMarkdownCached(
  source: string,
  cache: MarkdownCache = memoryCache,
): Promise<RichText> {
  const key = markdownKey(source)
  let rendering = cache.get(key)
  if (!rendering) {
    rendering = await renderOne(source)
    cache.set(key, rendering)
  }
  if ('error' in rendering) throw new MarkdownError(rendering.error)
  return rendering
}

async function renderOne(source: string): Promise<Rendering> {
  const { renderMarkdown } = await import('./markdown-render')
  try {
    return renderMarkdown(source)
  } catch (error) {
    if (error instanceof MarkdownError) return { error: error.message }
    throw error
  }
}

interface Found {
  pending: PendingMarkdown
  path: string[]
  replace(value: RichText): void
}

function collect(value: unknown, path: string[], found: Found[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (item instanceof PendingMarkdown) {
        found.push({
          pending: item,
          path: [...path, String(index)],
          replace: (v) => {
            value[index] = v
          },
        })
      } else collect(item, [...path, String(index)], found)
    })
    return
  }
  if (typeof value !== 'object' || value === null) return
  const record = value as Record<string, unknown>
  for (const [key, child] of Object.entries(record)) {
    if (child instanceof PendingMarkdown) {
      found.push({
        pending: child,
        path: [...path, key],
        replace: (v) => {
          record[key] = v
        },
      })
    } else collect(child, [...path, key], found)
  }
}

/**
 * Replaces every PendingMarkdown in `value` (in place) by its rendered RichText; a text that
 * cannot be rendered becomes empty and is reported with its field path.
 */
export async function renderRichText(
  value: unknown,
  onError: (path: string[], message: string) => void,
  cache: MarkdownCache = memoryCache,
): Promise<void> {
  const found: Found[] = []
  collect(value, [], found)
  for (const { pending, path, replace } of found) {
    try {
      replace(await renderMarkdownCached(pending.source, cache))
    } catch (error) {
      if (!(error instanceof MarkdownError)) throw error
      onError(path, error.message)
      replace({ html: '' })
    }
  }
}

/** The `href`s in rendered rich text, for link validation. */
export function linksIn(rich: RichText): string[] {
  return [...rich.html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) =>
    (match[1] ?? '').replace(/&amp;/g, '&'),
  )
}
