/**
 * Drafts: every change an editor makes (an entry saved, deleted, an image uploaded) goes to a
 * branch of its own, `refs/heads/cms/<collection>/<slug>`, started from main; nothing reaches
 * main without approval. Git holds the content and who wrote each commit; the database holds
 * what is not content: the draft's status (Decap's editorial workflow: draft, in review,
 * ready), its approval (bound to the branch's commit at that moment) and the reviewers'
 * comments. The four-eyes rules (four-eyes.ts) are checked here, whatever the browser sends, and
 * every action and refusal goes to the audit trail in the same transaction as its record.
 * Publishing a draft (merging it onto main, building, landing it) is ../publication/'s.
 */
import type { Database } from '../../database/database'
import { appendRefusal } from '../audit/refusal-limit'
import { appendAudit } from '../audit/trail'
import { PublishingError } from '../errors'
import {
  authorOf,
  authorsBetween,
  checkPath,
  type FileChange,
  type GitRepository,
  MergeConflictError,
} from '../git/repository'
import type { Notices } from '../notices/notices'
import type { Person } from '../people/roles'
import { MAIN } from '../publication/main-moves'
import { mergeContentFile } from './field-merge'
import {
  type Approval,
  CONFLICT_CODES,
  type Decision,
  type Draft,
  mayApprove,
  mayDiscard,
  mayRequestChanges,
  maySaveOn,
  maySubmit,
  mayTakeFiles,
  mayWrite,
  refusalOf,
  type Submission,
  sawCurrent,
  statusAfterSave,
  type VersionSaved,
} from './four-eyes'

export { MAIN } from '../publication/main-moves'
export const DRAFT_STATUSES = ['draft', 'pending_review', 'pending_publish'] as const
export type DraftStatus = (typeof DRAFT_STATUSES)[number]

/**
 * An action the rules refused: its reason is the editor's message; `refused-conflict` (409)
 * for a request made on a version that is gone or a file another draft holds (reload and try
 * again), else `refused` (403).
 */
export class RefusedError extends PublishingError<'refused' | 'refused-conflict'> {
  constructor(readonly decision: Exclude<Decision, { allowed: true }>) {
    super(CONFLICT_CODES.has(decision.code) ? 'refused-conflict' : 'refused', {
      reason: decision.reason,
    })
  }
}

/**
 * Unless the rules allowed it: records the refusal in the trail (with `details` besides its
 * code and reason) and throws it as `RefusedError`; nothing else changes.
 */
export async function refuseUnless(
  database: Database,
  person: Person,
  decision: Decision,
  subject: string,
  now: Date,
  details: Record<string, unknown> = {},
): Promise<void> {
  if (decision.allowed) return
  await appendRefusal(
    database,
    {
      actor: person.email,
      action: 'refusal',
      subject: subject.slice(0, 200),
      details: { code: decision.code, reason: decision.reason, ...details },
    },
    now,
  )
  throw new RefusedError(decision)
}

/**
 * Names the fields where a restarted draft's value replaced a newer one on main, for the
 * draft's notes (the author and the reviewer both read them).
 */
export const restartNote = (fields: string[]) =>
  `Saved again on the live site's newer version. The live site had changed these too, and this draft's version replaces the live site's: ${fields.join('; ')}.`

/** An action on a draft that does not exist (published, discarded, or never made). */
export class NoDraftError extends PublishingError<'no-draft'> {
  constructor(readonly id: string) {
    super('no-draft', { id })
  }
}

/** A draft that no longer merges onto main: its editor re-saves it on the new main. */
export class DraftConflictError extends PublishingError<'draft-conflict'> {
  constructor(
    readonly id: string,
    readonly files: string[],
  ) {
    super('draft-conflict', { id, files })
  }
}

/**
 * The drafts of images uploaded or deleted on their own: `media/<path below public/images>`,
 * the whole path, so that two images of one name in different folders are two drafts.
 */
export const MEDIA_DRAFTS = 'media'

/** The draft of an image on its own, by its repository path (`public/images/…`). */
export const mediaDraftId = (repositoryPath: string) =>
  checkDraftId(`${MEDIA_DRAFTS}/${repositoryPath.replace(/^public\/images\//, '')}`)

/**
 * A draft id as Decap names entries: `<collection>/<slug>`, both plain path segments; or an
 * image's, `media/<folders>/<file>`, its folders without dots (so that no image's branch is
 * named like another's folder, which git could not keep side by side).
 */
