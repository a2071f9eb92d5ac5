import type { PageEntry } from '../../content/schema/entries'
import { Actions, Sections } from '../components/sections'
import type { TemplateProps } from './types'

/** The home page: its first hero section stands in for the page header. */
export function HomeTemplate({ content }: TemplateProps) {
  const page = content as unknown as PageEntry
  const [first, ...rest] = page.sections
  const hero = first?.type === 'hero' ? first : undefined
  return (
    <article className="page page--home">
      <header className="hero">
        <h1 tabIndex={-1}>{hero?.heading ?? page.title}</h1>
        <p className="lead">{hero?.text ?? page.intro}</p>
        {hero?.actions && <Actions actions={hero.actions} />}
      </header>
      <Sections sections={hero ? rest : page.sections} />
    </article>
  )
}
