/**
 * What the editor is answered when an action fails: the error's message with the status that
 * fits it, and whether that refusal still has to be written to the trail.
 */
import { CmsRequestError } from '../../cms/backend'
import { CmsPathError } from '../../cms/paths'
import { ContentValidationError } from '../../content/errors'
import { RefMovedError, SpecialEntryError, UnsafePathError } from '../git/repository'
import { DraftConflictError, NoDraftError, RefusedError } from '../workflow/drafts'
import { PublishBusyError, UpstreamConflictError } from '../workflow/publisher'
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

/** What the editor shows for an error: its message, with the status that fits it. */
export function refusal(error: unknown): CmsAnswer {
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof CmsRequestError) return { status: error.status, body: { error: message } }
  if (error instanceof RefusedError) return { status: error.status, body: { error: message } }
  if (error instanceof DraftConflictError || error instanceof UpstreamConflictError) {
    return { status: 409, body: { error: message } }
  }
  if (error instanceof BuildFailedError || error instanceof ContentValidationError) {
    return {
      status: 422,
      body: { error: `The site did not build, so nothing was published. ${message}` },
    }
  }
  if (error instanceof SpecialEntryError) return { status: 422, body: { error: message } }
  if (error instanceof PublishBusyError) return { status: 503, body: { error: message } }
  if (error instanceof NoDraftError) return { status: 404, body: { error: message } }
  if (error instanceof RefMovedError) {
    return {
      status: 409,
      body: {
        error: 'Someone saved this entry meanwhile: reload it, then make your change again.',
      },
    }
  }
  if (error instanceof CmsPathError || error instanceof UnsafePathError) {
    return { status: 400, body: { error: message } }
  }
  if (/^not a draft (id|status)/.test(message)) return { status: 400, body: { error: message } }
  if (/^a comment of/.test(message)) return { status: 422, body: { error: message } }
  throw error
}