export function checkDraftId(id: string): string {
  const entry = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9._-]*$/i
  const media = /^media\/(?:[a-z0-9][a-z0-9_-]*\/)*[a-z0-9][a-z0-9._-]*$/i
  if (
    !(entry.test(id) || media.test(id)) ||
    id.length > 200 ||
    // what git refuses in a branch's name
    /\.\.|\.$|\.lock$/i.test(id)
  ) {
    throw new PublishingError('not-draft-id', { id })
  }
  return id
}

export const branchOf = (id: string) => `refs/heads/cms/${checkDraftId(id)}`

export interface DraftView extends Draft {
  status: DraftStatus
  base: string
  createdBy: string
  /** Who started it, by name (their address when they are no longer listed). */
  createdByName: string
  updatedAt: string
  /** The comments on it: `by` an address, `name` theirs as people read it. */
  comments: { by: string; name: string; body: string; at: string }[]
  /** The files the draft changes against its base. */
  files: string[]
  /** Those of them it adds. */
  adds: string[]
  /** Those of them it deletes (a deletion asked for is a draft like any change). */
  deletes: string[]
  /**
   * Who saved the version there now (`head`): their address (`by`) and the name they had then;
   * and when: what a reviewer is shown of it.
   */
  saved: VersionSaved
}

const HISTORIES_KEPT = 500

export class Drafts {
  constructor(
    private readonly database: Database,
    private readonly repo: GitRepository,
    private readonly clock: () => Date = () => new Date(),
    /** Notices to the people concerned (../notices/), queued with each action's record. */
    private readonly notices?: Notices,
  ) {}

  /** Called with a draft's id once it is approved (its approval recorded). */
  private readonly approvalListeners: ((id: string) => void)[] = []

  /** Calls `listener` with each draft's id once it is approved. */
  onApproved(listener: (id: string) => void): void {
    this.approvalListeners.push(listener)
  }

  /**
   * Who wrote the commits between a draft's base and head, and which files they change: fixed
   * for a pair of commits, so each pair is asked of git once (the editor asks for every draft
   * on each board it shows). The newest pairs are kept.
   */
  private readonly histories = new Map<
    string,
    Promise<{
      writers: string[]
      files: string[]
      adds: string[]
      deletes: string[]
      saved: VersionSaved
    }>
  >()

  private history(base: string, head: string) {
    const key = `${base}..${head}`
    let known = this.histories.get(key)
    if (!known) {
      known = Promise.all([
        authorsBetween(this.repo, base, head),
        this.repo.fileChanges(base, head),
        authorOf(this.repo, head),
      ]).then(([writers, changes, author]) => ({
        writers,
        saved: { by: author.email, name: author.name, at: author.at },
        files: changes.map((change) => change.path),
        adds: changes.filter((change) => change.kind === 'added').map((change) => change.path),
        deletes: changes.filter((change) => change.kind === 'deleted').map((change) => change.path),
      }))
      known.catch(() => this.histories.delete(key))
      this.histories.set(key, known)
      for (const oldest of this.histories.keys()) {
        if (this.histories.size <= HISTORIES_KEPT) break
        this.histories.delete(oldest)
      }
    }
    return known
  }

  /** Every draft's id, oldest change first. */
  async ids(): Promise<string[]> {
    const rows = await this.database.query<{ id: string }>(
      'SELECT id FROM drafts ORDER BY updated_at, id',
    )
    return rows.map((row) => row.id)
  }

