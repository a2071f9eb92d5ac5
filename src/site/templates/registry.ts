/**
 * Templates by `componentChunkName`. Each is loaded on demand, so it becomes its own chunk;
 * the build finds a template's chunk at `src/site/templates/{name}.tsx`.
 */
import type { TemplateName } from '../../shared/types'
import type { TemplateComponent } from './types'

export const templates: Partial<Record<TemplateName, () => Promise<TemplateComponent>>> = {
  home: () => import('./home').then((module) => module.HomeTemplate),
  page: () => import('./page').then((module) => module.PageTemplate),
  'not-found': () => import('./not-found').then((module) => module.NotFoundTemplate),
  'blog-archive': () => import('./blog-archive').then((module) => module.BlogArchiveTemplate),
}

/** True for a template the site has; page data naming any other is a missing chunk. */
export function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(templates, name)
}

/** Loads a template's chunk; rejects for a name the site has no template for. */
export function loadTemplate(name: string): Promise<TemplateComponent> {
  const load = isTemplateName(name) ? templates[name] : undefined
  if (!load) return Promise.reject(new Error(`Missing component chunk "${name}"`))
  return load()
}
