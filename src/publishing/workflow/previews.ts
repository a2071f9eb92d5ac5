/**
 * A draft as a whole site, before anyone approves it: the draft merged onto main's tip (as it
 * would be published now) and built by the same build into a folder of its own, in a workspace
 * of its own (publications keep theirs). The service serves it to signed-in people only, on its
 * own origin, never the public site's. A preview is kept by what it was made of (main's tip and
 * the draft's head), so opening it again costs nothing until either moves; the last few are kept.
 *
 * One person's previews are built one after another, other people's beside them in workspaces
 * of their own (`PREVIEW_SLOTS` at once): a slow preview holds up nobody but its own person.
 * A person waits `PREVIEW_TIME_LIMIT_MS` at most, and a drawing's card stops after its own
 * limit (engine/assets/card-renderer.ts).
 */
import { createHash } from 'node:crypto'
import { access, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import type { BuildReport } from '../../engine/build'
import { seedCache } from '../../engine/cache/seed'
import type { BuildConfig } from '../../engine/config'
import { isProcessAlive } from '../../shared/process-alive'
import { PublishingError } from '../errors'
import { type GitRepository, MergeConflictError } from '../git/repository'
import { NO_METRICS, type PublishingMetrics } from '../metrics'
import { BuildFailedError, checkedOut, checkOutTree } from '../publication/releases'
import { DraftConflictError, type Drafts, MAIN } from './drafts'

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
  /** Previews built at once (`PREVIEW_SLOTS`). */
  slots?: number
  /** How long a person waits for a preview (`PREVIEW_TIME_LIMIT_MS`). */
  timeLimitMs?: number
}

const SERVICE = { name: 'Publishing service', email: 'publishing@localhost' }
/** Beside a preview's pages: which page each store file made. */
const PAGES_FILE = '_pages.json'
const FAILURES_KEPT = 50
/** This process's workspaces: processes sharing the folder never build in one another's. */
const WORKSPACE = `workspace-${hostname()}-${process.pid}`
/** Previews built at once in this process, each in a workspace of its own (two cores). */
export const PREVIEW_SLOTS = 2
/**
 * How long a person waits for a preview. The build goes on past it (it cannot be stopped
 * half-way; its drawings' cards are, each after its own limit) and is kept when it is done.
 */
export const PREVIEW_TIME_LIMIT_MS = 120_000

/** A preview not built within its time limit: still being built, or stuck. */
export class PreviewTimeoutError extends PublishingError<'preview-timeout'> {
  constructor(id: string, limitMs: number) {
    super('preview-timeout', { id, seconds: limitMs / 1000 })
  }
}

export class Previews {
  /**
   * Each person's previews, one after another: a person never holds more than one workspace,
   * so nobody's previews wait behind another person's queue.
   */
  private readonly queues = new Map<string, Promise<unknown>>()
  /** The previews being built, by what they are made of: asked twice, built once. */
  private readonly building = new Map<string, Promise<string>>()
  /** Workspaces free for a build, and the builds waiting for one (oldest first). */
  private readonly freeSlots: number[]
  private readonly waitingForSlot: ((slot: number) => void)[] = []
  /** Why the newest previews that could not be made failed, by what they were made of. */
  private readonly failures = new Map<string, Error>()
  private readonly metrics: PublishingMetrics

  constructor(private readonly options: PreviewsOptions) {
    this.metrics = options.metrics ?? NO_METRICS
    this.freeSlots = Array.from({ length: options.slots ?? PREVIEW_SLOTS }, (_, slot) => slot)
  }

  /**
   * The folder of the draft's preview, built if needed, for `who` (whose previews are built one
   * after another; other people's beside them, up to `PREVIEW_SLOTS` at once). `null` when there
   * is no such draft; `DraftConflictError` when it no longer merges, `BuildFailedError` when the
   * site does not build with it (file and field named), `PreviewTimeoutError` when it is not
   * built within `PREVIEW_TIME_LIMIT_MS`.
   */
  async siteOf(id: string, who = 'someone'): Promise<string | null> {
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
    let run = this.building.get(key)
    if (!run) {
      const queued = (this.queues.get(who) ?? Promise.resolve()).then(() =>
        this.inSlot((slot) => this.build(id, key, folder, main, draft.head, slot)),
      )
      const settled = queued.catch(() => undefined)
      this.queues.set(who, settled)
      void settled.then(() => {
        if (this.queues.get(who) === settled) this.queues.delete(who)
      })
      this.building.set(key, queued)
      run = queued
      void settled.then(() => this.building.delete(key))
      queued.catch((error: unknown) => {
        this.metrics.preview('failed')
        if (!(error instanceof BuildFailedError || error instanceof DraftConflictError)) return
        this.failures.set(key, error)
        for (const oldest of this.failures.keys()) {
          if (this.failures.size <= FAILURES_KEPT) break
          this.failures.delete(oldest)
        }
      })
    }
    return withTimeLimit(run, this.options.timeLimitMs ?? PREVIEW_TIME_LIMIT_MS, id)
  }

  /** Runs `work` in a free workspace, waiting for one when all are busy. */
  private async inSlot<T>(work: (slot: number) => Promise<T>): Promise<T> {
    const slot =
      this.freeSlots.shift() ??
      (await new Promise<number>((resolve) => this.waitingForSlot.push(resolve)))
    try {
      return await work(slot)
    } finally {
      const next = this.waitingForSlot.shift()
      if (next) next(slot)
      else this.freeSlots.push(slot)
    }
  }

  /** Builds the preview `key` of draft `id` (its `head` on `main`) into `folder`. */
  private async build(
    id: string,
    key: string,
    folder: string,
    main: string,
    head: string,
    slot: number,
  ): Promise<string> {
    const { repo } = this.options
    if (await exists(join(folder, '_headers.json'))) return folder
    let tree: string
    try {
      tree = await repo.mergeTrees(main, head)
    } catch (error) {
      if (error instanceof MergeConflictError) throw new DraftConflictError(id, error.files)
      throw error
    }
    const commit = await repo.commitTree(tree, {
      parents: [main, head],
      author: SERVICE,
      message: `Preview of ${id}`,
    })
    const workspace = join(this.options.dir, slot === 0 ? WORKSPACE : `${WORKSPACE}-${slot}`)
    await this.clearDeadWorkspaces()
    await checkedOut(
      commit,
      () => checkOutTree(repo, commit, workspace, this.options.nodeModules),
      'preview-not-built',
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
      throw new BuildFailedError(
        error instanceof Error ? error.message : String(error),
        commit,
        'preview-not-built',
      )
    }
    await this.prune(key)
    this.metrics.preview('built')
    return folder
  }

  /**
   * The page of a preview to open for a draft's file (`content/blog/posts/how-we-test-our-apis.md`): the one the
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
      // `workspace-<host>-<pid>`, `-<slot>` after it for the second and later, `.index` beside.
      const pid = Number(/^\d+/.exec(name.slice(prefix.length))?.[0])
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

/** `run`, or `PreviewTimeoutError` when it takes longer than `limitMs` (it goes on). */
function withTimeLimit<T>(run: Promise<T>, limitMs: number, id: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new PreviewTimeoutError(id, limitMs)), limitMs)
  })
  return Promise.race([run, late]).finally(() => clearTimeout(timer))
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
