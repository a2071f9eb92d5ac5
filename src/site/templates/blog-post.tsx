import type { BlogPostEntry } from '../../content/schema/entries'
import { Link } from '../components/link'
import { PageHeader } from '../components/page-header'
import { RichText } from '../components/rich-text'
import { fill, formatDate } from '../format'
import styles from './blog.module.css'
import type { TemplateProps } from './types'

export function BlogPostTemplate({ content, layout, language }: TemplateProps) {
  const post = content as unknown as BlogPostEntry
  const { strings } = layout
  return (
    <article>
      <PageHeader
        title={post.title}
        eyebrow={
          post.categoryName ? <Link href={post.categoryHref}>{post.categoryName}</Link> : undefined
        }
        meta={
          <>
            <time dateTime={post.date}>{formatDate(post.date, language)}</time>
            {' · '}
            {fill(strings.byAuthor, { author: post.author })}
            {' · '}
            {fill(strings.minutesToRead, { minutes: post.readingMinutes })}
          </>
        }
      />
      <img
        className={styles.cover}
        src={post.cover.src}
        alt={post.cover.alt}
        width="1200"
        height="630"
      />
      <RichText value={post.body} />
    </article>
  )
}
