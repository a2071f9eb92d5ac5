/**
 * Rolling back: a commit on main whose content (`content/`, `public/`) is an earlier release's,
 * and that release's folder served again at once, without building, in a turn of the lease
 * like a publication (lease.ts), main moved by `moveMain` (main-moves.ts) and the release
 * served by `goLive` (publish.ts). A publisher alone may go one step back (an emergency);
 * anything further is asked for and a reviewer confirms it (the rules: ../workflow/four-eyes.ts;
 * the requests' records and what a rollback brings back: ../workflow/rollbacks.ts).
 */
import { appendAudit } from '../audit/trail'
import { PublishingError } from '../errors'
import { personOf } from '../people/people'
import type { Person } from '../people/roles'
import { refuseUnless } from '../workflow/drafts'
import {
  mayConfirmRollback,
  mayRequestRollback,
  mayRollBack,
  type Rollback,
  refusalOf,
  requestStands,
} from '../workflow/four-eyes'
import {
  decideRollbackRequest,
  insertRollbackRequest,
  pendingRollbacks,
  type RollbackChanges,
  type RollbackRequest,
  rollbackChanges,
  rollbackRequest,
} from '../workflow/rollbacks'
import { MAIN, moveMain } from './main-moves'
import { goLive, type PublicationParts, takeIn } from './publish'
import { previousRelease, type Release, releaseOf } from './release-records'

/** What rolling back to a release would do now (`Publisher.planRollback`). */
export interface RollbackPlan {
  target: Release
  /** The live release's folder. */
  live: string | null
  /** The release served just before the live one, if on disk. */
  previous: string | null
  /** Whether the target is that one: an emergency's rollback may go there alone. */
  oneStepBack: boolean
  /** Main's tip the rollback commits onto. */
  main: string
  changes: RollbackChanges
}

/** A rollback asked for: done at once, or waiting for a reviewer. */
export type RollbackOutcome =
  | { done: true; release: Release }
  | { done: false; request: RollbackRequest }

/** A rollback request that is not waiting (decided, or never made). */
export class RollbackRequestError extends PublishingError<
  'rollback-not-waiting' | 'rollback-decided'
> {}

/** A rollback as the rules see it. */
const ruleOf = (plan: RollbackPlan): Rollback => ({
  target: plan.target.folder,
  oneStepBack: plan.oneStepBack,
  writers: plan.changes.writers,
})

/** A request as the rules see it: who asked for it, and whose content it brings back. */
export const requestRuleOf = (request: RollbackRequest): Rollback => ({
  target: request.folder,
  oneStepBack: false,
  writers: request.changes.writers,
  requestedBy: request.requestedBy,
})

/**
 * Rolls back at once, alone: an emergency's rollback, to the release served just before the
 * live one (`mayRollBack`). Anything else is refused, in the trail: `requestRollback` asks
 * for it instead.
 */
export async function rollBack(
  parts: PublicationParts,
  person: Person,
  folder: string,
): Promise<Release> {
  const { database } = parts
  await refuseUnless(database, person, mayRequestRollback(person), folder, parts.clock())
  return parts.turns.exclusively(async () => {
    await requireRelease(parts, folder)
    await takeIn(parts)
    const plan = await planRollback(parts, folder)
    await refuseUnless(database, person, mayRollBack(person, ruleOf(plan)), folder, parts.clock(), {
      action: 'rollback',
    })
    return executeRollback(parts, person, plan, { emergency: true })
  })
}

/**
 * A publisher asks for a rollback: done at once where the rules let them do it alone (an
 * emergency: one step back, none of their own text coming back), else recorded as a request
 * that a reviewer confirms (`confirmRollback`), saying why it waits. Asked again while one
 * for the same release waits, the waiting one is returned; one asked for before the live
 * release changed is stale, and replaced by a new one (its trail entry says `replaces`).
 */
