/**
 * How many drafts wait for a person: in review and theirs to approve (`mayApprove`: a reviewer
 * who wrote none of it, the version submitted), or approved and theirs to publish
 * (`mayPublish`: a publisher who wrote none of it, the approval standing). The same rules as
 * the buttons the page of changes offers, so the count and the page agree.
 */
import type { Person } from '../people/roles'
import { type Draft, mayApprove, mayPublish } from '../workflow/four-eyes'

export function waitingFor(
  person: Person,
  drafts: readonly (Draft & { status: 'draft' | 'pending_review' | 'pending_publish' })[],
): number {
  return drafts.filter((draft) =>
    draft.status === 'pending_review'
      ? mayApprove(person, draft).allowed
      : draft.status === 'pending_publish' && mayPublish(person, draft).allowed,
  ).length
}
