/**
 * Sections that show data of another part of the store receive it while the content loads, in
 * the page's language, so the page renders them without another request: a `form` section its
 * form, an `ecbRates` or `cardRates` section its rates.
 */
import type { ContentProblem } from './errors'
import { type FormsContent, formExists, localizeForm } from './forms'
import { cardRatesData, ecbRatesData, type RatesContent } from './rates'
import type { ContentEntry } from './site-content'

/**
 * Every `form` section names a form of `forms/`; it receives that form in the page's language
 * (`definition`), so the page renders and checks it without another request.
 */
export function attachForms(
  entries: ContentEntry[],
  forms: FormsContent,
  problems: ContentProblem[],
) {
  for (const entry of entries) {
    const sections = entry.data.sections
    if (!Array.isArray(sections)) continue
    sections.forEach((section: { type?: string; form?: string; definition?: unknown }, index) => {
      if (section.type !== 'form' || !section.form) return
      if (entry.collection !== 'page' || entry.template === 'confirmation') {
        problems.push({
          file: entry.file,
          field: `sections.${index}`,
          message:
            'expected forms on pages of the Pages collection only (such as newsletter or survey), not on this content type',
        })
        return
      }
      const definition =
        entry.language && formExists(forms, section.form)
          ? localizeForm(forms, section.form, entry.language)
          : undefined
      if (definition) section.definition = definition
      else
        problems.push({
          file: entry.file,
          field: `sections.${index}.form`,
          message: `expected the name of a form in forms/lists/ or forms/surveys/; there is no "${section.form}"`,
        })
    })
  }
}

/**
 * Every `ecbRates` and `cardRates` section receives its rates, in the page's language, so the
 * page renders them without another request.
 */
export function attachRates(
  entries: ContentEntry[],
  rates: RatesContent,
  problems: ContentProblem[],
) {
  for (const entry of entries) {
    const sections = entry.data.sections
    if (!Array.isArray(sections)) continue
    sections.forEach((section: { type?: string; network?: string; data?: unknown }, index) => {
      if (section.type !== 'ecbRates' && section.type !== 'cardRates') return
      const problem = (field: string, message: string) =>
        problems.push({ file: entry.file, field: `sections.${index}${field}`, message })
      if (entry.collection !== 'page' || !entry.language) {
        problem('', 'expected exchange rates on pages of the Pages collection only')
        return
      }
      if (entry.template !== 'rates') {
        problem('', 'expected exchange rates and a form on different pages')
        return
      }
      if (!rates.texts) {
        problem('', 'expected the words of the rate pages in exchange-rates/texts.yaml')
        return
      }
      if (section.type === 'ecbRates') {
        section.data = ecbRatesData(rates, entry.language)
        if (!section.data) problem('', 'expected ECB reference rates in exchange-rates/ecb.xml')
        return
      }
      const network = section.network ?? ''
      section.data = cardRatesData(rates, network, entry.language)
      if (
        !section.data &&
        !problems.some((known) => known.file.startsWith(`exchange-rates/${network}.`))
      ) {
        problem(
          '.network',
          `expected a card network with rates in exchange-rates/${network}.csv (or .json) and its name under networks in exchange-rates/texts.yaml`,
        )
      }
    })
  }
}