  /** The draft as the rules and the editor see it, or `null` when there is none. */
  async get(id: string): Promise<DraftView | null> {
    const [row] = await this.database.query<{
      status: DraftStatus
      base_commit: string
      created_by: string
      created_by_name: string | null
      updated_at: Date | string
      submitted_by: string | null
      submitted_commit: string | null
      submitted_at: Date | string | null
    }>(
      `SELECT d.status, d.base_commit, d.created_by, p.name AS created_by_name, d.updated_at,
              d.submitted_by, d.submitted_commit, d.submitted_at
       FROM drafts d LEFT JOIN people p ON p.email = d.created_by WHERE d.id = $1`,
      [checkDraftId(id)],
    )
    const head = await this.repo.resolve(branchOf(id))
    if (!row || !head) return null
    const [approval] = await this.database.query<{
      approved_by: string
      commit: string
      at: Date | string
    }>(
      'SELECT approved_by, commit, at FROM approvals WHERE draft_id = $1 ORDER BY at DESC LIMIT 1',
      [id],
    )
    const comments = await this.database.query<{
      written_by: string
      name: string | null
      body: string
      at: Date | string
    }>(
      `SELECT c.written_by, p.name, c.body, c.at
       FROM draft_comments c LEFT JOIN people p ON p.email = c.written_by
       WHERE c.draft_id = $1 ORDER BY c.id`,
      [id],
    )
    const current: Approval | null = approval
      ? {
          by: approval.approved_by,
          commit: approval.commit,
          at: new Date(approval.at).toISOString(),
        }
      : null
    const submission: Submission | null =
      row.submitted_by && row.submitted_commit && row.submitted_at
        ? {
            by: row.submitted_by,
            commit: row.submitted_commit,
            at: new Date(row.submitted_at).toISOString(),
          }
        : null
    const { writers, files, adds, deletes, saved } = await this.history(row.base_commit, head)
    return {
      id,
      head,
      writers: [...writers],
      submission,
      approval: current,
      status: row.status,
      base: row.base_commit,
      createdBy: row.created_by,
      createdByName: row.created_by_name || row.created_by,
      updatedAt: new Date(row.updated_at).toISOString(),
      comments: comments.map((comment) => ({
        by: comment.written_by,
        name: comment.name || comment.written_by,
        body: comment.body,
        at: new Date(comment.at).toISOString(),
      })),
      files: [...files],
      adds: [...adds],
      deletes: [...deletes],
      saved: { ...saved },
    }
  }

  /**
   * Saves changes to a draft (starting it from main's tip when there is none): a commit by the
   * person on the draft's branch, on top of the version they opened (`startedFrom`; else refused:
   * someone saved in between). A file belongs to one draft: one another draft changes is refused.
   * Any approval of an earlier commit lapses by itself, and a draft in review or approved goes
   * back to draft (`statusAfterSave`): what was submitted is not what is there now.
   */
  async save(
    person: Person,
    id: string,
    changes: FileChange[],
    message: string,
    /**
     * The draft's version the changes were made on (`null`: no draft yet, the live entry): when
     * another is there now, someone else saved meanwhile, and the save is refused instead of
     * writing over it. `undefined` only for the service's own saves on what is there.
     */
    startedFrom?: string | null,
  ): Promise<DraftView> {
    await this.refuseUnless(person, mayWrite(person), id)
    for (const change of changes) checkPath(change.path)
    const now = this.clock()
    const branch = branchOf(id)
    const existing = await this.repo.resolve(branch)
    if (startedFrom !== undefined) {
      const current = existing ? await this.get(id) : null
      await this.refuseUnless(
        person,
        maySaveOn(person, current && { head: current.head, saved: current.saved }, startedFrom),
        id,
      )
    }
    await this.refuseUnless(
      person,
      mayTakeFiles(
        person,
        id,
        changes.map((change) => change.path),
        await this.others(id),
      ),
      id,
    )
    const mainTip = await this.repo.resolve(MAIN)
    if (!mainTip) throw new Error('the repository has no main branch to start a draft from')
    let parent = existing ?? mainTip
    let mergeParents: string[] = []
    let written = changes
    let overridden: string[] = []
    // A draft that no longer merges with main (the same lines changed there since) is restarted
    // on main's tip as a merge of both; its history stays reachable, so its earlier writers
    // still count. Its files are merged field by field with main's newer versions: a field
    // changed on main only takes main's value, one both changed keeps the draft's (the editor
    // sends an entry whole, as the person sees it), and a note on the draft names those.
    if (existing && !(await this.merges(mainTip, existing))) {
      const base = (await this.repo.mergeBase(mainTip, existing)) ?? mainTip
      const own = await this.repo.changedFiles(base, existing)
      const saved = new Set(changes.map((change) => change.path))
      const kept = await Promise.all(
        own
          .filter((path) => !saved.has(path))
          .map(async (path) => ({ path, content: await this.repo.readFile(existing, path) })),
      )
      parent = mainTip
      mergeParents = [existing]
      const restarted = await this.onMain([...kept, ...changes], base, mainTip)
      written = restarted.changes
      overridden = restarted.overridden
    }
    const commit = await this.repo.commit({
      ref: branch,
      parent,
      mergeParents,
      expected: existing,
      changes: written,
      author: { name: person.name, email: person.email },
      message,
      date: now,
    })
    // Where the draft leaves main: main's tip for a new or restarted draft; for a branch whose
    // record was lost (a crash between the commit and the record), where it left main then.
    const base = (await this.repo.mergeBase(mainTip, commit)) ?? mainTip
    await this.database.transaction(async (tx) => {
      const [before] = await tx.query<{ status: DraftStatus }>(
        'SELECT status FROM drafts WHERE id = $1 FOR UPDATE',
        [id],
      )
      const status = statusAfterSave(before?.status ?? 'draft')
      const returned = before !== undefined && before.status !== status
      await tx.query(
        `INSERT INTO drafts (id, status, base_commit, created_by, created_at, updated_at)
         VALUES ($1, $5, $2, $3, $4, $4)
         ON CONFLICT (id) DO UPDATE SET updated_at = $4, base_commit = $2,
           status = $5, submitted_by = NULL, submitted_commit = NULL, submitted_at = NULL`,
        [id, base, person.email, now.toISOString(), status],
      )
      await appendAudit(
        tx,
        {
          actor: person.email,
          action: 'save',
          subject: id,
          before: existing ?? mainTip,
          after: commit,
          details: {
            files: changes.map((change) => change.path),
            ...(overridden.length > 0 ? { overridden } : {}),
            ...(returned ? { returnedToDraft: before.status } : {}),
          },
        },
        now,
        tx,
      )
      if (overridden.length > 0) {
        await tx.query(
          'INSERT INTO draft_comments (draft_id, written_by, body, at) VALUES ($1, $2, $3, $4)',
          [id, person.email, restartNote(overridden), now.toISOString()],
        )
      }
    })
    return (await this.get(id)) as DraftView
  }

