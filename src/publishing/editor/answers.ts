/**
 * What the editor is answered when an action fails: the error's message with the status that
 * fits it, in the person's language, and whether that refusal still has to be written to the
 * trail.
 */
import { CmsRequestError } from '../../cms/backend'
import { CmsPathError } from '../../cms/paths'
import { ContentValidationError } from '../../content/errors'
import { RefMovedError, SpecialEntryError, UnsafePathError } from '../git/repository'
import type { EditorLanguage } from '../people/roles'
import { PublishBusyError } from '../publication/lease'
import { UpstreamConflictError, UpstreamSpecialEntryError } from '../publication/publish'
import { DraftConflictError, NoDraftError, RefusedError } from '../workflow/drafts'
import { BuildFailedError } from '../workflow/releases'
import { GERMAN_REFUSALS, TEXTS } from './texts'

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

/** An answer with its status and sentence. */
const answer = (status: number, error: string): CmsAnswer => ({ status, body: { error } })

/** The status of an error raised by the service's parts below the editor, if it is one. */
function statusOf(error: unknown): number | undefined {
  if (error instanceof DraftConflictError || error instanceof UpstreamConflictError) return 409
  if (error instanceof RefMovedError) return 409
  if (error instanceof BuildFailedError || error instanceof ContentValidationError) return 422
  if (error instanceof SpecialEntryError) return 422
  if (error instanceof PublishBusyError) return 503
  if (error instanceof NoDraftError) return 404
  return undefined
}

/**
 * Such an error's sentence in German, said again from what the error holds (the parts below
 * the editor speak English).
 */
function inGerman(error: Error): string {
  const t = GERMAN_REFUSALS
  if (error instanceof DraftConflictError) return t.noLongerMerges(error.id, error.files)
  if (error instanceof UpstreamSpecialEntryError) return t.specialEntries(error.refusal.entries)
  if (error instanceof UpstreamConflictError) return t.upstreamConflict(error.files)
  if (error instanceof ContentValidationError) return t.notBuilt(t.contentProblems(error.problems))
  if (error instanceof BuildFailedError) return t.notBuilt(t.english(error.message))
  if (error instanceof SpecialEntryError) return t.specialEntries(error.entries)
  if (error instanceof PublishBusyError) return t.busy[error.message] ?? t.english(error.message)
  if (error instanceof NoDraftError) return TEXTS.de.noDraft(error.id)
  if (error instanceof RefMovedError) return TEXTS.de.savedMeanwhile
  return t.english(error.message)
}

/** Such an error's sentence in English: its own, but for a build's or a moved branch's. */
function inEnglish(error: Error): string {
  if (error instanceof BuildFailedError || error instanceof ContentValidationError) {
    return `The site did not build, so nothing was published. ${error.message}`
  }
  if (error instanceof RefMovedError) return TEXTS.en.savedMeanwhile
  return error.message
}

/**
 * What the editor shows for an error, in the person's `language`: its message, with the
 * status that fits it. The refusals of the rules and of the editor's own actions are in the
 * person's language already; those of the parts below are said again in it; those of the
 * protocol (a malformed path or request no editor sends) keep their English words, under a
 * German sentence for a German editor.
 */
export function refusal(error: unknown, language: EditorLanguage = 'en'): CmsAnswer {
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof CmsRequestError) return answer(error.status, message)
  if (error instanceof RefusedError) return answer(error.status, message)
  const status = statusOf(error)
  if (status !== undefined && error instanceof Error) {
    return answer(status, language === 'de' ? inGerman(error) : inEnglish(error))
  }
  const said = language === 'de' ? GERMAN_REFUSALS.english(message) : message
  if (error instanceof CmsPathError || error instanceof UnsafePathError) return answer(400, said)
  if (/^not a draft (id|status)/.test(message)) return answer(400, said)
  // A comment's length, as the drafts refuse it (../workflow/drafts.ts).
  if (/^a comment of/.test(message)) {
    return answer(422, language === 'de' ? GERMAN_REFUSALS.commentLength : message)
  }
  throw error
}
