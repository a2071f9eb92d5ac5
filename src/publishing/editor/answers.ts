/**
 * What the editor is answered when an action fails: the status and the sentence of the error's
 * code in the person's language (`../http/error-answers.ts`, from the table of `../errors.ts`),
 * and whether that refusal still has to be written to the trail.
 */
import { answerOf } from '../http/error-answers'
import type { EditorLanguage } from '../people/roles'
import { DraftConflictError, RefusedError } from '../workflow/drafts'
import { UpstreamConflictError } from '../workflow/publisher'
import { BuildFailedError } from '../workflow/releases'

export interface CmsAnswer {
  status: number
  body: unknown
}

/**
 * Whether a refusal still has to be written to the trail: those of the rules, of a draft that
 * no longer merges or of a remote that conflicts, and a failed build, are in it already.
 */
export function unrecorded(error: unknown, answer: CmsAnswer): boolean {
  return (
    answer.status >= 400 &&
    answer.status < 500 &&
    !(error instanceof RefusedError) &&
    !(error instanceof DraftConflictError) &&
    !(error instanceof UpstreamConflictError) &&
    !(error instanceof BuildFailedError)
  )
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
