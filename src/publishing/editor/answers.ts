/**
 * What the editor is answered when an action fails: the status and the sentence of the error's
 * code in the person's language (`../http/error-answers.ts`, from the table of `../errors.ts`),
 * as the CMS's protocol sends it.
 */
import { answerOf } from '../http/error-answers'
import type { EditorLanguage } from '../people/roles'

export interface CmsAnswer {
  status: number
  body: unknown
}

/**
 * What the editor shows for an error, in the person's `language`, with the status of its code;
 * an error that is no refusal is thrown on.
 */
export function refusal(error: unknown, language: EditorLanguage = 'en'): CmsAnswer {
  const answer = answerOf(error, language)
  if (!answer) throw error
  return { status: answer.status, body: { error: answer.error } }
}
