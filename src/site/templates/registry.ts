/**
 * Templates by `componentChunkName`. Each is loaded on demand, so it becomes its own chunk;
 * the build finds a template's chunk at `src/site/templates/{name}.tsx`.
 */
import type { TemplateName } from '../../shared/types'
import type { TemplateComponent } from './types'

export const templates: Record<TemplateName, () => Promise<TemplateComponent>> = {
  home: () => import('./home').then((module) => module.HomeTemplate),
  page: () => import('./page').then((module) => module.PageTemplate),
  'not-found': () => import('./not-found').then((module) => module.NotFoundTemplate),
  'blog-archive': () => import('./blog-archive').then((module) => module.BlogArchiveTemplate),
}

export function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(templates, name)
}