export async function requestRollback(
  parts: PublicationParts,
  person: Person,
  folder: string,
): Promise<RollbackOutcome> {
  const { database } = parts
  await refuseUnless(database, person, mayRequestRollback(person), folder, parts.clock())
  return parts.turns.exclusively(async (): Promise<RollbackOutcome> => {
    await requireRelease(parts, folder)
    await takeIn(parts)
    const plan = await planRollback(parts, folder)
    const alone = mayRollBack(person, ruleOf(plan))
    if (alone.allowed) {
      return {
        done: true,
        release: await executeRollback(parts, person, plan, { emergency: true }),
      }
    }
    const now = parts.clock()
    const waiting = (await pendingRollbacks(database)).find((request) => request.folder === folder)
    // One waits already: the same, or one asked for before the live site changed, stale now.
    if (waiting?.liveFolder === plan.live) return { done: false, request: waiting }
    if (waiting) {
      await decideRollbackRequest(
        database,
        waiting.id,
        'stale',
        person.email,
        refusalOf(person, 'rollback-stale').reason,
        now,
      )
    }
    const request = await database.transaction(async (tx) => {
      const made = await insertRollbackRequest(tx, {
        folder,
        targetCommit: plan.target.commit,
        liveFolder: plan.live,
        mainCommit: plan.main,
        requestedBy: person.email,
        requestedAt: now.toISOString(),
        code: alone.code,
        reason: alone.reason,
        changes: plan.changes,
      })
      await appendAudit(
        tx,
        {
          actor: person.email,
          action: 'rollback-request',
          subject: folder,
          before: plan.main,
          after: plan.target.commit,
          details: {
            request: made.id,
            code: alone.code,
            reason: alone.reason,
            live: plan.live,
            ...(waiting ? { replaces: waiting.id } : {}),
            ...plan.changes,
          },
        },
        now,
        tx,
      )
      return made
    })
    return { done: false, request }
  })
}

/**
 * A reviewer confirms a rollback a publisher asked for (`mayConfirmRollback`), and it is done
 * at once. Refused, in the trail, when the live site changed since it was asked for, or its
 * publisher no longer has access or the role (the request is stale then), or when the
 * content it would bring back now is the reviewer's own.
 */
export async function confirmRollback(
  parts: PublicationParts,
  person: Person,
  id: number,
): Promise<Release> {
  const { database } = parts
  const asked = await rollbackRequest(database, id)
  if (asked?.state !== 'pending') {
    throw new RollbackRequestError('rollback-not-waiting', { id })
  }
  const subject = asked.folder
  await refuseUnless(
    database,
    person,
    mayConfirmRollback(person, requestRuleOf(asked)),
    subject,
    parts.clock(),
    { action: 'rollback-confirm', request: id },
  )
  return parts.turns.exclusively(async () => {
    const request = await rollbackRequest(database, id)
    if (request?.state !== 'pending') {
      throw new RollbackRequestError('rollback-decided', { id })
    }
    const live = await parts.releases.current()
    const requester = await personOf(database, request.requestedBy)
    const stands =
      live !== request.liveFolder
        ? refusalOf(person, 'rollback-stale')
        : requestStands(
            person.language,
            request.requestedBy,
            new Map(requester ? [[requester.email, requester]] : []),
          )
    if (!stands.allowed) {
      await decideRollbackRequest(database, id, 'stale', person.email, stands.reason, parts.clock())
    }
    await refuseUnless(database, person, stands, subject, parts.clock(), {
      action: 'rollback-confirm',
      request: id,
    })
    try {
      await requireRelease(parts, request.folder)
    } catch (error) {
      // Removed from disk since (older than the releases kept): it can never be done.
      const gone = error instanceof Error ? error.message : String(error)
      await decideRollbackRequest(database, id, 'stale', person.email, gone, parts.clock())
      throw error
    }
    await takeIn(parts)
    const plan = await planRollback(parts, request.folder)
    // What comes back as it is now (a take-in may have changed it): still none of theirs.
    await refuseUnless(
      database,
      person,
      mayConfirmRollback(person, { ...ruleOf(plan), requestedBy: request.requestedBy }),
      subject,
      parts.clock(),
      { action: 'rollback-confirm', request: id },
    )
    const release = await executeRollback(parts, person, plan, {
      emergency: false,
      requestedBy: request.requestedBy,
      request: id,
    })
    await decideRollbackRequest(
      database,
      id,
      'done',
      person.email,
      `rolled back to release ${release.folder}`,
      parts.clock(),
    )
    return release
  })
}

