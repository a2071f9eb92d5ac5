import type { StudyEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { Actions, ButtonLink, Section, Steps } from '../components/ui'
import { fill, formatDate } from '../format'
import type { TemplateProps } from './types'

export function StudyTemplate({ content, layout, language }: TemplateProps) {
  const study = content as unknown as StudyEntry
  const { strings } = layout
  return (
    <article>
      <PageHeader
        title={study.title}
        intro={study.intro}
        meta={fill(strings.publishedOn, { date: formatDate(study.published, language) })}
      />
      <Section heading={strings.findings}>
        <Steps items={study.findings} />
      </Section>
      <TextSection heading={strings.methodology} value={study.methodology} />
      <Actions>
        <ButtonLink href={study.download.href}>{study.download.label}</ButtonLink>
      </Actions>
    </article>
  )
}
