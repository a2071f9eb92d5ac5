import type { PageEntry } from '../../content/schema/entries'
import { langWhereDifferent } from '../../shared/languages'
import { Listing } from '../components/listing'
import { PageHeader } from '../components/page-header'
import { Sections } from '../components/sections'
import type { TemplateProps } from './types'

/** A page built from sections; list pages (services, careers, press…) show their entries first. */
export function PageTemplate({ content, result, language }: TemplateProps) {
  const page = content as unknown as PageEntry
  return (
    <article lang={langWhereDifferent(page.contentLanguage, language)}>
      <PageHeader title={page.title} intro={page.intro} />
      <Listing items={result.listing} language={language} />
      <Sections sections={page.sections} />
    </article>
  )
}