  /**
   * A restarted draft's files on main's tip: each merged field by field with main's version
   * where main changed it since `base`, kept whole where main did not (or where it is no
   * content document, or main deleted it). Also the fields where the draft's value replaced
   * main's newer one, as `file: field`.
   */
  private async onMain(
    changes: FileChange[],
    base: string,
    mainTip: string,
  ): Promise<{ changes: FileChange[]; overridden: string[] }> {
    const overridden: string[] = []
    const merged = await Promise.all(
      changes.map(async (change) => {
        const [before, theirs] = await Promise.all([
          this.repo.readFile(base, change.path),
          this.repo.readFile(mainTip, change.path),
        ])
        const mainChanged = !(before && theirs ? theirs.equals(before) : before === theirs)
        if (change.content === null) {
          if (mainChanged && theirs)
            overridden.push(`${change.path} (changed on the live site; this draft deletes it)`)
          return change
        }
        const ours = Buffer.from(change.content)
        if (!theirs) {
          if (before)
            overridden.push(`${change.path} (deleted on the live site; this draft keeps it)`)
          return change
        }
        if (!mainChanged) return change
        if (before && ours.equals(before)) return { path: change.path, content: theirs }
        const merge = mergeContentFile(change.path, before ?? undefined, ours, theirs)
        if (!merge) {
          overridden.push(`${change.path} (changed on the live site; this draft's file is kept)`)
          return change
        }
        overridden.push(...merge.overridden.map((field) => `${change.path}: ${field}`))
        return { path: change.path, content: merge.content }
      }),
    )
    return { changes: merged, overridden }
  }

  /** Every draft but `id`, with the files it changes: who holds which file. */
  private async others(id: string): Promise<{ id: string; files: string[] }[]> {
    const others = []
    for (const other of await this.ids()) {
      if (other === id) continue
      const draft = await this.get(other)
      if (draft) others.push({ id: other, files: draft.files })
    }
    return others
  }

