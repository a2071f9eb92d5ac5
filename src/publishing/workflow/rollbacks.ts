/**
 * What a rollback brings back and what it takes away, and the rollbacks that wait for a
 * reviewer. A rollback commits on main the content (`content/`, `public/`) of an earlier
 * release: each such file of main's tip returns (the release has it, main has not), goes (the
 * other way round) or changes. The publications whose changes it undoes are those on main since
 * that release that changed one of those files; the content it brings back was written by the
 * authors of the drafts (or the developers, for content taken in) that last set those files
 * before the release. The rules on who may roll back to what are in four-eyes.ts;
 * ../publication/rollback.ts does the rollback.
 */
import type { Database, Queryable } from '../../database/database'
import { authorsBetween, type GitRepository } from '../git/repository'

/** What a rollback does to the site's content, and whose work it undoes or brings back. */
export interface RollbackChanges {
  /** Files the target release has and main has not: they come back. */
  returns: string[]
  /** Files main has and the target release has not: they go. */
  goes: string[]
  /** Files both have, differently: they change back to the release's version. */
  changes: string[]
  /** The publications (draft ids) since the release whose changes it undoes, oldest first. */
  publications: string[]
  /** Who wrote the content that returns or changes back, by e-mail. */
  writers: string[]
}

/** Whether a file of the repository is content the rollback restores (code stays as main has it). */
export const isRestoredByRollback = (path: string) =>
  path.startsWith('content/') || path.startsWith('public/')

/** Git reads each path literally: no pathspec magic in a file's name. */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' }

/** How many rollbacks back the writers of restored content are looked for. */
const ROLLBACK_DEPTH = 5

/** `jsonb` as the driver gives it (parsed, or its text). */
export const jsonOf = <T>(value: T | string): T =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value

/**
 * What rolling main (`main`) back to the content of `target` (a release's commit) would do:
 * the files that return, go or change, the publications undone and the writers of what comes
 * back.
 */
export async function rollbackChanges(
  repo: GitRepository,
  database: Queryable,
  main: string,
  target: string,
): Promise<RollbackChanges> {
  const files = (await repo.fileChanges(main, target)).filter((change) =>
    isRestoredByRollback(change.path),
  )
  const returns = files.filter((file) => file.kind === 'added').map((file) => file.path)
  const goes = files.filter((file) => file.kind === 'deleted').map((file) => file.path)
  const changes = files.filter((file) => file.kind === 'changed').map((file) => file.path)
  const touched = new Set(files.map((file) => file.path))
  // The publications on main since the release (its first-parent line: each is one merge
  // commit there) whose files the rollback changes.
  const since = (await repo.git(['rev-list', '--first-parent', `${target}..${main}`]))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
  const published =
    since.length === 0
      ? []
      : await database.query<{ subject: string; details: Record<string, unknown> | string }>(
          `SELECT subject, details FROM audit_entries
           WHERE action = 'publish' AND after_commit = ANY ($1) ORDER BY id`,
          [since],
        )
  const publications = [
    ...new Set(
      published
        .filter((entry) => {
          const changed = jsonOf(entry.details).files
          return Array.isArray(changed) && changed.some((path) => touched.has(String(path)))
        })
        .map((entry) => entry.subject),
    ),
  ]
  const writers = new Set<string>()
  const known = new Map<string, Promise<string[]>>()
  for (const path of [...returns, ...changes]) {
    for (const writer of await writersOf(repo, database, target, path, known)) writers.add(writer)
  }
  return { returns, goes, changes, publications, writers: [...writers].sort() }
}

/**
 * Who wrote `path` as `commit` has it: the commit on main's first-parent line that last set it
 * is a publication's or a take-in's merge (the authors of what it merged), a rollback (the
 * writers of the version it restored), or a commit of its own (its author).
 */
async function writersOf(
  repo: GitRepository,
  database: Queryable,
  commit: string,
  path: string,
  known: Map<string, Promise<string[]>>,
  depth = 0,
): Promise<string[]> {
  const [last, ...parents] = (
    await repo.git(
      ['log', '--first-parent', '-1', '--format=%H %P', commit, '--', path],
      undefined,
      LITERAL,
    )
  )
    .toString('utf8')
    .trim()
    .split(' ')
  if (!last) return []
  const key = `${last} ${path}`
  let found = known.get(key)
  if (!found) {
    found = (async () => {
      if (parents.length > 1 && parents[0] && parents[1]) {
        return authorsBetween(repo, parents[0], parents[1])
      }
      const [rollback] = await database.query<{ details: Record<string, unknown> | string }>(
        `SELECT details FROM audit_entries WHERE action = 'rollback' AND after_commit = $1
         ORDER BY id DESC LIMIT 1`,
        [last],
      )
      if (rollback && depth < ROLLBACK_DEPTH) {
        const restored = await restoredBy(repo, last, jsonOf(rollback.details))
        if (restored) return writersOf(repo, database, restored, path, known, depth + 1)
      }
      const author = (await repo.git(['log', '-1', '--format=%ae', last])).toString('utf8').trim()
      return author ? [author] : []
    })()
    known.set(key, found)
  }
  return found
}