/**
 * What rolling back to `folder` would do now: the release, the live one and the one before
 * it, main's tip, and the files that return, go or change, the publications undone and the
 * writers of what comes back. Reads only.
 */
export async function planRollback(parts: PublicationParts, folder: string): Promise<RollbackPlan> {
  const { releases, repo, database } = parts
  const target = await requireRelease(parts, folder)
  const main = await repo.resolve(MAIN)
  if (!main) throw new Error('the repository has no main branch')
  const live = await releases.current()
  const previous = await previousRelease(database, releases)
  return {
    target,
    live,
    previous,
    oneStepBack: previous === folder,
    main,
    changes: await rollbackChanges(repo, database, main, target.commit),
  }
}

/** The release `folder`, on disk and recorded, or the error that there is none. */
async function requireRelease(parts: PublicationParts, folder: string): Promise<Release> {
  const target = await releaseOf(parts.database, folder)
  if (!target || !(await parts.releases.list()).includes(folder)) {
    throw new PublishingError('no-release', { folder })
  }
  return target
}

/**
 * Serves an earlier release again at once, recorded on main as a commit that restores that
 * release's content and images (everything published since is reverted; code is not), in
 * the lease's turn, the rules asked before. The trail's entry lists what returns, goes and
 * changes, the publications undone, and whether it was an emergency's or confirmed.
 */
async function executeRollback(
  parts: PublicationParts,
  person: Person,
  plan: RollbackPlan,
  how: { emergency: boolean; requestedBy?: string; request?: number },
): Promise<Release> {
  const { repo, database } = parts
  const { target, main: mainBefore, changes } = plan
  // The content and images as they were in that release; the code stays as main has it
  // (a developer's fix taken in since is not undone), and is built with it next time.
  const restored = [...changes.returns, ...changes.changes, ...changes.goes]
  const files = await Promise.all(
    restored.map(async (path) => ({ path, content: await repo.readFile(target.commit, path) })),
  )
  const tree = await repo.treeWith(mainBefore, files)
  const why = how.emergency
    ? 'An emergency rollback: the release served just before, by a publisher alone.'
    : `Asked for by ${how.requestedBy}, confirmed by ${person.email}.`
  const commit = await repo.commitTree(tree, {
    parents: [mainBefore],
    author: { name: person.name, email: person.email },
    message: await repo.withTrailers(
      `Roll back to release ${target.folder}\n\nRestores the content as built from ${target.commit}.\n\n${why}`,
    ),
    date: parts.clock(),
  })
  await parts.turns.stillHolding()
  await moveMain(
    database,
    repo,
    {
      action: 'rollback',
      actor: person.email,
      subject: target.folder,
      before: mainBefore,
      after: commit,
      details: {
        emergency: how.emergency,
        ...(how.requestedBy ? { requestedBy: how.requestedBy, confirmedBy: person.email } : {}),
        ...(how.request ? { request: how.request } : {}),
        targetCommit: target.commit,
        replaced: plan.live,
        ...changes,
      },
    },
    parts.clock(),
  )
  const release = await goLive(
    parts,
    target.folder,
    commit,
    'rollback',
    person.email,
    target.folder,
    true,
  )
  parts.metrics.rollback()
  return release
}
