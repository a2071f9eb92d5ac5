/**
 * The audit trail's anchors outside the database, in git. The chain of hashes finds an entry
 * changed or removed in the middle, but whoever holds the database can also remove the last
 * entries, or change one and compute every later hash again: the chain then checks out. So the
 * chain's length and last hash are written where the database's holder cannot reach:
 *
 * - every commit the service makes on main (a publication, a rollback, a merge taking in the
 *   remote) ends with the trailer `Audit-Trail: <length> <hash>`: the trail as it stood when
 *   the commit was made (`mainTrailers`, through `GitRepository.withTrailers`);
 * - a checkpoint ref, `refs/audit/checkpoint`, a chain of commits of its own (each message
 *   carries the same trailer), written after every publication and rollback, and every
 *   `AUDIT_CHECKPOINT_MINUTES` while the trail grows (`AuditCheckpoints`).
 *
 * With `PUBLISHING_PUSH=on` both go to the bank's repository with each published commit (the
 * checkpoint also when it is written between publications). `verifyAudit` checks each anchor
 * it is given: entry #length exists and has that hash. An editor's commit message cannot pass
 * for an anchor (../git/repository.ts quotes such a line), and only lines of exactly this form count.
 */
import type { Database, Queryable } from '../../database/database'
import { ANCHOR_TRAILER, type GitRepository, pushRefs, RefMovedError } from '../git/repository'
import type { PublishingMetrics } from '../metrics'
import { type AuditCheck, GENESIS, type TrailAnchor, verifyAudit } from './trail'

export const CHECKPOINT_REF = 'refs/audit/checkpoint'
/** Where `verify` keeps its copy of the remote's anchors (fetched each time). */
const REMOTE_COPY = 'refs/audit/remote'
/**
 * Where `verify` keeps what it saw on the remote last time: the next look must find it still
 * there (a fast-forward), or the remote's anchors were rewritten.
 */
const REMOTE_SEEN = 'refs/audit/seen'

/** With the operators' metrics on: how often each process verifies the trail (`verify`). */
const VERIFY_EVERY_MS = 15 * 60_000

const ANCHOR_LINE = new RegExp(`^${ANCHOR_TRAILER}: (\\d+) ([0-9a-f]{64})$`, 'gm')
const SERVICE_PERSON = { name: 'Publishing service', email: 'publishing@localhost' }

/** The trail as it stands: how many entries, and the last one's hash. */
export interface TrailState {
  length: number
  head: string
}

export async function trailState(database: Queryable): Promise<TrailState> {
  const [last] = await database.query<{ id: string | number; hash: string }>(
    'SELECT id, hash FROM audit_entries ORDER BY id DESC LIMIT 1',
  )
  return last ? { length: Number(last.id), head: last.hash } : { length: 0, head: GENESIS }
}

/** `Audit-Trail: 412 9f3c…`: the trailer of an anchor. */
export const anchorLine = (state: TrailState) => `${ANCHOR_TRAILER}: ${state.length} ${state.head}`

/** The trailers of a commit on main: the trail as it stands now (none while it is empty). */
export async function mainTrailers(database: Queryable): Promise<string[]> {
  const state = await trailState(database)
  return state.length > 0 ? [anchorLine(state)] : []
}

/** An anchor found in git. */
export interface GitAnchor extends TrailAnchor {
  commit: string
  /** On a commit of main (anyone who may push there could write one) or a checkpoint. */
  source: 'main' | 'checkpoint'
}

/** The anchors a commit message records. */
function anchorsIn(message: string): TrailState[] {
  return [...message.matchAll(ANCHOR_LINE)].map((match) => ({
    length: Number(match[1]),
    head: match[2] ?? '',
  }))
}

/**
 * Every anchor in the history of `ref`: the commits whose message carries the trailer, each
 * named for people by `nameOf` (its commit, time and subject).
 */
async function anchorsOf(
  repo: GitRepository,
  ref: string,
  source: GitAnchor['source'],
  nameOf: (commit: { id: string; at: string; subject: string }) => string,
): Promise<GitAnchor[]> {
  if (!(await repo.resolve(ref))) return []
  const output = await repo.git([
    'log',
    '-z',
    '--format=%H%x1f%cI%x1f%s%x1f%B',
    `--grep=^${ANCHOR_TRAILER}: [0-9]`,
    ref,
    '--',
  ])
  const anchors: GitAnchor[] = []
  for (const record of output.toString('utf8').split('\0')) {
    const [id = '', at = '', subject = '', body = ''] = record.split('\x1f')
    if (!id) continue
    const name = nameOf({ id, at, subject })
    for (const state of anchorsIn(body)) anchors.push({ ...state, commit: id, name, source })
  }
  return anchors
}

