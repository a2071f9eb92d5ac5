/**
 * Every move of main by the service (a publication, a rollback, taking in the remote's main),
 * written down before it is made. Main lives in git and the record in the database, so no one
 * transaction covers both: a process killed between moving main and recording the move would
 * leave main changed with no one named in the trail. The intent stays in the database instead,
 * and the next holder of the publication lease settles it: recorded (marked as recovered) if
 * main has the commit, dropped if the move never happened.
 */
import type { Database, Queryable } from '../server/forms/database'
import { appendAudit } from './audit'
import type { GitRepository } from './git'

export const MAIN = 'refs/heads/main'

export const MAIN_MOVES_MIGRATION = {
  id: '0008-main-moves',
  statements: [
    `CREATE TABLE main_moves (
      id bigserial PRIMARY KEY,
      action text NOT NULL CHECK (action IN ('publish', 'rollback', 'take-in')),
      actor text NOT NULL,
      subject text NOT NULL,
      before text NOT NULL,
      after text NOT NULL,
      details jsonb NOT NULL,
      draft_id text,
      draft_ref text,
      draft_head text,
      at timestamptz NOT NULL
    )`,
  ],
}

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
    await database.query('DELETE FROM main_moves WHERE id = $1', [id])
    throw error
  }
  await database.transaction((tx) => record(tx, id, move, now))
  if (move.draft) await repo.deleteRef(move.draft.ref, move.draft.head).catch(() => {})
}

async function record(tx: Queryable, id: number, move: MainMove, now: Date): Promise<void> {
  if (move.draft) await tx.query('DELETE FROM drafts WHERE id = $1', [move.draft.id])
  const { action, actor, subject, before, after, details } = move
  await appendAudit(tx, { actor, action, subject, before, after, details }, now, tx)
  await tx.query('DELETE FROM main_moves WHERE id = $1', [id])
}

/**
 * Settles the moves a killed process left: each main has is recorded now (its details say
 * `recoveredAfterCrash`), each it has not is dropped. Run by the lease's holder only. Returns
 * the moves recorded.
 */
export async function settleMainMoves(
  database: Database,
  repo: GitRepository,
  now: Date,
): Promise<MainMove[]> {
  const rows = await database.query<MoveRow>('SELECT * FROM main_moves ORDER BY id')
  if (rows.length === 0) return []
  const main = await repo.resolve(MAIN)
  const recorded: MainMove[] = []
  for (const row of rows) {
    const id = Number(row.id)
    const made = main !== null && (row.after === main || (await repo.isAncestor(row.after, main)))
    if (!made) {
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
      details: { ...details, recoveredAfterCrash: true },
      ...(row.draft_id && row.draft_ref && row.draft_head
        ? { draft: { id: row.draft_id, ref: row.draft_ref, head: row.draft_head } }
        : {}),
    }
    await database.transaction((tx) => record(tx, id, move, now))
    if (move.draft) await repo.deleteRef(move.draft.ref, move.draft.head).catch(() => {})
    recorded.push(move)
  }
  return recorded
}
