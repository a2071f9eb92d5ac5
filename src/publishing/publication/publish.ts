/**
 * One publication, from "this approved version of a draft goes live" to "its release is
 * served", in the order it happens (`publishDraft`), one at a time across every process of the
 * service (a turn of the lease, lease.ts):
 *
 * 1. take in what reached the remote's main from elsewhere (`takeIn`);
 * 2. merge the draft onto main's tip after the four-eyes rules (`mergeDraft`): a commit, no
 *    ref moved;
 * 3. build the site from that commit into a new release (`Releases.build`,
 *    ./releases.ts);
 * 4. only when it builds, move main to it and remove the draft (`landDraft`, by
 *    `moveMain` in main-moves.ts: the intent written first, then main by compare-and-swap,
 *    then the record);
 * 5. serve the release (`goLive`): `current` switched by one rename, the switch recorded, the
 *    audit checkpoint written, the commit pushed, old releases pruned, `AFTER_RELEASE` run.
 *
 * A build that fails leaves main, the live release and the draft as they were, with the reason
 * (file and field) in the refusal and in the trail. A rollback (rollback.ts) and the service
 * bringing the site up to main (publisher.ts) go live the same way.
 */
import { spawn } from 'node:child_process'
import type { Database } from '../../database/database'
import type { AuditCheckpoints } from '../audit/anchors'
import { appendRefusal } from '../audit/refusal-limit'
import { appendAudit } from '../audit/trail'
import { PublishingError } from '../errors'
import {
  commitsBetween,
  fetchBranch,
  type GitRepository,
  kindOfMode,
  MergeConflictError,
  pushBranch,
  SpecialEntryError,
} from '../git/repository'
import type { PublicationOutcome, PublishingMetrics } from '../metrics'
import type { Notices } from '../notices/notices'
import type { Person } from '../people/roles'
import {
  branchOf,
  DraftConflictError,
  type Drafts,
  type DraftView,
  NoDraftError,
  RefusedError,
  refuseUnless,
} from '../workflow/drafts'
import { mayPublish } from '../workflow/four-eyes'
import { PublishBusyError, type Turns } from './lease'
import { MAIN, moveMain } from './main-moves'
import { filesOf, type Release } from './release-records'
import type { ReleaseTwins } from './release-twins'
import { BuildFailedError, type Releases } from './releases'

export interface PublisherOptions {
  database: Database
  repo: GitRepository
  drafts: Drafts
  releases: Releases
  /** Where main comes from and published commits go (a URL or path), and its branch. */
  remote?: { url: string; branch: string; push: boolean }
  /** A shell command run after each switch (`AFTER_RELEASE`), with `RELEASE_DIR` and others. */
  afterRelease?: string
  clock?: () => Date
  log?: {
    info(data: object, message: string): void
    error(data: object, message: string): void
  }
  /** How long a publish waits for another to finish (default 120 s). */
  waitMs?: number
  /**
   * The audit trail's checkpoint ref (../audit/anchors.ts): written after each switch of the
   * served release, and pushed with the published commit.
   */
  checkpoints?: AuditCheckpoints
  /** The operators' metrics: publications by outcome, their phases' times, rollbacks. */
  metrics?: PublishingMetrics
  /** Notices to the people concerned (../notices/), queued with a publication's record. */
  notices?: Notices
  /** The compressed twins of each release once it is live (`release-twins.ts`). */
  twins?: ReleaseTwins
}

/** What the steps of a publication work with: the publisher's parts, and its turns of the lease. */
export interface PublicationParts extends Omit<PublisherOptions, 'clock' | 'metrics'> {
  clock: () => Date
  metrics: PublishingMetrics
  turns: Turns
}

export interface PublishOptions {
  /**
   * Asked in the publication's turn, before the draft is merged: throws when what the
   * publication stands on no longer holds (a schedule's approval, `Schedules.fireDue`).
   */
  stillStands?: () => Promise<void>
}

/** Main of the remote and the service's main change the same files: a developer must merge. */
export class UpstreamConflictError extends PublishingError<
  'upstream-conflict' | 'upstream-special-entries'
> {
  readonly files: string[]
  constructor(files: string[], special?: SpecialEntryError) {
    if (special) super('upstream-special-entries', special.params)
    else super('upstream-conflict', { files })
    this.files = files
  }
}

