/**
 * The publisher: the service's one handle on what goes live, one at a time across every
 * process of the service (a turn of the publication lease, lease.ts, which lapses by itself
 * should its holder die mid-way).
 *
 * - A publication (publish.ts): the remote taken in, the approved draft merged onto main's
 *   tip, the site built from that commit into a new release, and only when it builds main
 *   moved, the served release switched and the draft's branch gone.
 * - A rollback (rollback.ts): a commit on main whose content is an earlier release's, that
 *   release's folder served again at once, without building.
 * - What the site served (release-records.ts), and the site brought up to main when it is
 *   behind (`recover`, `keepUpWithMain`) or first served (`firstRelease`), here.
 */
import { MergeConflictError } from '../git/repository'
import { NO_METRICS } from '../metrics'
import type { Person } from '../people/roles'
import { pendingRollbacks, type RollbackRequest } from '../workflow/rollbacks'
import { PublishBusyError, Turns } from './lease'
import { MAIN } from './main-moves'
import {
  goLive,
  type PublicationParts,
  type PublisherOptions,
  type PublishOptions,
  publicationOutcome,
  publishDraft,
  SERVICE,
  takeIn,
} from './publish'
import {
  listReleases,
  previousRelease,
  type Release,
  type ReleaseView,
  releaseOf,
} from './release-records'
import { BuildFailedError } from './releases'
import {
  confirmRollback,
  planRollback,
  type RollbackOutcome,
  type RollbackPlan,
  requestRollback,
  rollBack,
} from './rollback'

export class Publisher {
  /** What a publication's steps work with (publish.ts), this publisher's turns included. */
  private readonly parts: PublicationParts

  constructor(options: PublisherOptions) {
    const clock = options.clock ?? (() => new Date())
    this.parts = {
      ...options,
      clock,
      metrics: options.metrics ?? NO_METRICS,
      turns: new Turns({
        database: options.database,
        repo: options.repo,
        clock,
        ...(options.log ? { log: options.log } : {}),
        ...(options.waitMs !== undefined ? { waitMs: options.waitMs } : {}),
      }),
    }
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
      const release = await publishDraft(this.parts, person, draftId, kind, options)
      this.parts.metrics.publication('published')
      return release
    } catch (error) {
      this.parts.metrics.publication(publicationOutcome(error))
      throw error
    }
  }

  /**
   * Builds ahead, in the background, the release that publishing an approved draft now would
   * serve (the draft merged onto main's tip), so that its publication takes that folder instead
   * of building when main has not moved meanwhile (`Releases.prepare`). Only in a turn of its
   * own while the lease is free: a publication, rollback or backup under way goes first, and a
   * publication pressed meanwhile waits for it, then takes it. Nothing is recorded and nothing
   * served: a draft that does not merge or build is refused, and recorded, by its publication.
   * Whether it was built.
   */
  prepare(draftId: string): Promise<boolean> {
    const run = this.buildAhead(draftId)
    this.preparing.add(run)
    void run.finally(() => this.preparing.delete(run))
    return run
  }

  /** The releases being built ahead (`prepare`). */
  private readonly preparing = new Set<Promise<boolean>>()

  /** Resolves once no release is being built ahead: before the service closes its database. */
  async idle(): Promise<void> {
    await Promise.all(this.preparing)
  }

  private async buildAhead(draftId: string): Promise<boolean> {
    const { drafts, repo, releases, log } = this.parts
    const began = performance.now()
    try {
      return await this.parts.turns.exclusively(async () => {
        const draft = await drafts.get(draftId)
        const main = await repo.resolve(MAIN)
        if (!draft || !main || draft.status !== 'pending_publish') return false
        const tree = await repo.mergeTrees(main, draft.head)
        await releases.prepare(repo, tree, this.parts.clock())
        log?.info(
          { draft: draftId, ms: Math.round(performance.now() - began) },
          'release built ahead of its publication',
        )
        return true
      }, 0)
    } catch (error) {
      const expected =
        error instanceof PublishBusyError ||
        error instanceof MergeConflictError ||
        error instanceof BuildFailedError
      if (!expected) log?.error({ err: error, draft: draftId }, 'building a release ahead failed')
      return false
    }
  }

  /** An emergency's rollback, at once and alone (rollback.ts: `rollBack`). */
  rollBack(person: Person, folder: string): Promise<Release> {
    return rollBack(this.parts, person, folder)
  }

  /** A publisher asks for a rollback: done at once, or waiting (rollback.ts). */
  requestRollback(person: Person, folder: string): Promise<RollbackOutcome> {
    return requestRollback(this.parts, person, folder)
  }

  /** A reviewer confirms a rollback asked for, and it is done at once (rollback.ts). */
  confirmRollback(person: Person, id: number): Promise<Release> {
    return confirmRollback(this.parts, person, id)
  }

  /** The rollback requests waiting for a reviewer, the oldest first. */
  rollbackRequests(): Promise<RollbackRequest[]> {
    return pendingRollbacks(this.parts.database)
  }

  /**
   * The release served just before the live one (what an emergency's rollback returns to), if
   * it is still on disk.
   */
  previousRelease(): Promise<string | null> {
    return previousRelease(this.parts.database, this.parts.releases)
  }

  /** What rolling back to `folder` would do now (rollback.ts). Reads only. */
  planRollback(folder: string): Promise<RollbackPlan> {
    return planRollback(this.parts, folder)
  }

  /** What the site served, newest first (release-records.ts). */
  list(): Promise<ReleaseView[]> {
    return listReleases(this.parts.database, this.parts.releases)
  }

  /** The latest switch to `folder`. */
  releaseOf(folder: string): Promise<Release | null> {
    return releaseOf(this.parts.database, folder)
  }

  /**
   * Brings the served site up to main when they differ: after a process died between moving
   * main and switching the release, or when main was moved by a rollback's record only. Run at
   * start; a site that does not build is logged and the served release kept.
   */
  async recover(waitMs?: number): Promise<Release | null> {
    const { releases, repo } = this.parts
    return this.parts.turns.exclusively(async () => {
      const live = await releases.current()
      if (!live) return null
      // Holding the lease, no build runs: a folder one left half-made goes.
      await releases.removeUnfinished()
      const main = await repo.resolve(MAIN)
      const served = await this.releaseOf(live)
      if (!main || (served && served.commit === main)) return null
      try {
        const built = await releases.build(repo, main, this.parts.clock())
        return await goLive(this.parts, built.folder, main, 'recovery', SERVICE, main)
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
    const { releases, repo } = this.parts
    return this.parts.turns.exclusively(async () => {
      if (await releases.current()) return null
      await releases.removeUnfinished()
      const main = await repo.resolve(MAIN)
      if (!main) return null
      const built = await releases.build(repo, main, this.parts.clock())
      return goLive(this.parts, built.folder, main, 'first', SERVICE, main)
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
    const { releases, repo } = this.parts
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
   * Takes in what reached the remote's main from elsewhere (publish.ts: `takeIn`), in the
   * caller's turn of the lease.
   */
  takeIn(): Promise<void> {
    return takeIn(this.parts)
  }
}
