/**
 * Publishing and rolling back, one at a time across every process of the service.
 *
 * Publish: what reached the remote's main from elsewhere is taken in first; the draft is merged
 * onto main's tip after the four-eyes rules (drafts.ts); the site is built from that commit into
 * a new release (releases.ts), and only when it builds does main move (compare-and-swap), the
 * served release switch and the draft's branch go. A build that fails leaves main, the live
 * release and the draft as they were, with the reason (file and field) in the refusal and in the
 * trail. Rollback makes a commit on main whose tree is an earlier release's and serves that
 * release's folder at once, without building.
 *
 * One publication at a time: a lease row in the database (any process, PGlite or PostgreSQL),
 * which lapses by itself should its holder die mid-way.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { spawn } from 'node:child_process'
import type { Database } from '../../database/database'
import type { AuditCheckpoints } from '../audit/anchors'
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
import { NO_METRICS, type PublicationOutcome, type PublishingMetrics } from '../metrics'
import { personOf } from '../people/people'
import type { Person } from '../people/roles'
import {
  DraftConflictError,
  type Drafts,
  MAIN,
  NoDraftError,
  RefusedError,
  refuseUnless,
} from './drafts'
import {
  mayConfirmRollback,
  mayRequestRollback,
  mayRollBack,
  type Rollback,
  refusalOf,
  requestStands,
} from './four-eyes'
import {
  LEASE_MS,
  leaseHolder,
  releaseLease,
  renewLease,
  takeOverFromDead,
  tryTakeLease,
  turnBegins,
  turnEnds,
} from './lease'
import { type MainMove, moveMain, settleMainMoves } from './main-moves'
import { BuildFailedError, type Releases } from './releases'
import {
  decideRollbackRequest,
  insertRollbackRequest,
  pendingRollbacks,
  type RollbackChanges,
  type RollbackRequest,
  rollbackChanges,
  rollbackRequest,
} from './rollbacks'

export const RELEASES_MIGRATION = {
  id: '0004-releases',
  statements: [
    // Each switch of the served release: a publication, a rollback, a schedule firing, or the
    // service bringing the served site up to main after a crash.
    `CREATE TABLE releases (
      id bigserial PRIMARY KEY,
      folder text NOT NULL,
      commit text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('publish', 'rollback', 'schedule', 'recovery')),
      made_by text NOT NULL,
      subject text NOT NULL,
      live_at timestamptz NOT NULL
    )`,
    `CREATE INDEX releases_folder ON releases (folder)`,
    `CREATE TABLE publish_lease (
      name text PRIMARY KEY,
      holder text NOT NULL,
      until timestamptz NOT NULL
    )`,
  ],
}

/**
 * The release the publishing service makes at its first start, of main as it is: the site
 * before any publication, listed and served, so the first publication can be undone.
 */
export const FIRST_RELEASE_MIGRATION = {
  id: '0017-first-release',
  statements: [
    `ALTER TABLE releases DROP CONSTRAINT releases_kind_check`,
    `ALTER TABLE releases ADD CONSTRAINT releases_kind_check
       CHECK (kind IN ('publish', 'rollback', 'schedule', 'recovery', 'first'))`,
  ],
}

/** When the lease's holder took it (renewals extend `until` only): how long it has been held. */
export const LEASE_SINCE_MIGRATION = {
  id: '0013-publish-lease-since',
  statements: [`ALTER TABLE publish_lease ADD COLUMN since timestamptz NOT NULL DEFAULT now()`],
}

/** Whether a file of the repository is something the site is made of, not tests or notes. */
export const isSiteSource = (path: string) =>
  /^(content|public|src)\//.test(path) || path === 'package.json' || path === 'package-lock.json'

/** A `jsonb` list as the driver gives it (PGlite parses it, some set-ups give its text). */
const filesOf = (files: string[] | string): string[] =>
  typeof files === 'string' ? (JSON.parse(files) as string[]) : files

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [])

