import type { ComponentType } from 'react'
import type { Language } from '../../shared/languages'
import type { LayoutData, PageContent, PageResult } from '../../shared/types'

/** What every template receives. */
export interface TemplateProps {
  result: PageResult
  /** The page's content in the interface language. */
  content: PageContent
  language: Language
  layout: LayoutData
}

export type TemplateComponent = ComponentType<TemplateProps>