  /**
   * Moves a draft between Decap's columns; "ready" is an approval, with its rules. `seen` is the
   * version the person opened: moving another to review, or approving it, is refused.
   */
  async setStatus(
    person: Person,
    id: string,
    status: DraftStatus,
    seen?: string,
  ): Promise<DraftView> {
    // The status comes from the browser: a forged one is named, not passed to the database.
    if (!(DRAFT_STATUSES as readonly string[]).includes(status)) {
      throw new PublishingError('not-draft-status', {
        status,
        expected: DRAFT_STATUSES.join(', '),
      })
    }
    if (status === 'pending_publish') return this.approve(person, id, seen)
    const draft = await this.require(id)
    // Its authors move a draft to review (that is submitting this version) or take it back; a
    // reviewer may send one back to draft, which returns the choice to its authors.
    const sendBack = status === 'draft' && mayRequestChanges(person).allowed
    if (!sendBack) await this.refuseUnless(person, maySubmit(person, draft), id)
    // Submitting is deciding on a version: the one its author saw, or nothing.
    if (status === 'pending_review' && seen !== undefined) {
      await this.refuseUnless(person, sawCurrent(person, draft, seen, draft.saved), id)
    }
    const now = this.clock()
    const submitted = status === 'pending_review'
    await this.database.transaction(async (tx) => {
      await tx.query(
        `UPDATE drafts SET status = $2, updated_at = $3,
           submitted_by = $4, submitted_commit = $5, submitted_at = $6
         WHERE id = $1`,
        [
          id,
          status,
          now.toISOString(),
          submitted ? person.email : null,
          submitted ? draft.head : null,
          submitted ? now.toISOString() : null,
        ],
      )
      // Out of "ready", the approval goes: a draft sent back is not publishable.
      await tx.query('DELETE FROM approvals WHERE draft_id = $1', [id])
      await appendAudit(
        tx,
        {
          actor: person.email,
          action: 'submit',
          subject: id,
          after: draft.head,
          details: { status },
        },
        now,
        tx,
      )
      // Notices: the reviewers who may approve it now; or its authors, sent back by another.
      if (submitted) {
        await this.notices?.submitted(tx, person, {
          ...draft,
          submission: { by: person.email, commit: draft.head, at: now.toISOString() },
          approval: null,
        })
      } else if (draft.status !== 'draft' && !draft.writers.includes(person.email)) {
        await this.notices?.sentBack(tx, person, draft)
      }
    })
    this.notices?.wake()
    return (await this.get(id)) as DraftView
  }

  /**
   * Discards a draft (Decap's "delete unpublished changes"): its branch and record go, main is
   * untouched; one of its authors may, or an administrator (`mayDiscard`). Its commits stay in
   * the trail.
   */
  async discard(person: Person, id: string): Promise<void> {
    const draft = await this.require(id)
    await this.refuseUnless(person, mayDiscard(person, draft), id)
    const now = this.clock()
    await this.database.transaction(async (tx) => {
      await tx.query('DELETE FROM drafts WHERE id = $1', [id])
      await appendAudit(
        tx,
        {
          actor: person.email,
          action: 'delete',
          subject: id,
          before: draft.head,
          details: { discarded: true, files: draft.files },
        },
        now,
        tx,
      )
    })
    await this.repo.deleteRef(branchOf(id), draft.head).catch(() => {})
  }