/** A rollback's record on the releases page, from its trail entry's details. */
function rollbackOf(details: Record<string, unknown>): NonNullable<ReleaseView['rollback']> {
  return {
    emergency: details.emergency === true,
    ...(typeof details.requestedBy === 'string' ? { requestedBy: details.requestedBy } : {}),
    ...(typeof details.confirmedBy === 'string' ? { confirmedBy: details.confirmedBy } : {}),
    ...(Array.isArray(details.returns)
      ? {
          changes: {
            returns: strings(details.returns),
            goes: strings(details.goes),
            changes: strings(details.changes),
            publications: strings(details.publications),
            writers: strings(details.writers),
          },
        }
      : {}),
  }
}

/**
 * Another publication holds the lease longer than a publish waits, or took it over from this
 * one (before or after main moved).
 */
export class PublishBusyError extends PublishingError<
  'publish-busy' | 'publish-overtaken' | 'publish-not-switched'
> {}

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

/** A commit that reached main from outside the service, with the content files it changed. */
export interface UnreviewedContent {
  commit: string
  /** `Name <e-mail>`, as git has it. */
  author: string
  files: string[]
}

export interface Release {
  id: number
  folder: string
  commit: string
  kind: 'publish' | 'rollback' | 'schedule' | 'recovery' | 'first'
  madeBy: string
  subject: string
  liveAt: string
  /** Content this release was the first to serve that no reviewer approved (taken in). */
  unreviewed: UnreviewedContent[]
}

/** A row of the `releases` table: one switch of the served release. */
interface ReleaseRow {
  id: string | number
  folder: string
  commit: string
  kind: Release['kind']
  made_by: string
  subject: string
  live_at: Date | string
}

/** A release as the releases page shows it. */
export interface ReleaseView extends Release {
  live: boolean
  /** The files its publication changed or added (none for a rollback or a recovery). */
  files: string[]
  /** The files its publication deleted. */
  deleted: string[]
  /** Who approved the draft it published. */
  approvedBy?: string
  /** A rollback's: an emergency's (a publisher alone), or asked for and confirmed, by whom. */
  rollback?: {
    emergency: boolean
    requestedBy?: string
    confirmedBy?: string
    /** What it brought back and took away (none for a rollback made before they were kept). */
    changes?: RollbackChanges
  }
}

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

export interface PublishOptions {
  /**
   * Asked in the publication's turn, before the draft is merged: throws when what the
   * publication stands on no longer holds (a schedule's approval, `Schedules.fireDue`).
   */
  stillStands?: () => Promise<void>
}

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

/** The longest a turn keeps renewing the lease: far above any build. */
const MAX_TURN_MS = 30 * 60_000
const SERVICE = 'service'
const SERVICE_PERSON = { name: 'Publishing service', email: 'publishing@localhost' }

export class Publisher {
  private readonly clock: () => Date
  private readonly metrics: PublishingMetrics
  /** The lease's holder token of the turn the code runs in (see exclusively). */
  private readonly turn = new AsyncLocalStorage<string>()

  constructor(private readonly options: PublisherOptions) {
    this.clock = options.clock ?? (() => new Date())
    this.metrics = options.metrics ?? NO_METRICS
  }

  /**
   * Publishes a draft: returns the release now served. Refusals (`RefusedError`), a draft that
   * no longer merges (`DraftConflictError`), a site that does not build (`BuildFailedError`) and
   * a remote that conflicts (`UpstreamConflictError`) change nothing.
   */
  async publish(
    person: Person,
    draftId: string,
    kind: 'publish' | 'schedule' = 'publish',
    options: PublishOptions = {},
  ): Promise<Release> {
    try {
      const release = await this.publishExclusively(person, draftId, kind, options)
      this.metrics.publication('published')
      return release
    } catch (error) {
      this.metrics.publication(publicationOutcome(error))
      throw error
    }
  }

