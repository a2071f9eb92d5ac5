import type { PressReleaseEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import { fill, formatDate } from '../format'
import type { TemplateProps } from './types'

export function PressReleaseTemplate({ content, layout, language }: TemplateProps) {
  const release = content as unknown as PressReleaseEntry
  return (
    <article>
      <PageHeader
        title={release.title}
        meta={fill(layout.strings.publishedOn, { date: formatDate(release.date, language) })}
      />
      <RichText value={release.body} />
    </article>
  )
}
