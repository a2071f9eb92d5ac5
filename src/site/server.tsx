/** Server entry: renders pages to HTML at build time (and in the dev server). */
import { renderToString } from 'react-dom/server'
import type { BootData, BuildResources, TemplateName } from '../shared/types'
import { App } from './app'
import { loadTemplate, templates } from './templates/registry'
import type { TemplateComponent } from './templates/types'

const loaded = new Map<TemplateName, TemplateComponent>()

/** Loads every template once, so rendering is synchronous afterwards. */
export async function prepare(): Promise<void> {
  await Promise.all(
    (Object.keys(templates) as TemplateName[]).map(async (name) => {
      loaded.set(name, await loadTemplate(name))
    }),
  )
}

/**
 * The HTML inside the root element for one page; `resources` are the files its sections may
 * draw for visitors without script (see `BuildResources`).
 */
export function renderPage(
  boot: Pick<BootData, 'page' | 'staticQueries'>,
  resources?: BuildResources,
): string {
  const Template = loaded.get(boot.page.componentChunkName)
  if (!Template)
    throw new Error(`Unknown template "${boot.page.componentChunkName}" for ${boot.page.path}`)
  const state = {
    page: boot.page,
    staticQueries: boot.staticQueries,
    Template,
    language: boot.page.result.language.language,
    resources,
  }
  return renderToString(<App state={state} />)
}
