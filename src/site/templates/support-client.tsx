import type { SupportClientEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import { Faq } from '../components/sections'
import type { TemplateProps } from './types'

export function SupportClientTemplate({ content, layout }: TemplateProps) {
  const client = content as unknown as SupportClientEntry
  const { strings } = layout
  return (
    <article className="page page--support-client">
      <PageHeader title={client.title} intro={client.intro}>
        <p className="eyebrow">{client.partner}</p>
      </PageHeader>
      <p>{client.products}</p>
      <section className="section">
        <h2>{strings.everydayHelp}</h2>
        <RichText value={client.everydayHelp} />
      </section>
      <section className="section">
        <h2>{strings.complaints}</h2>
        <RichText value={client.complaints} />
      </section>
      <section className="section">
        <h2>{strings.contactTheBank}</h2>
        <RichText value={client.contactBank} />
      </section>
      {client.faq && <Faq heading={strings.frequentlyAskedQuestions} items={client.faq} />}
    </article>
  )
}