/**
 * The remote's main holds what the service does not take (a symbolic link, a submodule): its
 * commits are not taken in, and nothing is published until they are gone there.
 */
export class UpstreamSpecialEntryError extends UpstreamConflictError {
  constructor(readonly refusal: SpecialEntryError) {
    super(
      refusal.entries.map((entry) => entry.path),
      refusal,
    )
  }
}

/** What a publication that threw `error` came to, for the operators' metrics. */
export function publicationOutcome(error: unknown): PublicationOutcome {
  if (error instanceof RefusedError || error instanceof NoDraftError) return 'refused'
  if (error instanceof DraftConflictError || error instanceof UpstreamConflictError) {
    return 'conflict'
  }
  if (error instanceof BuildFailedError) return 'build_failed'
  if (error instanceof PublishBusyError) return 'busy'
  return 'error'
}

/** Whether a file of the repository is something the site is made of, not tests or notes. */
export const isSiteSource = (path: string) =>
  /^(content|public|src)\//.test(path) || path === 'package.json' || path === 'package-lock.json'

export const SERVICE = 'service'
const SERVICE_PERSON = { name: 'Publishing service', email: 'publishing@localhost' }

/**
 * Publishes a draft, in a turn of the lease: returns the release now served. Refusals
 * (`RefusedError`), a draft that no longer merges (`DraftConflictError`), a site that does not
 * build (`BuildFailedError`) and a remote that conflicts (`UpstreamConflictError`) change
 * nothing.
 */
export function publishDraft(
  parts: PublicationParts,
  person: Person,
  draftId: string,
  kind: 'publish' | 'schedule',
  options: PublishOptions,
): Promise<Release> {
  const { releases, repo, database, metrics } = parts
  return parts.turns.exclusively(async (settled) => {
    // Published already by a process killed before it switched the site (its record just
    // settled): what is left is serving main.
    if (settled.some((move) => move.action === 'publish' && move.subject === draftId)) {
      const main = (await repo.resolve(MAIN)) as string
      const built = await releases.build(repo, main, parts.clock())
      return goLive(parts, built.folder, main, kind, person.email, draftId)
    }
    const merging = metrics.phase('merge')
    const merged = await mergeBesideTakeIn(parts, person, draftId, options)
    merging()
    let built: { folder: string }
    const building = metrics.phase('build')
    try {
      // Built ahead at the draft's approval when main has not moved since (`Publisher.prepare`).
      built = await releases.build(repo, merged.commit, parts.clock(), { tree: merged.tree })
      building()
    } catch (error) {
      if (error instanceof BuildFailedError) {
        await appendAudit(
          database,
          {
            actor: person.email,
            action: 'publish-failed',
            subject: draftId,
            before: merged.mainBefore,
            after: merged.draft.head,
            details: { reason: error.message },
          },
          parts.clock(),
        )
      }
      throw error
    }
    const switching = metrics.phase('switch')
    try {
      await parts.turns.stillHolding()
      await landDraft(parts, person, merged)
    } catch (error) {
      // Main moved after all (the record failed after it): the publication stands.
      if ((await repo.resolve(MAIN)) !== merged.commit) {
        await releases.discard(built.folder)
        throw error
      }
    }
    const release = await goLive(
      parts,
      built.folder,
      merged.commit,
      kind,
      person.email,
      draftId,
      true,
    )
    switching()
    return release
  })
}

/**
 * Takes in what reached the remote's main from elsewhere: a fast-forward, or a merge commit
 * when the service's main has publications the remote lacks. Conflicting files refuse.
 */
export async function takeIn(parts: PublicationParts): Promise<void> {
  const behind = await remoteAhead(parts)
  if (behind) await takeInTip(parts, behind)
}

/** Main and the remote's tip when the remote has commits main lacks; else `null`. */
interface Upstream {
  ours: string
  theirs: string
}

/** Asks the remote for its main: what there is to take in, if anything. */
async function remoteAhead(parts: PublicationParts): Promise<Upstream | null> {
  const { remote, repo } = parts
  if (!remote) return null
  const theirs = await fetchBranch(repo, remote.url, remote.branch)
  const ours = await repo.resolve(MAIN)
  if (!theirs || !ours || theirs === ours || (await repo.isAncestor(theirs, ours))) return null
  return { ours, theirs }
}

