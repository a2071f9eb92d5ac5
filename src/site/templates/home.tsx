import type { TemplateProps } from './types'

export function HomeTemplate({ content }: TemplateProps) {
  return (
    <article className="page page--home">
      <header className="hero">
        <h1 tabIndex={-1}>{content.title}</h1>
        <p className="lead">{content.intro}</p>
      </header>
    </article>
  )
}