const shortId = (commit: string) => commit.slice(0, 12)

/** The anchors in a checkpoint chain's history and a main's, named with `label` for people. */
async function anchorsAt(
  repo: GitRepository,
  checkpoint: string,
  main: string,
  label = '',
): Promise<GitAnchor[]> {
  return [
    ...(await anchorsOf(
      repo,
      checkpoint,
      'checkpoint',
      (commit) => `checkpoint ${shortId(commit.id)} (${label}${CHECKPOINT_REF}, ${commit.at})`,
    )),
    ...(await anchorsOf(
      repo,
      main,
      'main',
      (commit) =>
        `commit ${shortId(commit.id)} on ${label}main ("${commit.subject}", ${commit.at})`,
    )),
  ]
}

export interface AnchorSources {
  anchors: GitAnchor[]
  /** Where they were looked for. */
  read: string[]
  /** What could not be read, and why. */
  problems: string[]
  /** The remote's anchors rewritten since the last look (a ref gone, or forced back). */
  rewritten: string[]
  /** Anchors not counted: on main, but on no commit the trail says the service made. */
  ignored: string[]
}

/**
 * The anchors of the service's repository (main and the checkpoint ref) and, when the service
 * pushes to a remote, those of the remote too (fetched now: what the bank's repository holds
 * is out of reach of whoever holds this machine).
 */
