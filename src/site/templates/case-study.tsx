import type { CaseStudyEntry } from '../../content/schema/entries'
import { Link } from '../components/link'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { Sections } from '../components/sections'
import type { TemplateProps } from './types'

export function CaseStudyTemplate({ content, layout, language }: TemplateProps) {
  const study = content as unknown as CaseStudyEntry
  const { strings } = layout
  return (
    <article className="page page--case-study">
      <PageHeader title={study.title} intro={study.intro}>
        <p className="eyebrow">{study.partner}</p>
      </PageHeader>
      <TextSection heading={strings.startingPoint} value={study.challenge} />
      <TextSection heading={strings.solution} value={study.solution} />
      <section className="section">
        <h2>{strings.servicesUsed}</h2>
        <ul>
          {study.services.map((service) => (
            <li key={service}>
              <Link href={`/${language}/services/${service}/`}>{service}</Link>
            </li>
          ))}
        </ul>
      </section>
      <Sections sections={study.sections} />
    </article>
  )
}
