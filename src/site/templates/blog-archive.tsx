import { Link } from '../components/link'
import { Listing } from '../components/listing'
import { PageHeader } from '../components/page-header'
import { fill } from '../format'
import styles from './blog.module.css'
import type { TemplateProps } from './types'

/** The blog archive: posts of every language, newest first, paginated. */
export function BlogArchiveTemplate({ content, result, language, layout }: TemplateProps) {
  const { pagination } = result
  const { strings } = layout
  return (
    <article>
      <PageHeader title={content.title} intro={content.intro} />
      <Listing items={result.listing} language={language} />
      {pagination && pagination.pages > 1 && (
        <nav
          className={styles.pagination}
          aria-label={fill(strings.pageOf, { page: pagination.page, pages: pagination.pages })}
        >
          {pagination.previous && (
            <Link className={styles.pageLink} href={pagination.previous} rel="prev">
              {strings.previousPage}
            </Link>
          )}
          <span className={styles.pageOf}>
            {fill(strings.pageOf, { page: pagination.page, pages: pagination.pages })}
          </span>
          {pagination.next && (
            <Link className={styles.pageLink} href={pagination.next} rel="next">
              {strings.nextPage}
            </Link>
          )}
        </nav>
      )}
    </article>
  )
}
