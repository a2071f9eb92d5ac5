import type { CustomerInformationEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import { DownloadList, Section } from '../components/ui'
import type { TemplateProps } from './types'

/** Customer information in the contract's language, with its documents as PDF downloads. */
export function CustomerInformationTemplate({ content, result, layout }: TemplateProps) {
  const info = content as unknown as CustomerInformationEntry
  return (
    <article lang={info.contractLanguage}>
      <PageHeader title={info.title} intro={info.intro} />
      {info.sections.map((section) => (
        <Section key={section.heading} heading={section.heading}>
          <RichText value={section.body} />
        </Section>
      ))}
      <Section heading={<span lang={layout.language}>{layout.strings.documents}</span>}>
        <DownloadList
          items={(result.listing ?? []).map((document) => ({
            href: document.href,
            label: document.title,
            description: document.summary,
            format: 'PDF',
            language: info.contractLanguage,
          }))}
        />
      </Section>
    </article>
  )
}