export async function readAnchors(
  repo: GitRepository,
  remote?: { url: string; branch: string; push: boolean },
): Promise<AnchorSources> {
  const read = [`${repo.gitDir} (main, ${CHECKPOINT_REF})`]
  const problems: string[] = []
  const rewritten: string[] = []
  const anchors = await anchorsAt(repo, CHECKPOINT_REF, 'refs/heads/main')
  if (remote?.push) {
    try {
      const wanted = [
        [`refs/heads/${remote.branch}`, `${REMOTE_COPY}/main`],
        [CHECKPOINT_REF, `${REMOTE_COPY}/checkpoint`],
      ] as const
      const listed = (await repo.git(['ls-remote', remote.url, ...wanted.map(([from]) => from)]))
        .toString('utf8')
        .split('\n')
        .map((line) => line.split('\t')[1])
      const present = wanted.filter(([from]) => listed.includes(from))
      // The copies are the remote's as it is now, whatever they were before.
      for (const [, to] of wanted) {
        const old = await repo.resolve(to)
        if (old) await repo.deleteRef(to, old)
      }
      if (present.length > 0) {
        await repo.git([
          'fetch',
          '--quiet',
          '--no-tags',
          remote.url,
          ...present.map(([from, to]) => `+${from}:${to}`),
        ])
      }
      // What the last look saw must still be there: the remote's refs only ever move forward.
      for (const [from, copy] of wanted) {
        const seenRef = `${REMOTE_SEEN}/${copy.slice(REMOTE_COPY.length + 1)}`
        const seen = await repo.resolve(seenRef)
        const now = await repo.resolve(copy)
        if (seen && !now) {
          rewritten.push(
            `the remote's ${from} is gone: it was at ${shortId(seen)} when the anchors were last checked`,
          )
        } else if (seen && now && seen !== now && !(await repo.isAncestor(seen, now))) {
          rewritten.push(
            `the remote's ${from} was rewritten: it no longer holds ${shortId(seen)}, which it held when the anchors were last checked`,
          )
        } else if (now && now !== seen) {
          await repo.moveRef(seenRef, now, seen)
        }
      }
      anchors.push(
        ...(await anchorsAt(
          repo,
          `${REMOTE_COPY}/checkpoint`,
          `${REMOTE_COPY}/main`,
          "the remote's ",
        )),
      )
      read.push(`${remote.url} (${remote.branch}, ${CHECKPOINT_REF})`)
    } catch (error) {
      problems.push(
        `the remote's anchors could not be read (${remote.url}): ${error instanceof Error ? error.message : String(error)}`,
      )
    }
  }
  // A commit both here and on the remote is one anchor.
  const seen = new Set<string>()
  const unique = anchors.filter((anchor) => {
    const key = `${anchor.commit} ${anchor.length} ${anchor.head}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  return { anchors: unique, read, problems, rewritten, ignored: [] }
}

/**
 * Main's anchors on commits the service made: the `after` of a publication or a rollback, or
 * of a take-in that merged (a fast-forward takes in someone else's commit). Anyone who may push
 * to the bank's main could write an anchor line into a commit of their own; it does not count.
 */
async function madeByTheService(
  database: Queryable,
  sources: AnchorSources,
): Promise<AnchorSources> {
  const rows = await database.query<{
    action: string
    after_commit: string
    details: Record<string, unknown> | string
  }>(
    `SELECT action, after_commit, details FROM audit_entries
     WHERE action IN ('publish', 'rollback', 'take-in') AND after_commit IS NOT NULL`,
  )
  const made = new Set(
    rows
      .filter((row) => {
        if (row.action !== 'take-in') return true
        const details = typeof row.details === 'string' ? JSON.parse(row.details) : row.details
        return details?.remote !== row.after_commit
      })
      .map((row) => row.after_commit),
  )
  const ignored: string[] = []
  const anchors = sources.anchors.filter((anchor) => {
    if (anchor.source === 'checkpoint' || made.has(anchor.commit)) return true
    ignored.push(anchor.name)
    return false
  })
  return { ...sources, anchors, ignored: [...new Set(ignored)] }
}

/** The trail checked against every anchor found (`npm run cms -- verify`). */
export async function verifyWithAnchors(
  database: Queryable,
  repo: GitRepository | undefined,
  remote?: { url: string; branch: string; push: boolean },
): Promise<{ check: AuditCheck; sources: AnchorSources | undefined }> {
  const read = repo ? await readAnchors(repo, remote) : undefined
  const sources = read ? await madeByTheService(database, read) : undefined
  return { check: await verifyAudit(database, sources?.anchors ?? []), sources }
}

/** The trail no longer has what its last checkpoint recorded. */
export class AnchorDisagreesError extends Error {}

interface Checkpoint extends TrailState {
  commit: string
  /** When it was written (ms). */
  at: number
}

export interface CheckpointOptions {
  database: Database
  repo: GitRepository
  /** The bank's repository: with `push`, each checkpoint goes there. */
  remote?: { url: string; push: boolean }
  /** `AUDIT_CHECKPOINT_MINUTES`: the longest a growing trail goes without a checkpoint. */
  everyMs: number
  clock?: () => Date
  log?: {
    info(data: object, message: string): void
    error(data: object, message: string): void
  }
  /**
   * The operators' metrics: with them, the timer also verifies the trail (`verify`) at its
   * first turn and every 15 minutes, and they tell whether it held, and when.
   */
  metrics?: PublishingMetrics
}

/**
 * The checkpoint ref: written after each publication and rollback (`write`), and by each
 * process's timer when the trail grew and the last checkpoint is `everyMs` old (`writeIfDue`).
 * Compare-and-swap on the ref, so processes sharing the repository extend one chain. A trail
 * that no longer has what the last checkpoint recorded gets no new one: the error says so.
 */
export class AuditCheckpoints {
  private readonly clock: () => Date
  /** The last checkpoint as this process knows it (`undefined`: not read yet). */
  private last: Checkpoint | null | undefined
  private emptyTree: string | undefined
  /** When this process last verified the trail (ms, by the clock). */
  private verifiedAt: number | undefined

  constructor(private readonly options: CheckpointOptions) {
    this.clock = options.clock ?? (() => new Date())
  }

  /** Writes a checkpoint of the trail as it stands, unless the last one has it; whether it did. */
  write(): Promise<boolean> {
    return this.checkpoint(true)
  }

  /** Writes one if the trail grew and the last checkpoint is old enough; pushes it. */
  async writeIfDue(): Promise<boolean> {
    const written = await this.checkpoint(false)
    if (written) await this.push()
    return written
  }

  /** The refs to push with a published commit: the checkpoint's, once there is one. */
  async refsToPush(): Promise<string[]> {
    return (await this.options.repo.resolve(CHECKPOINT_REF)) ? [CHECKPOINT_REF] : []
  }

  /** Pushes the checkpoint ref alone (`PUBLISHING_PUSH=on`). */
  async push(): Promise<void> {
    const { remote, repo } = this.options
    if (!remote?.push) return
    const refs = await this.refsToPush()
    if (refs.length > 0) await pushRefs(repo, remote.url, refs)
  }

  /**
   * Verifies the trail, its chain of hashes from the first entry and its last checkpoint
   * (`npm run cms -- verify` also reads the anchors on main and the remote's); the metrics say
   * whether it held, and when.
   */
  async verify(): Promise<AuditCheck> {
    const last = await this.tip()
    const anchors = last
      ? [{ ...last, name: `checkpoint ${shortId(last.commit)} (${CHECKPOINT_REF})` }]
      : []
    const check = await verifyAudit(this.options.database, anchors)
    const now = this.clock()
    this.verifiedAt = now.getTime()
    this.options.metrics?.auditVerified(check.ok, now)
    if (!check.ok) {
      this.options.log?.error(
        { brokenAt: check.brokenAt, reason: check.reason },
        'the audit trail does not verify: npm run cms -- verify names where it changed',
      )
    }
    return check
  }

  /** With metrics on, verifies the trail when it was not verified for `VERIFY_EVERY_MS`. */
  private async verifyIfDue(): Promise<void> {
    if (!this.options.metrics) return
    const since =
      this.verifiedAt === undefined ? Infinity : this.clock().getTime() - this.verifiedAt
    if (since >= VERIFY_EVERY_MS) await this.verify()
  }

  /** Checks every `seconds` (each process), until the returned function is called. */
  start(seconds: number): () => void {
    let running = false
    const timer = setInterval(() => {
      if (running) return
      running = true
      this.writeIfDue()
        .catch((error: unknown) =>
          this.options.log?.error({ err: error }, 'the audit trail checkpoint failed'),
        )
        .then(() => this.verifyIfDue())
        .catch((error: unknown) =>
          this.options.log?.error({ err: error }, 'verifying the audit trail failed'),
        )
        .finally(() => {
          running = false
        })
    }, seconds * 1000)
    timer.unref()
    return () => clearInterval(timer)
  }

  private async checkpoint(always: boolean): Promise<boolean> {
    const { database, repo, everyMs } = this.options
    // Another process may extend the chain between reading and writing: read again, then.
    for (let attempt = 0; attempt < 3; attempt++) {
      const state = await trailState(database)
      if (state.length === 0) return false
      const known = this.last
      if (known && known.length === state.length && known.head === state.head) return false
      const last = await this.tip()
      const now = this.clock()
      if (last) {
        if (last.length === state.length && last.head === state.head) return false
        const [recorded] = await database.query<{ hash: string }>(
          'SELECT hash FROM audit_entries WHERE id = $1',
          [last.length],
        )
        if (recorded?.hash !== last.head) {
          throw new AnchorDisagreesError(
            `the audit trail no longer has what its last checkpoint (${shortId(last.commit)}) records: entry ${last.length} with hash ${last.head.slice(0, 12)}…; npm run cms -- verify names where it changed`,
          )
        }
        if (!always && now.getTime() - last.at < everyMs) return false
      }
      this.emptyTree ??= (await repo.git(['mktree'], '')).toString().trim()
      const commit = await repo.commitTree(this.emptyTree, {
        parents: last ? [last.commit] : [],
        author: SERVICE_PERSON,
        message: `Audit trail: ${state.length} entries\n\n${anchorLine(state)}\n`,
        date: now,
      })
      try {
        await repo.moveRef(CHECKPOINT_REF, commit, last?.commit ?? null)
      } catch (error) {
        if (!(error instanceof RefMovedError)) throw error
        this.last = undefined
        continue
      }
      // The commit's own time: git keeps seconds.
      this.last = { ...state, commit, at: Math.floor(now.getTime() / 1000) * 1000 }
      return true
    }
    return false
  }

  /** The last checkpoint: as this process wrote or read it, or read from the ref. */
  private async tip(): Promise<Checkpoint | null> {
    const { repo } = this.options
    const commit = await repo.resolve(CHECKPOINT_REF)
    if (!commit) {
      this.last = null
      return null
    }
    if (this.last?.commit === commit) return this.last
    const output = (await repo.git(['log', '-1', '--format=%ct%x1f%B', commit]))
      .toString('utf8')
      .trim()
    const [seconds = '0', body = ''] = output.split('\x1f')
    const [state] = anchorsIn(body)
    if (!state) throw new Error(`${CHECKPOINT_REF} (${commit}) records no anchor`)
    this.last = { ...state, commit, at: Number(seconds) * 1000 }
    return this.last
  }
}
