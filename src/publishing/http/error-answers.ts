/**
 * What the service answers when it refuses: the status and the sentence of the error's code
 * (`../errors.ts`), in the person's language. Every route and the editor's API answer an error
 * from here, so that one error is answered alike wherever it arises; an error that is no
 * refusal (a fault) is thrown on, and answered 500.
 */
import type { FastifyReply } from 'fastify'
import { CmsRequestError } from '../../cms/backend'
import { CmsPathError } from '../../cms/paths'
import { ContentValidationError } from '../../content/errors'
import { PublishingError } from '../errors'
import type { EditorLanguage } from '../people/roles'
import { UpstreamConflictError } from '../publication/publish'
import { BuildFailedError } from '../publication/releases'
import { DraftConflictError, RefusedError } from '../workflow/drafts'
import { refuse } from './requests'

/** A refusal's status and sentence. */
export interface ErrorAnswer {
  status: number
  error: string
}

/**
 * The coded error `error` is, or stands for: one of the service's own, or of the parts below
 * it that have no codes (the content checks, the CMS's paths), given its code here.
 */
export function codedOf(error: unknown): PublishingError | undefined {
  if (error instanceof PublishingError) return error
  if (error instanceof ContentValidationError) {
    return new PublishingError('content-invalid', {
      details: error.message,
      problems: error.problems,
    })
  }
  if (error instanceof CmsPathError) {
    return new PublishingError('cms-path', { details: error.message })
  }
  return undefined
}

/**
 * The answer to `error` for a person who reads `language`, or `undefined` for an error that is
 * no refusal. The CMS's protocol (`CmsRequestError`, shared with `npm run dev`'s editor) words
 * its refusals where it throws them, in the person's language, with their status.
 */
export function answerOf(error: unknown, language: EditorLanguage): ErrorAnswer | undefined {
  if (error instanceof CmsRequestError) return { status: error.status, error: error.message }
  const coded = codedOf(error)
  return coded && { status: coded.status, error: coded.in(language) }
}

/**
 * Whether a refusal answered `status` still has to be written to the trail: those of the rules,
 * of a draft that no longer merges or of a remote that conflicts, and a failed build, are in it
 * already.
 */
export function unrecorded(error: unknown, status: number): boolean {
  return (
    status >= 400 &&
    status < 500 &&
    !(error instanceof RefusedError) &&
    !(error instanceof DraftConflictError) &&
    !(error instanceof UpstreamConflictError) &&
    !(error instanceof BuildFailedError)
  )
}

/** Answers `error` as the refusal it is, in `language`; throws on one that is none. */
export function refuseError(reply: FastifyReply, error: unknown, language: EditorLanguage) {
  const answer = answerOf(error, language)
  if (!answer) throw error
  return refuse(reply, answer.status, answer.error)
}
