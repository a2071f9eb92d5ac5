import type { TemplateProps } from './types'

export function BlogArchiveTemplate({ content }: TemplateProps) {
  return (
    <article className="page page--blog">
      <h1 tabIndex={-1}>{content.title}</h1>
      <p className="lead">{content.intro}</p>
    </article>
  )
}