/**
 * The commit whose content a rollback commit restored: its trail entry names it; a rollback
 * made before it did says so in its commit's message.
 */
async function restoredBy(
  repo: GitRepository,
  commit: string,
  details: Record<string, unknown>,
): Promise<string | null> {
  if (typeof details.targetCommit === 'string') return details.targetCommit
  const message = (await repo.git(['log', '-1', '--format=%B', commit])).toString('utf8')
  return /Restores the content as built from ([0-9a-f]{40,64})\./.exec(message)?.[1] ?? null
}

/** A rollback a publisher asked for, and what became of it. */
export interface RollbackRequest {
  id: number
  /** The release to serve again. */
  folder: string
  targetCommit: string
  /** The release live when it was asked for: confirmed after another switch, it is stale. */
  liveFolder: string | null
  /** Main's tip when it was asked for. */
  mainCommit: string
  requestedBy: string
  requestedAt: string
  /** Why it waits for a reviewer: the rules' refusal of doing it at once, alone. */
  code: string
  reason: string
  changes: RollbackChanges
  state: 'pending' | 'done' | 'stale'
  decidedBy: string | null
  decidedAt: string | null
  outcome: string | null
}

interface RequestRow {
  id: string | number
  folder: string
  target_commit: string
  live_folder: string | null
  main_commit: string
  requested_by: string
  requested_at: Date | string
  code: string
  reason: string
  changes: RollbackChanges | string
  state: RollbackRequest['state']
  decided_by: string | null
  decided_at: Date | string | null
  outcome: string | null
}

const toRequest = (row: RequestRow): RollbackRequest => ({
  id: Number(row.id),
  folder: row.folder,
  targetCommit: row.target_commit,
  liveFolder: row.live_folder,
  mainCommit: row.main_commit,
  requestedBy: row.requested_by,
  requestedAt: new Date(row.requested_at).toISOString(),
  code: row.code,
  reason: row.reason,
  changes: jsonOf(row.changes),
  state: row.state,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at ? new Date(row.decided_at).toISOString() : null,
  outcome: row.outcome,
})

/** The rollback requests waiting for a reviewer, the oldest first. */
export async function pendingRollbacks(database: Queryable): Promise<RollbackRequest[]> {
  const rows = await database.query<RequestRow>(
    `SELECT * FROM rollback_requests WHERE state = 'pending' ORDER BY id`,
  )
  return rows.map(toRequest)
}

/** A rollback request by its number, or `null`. */
export async function rollbackRequest(
  database: Queryable,
  id: number,
): Promise<RollbackRequest | null> {
  const [row] = await database.query<RequestRow>('SELECT * FROM rollback_requests WHERE id = $1', [
    id,
  ])
  return row ? toRequest(row) : null
}

/** Stores a pending request (the caller holds the publication lease). */
export async function insertRollbackRequest(
  tx: Queryable,
  request: Omit<RollbackRequest, 'id' | 'state' | 'decidedBy' | 'decidedAt' | 'outcome'>,
): Promise<RollbackRequest> {
  const [row] = await tx.query<RequestRow>(
    `INSERT INTO rollback_requests (folder, target_commit, live_folder, main_commit, requested_by,
       requested_at, code, reason, changes, state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'pending') RETURNING *`,
    [
      request.folder,
      request.targetCommit,
      request.liveFolder,
      request.mainCommit,
      request.requestedBy,
      request.requestedAt,
      request.code,
      request.reason,
      JSON.stringify(request.changes),
    ],
  )
  return toRequest(row as RequestRow)
}

/** Ends a pending request: done (by whom, with the release served) or stale (why). */
export async function decideRollbackRequest(
  database: Database | Queryable,
  id: number,
  state: 'done' | 'stale',
  by: string,
  outcome: string,
  now: Date,
): Promise<boolean> {
  const rows = await database.query(
    `UPDATE rollback_requests SET state = $2, decided_by = $3, decided_at = $4, outcome = $5
     WHERE id = $1 AND state = 'pending' RETURNING id`,
    [id, state, by, now.toISOString(), outcome],
  )
  return rows.length > 0
}
