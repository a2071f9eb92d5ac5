import type { ServiceEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { Faq, Sections } from '../components/sections'
import { Checklist, Section, Steps } from '../components/ui'
import type { TemplateProps } from './types'

export function ServiceTemplate({ content, layout }: TemplateProps) {
  const service = content as unknown as ServiceEntry
  const { strings } = layout
  return (
    <article>
      <PageHeader title={service.title} intro={service.intro} />
      <TextSection heading={strings.whatItIs} value={service.whatItIs} />
      <Section heading={strings.whoItIsFor}>
        <Checklist items={service.audience} />
      </Section>
      <Section heading={strings.howIntegrationWorks}>
        <Steps items={service.integration} />
      </Section>
      <TextSection heading={strings.regulatoryNotes} value={service.regulatory} />
      <Faq heading={strings.frequentlyAskedQuestions} items={service.faq} />
      <Sections sections={service.sections} />
    </article>
  )
}
