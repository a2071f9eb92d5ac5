import type { ComponentType } from 'react'
import type { Language } from '../../shared/languages'
import type { BuildResources, LayoutData, PageContent, PageResult } from '../../shared/types'

/** What every template receives. */
export interface TemplateProps {
  result: PageResult
  /** The page's content in the interface language. */
  content: PageContent
  language: Language
  layout: LayoutData
  /** Only while the build renders: files the browser fetches on demand (`BuildResources`). */
  resources?: BuildResources
}

export type TemplateComponent = ComponentType<TemplateProps>