  /** `publish`'s work, in a turn of the lease. */
  private publishExclusively(
    person: Person,
    draftId: string,
    kind: 'publish' | 'schedule',
    options: PublishOptions,
  ): Promise<Release> {
    const { drafts, releases, repo, database } = this.options
    const { metrics } = this
    return this.exclusively(async (settled) => {
      // Published already by a process killed before it switched the site (its record just
      // settled): what is left is serving main.
      if (settled.some((move) => move.action === 'publish' && move.subject === draftId)) {
        const main = (await repo.resolve(MAIN)) as string
        const built = await releases.build(repo, main, this.clock())
        return this.goLive(built.folder, main, kind, person.email, draftId)
      }
      const merging = metrics.phase('merge')
      await this.takeIn()
      await options.stillStands?.()
      const merged = await drafts.merged(person, draftId)
      merging()
      let built: { folder: string }
      const building = metrics.phase('build')
      try {
        built = await releases.build(repo, merged.commit, this.clock())
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
            this.clock(),
          )
        }
        throw error
      }
      const switching = metrics.phase('switch')
      try {
        await this.stillHolding()
        await drafts.land(person, merged)
      } catch (error) {
        // Main moved after all (the record failed after it): the publication stands.
        if ((await repo.resolve(MAIN)) !== merged.commit) {
          await releases.discard(built.folder)
          throw error
        }
      }
      const release = await this.goLive(
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
   * Rolls back at once, alone: an emergency's rollback, to the release served just before the
   * live one (`mayRollBack`). Anything else is refused, in the trail: `requestRollback` asks
   * for it instead.
   */
  async rollBack(person: Person, folder: string): Promise<Release> {
    const { database } = this.options
    await refuseUnless(database, person, mayRequestRollback(person), folder, this.clock())
    return this.exclusively(async () => {
      await this.requireRelease(folder)
      await this.takeIn()
      const plan = await this.planRollback(folder)
      await refuseUnless(
        database,
        person,
        mayRollBack(person, ruleOf(plan)),
        folder,
        this.clock(),
        {
          action: 'rollback',
        },
      )
      return this.executeRollback(person, plan, { emergency: true })
    })
  }

  /**
   * A publisher asks for a rollback: done at once where the rules let them do it alone (an
   * emergency: one step back, none of their own text coming back), else recorded as a request
   * that a reviewer confirms (`confirmRollback`), saying why it waits. Asked again while one
   * for the same release waits, the waiting one is returned; one asked for before the live
   * release changed is stale, and replaced by a new one (its trail entry says `replaces`).
   */
  async requestRollback(person: Person, folder: string): Promise<RollbackOutcome> {
    const { database } = this.options
    await refuseUnless(database, person, mayRequestRollback(person), folder, this.clock())
    return this.exclusively(async (): Promise<RollbackOutcome> => {
      await this.requireRelease(folder)
      await this.takeIn()
      const plan = await this.planRollback(folder)
      const alone = mayRollBack(person, ruleOf(plan))
      if (alone.allowed) {
        return {
          done: true,
          release: await this.executeRollback(person, plan, { emergency: true }),
        }
      }
      const now = this.clock()
      const waiting = (await pendingRollbacks(database)).find(
        (request) => request.folder === folder,
      )
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
  async confirmRollback(person: Person, id: number): Promise<Release> {
    const { database } = this.options
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
      this.clock(),
      { action: 'rollback-confirm', request: id },
    )
    return this.exclusively(async () => {
      const request = await rollbackRequest(database, id)
      if (request?.state !== 'pending') {
        throw new RollbackRequestError('rollback-decided', { id })
      }
      const live = await this.options.releases.current()
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
        await decideRollbackRequest(
          database,
          id,
          'stale',
          person.email,
          stands.reason,
          this.clock(),
        )
      }
      await refuseUnless(database, person, stands, subject, this.clock(), {
        action: 'rollback-confirm',
        request: id,
      })
      try {
        await this.requireRelease(request.folder)
      } catch (error) {
        // Removed from disk since (older than the releases kept): it can never be done.
        const gone = error instanceof Error ? error.message : String(error)
        await decideRollbackRequest(database, id, 'stale', person.email, gone, this.clock())
        throw error
      }
      await this.takeIn()
      const plan = await this.planRollback(request.folder)
      // What comes back as it is now (a take-in may have changed it): still none of theirs.
      await refuseUnless(
        database,
        person,
        mayConfirmRollback(person, { ...ruleOf(plan), requestedBy: request.requestedBy }),
        subject,
        this.clock(),
        { action: 'rollback-confirm', request: id },
      )
      const release = await this.executeRollback(person, plan, {
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
        this.clock(),
      )
      return release
    })
  }

  /** The rollback requests waiting for a reviewer, the oldest first. */
  rollbackRequests(): Promise<RollbackRequest[]> {
    return pendingRollbacks(this.options.database)
  }

  /**
   * The release served just before the live one (what an emergency's rollback returns to), if
   * it is still on disk.
   */
  async previousRelease(): Promise<string | null> {
    const { releases, database } = this.options
    const live = await releases.current()
    if (!live) return null
    const [row] = await database.query<{ folder: string }>(
      `SELECT folder FROM releases
       WHERE id < (SELECT max(id) FROM releases WHERE folder = $1) AND folder <> $1
       ORDER BY id DESC LIMIT 1`,
      [live],
    )
    return row && (await releases.list()).includes(row.folder) ? row.folder : null
  }

  /**
   * What rolling back to `folder` would do now: the release, the live one and the one before
   * it, main's tip, and the files that return, go or change, the publications undone and the
   * writers of what comes back. Reads only.
   */
  async planRollback(folder: string): Promise<RollbackPlan> {
    const { releases, repo, database } = this.options
    const target = await this.requireRelease(folder)
    const main = await repo.resolve(MAIN)
    if (!main) throw new Error('the repository has no main branch')
    const live = await releases.current()
    const previous = await this.previousRelease()
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
  private async requireRelease(folder: string): Promise<Release> {
    const target = await this.releaseOf(folder)
    if (!target || !(await this.options.releases.list()).includes(folder)) {
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
  private async executeRollback(
    person: Person,
    plan: RollbackPlan,
    how: { emergency: boolean; requestedBy?: string; request?: number },
  ): Promise<Release> {
    const { repo, database } = this.options
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
      date: this.clock(),
    })
    await this.stillHolding()
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
      this.clock(),
    )
    const release = await this.goLive(
      target.folder,
      commit,
      'rollback',
      person.email,
      target.folder,
      true,
    )
    this.metrics.rollback()
    return release
  }

  /**
   * What the site served, newest first: each switch of the served release (a publication, a
   * schedule firing, a rollback, the service's first release or a recovery) whose folder is
   * still on disk, with what it changed (the files, those deleted, who approved them) from the
   * trail's record of the move of main it serves. A rollback is an entry of its own, above the
   * publications it undid, which keep who approved them; the live entry is the newest.
   */
  async list(): Promise<ReleaseView[]> {
    const { releases, database } = this.options
    const live = await releases.current()
    const onDisk = new Set(await releases.list())
    const rows = (
      await database.query<ReleaseRow>('SELECT * FROM releases ORDER BY id DESC')
    ).filter((row) => onDisk.has(row.folder))
    const liveId = rows.find((row) => row.folder === live)?.id
    const out: ReleaseView[] = []
    for (const row of rows) {
      const release = await this.releaseFrom(row)
      const [move] = await database.query<{ details: Record<string, unknown> | string }>(
        `SELECT details FROM audit_entries
         WHERE after_commit = $1 AND action = $2
         ORDER BY id DESC LIMIT 1`,
        [release.commit, release.kind === 'rollback' ? 'rollback' : 'publish'],
      )
      const details = typeof move?.details === 'string' ? JSON.parse(move.details) : move?.details
      const publication = release.kind === 'publish' || release.kind === 'schedule'
      const files = publication && Array.isArray(details?.files) ? details.files.map(String) : []
      const deleted =
        publication && Array.isArray(details?.deletes) ? details.deletes.map(String) : []
      out.push({
        ...release,
        live: row.id === liveId,
        files: files.filter((file: string) => !deleted.includes(file)),
        deleted,
        ...(publication && typeof details?.approvedBy === 'string'
          ? { approvedBy: details.approvedBy }
          : {}),
        ...(release.kind === 'rollback' ? { rollback: rollbackOf(details ?? {}) } : {}),
      })
    }
    return out
  }

  /** The latest switch to `folder`. */
  async releaseOf(folder: string): Promise<Release | null> {
    const [row] = await this.options.database.query<ReleaseRow>(
      'SELECT * FROM releases WHERE folder = $1 ORDER BY id DESC LIMIT 1',
      [folder],
    )
    return row ? this.releaseFrom(row) : null
  }

  /** A switch's record, with the content taken in that it was the first to serve. */
  private async releaseFrom(row: ReleaseRow): Promise<Release> {
    const unreviewed = await this.options.database.query<{
      commit: string
      author: string
      files: string[] | string
    }>('SELECT commit, author, files FROM taken_in_content WHERE release_id = $1 ORDER BY id', [
      row.id,
    ])
    return {
      id: Number(row.id),
      folder: row.folder,
      commit: row.commit,
      kind: row.kind,
      madeBy: row.made_by,
      subject: row.subject,
      liveAt: new Date(row.live_at).toISOString(),
      unreviewed: unreviewed.map((taken) => ({ ...taken, files: filesOf(taken.files) })),
    }
  }

  /**
   * Brings the served site up to main when they differ: after a process died between moving
   * main and switching the release, or when main was moved by a rollback's record only. Run at
   * start; a site that does not build is logged and the served release kept.
   */
  async recover(waitMs?: number): Promise<Release | null> {
    const { releases, repo } = this.options
    return this.exclusively(async () => {
      const live = await releases.current()
      if (!live) return null
      // Holding the lease, no build runs: a folder one left half-made goes.
      await releases.removeUnfinished()
      const main = await repo.resolve(MAIN)
      const served = await this.releaseOf(live)
      if (!main || (served && served.commit === main)) return null
      try {
        const built = await releases.build(repo, main, this.clock())
        return await this.goLive(built.folder, main, 'recovery', SERVICE, main)
      } catch (error) {
        if (error instanceof BuildFailedError) this.unbuildable = main
        throw error
      }
    }, waitMs)
  }

  /**
   * Makes the first release when none is served: main as it is, built and served, recorded as
   * the service's own (`first`, with a `first-release` entry in the trail), so the site before
   * any publication is listed and the first publication can be undone. The publishing service
   * alone (`serve:cms`) runs it at start; the other replicas wait for the lease and find it
   * made. A site that does not build is thrown, and nothing is served from the releases.
   */
  async firstRelease(waitMs?: number): Promise<Release | null> {
    const { releases, repo } = this.options
    return this.exclusively(async () => {
      if (await releases.current()) return null
      await releases.removeUnfinished()
      const main = await repo.resolve(MAIN)
      if (!main) return null
      const built = await releases.build(repo, main, this.clock())
      return this.goLive(built.folder, main, 'first', SERVICE, main)
    }, waitMs)
  }

  /** Main's commit that did not build when the service last brought the site up to it. */
  private unbuildable: string | undefined

  /**
   * Brings the served site up to main if it is behind and no publication is under way (the
   * lease is free): what a process that lost its turn after moving main left unswitched. Each
   * process calls it every few seconds; a main that did not build is not tried again.
   */
  async keepUpWithMain(): Promise<Release | null> {
    const { releases, repo } = this.options
    const live = await releases.current()
    const main = await repo.resolve(MAIN)
    if (!live || !main || main === this.unbuildable) return null
    if ((await this.releaseOf(live))?.commit === main) return null
    return this.recover(0).catch((error: unknown) => {
      if (error instanceof PublishBusyError) return null
      throw error
    })
  }

  /**
   * Takes in what reached the remote's main from elsewhere: a fast-forward, or a merge commit
   * when the service's main has publications the remote lacks. Conflicting files refuse.
   */
  async takeIn(): Promise<void> {
    const { remote, repo, database } = this.options
    if (!remote) return
    const theirs = await fetchBranch(repo, remote.url, remote.branch)
    const ours = await repo.resolve(MAIN)
    if (!theirs || !ours || theirs === ours || (await repo.isAncestor(theirs, ours))) return
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
        this.clock(),
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
          this.clock(),
        )
        throw new UpstreamConflictError(error.files)
      }
      next = await repo.commitTree(tree, {
        parents: [ours, theirs],
        author: SERVICE_PERSON,
        message: await repo.withTrailers(`Take in ${remote.branch} of the remote`),
        date: this.clock(),
      })
    }
    // Every commit it brings, with its author and content files: none of it was reviewed here.
    const taken = await commitsBetween(repo, ours, theirs)
    await this.stillHolding()
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
      this.clock(),
    )
  }

