/**
 * The forms of the content store (`forms/lists/*.yaml`, `forms/surveys/*.yaml`): read and
 * validated for the build and for the forms service, and turned into one language's
 * definition (`FormDefinition`) for the page and the service's checks.
 */

import { type FormDefinition, formAction, type Question } from '../shared/forms/definition'
import type { Language } from '../shared/languages'
import type { SiteSettings } from '../shared/types'
import { type ContentProblem, ContentValidationError } from './errors'
import { siteSettings } from './schema/entries'
import { type MailingList, mailingList, type Survey, survey } from './schema/forms'
import type { ContentDocument, ContentSource } from './source'
import { validateDocument } from './validate-document'

export interface FormsContent {
  lists: Record<string, MailingList>
  surveys: Record<string, Survey>
}

const FORM_FILE = /^forms\/(?<folder>lists|surveys)\/(?<id>[a-z0-9]+(?:-[a-z0-9]+)*)\.ya?ml$/

export const FORM_FILES = 'forms/lists/{id}.yaml or forms/surveys/{id}.yaml'

/** True for files of the forms folder (valid names or not). */
export const isFormFile = (file: string) => file.startsWith('forms/')

/** Reads the forms among `documents`, adding a problem for each invalid one. */
export function readForms(
  documents: readonly ContentDocument[],
  problems: ContentProblem[],
): FormsContent {
  // Without a prototype: a form called "constructor" or "__proto__" finds nothing inherited.
  const forms: FormsContent = { lists: Object.create(null), surveys: Object.create(null) }
  const ids = new Map<string, string>()
  for (const document of documents) {
    if (!isFormFile(document.file)) continue
    const match = FORM_FILE.exec(document.file)
    if (!match?.groups) {
      problems.push({
        file: document.file,
        field: '',
        message: `unknown file: expected ${FORM_FILES} (lowercase letters, digits and hyphens)`,
      })
      continue
    }
    const { folder, id = '' } = match.groups
    const earlier = ids.get(id)
    if (earlier) {
      problems.push({
        file: document.file,
        field: '',
        message: `expected a unique form name; ${earlier} is also called "${id}"`,
      })
      continue
    }
    ids.set(id, document.file)
    if (folder === 'lists') {
      const list = validateDocument(mailingList, document, problems)
      if (list) forms.lists[id] = list
    } else {
      const parsed = validateDocument(survey, document, problems)
      if (parsed) forms.surveys[id] = parsed
    }
  }
  return forms
}

/**
 * What the forms service needs of a content store: the forms, and the company facts its
 * e-mails name. Throws on any problem in them.
 */
export async function loadFormsContent(
  source: ContentSource,
): Promise<{ forms: FormsContent; settings: SiteSettings }> {
  const { documents, problems } = await source.read()
  const relevant = problems.filter(
    (problem) => isFormFile(problem.file) || problem.file === SETTINGS_FILE,
  )
  const forms = readForms(documents, relevant)
  const settingsDocument = documents.find((document) => document.file === SETTINGS_FILE)
  const settings = settingsDocument && validateDocument(siteSettings, settingsDocument, relevant)
  if (!settingsDocument && relevant.length === 0) {
    relevant.push({ file: SETTINGS_FILE, field: '', message: 'expected this file; it is missing' })
  }
  if (relevant.length > 0 || !settings) throw new ContentValidationError(relevant, source.label)
  return { forms, settings }
}

export const SETTINGS_FILE = 'site.yaml'

export const formExists = (forms: FormsContent, id: string) =>
  Object.hasOwn(forms.lists, id) || Object.hasOwn(forms.surveys, id)

const pagePath = (language: Language, page: string) => `/${language}/${page}/`

/** One language's definition of form `id`, or undefined when there is no such form. */
export function localizeForm(
  forms: FormsContent,
  id: string,
  language: Language,
): FormDefinition | undefined {
  const list = Object.hasOwn(forms.lists, id) ? forms.lists[id] : undefined
  if (list) {
    return {
      kind: 'list',
      id,
      language,
      name: list.name[language],
      version: list.consentVersion,
      consent: list.consent[language],
      ...(list.topics
        ? {
            topics: {
              legend: list.topics.legend[language],
              options: list.topics.options.map((o) => ({ id: o.id, label: o.label[language] })),
            },
          }
        : {}),
      submit: list.submit[language],
      action: formAction(id),
      successPath: pagePath(language, list.successPage),
    }
  }
  const found = Object.hasOwn(forms.surveys, id) ? forms.surveys[id] : undefined
  if (!found) return undefined
  return {
    kind: 'survey',
    id,
    language,
    name: found.name[language],
    version: found.version,
    questions: found.questions.map((question): Question => {
      const base = {
        id: question.id,
        label: question.label[language],
        ...(question.hint ? { hint: question.hint[language] } : {}),
        required: question.required,
      }
      switch (question.type) {
        case 'single':
        case 'multiple':
          return {
            ...base,
            type: question.type,
            options: question.options.map((o) => ({ id: o.id, label: o.label[language] })),
          }
        case 'scale':
          return {
            ...base,
            type: 'scale',
            min: question.min,
            max: question.max,
            minLabel: question.minLabel[language],
            maxLabel: question.maxLabel[language],
          }
        case 'text':
          return { ...base, type: 'text', maxLength: question.maxLength }
        default:
          // Every question type is handled above; a new one fails the type check here.
          return question satisfies never
      }
    }),
    submit: found.submit[language],
    action: formAction(id),
    successPath: pagePath(language, found.successPage),
  }
}
