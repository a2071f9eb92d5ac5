/**
 * A draft as a whole site, before anyone approves it: the draft merged onto main's tip (as it
 * would be published now) and built by the same build into a folder of its own, in a workspace
 * of its own (publications keep theirs). The service serves it to signed-in people only, on its
 * own origin, never the public site's. A preview is kept by what it was made of (main's tip and
 * the draft's head), so opening it again costs nothing until either moves; the last few are kept.
 */
import { createHash } from 'node:crypto'
import { access, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { BuildReport } from '../../engine/build'
import { seedCache } from '../../engine/cache/seed'
import type { BuildConfig } from '../../engine/config'
import { isProcessAlive } from '../../shared/process-alive'
import { type GitRepository, MergeConflictError } from '../git/repository'
import { NO_METRICS, type PublishingMetrics } from '../metrics'
import { DraftConflictError, type Drafts, MAIN } from './drafts'
import { BuildFailedError, checkedOut, checkOutTree } from './releases'

export interface PreviewsOptions {
  repo: GitRepository
  drafts: Drafts
  /** Where previews are built and kept (`DATA_DIR/publishing/previews`). */
  dir: string
  nodeModules: string
  buildConfig: BuildConfig
  build: (config: BuildConfig) => Promise<BuildReport>
  /** How many previews stay on disk. */
  keep?: number
  /** The operators' metrics: previews built, and those that could not be made. */
  metrics?: PublishingMetrics
}

const SERVICE = { name: 'Publishing service', email: 'publishing@localhost' }
/** Beside a preview's pages: which page each store file made. */
const PAGES_FILE = '_pages.json'
const FAILURES_KEPT = 50
/** This process's workspace: processes sharing the folder never build in one another's. */
const WORKSPACE = `workspace-${hostname()}-${process.pid}`

export class Previews {
  /** Builds run one after another (one workspace); each waits for the one before. */
  private queue: Promise<unknown> = Promise.resolve()
  /** Why the newest previews that could not be made failed, by what they were made of. */
  private readonly failures = new Map<string, Error>()
  private readonly metrics: PublishingMetrics

  constructor(private readonly options: PreviewsOptions) {
    this.metrics = options.metrics ?? NO_METRICS
  }

  /**
   * The folder of the draft's preview, built if needed. `null` when there is no such draft;
   * `DraftConflictError` when it no longer merges, `BuildFailedError` when the site does not
   * build with it (file and field named).
   */
  async siteOf(id: string): Promise<string | null> {
    const { repo, drafts } = this.options
    const draft = await drafts.get(id)
    const main = await repo.resolve(MAIN)
    if (!draft || !main) return null
    const key = createHash('sha256').update(`${main}:${draft.head}`).digest('hex').slice(0, 24)
    const folder = join(this.options.dir, key)
    if (await exists(join(folder, '_headers.json'))) return folder
    // A draft that does not build fails the same way until it or main changes: every page and
    // file of its preview asks, and is answered without building it again.
    const failed = this.failures.get(key)
    if (failed) throw failed
    const run = this.queue.then(async () => {
      if (await exists(join(folder, '_headers.json'))) return folder
      let tree: string
      try {
        tree = await repo.mergeTrees(main, draft.head)
      } catch (error) {
        if (error instanceof MergeConflictError) throw new DraftConflictError(id, error.files)
        throw error
      }
      const commit = await repo.commitTree(tree, {
        parents: [main, draft.head],
        author: SERVICE,
        message: `Preview of ${id}`,
      })
      const workspace = join(this.options.dir, WORKSPACE)
      await this.clearDeadWorkspaces()
      await checkedOut(commit, () =>
        checkOutTree(repo, commit, workspace, this.options.nodeModules),
      )
      const cacheDir = join(workspace, '.cache', 'previews')
      // The first preview starts from the site's own build cache, as a publication's does.
      if (!(await exists(cacheDir))) await seedCache(this.options.buildConfig.cacheDir, cacheDir)
      try {
        const report = await this.options.build({
          ...this.options.buildConfig,
          root: workspace,
          contentDir: join(workspace, 'content'),
          outDir: folder,
          cacheDir,
          // A preview on the service's origin registers no worker and loads no tracker.
          serviceWorker: false,
          tracking: { adsIds: [] },
        })
        // Which page each file makes, for opening the preview at the draft's own page.
        await writeFile(join(folder, PAGES_FILE), JSON.stringify(report?.pagesOfFiles ?? {}))
      } catch (error) {
        await rm(folder, { recursive: true, force: true })
        throw new BuildFailedError(error instanceof Error ? error.message : String(error), commit)
      }
      await this.prune(key)
      this.metrics.preview('built')
      return folder
    })
    this.queue = run.catch(() => undefined)
    run.catch((error: unknown) => {
      this.metrics.preview('failed')
      if (!(error instanceof BuildFailedError || error instanceof DraftConflictError)) return
      this.failures.set(key, error)
      for (const oldest of this.failures.keys()) {
        if (this.failures.size <= FAILURES_KEPT) break
        this.failures.delete(oldest)
      }
    })
    return run
  }

  /**
   * The page of a preview to open for a draft's file (`content/blog/posts/a.md`): the one the
   * build made of it, else as far as its path says.
   */
  async pageOf(folder: string, repositoryPath: string): Promise<string> {
    const pages = await readFile(join(folder, PAGES_FILE), 'utf8')
      .then((text) => JSON.parse(text) as Record<string, unknown>)
      .catch(() => ({}) as Record<string, unknown>)
    const file = repositoryPath.replace(/^content\//, '')
    const page = Object.hasOwn(pages, file) ? pages[file] : undefined
    // A path of the site as the build writes them: the redirect stays on the service's origin.
    return typeof page === 'string' && /^\/(?:[a-z0-9_.-]+\/)*$/.test(page) && !page.includes('..')
      ? page
      : pageOfFile(repositoryPath)
  }

  /**
   * Removes the workspaces that processes of this machine left when they stopped (several
   * service processes may share the folder; each builds previews in a workspace of its own).
   */
  private async clearDeadWorkspaces(): Promise<void> {
    if (this.cleared) return
    this.cleared = true
    const prefix = `workspace-${hostname()}-`
    for (const name of await readdir(this.options.dir).catch(() => [] as string[])) {
      const pid = Number(name.slice(prefix.length).replace(/\.index$/, ''))
      if (!name.startsWith(prefix) || !Number.isSafeInteger(pid) || isProcessAlive(pid)) continue
      await rm(join(this.options.dir, name), { recursive: true, force: true })
    }
  }
  private cleared = false

  /** Keeps the newest previews (and the one just made). */
  private async prune(keepKey: string): Promise<void> {
    const names = (await readdir(this.options.dir)).filter((name) => /^[0-9a-f]{24}$/.test(name))
    const dated = await Promise.all(
      names.map(async (name) => ({
        name,
        at: (await stat(join(this.options.dir, name))).mtimeMs,
      })),
    )
    const old = dated
      .sort((a, b) => b.at - a.at)
      .slice(this.options.keep ?? 5)
      .filter((entry) => entry.name !== keepKey)
    for (const entry of old)
      await rm(join(this.options.dir, entry.name), { recursive: true, force: true })
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

/** The page of an entry's store file, as far as its path says (`/en/about/`), else the home. */
export function pageOfFile(repositoryPath: string): string {
  const match = /^content\/(en|de)\/pages\/(.+)\.ya?ml$/.exec(repositoryPath)
  if (match) {
    const [, language, name = ''] = match
    return name === 'index' ? `/${language}/` : `/${language}/${name}/`
  }
  const language = /^content\/(en|de)\//.exec(repositoryPath)?.[1] ?? 'en'
  return `/${language}/`
}