/**
 * Merges the draft onto main while the remote is asked for its main, which mostly has nothing
 * new (the service pushes main there after every release): the merge need not wait for the
 * remote's answer. When the remote did bring something, the merge made meanwhile is dropped
 * unrecorded (an unreferenced commit), what came is taken in, and the draft merged again on
 * the new main: refusals and conflicts are recorded only as they stand against that.
 */
async function mergeBesideTakeIn(
  parts: PublicationParts,
  person: Person,
  draftId: string,
  options: PublishOptions,
): Promise<Merged> {
  const asked = remoteAhead(parts)
  // Awaited below, unless the merge fails first: its failure must not count as unhandled.
  asked.catch(() => {})
  await options.stillStands?.()
  let merged: Merged | UnrecordedConflict
  try {
    merged = await mergeDraft(parts, person, draftId, { recordConflict: false })
  } catch (error) {
    if (!(error instanceof UnrecordedConflict)) throw error
    merged = error
  }
  const upstream = await asked
  if (upstream) {
    await takeInTip(parts, upstream)
    return mergeDraft(parts, person, draftId)
  }
  if (!(merged instanceof UnrecordedConflict)) return merged
  const { mainBefore, head, conflict } = merged
  return refuseConflict(parts, person, draftId, mainBefore, head, conflict)
}

/** A draft that does not merge onto main, not recorded yet (`mergeDraft`'s `recordConflict`). */
class UnrecordedConflict extends Error {
  constructor(
    readonly conflict: MergeConflictError,
    readonly mainBefore: string,
    readonly head: string,
  ) {
    super(conflict.message)
  }
}

/** Takes in the remote's tip: a fast-forward, or a merge commit; refused as it must be. */
async function takeInTip(parts: PublicationParts, { ours, theirs }: Upstream): Promise<void> {
  const { remote, repo, database } = parts
  if (!remote) return
  // A link or a submodule would be written out by every build and preview: refused whole.
  const special = await repo.specialEntries(theirs)
  if (special.length > 0) {
    const refusal = new SpecialEntryError(
      `the remote's main (${theirs.slice(0, 12)})`,
      special,
      'nothing was taken in: remove them on the remote, then publish again',
    )
    await appendAudit(
      database,
      {
        actor: SERVICE,
        action: 'refusal',
        subject: remote.branch,
        before: ours,
        after: theirs,
        details: {
          code: 'special-files',
          files: special.slice(0, 50).map((entry) => ({
            path: entry.path,
            kind: kindOfMode(entry.mode),
          })),
          reason: refusal.message,
        },
      },
      parts.clock(),
    )
    throw new UpstreamSpecialEntryError(refusal)
  }
  let next = theirs
  if (!(await repo.isAncestor(ours, theirs))) {
    let tree: string
    try {
      tree = await repo.mergeTrees(ours, theirs)
    } catch (error) {
      if (!(error instanceof MergeConflictError)) throw error
      await appendAudit(
        database,
        {
          actor: SERVICE,
          action: 'refusal',
          subject: remote.branch,
          before: ours,
          after: theirs,
          details: { code: 'upstream-conflict', files: error.files },
        },
        parts.clock(),
      )
      throw new UpstreamConflictError(error.files)
    }
    next = await repo.commitTree(tree, {
      parents: [ours, theirs],
      author: SERVICE_PERSON,
      message: await repo.withTrailers(`Take in ${remote.branch} of the remote`),
      date: parts.clock(),
    })
  }
  // Every commit it brings, with its author and content files: none of it was reviewed here.
  const taken = await commitsBetween(repo, ours, theirs)
  await parts.turns.stillHolding()
  await moveMain(
    database,
    repo,
    {
      actor: SERVICE,
      action: 'take-in',
      subject: remote.branch,
      before: ours,
      after: next,
      details: {
        remote: theirs,
        commits: taken.commits.map((commit) => ({
          commit: commit.commit,
          author: `${commit.author} <${commit.email}>`,
          files: commit.files,
        })),
        ...(taken.more > 0 ? { moreCommits: taken.more } : {}),
        // What of it the site is made of (content, images, code): from one diff, so no
        // commit's name or number hides a file.
        unreviewedContent: taken.files.filter(isSiteSource),
        authors: [
          ...new Set(taken.commits.map((commit) => `${commit.author} <${commit.email}>`)),
        ].slice(0, 20),
      },
    },
    parts.clock(),
  )
}

