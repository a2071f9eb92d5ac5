import type { RichText as RichTextValue } from '../../content/rich-text'
import { Section } from './ui'

/** HTML rendered and sanitised from Markdown at build time; never built from visitor input. */
export function RichText({ value, className }: { value: RichTextValue; className?: string }) {
  const html = { __html: value.html }
  return (
    // biome-ignore lint/security/noDangerouslySetInnerHtml: made safe at build time (src/content/markdown-render.ts)
    <div className={className ? `prose ${className}` : 'prose'} dangerouslySetInnerHTML={html} />
  )
}

/** A section of a template: a level-2 heading and its rich text. */
export function TextSection({ heading, value }: { heading: string; value: RichTextValue }) {
  return (
    <Section heading={heading}>
      <RichText value={value} />
    </Section>
  )
}
