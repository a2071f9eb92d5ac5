import type { JobPostingEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import { Actions, ButtonLink, Facts, Meta } from '../components/ui'
import { fill, formatDate } from '../format'
import type { TemplateProps } from './types'

const EMPLOYMENT: Record<string, Record<string, string>> = {
  en: {
    FULL_TIME: 'Full time',
    PART_TIME: 'Part time',
    CONTRACTOR: 'Contract',
    TEMPORARY: 'Temporary',
    INTERN: 'Internship',
  },
  de: {
    FULL_TIME: 'Vollzeit',
    PART_TIME: 'Teilzeit',
    CONTRACTOR: 'Freie Mitarbeit',
    TEMPORARY: 'Befristet',
    INTERN: 'Praktikum',
  },
}

export function JobPostingTemplate({ content, layout, language }: TemplateProps) {
  const job = content as unknown as JobPostingEntry
  const { strings } = layout
  return (
    <article>
      <PageHeader title={job.title} intro={job.intro} eyebrow={job.team} />
      <Facts
        items={[
          { label: strings.location, value: job.location.city },
          {
            label: strings.employmentType,
            value: EMPLOYMENT[language]?.[job.employmentType] ?? job.employmentType,
          },
        ]}
      />
      <RichText value={job.body} />
      <Actions>
        <ButtonLink href={`mailto:${job.applyEmail}?subject=${encodeURIComponent(job.title)}`}>
          {strings.applyNow}
        </ButtonLink>
      </Actions>
      <Meta>{fill(strings.applyBy, { date: formatDate(job.validThrough, language) })}</Meta>
    </article>
  )
}
