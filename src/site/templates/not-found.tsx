import { Link } from '../components/link'
import type { TemplateProps } from './types'

export function NotFoundTemplate({ content, language, layout }: TemplateProps) {
  return (
    <article className="page page--not-found">
      <h1 tabIndex={-1}>{content.title}</h1>
      <p className="lead">{content.intro}</p>
      <p>
        <Link href={`/${language}/`}>{layout.strings.home}</Link>
      </p>
    </article>
  )
}
