/**
 * What the releases page shows a person, as data: the releases with what each did and the
 * rollback the rules offer this person on each, and the rollbacks waiting for a reviewer with
 * whether this person may confirm them (and why not). The same rules the service enforces on
 * each request (`workflow/four-eyes.ts`); the markup is `releasesPage` in `releases.tsx`.
 */
import type { Person } from '../people/roles'
import type { ReleaseView } from '../publication/release-records'
import { requestRuleOf } from '../publication/rollback'
import { mayConfirmRollback, mayRequestRollback, mayRollBack } from '../workflow/four-eyes'
import type { RollbackChanges, RollbackRequest } from '../workflow/rollbacks'

/**
 * The rollback a release offers: at once, alone (an emergency: the release just before the
 * live one, none of the person's text coming back); asked for, a reviewer confirming it; one
 * asked for already, waiting; or none (the live one, or a person who may not roll back).
 */
export type RollbackOffer = 'emergency' | 'request' | 'waiting' | null

export interface ReleaseItem extends ReleaseView {
  offer: RollbackOffer
}

export interface RequestItem {
  id: number
  folder: string
  requestedBy: string
  requestedAt: string
  /** Why it waits for a reviewer, in the words of the person who asked. */
  reason: string
  changes: RollbackChanges
  /** Whether this person may confirm it; why not, where their role would allow it. */
  confirm: { allowed: true } | { allowed: false; whyNot?: string }
}

export interface ReleasesView {
  releases: ReleaseItem[]
  requests: RequestItem[]
}

/**
 * The releases page's data for `person`: `previous` is the release served just before the live
 * one, with the writers of what rolling back to it would bring back.
 */
export function releasesView(
  person: Person,
  releases: readonly ReleaseView[],
  requests: readonly RollbackRequest[],
  previous: { folder: string; writers: readonly string[] } | null,
): ReleasesView {
  const mayRoll = mayRequestRollback(person).allowed
  const waiting = new Set(requests.map((request) => request.folder))
  // A folder served more than once (published, later rolled back to) is offered once, on its
  // newest entry; the live folder not at all.
  const liveFolder = releases.find((release) => release.live)?.folder
  const offered = new Set<string>()
  const offerOf = (release: ReleaseView): RollbackOffer => {
    if (!mayRoll || release.folder === liveFolder || offered.has(release.folder)) return null
    offered.add(release.folder)
    if (
      previous?.folder === release.folder &&
      mayRollBack(person, { target: release.folder, oneStepBack: true, writers: previous.writers })
        .allowed
    ) {
      return 'emergency'
    }
    return waiting.has(release.folder) ? 'waiting' : 'request'
  }
  return {
    releases: releases.map((release) => ({ ...release, offer: offerOf(release) })),
    requests: requests.map((request) => {
      const decision = mayConfirmRollback(person, requestRuleOf(request))
      return {
        id: request.id,
        folder: request.folder,
        requestedBy: request.requestedBy,
        requestedAt: request.requestedAt,
        reason: request.reason,
        changes: request.changes,
        confirm: decision.allowed
          ? { allowed: true }
          : {
              allowed: false,
              // A reviewer is told why not; others see no button, as their role has none.
              ...(decision.code === 'role' ? {} : { whyNot: decision.reason }),
            },
      }
    }),
  }
}
