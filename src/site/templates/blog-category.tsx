import { BlogList } from '../components/blog-list'
import { PageHeader } from '../components/page-header'
import type { TemplateProps } from './types'

/** A blog category: its posts in every language, newest first, with the other topics. */
export function BlogCategoryTemplate({ content, result, language, layout }: TemplateProps) {
  return (
    <article>
      <PageHeader
        title={content.title}
        intro={typeof content.description === 'string' ? content.description : undefined}
      />
      {result.blog && (
        <BlogList
          blog={result.blog}
          path={result.language.originalPath}
          language={language}
          strings={layout.strings}
        />
      )}
    </article>
  )
}
