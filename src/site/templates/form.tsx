import { FormSection } from '../components/form'
import { FormRenderer } from '../components/sections/form-slot'
import { PageTemplate } from './page'
import type { TemplateProps } from './types'

/**
 * A page with a form (newsletter, survey, the services list with its product-updates
 * sign-up): the page as usual, its `form` sections drawn with the forms' code, which only
 * these pages load.
 */
export function FormTemplate(props: TemplateProps) {
  return (
    <FormRenderer.Provider value={FormSection}>
      <PageTemplate {...props} />
    </FormRenderer.Provider>
  )
}
