/**
 * Releases: each publication is a complete built site in a folder of its own under the releases
 * folder (`RELEASES_DIR`, `data/releases/` by default), named by when it was made and the commit
 * it was built from; `current` is a symbolic link to the one served. Switching releases is one
 * `rename` of a new link over the old, so a request is answered wholly from the old release or
 * wholly from the new, never half of either, and a process killed at any moment leaves one of
 * them served.
 *
 * A release is built from a commit of the service's repository, code and content alike: the
 * commit is checked out into the service's own workspace (a working tree nobody else uses, with
 * an index of its own, updated file by file so the build's caches stay warm), and the site is
 * built there by the same build as `npm run build`, linking the pages that did not change from
 * the live release. A build that fails (the content checks name file and field) leaves the live
 * release as it was and its half-made folder removed.
 */
import { access, lstat, mkdir, readdir, readlink, rename, rm, symlink } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { BuildReport } from '../../engine/build'
import { seedCache } from '../../engine/cache/seed'
import type { BuildConfig } from '../../engine/config'
import { CURRENT } from '../../shared/release-layout'
import { PublishingError } from '../errors'
import { type GitRepository, SpecialEntryError } from '../git/repository'

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

/** `20261126T041503Z-0123456789ab`: when (UTC) and from which commit. */
const FOLDER = /^\d{8}T\d{6}Z-[0-9a-f]{12}(?:-\d+)?$/

/**
 * `.prepared-<tree>-<when>`: a release built ahead from a tree (`Releases.prepare`) at a time
 * (UTC, as a release's name has it), not a release yet: never listed, served or backed up as
 * one, and removed with what builds left half-made.
 */
const PREPARED = /^\.prepared-([0-9a-f]{40,64})-(\d{8}T\d{6}Z)$/
/**
 * How long a release built ahead is taken instead of a build: within the day it was made (the
 * exchange rates a build fetches are the day's, as the build cache's stamp counts them), and an
 * hour at most: a publication long after its approval builds afresh, as it always did.
 */
export const PREPARED_FOR_MS = 60 * 60_000

/** The code of a build that stopped: a publication's, or a preview's. */
type BuildFailure = 'not-built' | 'preview-not-built'

/**
 * The build stopped (bad content, named by file and field; or code that does not build): its
 * message is the build's own `details`; a person reads them after what did not happen.
 */
export class BuildFailedError extends PublishingError<BuildFailure> {
  constructor(
    details: string,
    readonly commit: string,
    code: BuildFailure = 'not-built',
  ) {
    super(code, { details })
  }
}

export interface ReleasesOptions {
  /** Where releases are kept (`RELEASES_DIR`). */
  dir: string
  /** The service's working tree for builds (never anyone else's). */
  workspace: string
  /** The `node_modules` the builds use (the service's own). */
  nodeModules: string
  /** The build settings (site address, trackers); the folders are the releases'. */
  buildConfig: BuildConfig
  /** The build itself (the site's `buildSite`; tests may wrap it). */
  build: (config: BuildConfig) => Promise<BuildReport>
  /** How many releases are kept on disk besides the live one (`RELEASES_KEPT`). */
  keep: number
}

export class Releases {
  /** The last build's cache writes, which it left behind to serve its release sooner. */
  private cacheSaved: Promise<void> = Promise.resolve()

  constructor(private readonly options: ReleasesOptions) {}

  get dir(): string {
    return this.options.dir
  }

  /** The releases' build cache, in the service's workspace. */
  get cacheDir(): string {
    return join(this.options.workspace, '.cache', 'releases')
  }

  /** Where the releases' compressed twins are kept by their file's bytes (`release-twins.ts`). */
  get twinsDir(): string {
    return join(this.cacheDir, 'twins')
  }

