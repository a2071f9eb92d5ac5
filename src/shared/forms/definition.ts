/**
 * A form as one language sees it: what the page renders and what the forms service validates
 * against. Both are made from the same content file (`forms/lists/*.yaml`,
 * `forms/surveys/*.yaml`) by `localizeForm`.
 */
import type { Language } from '../languages'

export interface Option {
  id: string
  label: string
}

interface QuestionBase {
  id: string
  label: string
  hint?: string
  required: boolean
}

export type Question =
  | (QuestionBase & { type: 'single' | 'multiple'; options: Option[] })
  | (QuestionBase & { type: 'scale'; min: number; max: number; minLabel: string; maxLabel: string })
  | (QuestionBase & { type: 'text'; maxLength: number })

/** A mailing list's sign-up form (double opt-in). */
export interface ListForm {
  kind: 'list'
  id: string
  language: Language
  name: string
  /** The consent text's version, sent with the form and stored as proof. */
  version: string
  consent: string
  topics?: { legend: string; options: Option[] }
  submit: string
  /** Where the form is sent (`/api/forms/newsletter`). */
  action: string
  /** Where a visitor goes once it is sent (`/en/newsletter-success/`). */
  successPath: string
}

/** A survey's form. */
export interface SurveyForm {
  kind: 'survey'
  id: string
  language: Language
  name: string
  /** The questions' version, sent with the answers and stored with them. */
  version: string
  questions: Question[]
  submit: string
  action: string
  successPath: string
}

export type FormDefinition = ListForm | SurveyForm

/** The address every form is sent to. */
export const formAction = (id: string) => `/api/forms/${id}`

/** The input name of a survey question's answer. */
export const answerField = (questionId: string) => `answers.${questionId}`

/** The hidden field bots fill in and people never see. */
export const HONEYPOT_FIELD = 'website'

/** The longest e-mail address accepted (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254

/** The pages the links of e-mails lead to: a link that no longer works, an unsubscription. */
export const LINK_EXPIRED_PAGE = 'link-expired'
export const UNSUBSCRIBED_PAGE = 'unsubscribed'
