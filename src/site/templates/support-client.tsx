import type { SupportClientEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { Faq } from '../components/sections'
import type { TemplateProps } from './types'

export function SupportClientTemplate({ content, layout }: TemplateProps) {
  const client = content as unknown as SupportClientEntry
  const { strings } = layout
  return (
    <article>
      <PageHeader title={client.title} intro={client.intro} eyebrow={client.partner}>
        <p>{client.products}</p>
      </PageHeader>
      <TextSection heading={strings.everydayHelp} value={client.everydayHelp} />
      <TextSection heading={strings.complaints} value={client.complaints} />
      <TextSection heading={strings.contactTheBank} value={client.contactBank} />
      {client.faq && <Faq heading={strings.frequentlyAskedQuestions} items={client.faq} />}
    </article>
  )
}
