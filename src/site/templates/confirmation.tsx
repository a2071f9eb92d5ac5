import type { PageEntry } from '../../content/schema/entries'
import { PageHeader } from '../components/page-header'
import { Sections } from '../components/sections'
import styles from './confirmation.module.css'
import type { TemplateProps } from './types'

/**
 * Where a form leads once it is sent (`newsletter-success`, `survey-success`, …): a clear
 * confirmation first, then what happens next.
 */
export function ConfirmationTemplate({ content }: TemplateProps) {
  const page = content as unknown as PageEntry
  return (
    <article className={styles.confirmation}>
      <svg className={styles.badge} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
        <circle cx="24" cy="24" r="24" fill="var(--color-accent-soft)" />
        <path
          d="M14 24.5l6.5 6.5L34 17.5"
          fill="none"
          stroke="var(--color-accent)"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <PageHeader title={page.title} intro={page.intro} />
      <Sections sections={page.sections} />
    </article>
  )
}
