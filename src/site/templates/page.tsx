import type { TemplateProps } from './types'

export function PageTemplate({ content }: TemplateProps) {
  return (
    <article className="page">
      <h1 tabIndex={-1}>{content.title}</h1>
      <p className="lead">{content.intro}</p>
    </article>
  )
}
