import type { RichText as RichTextValue } from '../../content/markdown'

/** HTML rendered and sanitised from Markdown at build time; never built from visitor input. */
export function RichText({ value, className }: { value: RichTextValue; className?: string }) {
  const html = { __html: value.html }
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by rehype-sanitize at build time (src/content/markdown.ts)
    <div className={className ? `prose ${className}` : 'prose'} dangerouslySetInnerHTML={html} />
  )
}
