/**
 * The Markdown renderer: editors' Markdown becomes sanitised HTML at build time only; no
 * Markdown parser ships to the browser. Headings start at h2 (the page title is the only h1),
 * heading ids are derived with the slug helper for deep links, and links to other sites open
 * in a new tab without opener. Loaded only when a text is not in the render cache
 * (`./markdown.ts`).
 */
import type { Element, Root } from 'hast'
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize'
import rehypeStringify from 'rehype-stringify'
import remarkGfm from 'remark-gfm'
import remarkParse from 'remark-parse'
import remarkRehype from 'remark-rehype'
import { unified } from 'unified'
import { visit } from 'unist-util-visit'
import { classifyLink, linkAttributes } from '../shared/links'
import { slugify } from '../shared/slug'
import { MarkdownError, type RichText } from './rich-text'

const RENDER_BASE = 'https://site.invalid/'

/**
 * GitHub's sanitising schema without ids clobbering (we add our own ids after sanitising), and
 * with `tel:` links: support and legal texts give phone numbers visitors should be able to call.
 */
const schema = {
  ...defaultSchema,
  clobberPrefix: '',
  protocols: {
    ...defaultSchema.protocols,
    href: [...(defaultSchema.protocols?.href ?? []), 'tel'],
  },
}

function text(node: Element): string {
  let result = ''
  visit(node, 'text', (child: { value: string }) => {
    result += child.value
  })
  return result
}

/** Trusted attributes, added after sanitising: heading ids and safe external links. */
function finish() {
  return (tree: Root) => {
    const used = new Map<string, number>()
    visit(tree, 'element', (node: Element) => {
      if (/^h[2-4]$/.test(node.tagName)) {
        const base = slugify(text(node)) || 'section'
        const count = used.get(base) ?? 0
        used.set(base, count + 1)
        node.properties.id = count === 0 ? base : `${base}-${count + 1}`
      }
      if (node.tagName === 'a' && typeof node.properties.href === 'string') {
        Object.assign(
          node.properties,
          linkAttributes(classifyLink(node.properties.href, RENDER_BASE)),
        )
      }
    })
  }
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, schema)
  .use(finish)
  .use(rehypeStringify)

/** Markdown to sanitised HTML; throws MarkdownError for a level-1 heading. */
export function renderMarkdown(source: string): RichText {
  const tree = processor.runSync(processor.parse(source)) as Root
  let h1 = false
  visit(tree, 'element', (node: Element) => {
    if (node.tagName === 'h1') h1 = true
  })
  if (h1)
    throw new MarkdownError(
      'expected headings from "##" down; the page title is the only level-1 heading',
    )
  return { html: processor.stringify(tree) }
}
