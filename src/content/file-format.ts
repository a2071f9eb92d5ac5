/** How the content store writes a document (the CMS saves through it). */
import { stringify } from 'yaml'

/**
 * A document as the store writes it: YAML, or for Markdown files YAML front matter and the
 * `body` below it. Long lines stay whole, so a change shows as a change of one line.
 */
export function formatContentFile(file: string, data: Record<string, unknown>): string {
  const yaml = (value: unknown) => stringify(value, { lineWidth: 0 })
  if (!file.endsWith('.md')) return yaml(data)
  const { body = '', ...front } = data
  return `---\n${yaml(front)}---\n${String(body)
    .replace(/^\s*\n/, '')
    .trimEnd()}\n`
}