  /** The folder of the served release, or `null` before the first. */
  async current(): Promise<string | null> {
    try {
      const target = await readlink(join(this.options.dir, CURRENT))
      return basename(target)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  /** The releases on disk, newest first. */
  async list(): Promise<string[]> {
    const names = await readdir(this.options.dir).catch(() => [] as string[])
    return names.filter((name) => FOLDER.test(name)).sort((a, b) => (a < b ? 1 : -1))
  }

  /** The release's folder on disk. */
  pathOf(folder: string): string {
    if (!FOLDER.test(folder)) throw new PublishingError('not-release', { folder })
    return join(this.options.dir, folder)
  }

  /**
   * Builds `commit` into a new release folder, not yet served. Throws `BuildFailedError` with
   * the build's message when the site does not build; nothing is left behind then. When its
   * `tree` was built ahead the same day (`prepare`, at the draft's approval), that folder is
   * renamed into the release instead: the same tree builds the same site.
   */
  async build(
    repo: GitRepository,
    commit: string,
    now: Date,
    { tree }: { tree?: string } = {},
  ): Promise<{ folder: string; report?: BuildReport }> {
    await mkdir(this.options.dir, { recursive: true })
    const ahead = tree ? await this.builtAhead(tree, now) : null
    if (ahead) {
      const folder = await this.freeName(commit, now)
      await rename(join(this.options.dir, ahead), join(this.options.dir, folder))
      return { folder }
    }
    const folder = await this.freeName(commit, now)
    const report = await this.buildInto(repo, commit, folder)
    return { folder, report }
  }

  /**
   * Builds `tree` (what publishing an approved draft now would serve) ahead into a folder that
   * is not a release (`.prepared-…`), for the publication to take instead of building. Only the
   * newest is kept. Throws `BuildFailedError` as `build` does.
   */
  async prepare(repo: GitRepository, tree: string, now: Date): Promise<void> {
    await mkdir(this.options.dir, { recursive: true })
    for (const other of await readdir(this.options.dir)) {
      if (PREPARED.test(other))
        await rm(join(this.options.dir, other), { recursive: true, force: true })
    }
    await this.buildInto(repo, tree, `.prepared-${tree}-${stampOf(now)}`)
  }

  /** The folder of `tree` built ahead, if one was made `now`'s day within `PREPARED_FOR_MS`. */
  private async builtAhead(tree: string, now: Date): Promise<string | null> {
    for (const name of await readdir(this.options.dir)) {
      const [, built, when = ''] = PREPARED.exec(name) ?? []
      if (built !== tree) continue
      const made = Date.parse(
        when.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
      )
      const age = now.getTime() - made
      const sameDay = when.slice(0, 8) === stampOf(now).slice(0, 8)
      if (sameDay && age > -60_000 && age < PREPARED_FOR_MS) return name
    }
    return null
  }

  /** Builds the commit or tree `treeish` into `folder` of the releases folder. */
  private async buildInto(
    repo: GitRepository,
    treeish: string,
    folder: string,
  ): Promise<BuildReport> {
    // The workspace's caches as the last build left them, written whole (or not at all).
    await this.cacheSaved.catch(() => {})
    await checkedOut(treeish, () => this.checkOut(repo, treeish))
    const live = await this.current()
    const workspace = this.options.workspace
    const config: BuildConfig = {
      ...this.options.buildConfig,
      root: workspace,
      contentDir: join(workspace, 'content'),
      outDir: join(this.options.dir, folder),
      cacheDir: this.cacheDir,
      // Before the first release, the site served is the one `npm start` built: its unchanged
      // pages are linked from there (its page record came with the seeded cache).
      previousSite: live ? join(this.options.dir, live) : this.options.buildConfig.outDir,
      // The release goes live while the build cache is written; the next build waits for it.
      deferCacheSaves: true,
    }
    // The first build of a workspace starts from the site's own build cache (`npm start` built
    // the site before the service started): the same code and content need no bundling, PDFs
    // or images made again, so the first publication after a start costs what any other does.
    if (!(await exists(config.cacheDir))) {
      await seedCache(this.options.buildConfig.cacheDir, config.cacheDir)
    }
    try {
      const report = await this.options.build(config)
      this.cacheSaved = report.cacheSaved
      return report
    } catch (error) {
      await rm(config.outDir, { recursive: true, force: true })
      throw new BuildFailedError(error instanceof Error ? error.message : String(error), treeish)
    }
  }

  /**
   * Serves `folder` from now on: a new link renamed over `current` (atomic on one file system),
   * then the folder synced to disk so the switch survives a power cut.
   */
  async switchTo(folder: string): Promise<void> {
    const path = this.pathOf(folder)
    if (!(await lstat(path).catch(() => null))?.isDirectory()) {
      throw new PublishingError('release-not-on-disk', { folder })
    }
    const link = join(this.options.dir, `.${CURRENT}-${process.pid}-${Date.now().toString(36)}`)
    await symlink(folder, link, 'dir')
    try {
      await rename(link, join(this.options.dir, CURRENT))
    } catch (error) {
      await rm(link, { force: true })
      throw error
    }
  }

  /**
   * Removes what builds left half-made (`<folder>.next`, when a process died building) and the
   * releases built ahead that no publication took.
   */
  async removeUnfinished(): Promise<string[]> {
    const names = await readdir(this.options.dir).catch(() => [] as string[])
    const unfinished = names.filter((name) => /\.(next|old-.*)$/.test(name) || PREPARED.test(name))
    for (const name of unfinished) {
      await rm(join(this.options.dir, name), { recursive: true, force: true })
    }
    return unfinished
  }

  /** Removes a release that never went live (its publication did not land). */
  async discard(folder: string): Promise<void> {
    if ((await this.current()) === folder) throw new Error(`release ${folder} is live`)
    await rm(this.pathOf(folder), { recursive: true, force: true })
  }

  /**
   * Removes the oldest releases beyond those kept, never the live one nor one being built
   * (`.next`); returns the folders removed.
   */
  async prune(): Promise<string[]> {
    const live = await this.current()
    const removable = (await this.list()).filter((folder) => folder !== live)
    const removed = removable.slice(this.options.keep)
    for (const folder of removed) await rm(this.pathOf(folder), { recursive: true, force: true })
    return removed
  }

  private checkOut(repo: GitRepository, commit: string): Promise<void> {
    return checkOutTree(repo, commit, this.options.workspace, this.options.nodeModules)
  }

  /** A folder name for a release of `commit` made `now` that no release has yet. */
  private async freeName(commit: string, now: Date): Promise<string> {
    const base = `${stampOf(now)}-${commit.slice(0, 12)}`
    const taken = new Set(await readdir(this.options.dir).catch(() => [] as string[]))
    for (let n = 0; ; n++) {
      const name = n === 0 ? base : `${base}-${n}`
      if (!taken.has(name) && !taken.has(`${name}.next`)) return name
    }
  }
}

/** `20261126T041503Z`: `now` in UTC to the second, as release folders are named. */
function stampOf(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
}

/**
 * Runs a check-out of `commit`; a tree the service does not write out (a symbolic link, a
 * submodule) fails as a build does (`code`: a publication's or a preview's), with the paths
 * named.
 */
export async function checkedOut(
  commit: string,
  checkOut: () => Promise<void>,
  code: BuildFailure = 'not-built',
): Promise<void> {
  try {
    await checkOut()
  } catch (error) {
    if (error instanceof SpecialEntryError) throw new BuildFailedError(error.message, commit, code)
    throw error
  }
}

/**
 * A working tree of the service's own at `commit`: changed files rewritten, removed files
 * deleted, the rest left untouched (their times too, which the build's caches read), with an
 * index of its own beside it. The service's `node_modules` is linked in, as the tree has none.
 * A tree with a symbolic link or a submodule is refused (`SpecialEntryError`) before anything
 * is written: checked out, a link would take the build's reads and writes outside.
 */
export async function checkOutTree(
  repo: GitRepository,
  commit: string,
  workspace: string,
  nodeModules: string,
): Promise<void> {
  await repo.requireRegularFiles(commit, `commit ${commit.slice(0, 12)}`, 'nothing was built')
  await mkdir(workspace, { recursive: true })
  await repo.git(['read-tree', '-u', '--reset', commit], undefined, {
    GIT_INDEX_FILE: `${workspace}.index`,
    GIT_WORK_TREE: workspace,
  })
  const modules = join(workspace, 'node_modules')
  const existing = await readlink(modules).catch(() => null)
  if (existing !== nodeModules) {
    await rm(modules, { recursive: true, force: true })
    await symlink(nodeModules, modules, 'dir')
  }
}
