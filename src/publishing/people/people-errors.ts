/**
 * What the service says when a request about people cannot be done (an address that is none,
 * an invitation used already, the last administrator): one of the service's coded refusals
 * (`../errors.ts`, where each case's status and its sentences in English and German are), so
 * that a German screen shows German. The English one is the error's message, for the command
 * line and the logs; a screen shows `PeopleError.in(language)`.
 */
import { PEOPLE_ERROR_CODES, type PeopleErrorCode, PublishingError } from '../errors'

export { PEOPLE_ERROR_CODES, type PeopleErrorCode }

/** A request about people the service cannot do, and why, in either language. */
export class PeopleError extends PublishingError<PeopleErrorCode> {
  override readonly name: string = 'PeopleError'
}

/** An invitation link a newer invitation for the same address replaced. */
export class InvitationReplacedError extends PeopleError {
  constructor() {
    super('invitation-replaced')
  }
}
