import type { PageEntry } from '../../content/schema/entries'
import { Link } from '../components/link'
import { PageHeader } from '../components/page-header'
import { Sections } from '../components/sections'
import type { TemplateProps } from './types'

export function NotFoundTemplate({ content, language, layout }: TemplateProps) {
  const page = content as unknown as PageEntry
  return (
    <article>
      <PageHeader title={page.title} intro={page.intro} />
      {page.sections.length === 0 && (
        <p>
          <Link href={`/${language}/`}>{layout.strings.home}</Link>
        </p>
      )}
      <Sections sections={page.sections} />
    </article>
  )
}
