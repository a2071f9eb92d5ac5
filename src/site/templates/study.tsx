import type { StudyEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { TextSection } from '../components/rich-text'
import { fill, formatDate } from '../format'
import type { TemplateProps } from './types'

export function StudyTemplate({ content, layout, language }: TemplateProps) {
  const study = content as unknown as StudyEntry
  const { strings } = layout
  return (
    <article className="page page--study">
      <PageHeader title={study.title} intro={study.intro}>
        <p className="meta">
          {fill(strings.publishedOn, { date: formatDate(study.published, language) })}
        </p>
      </PageHeader>
      <section className="section">
        <h2>{strings.findings}</h2>
        <ol className="findings">
          {study.findings.map((finding) => (
            <li key={finding.title}>
              <h3>{finding.title}</h3>
              <p>{finding.text}</p>
            </li>
          ))}
        </ol>
      </section>
      <TextSection heading={strings.methodology} value={study.methodology} />
      <p>
        <a className="button button--primary" href={study.download.href}>
          {study.download.label}
        </a>
      </p>
    </article>
  )
}
