import type { ServiceEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { Faq, Sections } from '../components/sections'
import type { TemplateProps } from './types'

export function ServiceTemplate({ content, layout }: TemplateProps) {
  const service = content as unknown as ServiceEntry
  const { strings } = layout
  return (
    <article className="page page--service">
      <PageHeader title={service.title} intro={service.intro} />
      <TextSection heading={strings.whatItIs} value={service.whatItIs} />
      <section className="section">
        <h2>{strings.whoItIsFor}</h2>
        <ul className="checklist">
          {service.audience.map((audience) => (
            <li key={audience}>{audience}</li>
          ))}
        </ul>
      </section>
      <section className="section">
        <h2>{strings.howIntegrationWorks}</h2>
        <ol className="steps">
          {service.integration.map((step) => (
            <li key={step.title}>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <TextSection heading={strings.regulatoryNotes} value={service.regulatory} />
      <Faq heading={strings.frequentlyAskedQuestions} items={service.faq} />
      <Sections sections={service.sections} />
    </article>
  )
}
