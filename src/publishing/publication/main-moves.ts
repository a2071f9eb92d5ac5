/**
 * Every move of main by the service (a publication, a rollback, taking in the remote's main),
 * written down before it is made. Main lives in git and the record in the database, so no one
 * transaction covers both: a process killed between moving main and recording the move would
 * leave main changed with no one named in the trail. The intent stays in the database instead,
 * and the next holder of the publication lease settles it: recorded (marked as recovered) if
 * main has the commit, dropped if the move never happened.
 */
import type { Database, Queryable } from '../../database/database'
import { appendAudit } from '../audit/trail'
import type { GitRepository } from '../git/repository'

export const MAIN = 'refs/heads/main'

export interface MainMove {
  action: 'publish' | 'rollback' | 'take-in'
  actor: string
  /** A draft's id, a release's folder, the remote's branch. */
  subject: string
  before: string
  after: string
  details: Record<string, unknown>
  /** A publication's draft: its record goes with the move, its branch after it. */
  draft?: { id: string; ref: string; head: string }
}

interface MoveRow {
  id: string | number
  action: MainMove['action']
  actor: string
  subject: string
  before: string
  after: string
  details: Record<string, unknown> | string
  draft_id: string | null
  draft_ref: string | null
  draft_head: string | null
  at: string | Date
}

/**
 * Moves main from `before` to `after` (compare-and-swap: `RefMovedError` if main moved, and
 * nothing is recorded) and records it in the trail, the intent written first.
 */
export async function moveMain(
  database: Database,
  repo: GitRepository,
  move: MainMove,
  now: Date,
  /** More to write in the transaction that records the move (a publication's notices). */
  alsoRecord?: (tx: Queryable) => Promise<unknown>,
): Promise<void> {
  const [row] = await database.query<{ id: string | number }>(
    `INSERT INTO main_moves
       (action, actor, subject, before, after, details, draft_id, draft_ref, draft_head, at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [
      move.action,
      move.actor,
      move.subject,
      move.before,
      move.after,
      JSON.stringify(move.details),
      move.draft?.id ?? null,
      move.draft?.ref ?? null,
      move.draft?.head ?? null,
      now.toISOString(),
    ],
  )
  const id = Number(row?.id)
  try {
    await repo.moveRef(MAIN, move.after, move.before)
  } catch (error) {
    // Refused, or no answer: where main is decides. Moved after all, it is recorded below;
    // not moved, the intent goes (if main cannot be read, it stays for the next lease holder).
    if ((await repo.resolve(MAIN)) !== move.after) {
      await database.query('DELETE FROM main_moves WHERE id = $1', [id])
      throw error
    }
  }
  await record(database, repo, id, move, now, alsoRecord)
}

/**
 * Records a move made: its trail entry, and for a publication the draft's branch and record
 * removed. The intent is the claim: whoever deletes it records the move, so a move is never
 * recorded twice (a process that stalled after moving main, while the next lease holder
 * settled its intent, records nothing). A draft saved again since the publication keeps its
 * branch and record, its newer edit to be reviewed on its own.
 */
async function record(
  database: Database,
  repo: GitRepository,
  id: number,
  move: MainMove,
  now: Date,
  alsoRecord?: (tx: Queryable) => Promise<unknown>,
): Promise<boolean> {
  const { draft } = move
  // Gone now, or already (a process killed after deleting it): the draft was published whole.
  const branchGone = draft
    ? await repo.deleteRef(draft.ref, draft.head).then(
        () => true,
        async () => (await repo.resolve(draft.ref)) === null,
      )
    : false
  return database.transaction(async (tx) => {
    const claimed = await tx.query('DELETE FROM main_moves WHERE id = $1 RETURNING id', [id])
    if (claimed.length === 0) return false
    if (draft && branchGone) await tx.query('DELETE FROM drafts WHERE id = $1', [draft.id])
    else if (draft) {
      // Saved again while it was published: the draft goes on from what was published.
      await tx.query('UPDATE drafts SET base_commit = $2 WHERE id = $1', [draft.id, draft.head])
    }
    const { action, actor, subject, before, after } = move
    const details =
      draft && !branchGone ? { ...move.details, draftKeptForNewerEdit: true } : move.details
    await appendAudit(tx, { actor, action, subject, before, after, details }, now, tx)
    await alsoRecord?.(tx)
    // What a take-in brought that no reviewer saw waits for the release that first serves it.
    const files = details.unreviewedContent
    if (action === 'take-in' && Array.isArray(files) && files.length > 0) {
      const authors = Array.isArray(details.authors) ? details.authors.map(String) : []
      await tx.query(
        `INSERT INTO taken_in_content (commit, author, files, taken_at) VALUES ($1, $2, $3, $4)`,
        [
          String(details.remote ?? after),
          authors.join(', '),
          JSON.stringify(files),
          now.toISOString(),
        ],
      )
    }
    return true
  })
}

/**
 * Settles the moves a killed process left: each main has is recorded now (its details say
 * `recoveredAfterCrash`, with when it was meant), each it has not is dropped. Run by the
 * lease's holder. A git error stops it, the intents kept: only git's own "no" drops one.
 * Returns the moves recorded.
 */
export async function settleMainMoves(
  database: Database,
  repo: GitRepository,
  now: Date,
): Promise<MainMove[]> {
  const rows = await database.query<MoveRow>('SELECT * FROM main_moves ORDER BY id')
  if (rows.length === 0) return []
  const main = await repo.resolve(MAIN)
  if (!main) throw new Error('the repository has no main branch to settle its moves against')
  const recorded: MainMove[] = []
  for (const row of rows) {
    const id = Number(row.id)
    if (row.after !== main && !(await repo.isAncestor(row.after, main))) {
      await database.query('DELETE FROM main_moves WHERE id = $1', [id])
      continue
    }
    const details = typeof row.details === 'string' ? JSON.parse(row.details) : row.details
    const move: MainMove = {
      action: row.action,
      actor: row.actor,
      subject: row.subject,
      before: row.before,
      after: row.after,
      details: {
        ...details,
        recoveredAfterCrash: true,
        meantAt: new Date(row.at).toISOString(),
      },
      ...(row.draft_id && row.draft_ref && row.draft_head
        ? { draft: { id: row.draft_id, ref: row.draft_ref, head: row.draft_head } }
        : {}),
    }
    if (await record(database, repo, id, move, now)) recorded.push(move)
  }
  return recorded
}
