import type { CustomerInformationEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import type { TemplateProps } from './types'

/** Customer information in the contract's language, with its documents as PDF downloads. */
export function CustomerInformationTemplate({ content, result, layout }: TemplateProps) {
  const info = content as unknown as CustomerInformationEntry
  return (
    <article className="page page--customer-information" lang={info.contractLanguage}>
      <PageHeader title={info.title} intro={info.intro} />
      {info.sections.map((section) => (
        <section key={section.heading} className="section">
          <h2>{section.heading}</h2>
          <RichText value={section.body} />
        </section>
      ))}
      <section className="section">
        <h2 lang={layout.language}>{layout.strings.documents}</h2>
        <ul className="downloads">
          {(result.listing ?? []).map((document) => (
            <li key={document.href}>
              <a href={document.href}>{document.title} (PDF)</a>
              {document.summary && <p>{document.summary}</p>}
            </li>
          ))}
        </ul>
      </section>
    </article>
  )
}