  /**
   * Approves the version of the draft the reviewer saw (`seen`, a commit or its short form): a
   * reviewer who wrote none of it, of the version its author submitted, if it is still the one
   * there. Any other version is refused, saying who saved it and when.
   */
  async approve(person: Person, id: string, seen: string | undefined): Promise<DraftView> {
    const draft = await this.require(id)
    const rules = mayApprove(person, draft)
    // Whoever may approve at all is told first that what she saw is gone, if it is.
    const version =
      rules.allowed || rules.code !== 'role'
        ? sawCurrent(person, draft, seen, draft.saved)
        : { allowed: true as const }
    await this.refuseUnless(person, version.allowed ? rules : version, id)
    const now = this.clock()
    const approved = await this.database.transaction(async (tx) => {
      // Only while the draft is still the version submitted and seen: a save meanwhile wins.
      const still = await tx.query(
        `UPDATE drafts SET status = 'pending_publish', updated_at = $2
         WHERE id = $1 AND status = 'pending_review' AND submitted_commit = $3 RETURNING id`,
        [id, now.toISOString(), draft.head],
      )
      if (still.length === 0) return false
      await tx.query(
        `INSERT INTO approvals (draft_id, approved_by, commit, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [id, person.email, draft.head, now.toISOString()],
      )
      await appendAudit(
        tx,
        { actor: person.email, action: 'approve', subject: id, after: draft.head },
        now,
        tx,
      )
      // Notices: its authors, and the publishers who may publish it now.
      await this.notices?.approved(tx, person, {
        ...draft,
        approval: { by: person.email, commit: draft.head, at: now.toISOString() },
      })
      return true
    })
    if (approved) {
      this.notices?.wake()
      for (const listener of this.approvalListeners) listener(id)
    }
    if (!approved) {
      // Changed between reading it and approving it: refused as what she saw is gone.
      const current = await this.require(id)
      const changed = sawCurrent(person, current, draft.head, current.saved)
      const decision = mayApprove(person, current)
      await this.refuseUnless(
        person,
        !changed.allowed
          ? changed
          : decision.allowed
            ? refusalOf(person, 'submission-lapsed')
            : decision,
        id,
      )
    }
    return (await this.get(id)) as DraftView
  }

  /**
   * Refuses (and records) a request about a version of the draft other than the one there now:
   * a publisher publishes what she saw approved, or nothing.
   */
  async requireSeen(person: Person, id: string, seen: string | undefined): Promise<DraftView> {
    const draft = await this.require(id)
    await this.refuseUnless(person, sawCurrent(person, draft, seen, draft.saved), id)
    return draft
  }

  /**
   * A comment on a draft, seen by everyone who opens it (Decap's notes): by anyone who may
   * write or review. Comments stay as written; they are part of the record.
   */
  async comment(person: Person, id: string, text: string): Promise<DraftView> {
    const draft = await this.require(id)
    if (!mayRequestChanges(person).allowed) await this.refuseUnless(person, mayWrite(person), id)
    return this.writeComment(person, draft, text, 'comment')
  }

  /** Sends a draft back to its authors with a comment they see. */
  async requestChanges(person: Person, id: string, comment: string): Promise<DraftView> {
    const draft = await this.require(id)
    await this.refuseUnless(person, mayRequestChanges(person), id)
    return this.writeComment(person, draft, comment, 'request-changes')
  }

  /**
   * A comment on the draft in the trail's transaction; sending back also returns the draft to
   * its authors and withdraws its approval.
   */
  private async writeComment(
    person: Person,
    draft: DraftView,
    text: string,
    action: 'comment' | 'request-changes',
  ): Promise<DraftView> {
    const body = text.trim()
    if (body.length === 0 || body.length > 5000) throw new PublishingError('comment-length')
    const now = this.clock()
    await this.database.transaction(async (tx) => {
      await tx.query(
        'INSERT INTO draft_comments (draft_id, written_by, body, at) VALUES ($1, $2, $3, $4)',
        [draft.id, person.email, body, now.toISOString()],
      )
      if (action === 'request-changes') {
        await tx.query(
          `UPDATE drafts SET status = 'draft', updated_at = $2,
             submitted_by = NULL, submitted_commit = NULL, submitted_at = NULL
           WHERE id = $1`,
          [draft.id, now.toISOString()],
        )
        await tx.query('DELETE FROM approvals WHERE draft_id = $1', [draft.id])
      }
      await appendAudit(
        tx,
        {
          actor: person.email,
          action,
          subject: draft.id,
          after: draft.head,
          details: { comment: body },
        },
        now,
        tx,
      )
      // Notices: its authors, with the comment written for them.
      if (action === 'request-changes') await this.notices?.sentBack(tx, person, draft, body)
    })
    if (action === 'request-changes') this.notices?.wake()
    return (await this.get(draft.id)) as DraftView
  }

  /** Whether a draft's `head` merges onto main's tip as it is now. */
  async mergesWithMain(head: string): Promise<boolean> {
    const main = await this.repo.resolve(MAIN)
    return main === null || (await this.merges(main, head))
  }

  /** Whether `head` merges onto `main` without conflict. */
  private async merges(main: string, head: string): Promise<boolean> {
    if (await this.repo.isAncestor(main, head)) return true
    try {
      await this.repo.mergeTrees(main, head)
      return true
    } catch (error) {
      if (error instanceof MergeConflictError) return false
      throw error
    }
  }

  /** The draft, or `NoDraftError` when there is none. */
  async require(id: string): Promise<DraftView> {
    const draft = await this.get(id)
    if (!draft) throw new NoDraftError(id)
    return draft
  }

  /** Records a refusal in the trail and throws it; nothing else changes. */
  private refuseUnless(person: Person, decision: Decision, id: string): Promise<void> {
    return refuseUnless(this.database, person, decision, id, this.clock())
  }

  /** A refusal in the trail: the rules' own, or the editor's request refused as bad input. */
  async recordRefusal(
    person: Person,
    subject: string,
    details: { code: string; reason: string; action?: string },
  ): Promise<void> {
    await appendRefusal(
      this.database,
      { actor: person.email, action: 'refusal', subject: subject.slice(0, 200), details },
      this.clock(),
    )
  }
}
