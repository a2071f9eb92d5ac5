/**
 * What the site served: each switch of the served release (a publication, a schedule firing, a
 * rollback, the service's first release or a recovery) is a row of `releases`, written by
 * `goLive` (publish.ts) in the transaction that marks the content taken in that it is the first
 * to serve. Read here for the releases page, a rollback's plan and the service's look at
 * whether the site is behind main.
 */
import type { Database } from '../../database/database'
import type { RollbackChanges } from '../workflow/rollbacks'
import type { Releases } from './releases'

/** A `jsonb` list as the driver gives it (PGlite parses it, some set-ups give its text). */
export const filesOf = (files: string[] | string): string[] =>
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

/**
 * What the site served, newest first: each switch of the served release (a publication, a
 * schedule firing, a rollback, the service's first release or a recovery) whose folder is
 * still on disk, with what it changed (the files, those deleted, who approved them) from the
 * trail's record of the move of main it serves. A rollback is an entry of its own, above the
 * publications it undid, which keep who approved them; the live entry is the newest.
 */
export async function listReleases(database: Database, releases: Releases): Promise<ReleaseView[]> {
  const live = await releases.current()
  const onDisk = new Set(await releases.list())
  const rows = (await database.query<ReleaseRow>('SELECT * FROM releases ORDER BY id DESC')).filter(
    (row) => onDisk.has(row.folder),
  )
  const liveId = rows.find((row) => row.folder === live)?.id
  const out: ReleaseView[] = []
  for (const row of rows) {
    const release = await releaseFrom(database, row)
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
export async function releaseOf(database: Database, folder: string): Promise<Release | null> {
  const [row] = await database.query<ReleaseRow>(
    'SELECT * FROM releases WHERE folder = $1 ORDER BY id DESC LIMIT 1',
    [folder],
  )
  return row ? releaseFrom(database, row) : null
}

/** A switch's record, with the content taken in that it was the first to serve. */
async function releaseFrom(database: Database, row: ReleaseRow): Promise<Release> {
  const unreviewed = await database.query<{
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
 * The release served just before the live one (what an emergency's rollback returns to), if
 * it is still on disk.
 */
export async function previousRelease(
  database: Database,
  releases: Releases,
): Promise<string | null> {
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