/**
 * A draft merged onto main's tip, not landed yet: the commit and its tree, what main was, the
 * draft.
 */
export interface Merged {
  commit: string
  tree: string
  mainBefore: string
  draft: DraftView
}

/**
 * The commit that publishing the draft would make main: the draft merged onto main's tip (a
 * change that reached main from elsewhere is kept), by the publisher, after the rules. No ref
 * moves: the caller builds the site from it first, then `land`s it. A draft that no longer
 * merges is refused with the files to re-save.
 */
export async function mergeDraft(
  parts: Pick<PublicationParts, 'database' | 'repo' | 'drafts' | 'clock'>,
  person: Person,
  id: string,
  /** `recordConflict: false` throws an `UnrecordedConflict` for the caller to decide on. */
  { recordConflict = true } = {},
): Promise<Merged> {
  const { database, repo, drafts, clock } = parts
  const draft = await drafts.require(id)
  await refuseUnless(database, person, mayPublish(person, draft), id, clock())
  const mainBefore = await repo.resolve(MAIN)
  if (!mainBefore) throw new Error('the repository has no main branch')
  let tree: string
  try {
    tree = await repo.mergeTrees(mainBefore, draft.head)
  } catch (error) {
    if (!(error instanceof MergeConflictError)) throw error
    if (!recordConflict) throw new UnrecordedConflict(error, mainBefore, draft.head)
    return refuseConflict(parts, person, id, mainBefore, draft.head, error)
  }
  const commit = await repo.commitTree(tree, {
    parents: [mainBefore, draft.head],
    author: { name: person.name, email: person.email },
    message: await repo.withTrailers(
      `Publish ${id}\n\nApproved by ${draft.approval?.by} at ${draft.approval?.at}.`,
    ),
    date: clock(),
  })
  return { commit, tree, mainBefore, draft }
}

/** Records that the draft no longer merges onto main, and refuses with the files to re-save. */
async function refuseConflict(
  parts: Pick<PublicationParts, 'database' | 'clock'>,
  person: Person,
  id: string,
  mainBefore: string,
  head: string,
  { files }: MergeConflictError,
): Promise<never> {
  await appendRefusal(
    parts.database,
    {
      actor: person.email,
      action: 'refusal',
      subject: id,
      before: mainBefore,
      after: head,
      details: { code: 'conflict', files },
    },
    parts.clock(),
  )
  throw new DraftConflictError(id, files)
}

/**
 * Moves main to a merged commit if main is still where it was merged onto (else
 * `RefMovedError`: merge again), removes the draft's branch and record, and records the
 * publication.
 */
export async function landDraft(
  parts: Pick<PublicationParts, 'database' | 'repo' | 'clock' | 'notices'>,
  person: Person,
  merged: Merged,
): Promise<void> {
  const { draft } = merged
  const { notices } = parts
  await moveMain(
    parts.database,
    parts.repo,
    {
      action: 'publish',
      actor: person.email,
      subject: draft.id,
      before: merged.mainBefore,
      after: merged.commit,
      details: {
        draft: draft.head,
        approvedBy: draft.approval?.by,
        files: draft.files,
        ...(draft.deletes.length > 0 ? { deletes: draft.deletes } : {}),
      },
      draft: { id: draft.id, ref: branchOf(draft.id), head: draft.head },
    },
    parts.clock(),
    // Notices: its authors and its approver, in the transaction that records it.
    notices && ((tx) => notices.published(tx, person, draft)),
  )
  parts.notices?.wake()
}

