import type { BlogPostEntry } from '../../content/schema/entries'
import { Link } from '../components/link'
import { PageHeader } from '../components/page-header'
import { Picture } from '../components/picture'
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
      <Picture
        className={styles.cover}
        image={post.cover}
        sizes="(min-width: 60rem) 56rem, 100vw"
        priority
      />
      <RichText value={post.body} />
    </article>
  )
}