  /** Switches to `folder`, records it, then pushes, prunes and runs the after-release command. */
  private async goLive(
    folder: string,
    commit: string,
    kind: Release['kind'],
    madeBy: string,
    subject: string,
    /** Main moved to `commit` already: losing the lease now leaves main changed, unserved. */
    mainMoved = false,
  ): Promise<Release> {
    const { releases, database, repo, remote, log, checkpoints } = this.options
    try {
      await this.stillHolding()
    } catch (error) {
      if (kind !== 'rollback') await releases.discard(folder)
      if (mainMoved) {
        throw new PublishBusyError('publish-not-switched')
      }
      throw error
    }
    await releases.switchTo(folder)
    const now = this.clock()
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
    if (this.options.afterRelease) this.runAfterRelease(release)
    return release
  }

  /** The after-release command, in the background: its failure is logged, the release stays. */
  private runAfterRelease(release: Release): void {
    const { log, releases } = this.options
    const child = spawn('sh', ['-c', this.options.afterRelease as string], {
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
   * Runs `work` holding the lease, with the moves of main a killed process left settled first
   * (passed to it); waits (polling) while another holds it, `waitMs` at most.
   */
  private async exclusively<T>(
    work: (settled: MainMove[]) => Promise<T>,
    waitMs = this.options.waitMs ?? 120_000,
  ): Promise<T> {
    const { database } = this.options
    const deadline = Date.now() + waitMs
    // One token per turn: a process that stalled past its lease while another turn of the
    // same process began cannot pass the other's for its own.
    const holder = leaseHolder()
    for (;;) {
      if (await tryTakeLease(database, holder)) break
      const dead = await takeOverFromDead(database, holder)
      if (dead) {
        this.options.log?.info({ from: dead }, 'took the publication over from a process that died')
        break
      }
      if (Date.now() > deadline) {
        throw new PublishBusyError('publish-busy')
      }
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    // Renewed while the work runs, so a long build keeps it, but not for ever: a turn hung on
    // a network or a build lets the lease lapse after MAX_TURN_MS and the others go on. A
    // process stalled past its lease finds it taken at its next step and stops (stillHolding).
    const began = Date.now()
    const renewal = setInterval(() => {
      if (Date.now() - began < MAX_TURN_MS) this.renew(holder).catch(() => {})
    }, LEASE_MS / 4)
    renewal.unref()
    turnBegins(holder)
    try {
      return await this.turn.run(holder, async () => {
        const settled = await settleMainMoves(database, this.options.repo, this.clock())
        if (settled.length > 0) {
          this.options.log?.info(
            { moves: settled.map((move) => `${move.action} ${move.subject}`) },
            'recorded the moves of main a killed process made',
          )
        }
        return work(settled)
      })
    } finally {
      clearInterval(renewal)
      turnEnds(holder)
      await releaseLease(database, holder).catch(() => {})
    }
  }

  /** Extends the lease if `holder` still holds it; whether it does. */
  private renew(holder: string): Promise<boolean> {
    return renewLease(this.options.database, holder)
  }

  /**
   * Checked before each step others see (moving main, switching the served release): a
   * publisher that lost the lease to another process stops before it, changing nothing more.
   */
  private async stillHolding(): Promise<void> {
    const holder = this.turn.getStore()
    if (!holder || !(await this.renew(holder))) {
      throw new PublishBusyError('publish-overtaken')
    }
  }
}
