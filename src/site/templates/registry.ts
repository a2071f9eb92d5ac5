/**
 * Templates by `componentChunkName`. Each is loaded on demand, so it becomes its own chunk;
 * the build finds a template's chunk at `src/site/templates/{name}.tsx`.
 */
import type { TemplateName } from '../../shared/types'
import type { TemplateComponent } from './types'

export const templates: Record<TemplateName, () => Promise<TemplateComponent>> = {
  home: () => import('./home').then((module) => module.HomeTemplate),
  page: () => import('./page').then((module) => module.PageTemplate),
  confirmation: () => import('./confirmation').then((module) => module.ConfirmationTemplate),
  form: () => import('./form').then((module) => module.FormTemplate),
  rates: () => import('./rates').then((module) => module.RatesTemplate),
  'not-found': () => import('./not-found').then((module) => module.NotFoundTemplate),
  service: () => import('./service').then((module) => module.ServiceTemplate),
  'case-study': () => import('./case-study').then((module) => module.CaseStudyTemplate),
  'support-category': () =>
    import('./support-category').then((module) => module.SupportCategoryTemplate),
  'support-client': () => import('./support-client').then((module) => module.SupportClientTemplate),
  'customer-information': () =>
    import('./customer-information').then((module) => module.CustomerInformationTemplate),
  legal: () => import('./legal').then((module) => module.LegalTemplate),
  study: () => import('./study').then((module) => module.StudyTemplate),
  'job-posting': () => import('./job-posting').then((module) => module.JobPostingTemplate),
  'press-release': () => import('./press-release').then((module) => module.PressReleaseTemplate),
  'blog-archive': () => import('./blog-archive').then((module) => module.BlogArchiveTemplate),
  'blog-category': () => import('./blog-category').then((module) => module.BlogCategoryTemplate),
  'blog-post': () => import('./blog-post').then((module) => module.BlogPostTemplate),
}

/** True for a template the site has; page data naming any other is a missing chunk. */
export function isTemplateName(name: string): name is TemplateName {
  return Object.hasOwn(templates, name)
}

/** Loads a template's chunk; rejects for a name the site has no template for. */
export function loadTemplate(name: string): Promise<TemplateComponent> {
  if (!isTemplateName(name)) return Promise.reject(new Error(`Missing component chunk "${name}"`))
  return templates[name]()
}
