import type { CaseStudyEntry } from '../../content/schema/entries'
import { Link } from '../components/link'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { Sections } from '../components/sections'
import { Section } from '../components/ui'
import type { TemplateProps } from './types'

export function CaseStudyTemplate({ result, content, layout }: TemplateProps) {
  const study = content as unknown as CaseStudyEntry
  const { strings } = layout
  return (
    <article>
      <PageHeader title={study.title} intro={study.intro} eyebrow={study.partner} />
      <TextSection heading={strings.startingPoint} value={study.challenge} />
      <TextSection heading={strings.solution} value={study.solution} />
      <Section heading={strings.servicesUsed}>
        <ul>
          {/* Each service at its address, which the build looks up (it need not be its name). */}
          {(result.listing ?? []).map((service) => (
            <li key={service.href}>
              <Link href={service.href}>{service.title}</Link>
            </li>
          ))}
        </ul>
      </Section>
      <Sections sections={study.sections} />
    </article>
  )
}
