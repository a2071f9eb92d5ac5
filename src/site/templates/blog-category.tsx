import { Link } from '../components/link'
import { Listing } from '../components/listing'
import { PageHeader } from '../components/page-header'
import type { TemplateProps } from './types'

/** A blog category: its posts in every language, newest first. */
export function BlogCategoryTemplate({ content, result, language, layout }: TemplateProps) {
  return (
    <article>
      <PageHeader
        title={content.title}
        intro={typeof content.description === 'string' ? content.description : undefined}
        eyebrow={<Link href="/blog/">{layout.strings.allCategories}</Link>}
      />
      <Listing items={result.listing} language={language} />
    </article>
  )
}
