import type { LegalPageEntry } from '../../content/schema/entries'
import { Company } from '../components/company'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import { fill, formatDate } from '../format'
import type { TemplateProps } from './types'

/** Imprint, privacy policy, terms of use and accessibility statement. */
export function LegalTemplate({ content, result, layout, language }: TemplateProps) {
  const legal = content as unknown as LegalPageEntry
  return (
    <article>
      <PageHeader
        title={legal.title}
        intro={legal.intro}
        meta={fill(layout.strings.updatedOn, { date: formatDate(legal.updated, language) })}
      />
      {result.language.originalPath === '/imprint/' && <Company layout={layout} />}
      <RichText value={legal.body} />
    </article>
  )
}
