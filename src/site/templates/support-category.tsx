import type { SupportCategoryEntry } from '../../content/schema/entries'
import { Listing } from '../components/listing'
import { PageHeader } from '../components/page-header'
import type { TemplateProps } from './types'

export function SupportCategoryTemplate({ content, result, language }: TemplateProps) {
  const category = content as unknown as SupportCategoryEntry
  return (
    <article>
      <PageHeader title={category.title} intro={category.intro} />
      <Listing items={result.listing} language={language} />
    </article>
  )
}