/** Switches to `folder`, records it, then pushes, prunes and runs the after-release command. */
export async function goLive(
  parts: PublicationParts,
  folder: string,
  commit: string,
  kind: Release['kind'],
  madeBy: string,
  subject: string,
  /** Main moved to `commit` already: losing the lease now leaves main changed, unserved. */
  mainMoved = false,
): Promise<Release> {
  const { releases, database, repo, remote, log, checkpoints } = parts
  try {
    await parts.turns.stillHolding()
  } catch (error) {
    if (kind !== 'rollback') await releases.discard(folder)
    if (mainMoved) {
      throw new PublishBusyError('publish-not-switched')
    }
    throw error
  }
  await releases.switchTo(folder)
  const now = parts.clock()
  const release = await database.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string | number }>(
      `INSERT INTO releases (folder, commit, kind, made_by, subject, live_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [folder, commit, kind, madeBy, subject, now.toISOString()],
    )
    // Content taken in from outside that this release is the first to serve is marked on it
    // (a rollback restores earlier content: it serves none of it).
    const unreviewed =
      kind === 'rollback'
        ? []
        : await tx.query<{ commit: string; author: string; files: string[] | string }>(
            `UPDATE taken_in_content SET release_id = $1 WHERE release_id IS NULL
             RETURNING commit, author, files`,
            [row?.id],
          )
    if (unreviewed.length > 0) {
      await appendAudit(
        tx,
        {
          actor: madeBy,
          action: 'unreviewed-live',
          subject: folder,
          after: commit,
          details: {
            commits: unreviewed.map((taken) => ({ ...taken, files: filesOf(taken.files) })),
          },
        },
        now,
        tx,
      )
    }
    // The service bringing the served site up to main, or serving it first, names itself in
    // the trail; the other switches follow the move of main recorded before them.
    if (kind === 'recovery' || kind === 'first') {
      const action = kind === 'first' ? 'first-release' : 'recovery'
      await appendAudit(
        tx,
        { actor: madeBy, action, subject: folder, after: commit, details: {} },
        now,
        tx,
      )
    }
    return {
      id: Number(row?.id),
      folder,
      commit,
      kind,
      madeBy,
      subject,
      liveAt: now.toISOString(),
      unreviewed: unreviewed.map((taken) => ({ ...taken, files: filesOf(taken.files) })),
    }
  })
  // The trail as it stands now, its publication entry included, anchored in git.
  await checkpoints
    ?.write()
    .catch((error: unknown) => log?.error({ err: error }, 'the audit trail checkpoint failed'))
  if (remote?.push) {
    const refs = (await checkpoints?.refsToPush().catch(() => [])) ?? []
    await pushBranch(repo, remote.url, remote.branch, commit, refs).catch((error: unknown) =>
      log?.error(
        { err: error, commit, refs },
        'pushing the published commit (and the audit checkpoint) failed',
      ),
    )
  }
  const removed = await releases.prune()
  if (removed.length > 0) log?.info({ removed }, 'old releases removed')
  parts.twins?.live(releases.pathOf(release.folder))
  if (parts.afterRelease) runAfterRelease(parts, release)
  return release
}

/** The after-release command, in the background: its failure is logged, the release stays. */
function runAfterRelease(parts: PublicationParts, release: Release): void {
  const { log, releases } = parts
  const child = spawn('sh', ['-c', parts.afterRelease as string], {
    env: {
      ...withoutServiceSecrets(process.env),
      RELEASE_DIR: releases.pathOf(release.folder),
      RELEASE_ID: release.folder,
      RELEASE_COMMIT: release.commit,
      RELEASE_KIND: release.kind,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const errors: Buffer[] = []
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk))
  child.on('error', (error) => log?.error({ err: error }, 'the after-release command failed'))
  child.on('close', (code) => {
    if (code === 0) log?.info({ release: release.folder }, 'after-release command done')
    else
      log?.error(
        { release: release.folder, code, stderr: Buffer.concat(errors).toString().slice(-2000) },
        'the after-release command failed',
      )
  })
}

/**
 * The after-release command's environment: the service's, less the secrets it has no use for
 * (the database and its owner, the audit trail's key, the identity provider's client, the
 * mail server). What it needs for its own target (a CDN's keys, rclone's configuration) passes
 * through.
 */
export function withoutServiceSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept = { ...env }
  for (const name of [
    'DATABASE_URL',
    'DATABASE_OWNER_URL',
    'TEST_DATABASE_URL',
    'TEST_DATABASE_SERVICE_URL',
    'AUDIT_KEY',
    'OIDC_CLIENT_SECRET',
    'SMTP_URL',
    'PUBLISHING_REMOTE_TOKEN',
    'METRICS_TOKEN',
    'CMS_METRICS_TOKEN',
  ]) {
    delete kept[name]
  }
  return kept
}
