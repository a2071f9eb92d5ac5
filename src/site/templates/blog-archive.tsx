import { BlogList } from '../components/blog-list'
import { PageHeader } from '../components/page-header'
import type { TemplateProps } from './types'

/** The blog archive: posts of every language, newest first, paginated, with the topics. */
export function BlogArchiveTemplate({ content, result, language, layout }: TemplateProps) {
  return (
    <article>
      <PageHeader title={content.title} intro={content.intro} />
      {result.blog && (
        <BlogList
          blog={result.blog}
          pagination={result.pagination}
          path={result.language.originalPath}
          language={language}
          strings={layout.strings}
        />
      )}
    </article>
  )
}
