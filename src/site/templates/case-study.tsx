import type { CaseStudyEntry } from '../../content/schema/entries'
import { Link } from '../components/link'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { Sections } from '../components/sections'
import { Section } from '../components/ui'
import type { TemplateProps } from './types'

export function CaseStudyTemplate({ content, layout, language }: TemplateProps) {
  const study = content as unknown as CaseStudyEntry
  const { strings } = layout
  return (
    <article>
      <PageHeader title={study.title} intro={study.intro} eyebrow={study.partner} />
      <TextSection heading={strings.startingPoint} value={study.challenge} />
      <TextSection heading={strings.solution} value={study.solution} />
      <Section heading={strings.servicesUsed}>
        <ul>
          {study.services.map((service) => (
            <li key={service}>
              <Link href={`/${language}/services/${service}/`}>{service}</Link>
            </li>
          ))}
        </ul>
      </Section>
      <Sections sections={study.sections} />
    </article>
  )
}
