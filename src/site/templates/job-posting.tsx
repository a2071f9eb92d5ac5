import type { JobPostingEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
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
    <article className="page page--job">
      <PageHeader title={job.title} intro={job.intro}>
        <p className="eyebrow">{job.team}</p>
      </PageHeader>
      <dl className="facts">
        <dt>{strings.location}</dt>
        <dd>{job.location.city}</dd>
        <dt>{strings.employmentType}</dt>
        <dd>{EMPLOYMENT[language]?.[job.employmentType] ?? job.employmentType}</dd>
      </dl>
      <RichText value={job.body} />
      <p>
        <a
          className="button button--primary"
          href={`mailto:${job.applyEmail}?subject=${encodeURIComponent(job.title)}`}
        >
          {strings.applyNow}
        </a>
      </p>
      <p className="meta">
        {fill(strings.applyBy, { date: formatDate(job.validThrough, language) })}
      </p>
    </article>
  )
}
