import type { ServiceEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import { Faq, Sections } from '../components/sections'
import type { TemplateProps } from './types'

export function ServiceTemplate({ content, layout }: TemplateProps) {
  const service = content as unknown as ServiceEntry
  const { strings } = layout
  return (
    <article className="page page--service">
      <PageHeader title={service.title} intro={service.intro} />
      <section className="section">
        <h2>{strings.whatItIs}</h2>
        <RichText value={service.whatItIs} />
      </section>
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
      <section className="section">
        <h2>{strings.regulatoryNotes}</h2>
        <RichText value={service.regulatory} />
      </section>
      <Faq heading={strings.frequentlyAskedQuestions} items={service.faq} />
      <Sections sections={service.sections} />
    </article>
  )
}
