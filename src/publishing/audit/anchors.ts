/**
 * The audit trail's anchors outside the database, in git. The chain of hashes finds an entry
 * changed or removed in the middle, but whoever holds the database can also remove the last
 * entries, or change one and compute every later hash again: the chain then checks out. So the
 * chain's length and last hash are written where the database's holder cannot reach:
 *
 * - every commit the service makes on main (a publication, a rollback, a merge taking in the
 *   remote) ends with the trailer `Audit-Trail: <length> <hash> <key id> <tag>`: the trail as
 *   it stood when the commit was made (`mainTrailers`, through `GitRepository.withTrailers`);
 * - a checkpoint ref, `refs/audit/checkpoint`, a chain of commits of its own (each message
 *   carries the same trailer), written before the answer to every request that approves,
 *   publishes, rolls back or grants a role, and within `ANCHOR_WITHIN_MS` of any other entry
 *   (`AuditCheckpoints`); its reflog keeps every tip it had.
 *
 * The tag is an HMAC with `AUDIT_KEY` over the length and the hash: an anchor that carries a
 * valid one is the service's own wherever it is found (main, the checkpoint chain, a tip the
 * chain no longer reaches, the remote's copies), and counts whatever the trail says; without
 * the key no one can make one, nor disown one by removing entries. Anchors without a tag
 * (written without a key, or before tags) count as they did: the checkpoint chain's, and
 * main's on commits the trail records as the service's. An editor's commit message cannot pass
 * for an anchor (../git/repository.ts quotes such a line), and only lines of exactly this form
 * count. With `PUBLISHING_PUSH=on` both go to the bank's repository with each published
 * commit, and the checkpoint every `AUDIT_CHECKPOINT_MINUTES` while the trail grows.
 *
 * `auditOutcome` turns a check into one of four outcomes, each with its exit code for
 * `npm run cms -- verify` and its metric: intact and fully anchored, intact with entries not
 * anchored yet, unverifiable (no anchor, or no key), tampered.
 */
import { hostname, userInfo } from 'node:os'
import type { Database, Queryable } from '../../database/database'
import { ANCHOR_TRAILER, type GitRepository, pushRefs, RefMovedError } from '../git/repository'
import type { AuditOutcomeKind, PublishingMetrics } from '../metrics'
import {
  type AuditCheck,
  type AuditEntry,
  anchorTag,
  appendAudit,
  checkAnchorTag,
  GENESIS,
  holdsAuditKey,
  type TrailAnchor,
  verifyAudit,
} from './trail'

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

/** The longest an entry goes without an anchor: the checkpoint timer's period. */
export const ANCHOR_WITHIN_MS = 10_000

const ANCHOR_LINE = new RegExp(
  `^${ANCHOR_TRAILER}: (\\d+) ([0-9a-f]{64})(?: ([0-9a-f]{16}) ([0-9a-f]{64}))?$`,
  'gm',
)
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

/** `Audit-Trail: 412 9f3c… 1a2b… 7d8e…`: the trailer of an anchor, tagged with `AUDIT_KEY`. */
export function anchorLine(state: TrailState): string {
  const tag = anchorTag(state.length, state.head)
  return `${ANCHOR_TRAILER}: ${state.length} ${state.head}${tag ? ` ${tag.keyId} ${tag.tag}` : ''}`
}

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
  /** When its commit was made (ISO 8601, as git records it). */
  at?: string
  /** Its tag, when written with `AUDIT_KEY`: the key's id and the HMAC. */
  keyId?: string
  tag?: string
}

interface FoundAnchor extends TrailState {
  keyId?: string
  tag?: string
}

/** The anchors a commit message records. */
function anchorsIn(message: string): FoundAnchor[] {
  return [...message.matchAll(ANCHOR_LINE)].map((match) => ({
    length: Number(match[1]),
    head: match[2] ?? '',
    ...(match[3] && match[4] ? { keyId: match[3], tag: match[4] } : {}),
  }))
}

/** The anchors one commit's own message records (none for a commit that is no anchor). */
export async function anchorsOfCommit(
  repo: GitRepository,
  commit: string,
): Promise<(TrailState & { keyId?: string })[]> {
  const body = (await repo.git(['log', '-1', '--format=%B', commit, '--'])).toString('utf8')
  return anchorsIn(body).map(({ tag: _tag, ...anchor }) => anchor)
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
  more: readonly string[] = [],
): Promise<GitAnchor[]> {
  const tips = [...((await repo.resolve(ref)) ? [ref] : []), ...more]
  if (tips.length === 0) return []
  const output = await repo.git([
    'log',
    '-z',
    '--format=%H%x1f%cI%x1f%s%x1f%B',
    `--grep=^${ANCHOR_TRAILER}: [0-9]`,
    ...tips,
    '--',
  ])
  const anchors: GitAnchor[] = []
  for (const record of output.toString('utf8').split('\0')) {
    const [id = '', at = '', subject = '', body = ''] = record.split('\x1f')
    if (!id) continue
    const name = nameOf({ id, at, subject })
    for (const state of anchorsIn(body)) anchors.push({ ...state, commit: id, name, source, at })
  }
  return anchors
}

const shortId = (commit: string) => commit.slice(0, 12)

/**
 * The tips the checkpoint ref ever had (its reflog, newest first), and which of them its chain
 * no longer reaches: it was moved back, or rewritten.
 */
async function checkpointTips(
  repo: GitRepository,
): Promise<{ tips: string[]; lost: { commit: string; at: string }[] }> {
  const tip = await repo.resolve(CHECKPOINT_REF)
  if (!tip) return { tips: [], lost: [] }
  const logged = (
    await repo
      .git(['reflog', 'show', '--format=%H%x1f%gd', '--date=iso-strict', CHECKPOINT_REF, '--'])
      .catch(() => Buffer.from(''))
  )
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [commit = '', selector = ''] = line.split('\x1f')
      return { commit, at: selector.replace(/^.*@\{(.*)\}$/, '$1') }
    })
  const chain = new Set(
    (await repo.git(['rev-list', tip, '--'])).toString('utf8').split('\n').filter(Boolean),
  )
  const seen = new Set<string>()
  const lost: { commit: string; at: string }[] = []
  for (const entry of logged) {
    if (seen.has(entry.commit)) continue
    seen.add(entry.commit)
    // Gone from the object store too: nothing to read, and nothing of it to hold against.
    if (!chain.has(entry.commit) && (await repo.resolve(entry.commit))) lost.push(entry)
  }
  return { tips: [...seen], lost }
}

/** The anchors in a checkpoint chain's history and a main's, named with `label` for people. */
async function anchorsAt(
  repo: GitRepository,
  checkpoint: string,
  main: string,
  label = '',
  lostCheckpoints: readonly string[] = [],
): Promise<GitAnchor[]> {
  return [
    ...(await anchorsOf(
      repo,
      checkpoint,
      'checkpoint',
      (commit) => `checkpoint ${shortId(commit.id)} (${label}${CHECKPOINT_REF}, ${commit.at})`,
      lostCheckpoints,
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
  /** Anchors not counted, each with why (someone else's commit, a forged tag). */
  ignored: string[]
  /** Anchors tagged with a key `AUDIT_KEY` does not hold: not counted, and not disowned. */
  unknownKeys: string[]
  /**
   * Anchors of entries an older backup lacked, written before it was restored, that the trail
   * records as a gap (`restore-gap`, `npm run cms -- record-gap`): not counted, and named.
   */
  gaps?: string[]
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
  const read = [`${repo.gitDir} (main, ${CHECKPOINT_REF} and its reflog)`]
  const problems: string[] = []
  const rewritten: string[] = []
  // The tips the checkpoint ref had and its chain no longer reaches: their anchors count too.
  const { lost } = await checkpointTips(repo)
  // The reflog is newest first: the last tip lost, and how many before it.
  const [latest] = lost
  if (latest) {
    rewritten.push(
      `${CHECKPOINT_REF} moved backwards: its chain no longer holds ${shortId(latest.commit)}, its tip at ${latest.at}${lost.length > 1 ? `, nor ${lost.length - 1} earlier tips` : ''}`,
    )
  }
  const anchors = await anchorsAt(
    repo,
    CHECKPOINT_REF,
    'refs/heads/main',
    '',
    lost.map((tip) => tip.commit),
  )
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
  return { anchors: unique, read, problems, rewritten, ignored: [], unknownKeys: [] }
}

/**
 * The anchors that count. One tagged with a key `AUDIT_KEY` holds counts wherever it was found:
 * only the service could make it. One whose tag that key did not make is forged, and one of a
 * key not held cannot be checked: neither counts, both are named. Of the untagged (written
 * without a key, or before tags), the checkpoint chain's count, and main's on commits the trail
 * records as the service's: the `after` of a publication or a rollback, or of a take-in that
 * merged (anyone who may push to the bank's main could write such a line into a commit).
 */
async function countedAnchors(database: Queryable, sources: AnchorSources): Promise<AnchorSources> {
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
  const unknownKeys: string[] = []
  const anchors = sources.anchors.filter((anchor) => {
    const tag = checkAnchorTag(anchor)
    if (tag === 'valid') return true
    if (tag === 'forged') {
      ignored.push(`${anchor.name} carries an anchor whose tag AUDIT_KEY did not make (forged)`)
      return false
    }
    if (tag === 'unknown-key') {
      unknownKeys.push(`${anchor.name} (key ${anchor.keyId})`)
      return false
    }
    if (anchor.source === 'checkpoint' || made.has(anchor.commit)) return true
    ignored.push(
      `${anchor.name} carries an anchor without a tag, and the trail records no such commit of the service's (someone else's commit)`,
    )
    return false
  })
  return {
    ...sources,
    anchors,
    ignored: [...new Set(ignored)],
    unknownKeys: [...new Set(unknownKeys)],
  }
}

/** What `verify` found, as one of four outcomes (each its exit code and its metric). */
export type AuditOutcome =
  | { kind: 'intact'; entries: number; anchors: number }
  | { kind: 'unanchored'; entries: number; anchors: number; unanchored: number }
  | { kind: 'unverifiable'; entries: number; reason: string }
  | {
      kind: 'tampered'
      entries: number
      brokenAt: number
      reason: string
      anchor?: string
      /** The trail was restored from a backup older than anchors written before the restore. */
      behind?: RestoredBehind
    }

/** `npm run cms -- verify`'s exit code for each outcome (2 is a wrong command). */
export const OUTCOME_EXIT_CODES: Record<AuditOutcomeKind, number> = {
  intact: 0,
  tampered: 1,
  unverifiable: 3,
  unanchored: 4,
}

/**
 * The outcome of a check against the anchors that count (`sources`, none when there is no
 * repository): tampered when the chain breaks, an anchor disagrees or an anchor's ref moved
 * back; unverifiable when there is no key, entries of a key not held, or no anchor at all;
 * else intact, with the entries after the furthest anchor counted.
 */
export function auditOutcome(
  check: AuditCheck,
  sources: AnchorSources | undefined,
  behind?: RestoredBehind | null,
): AuditOutcome {
  if (!check.ok && behind) {
    const { lacks, backupEntries, takenAt, restoredAt, entry, anchor } = behind
    return {
      kind: 'tampered',
      entries: check.entries,
      brokenAt: lacks.from,
      reason: `it was restored from an older backup: entry ${entry} records the restore on ${restoredAt} of a backup${takenAt ? ` taken ${takenAt}` : ''} with ${backupEntries} entries, and ${anchor}, written before the restore, records ${lacks.to}: the backup lacks entries ${lacks.from} to ${lacks.to} (${lacks.to - lacks.from + 1}), which the database no longer has`,
      anchor,
      behind,
    }
  }
  if (!check.ok) {
    return {
      kind: 'tampered',
      entries: check.entries,
      brokenAt: check.brokenAt,
      reason: check.reason,
      ...(check.anchor ? { anchor: check.anchor } : {}),
    }
  }
  const [rewritten] = sources?.rewritten ?? []
  if (rewritten) {
    return {
      kind: 'tampered',
      entries: check.entries,
      brokenAt: (check.anchors?.last ?? 0) + 1,
      reason: `the anchors were tampered with: ${rewritten}`,
    }
  }
  const entries = check.entries
  if (entries === 0) return { kind: 'intact', entries, anchors: 0 }
  if (!holdsAuditKey()) {
    const keyed = check.unchecked
    return {
      kind: 'unverifiable',
      entries,
      reason: keyed
        ? `AUDIT_KEY is not set: ${keyed.entries} keyed entries were not checked (key ${keyed.keys.join(', ')}), and no anchor can be told from a forgery`
        : 'AUDIT_KEY is not set: without it, neither the entries nor the anchors can be told from ones written by whoever holds the database and the repository',
    }
  }
  if (check.unchecked) {
    const { keys, unvouchedFrom } = check.unchecked
    return {
      kind: 'unverifiable',
      entries,
      reason: `${check.unchecked.entries} keyed entries are keyed with ${keys.length === 1 ? 'a key' : 'keys'} AUDIT_KEY does not hold (${keys.join(', ')})${unvouchedFrom ? `, and from entry ${unvouchedFrom} on no anchor vouches for them: if that is not an old key of the bank's, kept after the new one in AUDIT_KEY, they were written by someone else` : ': keep the old key after the new one in AUDIT_KEY'}`,
    }
  }
  if (!sources) {
    return {
      kind: 'unverifiable',
      entries,
      reason: 'there is no repository to read its anchors from',
    }
  }
  const anchors = check.anchors ?? { checked: 0, last: 0 }
  if (anchors.checked === 0) {
    return {
      kind: 'unverifiable',
      entries,
      reason: `no anchor of it was found in git (${sources.read.join('; ')}): entries removed from its end, or a chain computed again, would not show`,
    }
  }
  const unanchored = entries - anchors.last
  return unanchored > 0
    ? { kind: 'unanchored', entries, anchors: anchors.checked, unanchored }
    : { kind: 'intact', entries, anchors: anchors.checked }
}

/** The entries no anchor covers yet, and how old the first of them is (for the metrics). */
export async function unanchoredOf(
  database: Queryable,
  outcome: AuditOutcome,
  now: Date,
): Promise<{ entries: number; ageSeconds: number }> {
  if (outcome.kind !== 'unanchored') return { entries: 0, ageSeconds: 0 }
  const [first] = await database.query<{ at: Date | string }>(
    'SELECT at FROM audit_entries WHERE id = $1',
    [outcome.entries - outcome.unanchored + 1],
  )
  const ageMs = first ? now.getTime() - new Date(first.at).getTime() : 0
  return { entries: outcome.unanchored, ageSeconds: Math.max(0, ageMs / 1000) }
}

/** A trail restored from a backup older than anchors written before the restore. */
export interface RestoredBehind {
  /** The entry that records the restore (`npm run cms -- restore`). */
  entry: number
  restoredAt: string
  /** When the backup was taken, as its manifest says. */
  takenAt: string | null
  /** The entries the backup had. */
  backupEntries: number
  /** The entries the backup lacks: those the anchors written before the restore record. */
  lacks: { from: number; to: number }
  /** The furthest of those anchors, for people. */
  anchor: string
  /** The anchors written before the restore that the trail now disagrees with. */
  anchors: GitAnchor[]
}

/**
 * Whether the trail disagrees with its anchors only because it was restored from a backup older
 * than some of them: every anchor that disagrees (or lies beyond the trail's end) was written
 * before a restore recorded at or below its length (a `restore` entry, written by
 * `npm run cms -- restore`), and the chain checks out against every other anchor. Then those
 * anchors name the entries the backup lacks; anything else stays what it is (tampering).
 */
export async function restoredBehind(
  database: Queryable,
  anchors: readonly GitAnchor[],
): Promise<RestoredBehind | null> {
  const restores = (
    await database.query<{
      id: string | number
      at: Date | string
      details: Record<string, unknown> | string
    }>(`SELECT id, at, details FROM audit_entries WHERE action = 'restore' ORDER BY id`)
  ).map((row) => ({
    id: Number(row.id),
    at: new Date(row.at),
    details: (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as {
      backup?: { takenAt?: string; entries?: number }
    },
  }))
  if (restores.length === 0) return null
  const lengths = [...new Set(anchors.map((anchor) => anchor.length))]
  const held = new Map(
    (
      await database.query<{ id: string | number; hash: string }>(
        'SELECT id, hash FROM audit_entries WHERE id = ANY($1::bigint[])',
        [lengths],
      )
    ).map((row) => [Number(row.id), row.hash]),
  )
  const older = anchors.filter((anchor) => held.get(anchor.length) !== anchor.head)
  if (older.length === 0) return null
  let restore: (typeof restores)[number] | undefined
  for (const anchor of older) {
    const before = restores.filter((entry) => entry.id <= anchor.length).at(-1)
    // Written after the restore (git keeps seconds): the trail was changed since, not restored.
    if (!before || !anchor.at || Date.parse(anchor.at) > before.at.getTime()) return null
    if (!restore || before.id > restore.id) restore = before
  }
  if (!restore) return null
  const rest = anchors.filter((anchor) => !older.includes(anchor))
  if (!(await verifyAudit(database, rest)).ok) return null
  const furthest = older.reduce((a, b) => (b.length > a.length ? b : a))
  const backupEntries = Number(restore.details.backup?.entries ?? restore.id - 1)
  return {
    entry: restore.id,
    restoredAt: restore.at.toISOString(),
    takenAt: restore.details.backup?.takenAt ?? null,
    backupEntries,
    lacks: { from: backupEntries + 1, to: furthest.length },
    anchor: furthest.name,
    anchors: older,
  }
}

/** The anchors a `restore-gap` entry records: `<commit> <length> <head>` each. */
async function recordedGaps(
  database: Queryable,
): Promise<{ entry: number; restore: number; from: number; to: number; anchors: Set<string> }[]> {
  const rows = await database.query<{
    id: string | number
    details: Record<string, unknown> | string
  }>(`SELECT id, details FROM audit_entries WHERE action = 'restore-gap' ORDER BY id`)
  return rows.map((row) => {
    const details = (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as {
      restore?: number
      lacks?: { from?: number; to?: number }
      anchors?: { commit?: string; length?: number; head?: string }[]
    }
    return {
      entry: Number(row.id),
      restore: Number(details.restore ?? 0),
      from: Number(details.lacks?.from ?? 0),
      to: Number(details.lacks?.to ?? 0),
      anchors: new Set(
        (details.anchors ?? []).map((anchor) => `${anchor.commit} ${anchor.length} ${anchor.head}`),
      ),
    }
  })
}

/**
 * The anchors that count, less those of gaps the trail records (`restore-gap`): the anchors,
 * written before a restore, of entries the backup restored lacked. Each gap is named.
 */
async function withoutRecordedGaps(
  database: Queryable,
  sources: AnchorSources,
): Promise<AnchorSources> {
  const gaps = await recordedGaps(database)
  if (gaps.length === 0) return sources
  const named: string[] = []
  const anchors = sources.anchors.filter((anchor) => {
    const key = `${anchor.commit} ${anchor.length} ${anchor.head}`
    return !gaps.some((gap) => gap.anchors.has(key))
  })
  for (const gap of gaps) {
    named.push(
      `${count(gap.anchors.size, 'anchor')} of entries ${gap.from} to ${gap.to} of the trail before the restore in entry ${gap.restore}: the backup restored lacked those entries, and entry ${gap.entry} records the gap`,
    )
  }
  return { ...sources, anchors, gaps: named }
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`

/** The trail checked against every anchor found (`npm run cms -- verify`). */
export async function verifyWithAnchors(
  database: Queryable,
  repo: GitRepository | undefined,
  remote?: { url: string; branch: string; push: boolean },
): Promise<{ check: AuditCheck; sources: AnchorSources | undefined; outcome: AuditOutcome }> {
  const read = repo ? await readAnchors(repo, remote) : undefined
  const sources = read
    ? await withoutRecordedGaps(database, await countedAnchors(database, read))
    : undefined
  const check = await verifyAudit(database, sources?.anchors ?? [])
  const behind = !check.ok && sources ? await restoredBehind(database, sources.anchors) : null
  return { check, sources, outcome: auditOutcome(check, sources, behind) }
}

/**
 * `npm run cms -- record-gap`: after an older backup was restored while anchors written before
 * the restore record entries it lacks (`restoredBehind`), records that gap in the trail (a
 * keyed `restore-gap` entry naming each of those anchors, so that they no longer count, and
 * only they), and goes on with the checkpoint's chain on top of the remote's, so that the
 * checkpoint fast-forwards there again. The anchors stay in git as the proof that the entries
 * existed. Reads the remote's anchors whenever there is a remote. Returns `null` when the
 * trail has no such gap.
 */
export async function recordRestoreGap(
  database: Database,
  repo: GitRepository,
  remote: { url: string; branch: string; push: boolean } | undefined,
  now: Date = new Date(),
): Promise<{ entry: AuditEntry; behind: RestoredBehind; checkpoint: string } | null> {
  if (!holdsAuditKey()) {
    throw new Error(
      'recording a gap needs AUDIT_KEY: without it no anchor can be told from a forgery',
    )
  }
  const read = await readAnchors(repo, remote ? { ...remote, push: true } : undefined)
  for (const problem of read.problems) throw new Error(problem)
  const sources = await withoutRecordedGaps(database, await countedAnchors(database, read))
  const behind = await restoredBehind(database, sources.anchors)
  if (!behind) return null
  const entry = await appendAudit(
    database,
    {
      actor: 'service',
      action: 'restore-gap',
      subject: `entries ${behind.lacks.from} to ${behind.lacks.to}`,
      details: {
        from: 'npm run cms -- record-gap',
        by: `${userInfo().username}@${hostname()}`,
        restore: behind.entry,
        lacks: behind.lacks,
        anchors: behind.anchors.map(({ commit, length, head, source, at, name }) => ({
          commit,
          length,
          head,
          source,
          at,
          name,
        })),
      },
    },
    now,
  )
  const local = await repo.resolve(CHECKPOINT_REF)
  const theirs = await repo.resolve(`${REMOTE_COPY}/checkpoint`)
  const parents = [
    ...(local ? [local] : []),
    ...(theirs && theirs !== local && !(local && (await repo.isAncestor(theirs, local)))
      ? [theirs]
      : []),
  ]
  const state = await trailState(database)
  const tree = (await repo.git(['mktree'], '')).toString().trim()
  const checkpoint = await repo.commitTree(tree, {
    parents,
    author: SERVICE_PERSON,
    message: `Audit trail: ${state.length} entries, the gap of a restore recorded\n\n${anchorLine(state)}\n`,
    date: now,
  })
  await repo.moveRef(CHECKPOINT_REF, checkpoint, local, {
    log: `checkpoint: ${state.length} entries, the gap of a restore recorded`,
  })
  if (remote?.push) await pushRefs(repo, remote.url, [CHECKPOINT_REF])
  return { entry, behind, checkpoint }
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
  remote?: { url: string; branch?: string; push: boolean }
  /**
   * `AUDIT_CHECKPOINT_MINUTES`: the longest a growing trail goes without its checkpoint pushed
   * to the bank's repository (with `push`; a publication pushes it at once).
   */
  everyMs: number
  /** The longest an entry goes without a checkpoint here (`ANCHOR_WITHIN_MS`). */
  anchorWithinMs?: number
  clock?: () => Date
  log?: {
    info(data: object, message: string): void
    error(data: object, message: string): void
  }
  /**
   * The operators' metrics: with them, the timer also verifies the trail (`verify`) at its
   * first turn and every 15 minutes, and they tell its outcome, and when.
   */
  metrics?: PublishingMetrics
}

/**
 * The checkpoint ref: written before the answer to each request that approves, publishes,
 * rolls back or grants a role (`write`, from the HTTP layer), after each publication and
 * rollback, and by each process's timer when the trail grew since the last checkpoint
 * (`writeIfDue`, every half of `anchorWithinMs`). Compare-and-swap on the ref, so processes sharing
 * the repository extend one chain; its reflog keeps every tip. A trail that no longer has what
 * the last checkpoint recorded, or a ref moved back behind this process's last checkpoint, gets
 * no new one: the error says so.
 */
export class AuditCheckpoints {
  private readonly clock: () => Date
  /** The last checkpoint as this process knows it (`undefined`: not read yet). */
  private last: Checkpoint | null | undefined
  private emptyTree: string | undefined
  /** When this process last verified the trail (ms, by the clock). */
  private verifiedAt: number | undefined
  /** When this process last pushed the checkpoint (ms, by the clock). */
  private pushedAt: number | undefined
  /** One write at a time in this process: a request's write waits for the timer's. */
  private writing: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: CheckpointOptions) {
    this.clock = options.clock ?? (() => new Date())
  }

  /** Writes a checkpoint of the trail as it stands, unless the last one has it; whether it did. */
  write(): Promise<boolean> {
    return this.serially(() => this.checkpoint())
  }

  /**
   * The timer's turn: writes one if the trail grew since the last; pushes it when the last push
   * is `everyMs` old.
   */
  async writeIfDue(): Promise<boolean> {
    const written = await this.serially(() => this.checkpoint())
    const since = this.pushedAt === undefined ? Infinity : this.clock().getTime() - this.pushedAt
    if (written && since >= this.options.everyMs) await this.push()
    return written
  }

  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.writing.then(run, run)
    this.writing = next.catch(() => {})
    return next
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
    this.pushedAt = this.clock().getTime()
  }

  /**
   * Verifies the trail as `npm run cms -- verify` does: its chain of hashes from the first entry
   * against every anchor in git (the remote's too, with `PUBLISHING_PUSH=on`); the metrics say
   * its outcome, and when.
   */
  async verify(): Promise<AuditOutcome> {
    const { database, repo, remote } = this.options
    const { outcome } = await verifyWithAnchors(
      database,
      repo,
      remote?.branch ? { url: remote.url, branch: remote.branch, push: remote.push } : undefined,
    )
    const now = this.clock()
    this.verifiedAt = now.getTime()
    this.options.metrics?.auditVerified(
      outcome.kind,
      await unanchoredOf(database, outcome, now),
      now,
    )
    if (outcome.kind === 'tampered') {
      this.options.log?.error(
        { brokenAt: outcome.brokenAt, reason: outcome.reason },
        'the audit trail does not verify: npm run cms -- verify names where it changed',
      )
    }
    return outcome
  }

  /** With metrics on, verifies the trail when it was not verified for `VERIFY_EVERY_MS`. */
  private async verifyIfDue(): Promise<void> {
    if (!this.options.metrics) return
    const since =
      this.verifiedAt === undefined ? Infinity : this.clock().getTime() - this.verifiedAt
    if (since >= VERIFY_EVERY_MS) await this.verify()
  }

  /**
   * Checks every `seconds` at most, and every half of `anchorWithinMs` (each process), until the
   * returned function is called: an entry is anchored within `anchorWithinMs`.
   */
  start(seconds: number): () => Promise<void> {
    const withinMs = this.options.anchorWithinMs ?? ANCHOR_WITHIN_MS
    let running: Promise<void> | undefined
    const timer = setInterval(
      () => {
        if (running) return
        running = this.writeIfDue()
          .catch((error: unknown) =>
            this.options.log?.error({ err: error }, 'the audit trail checkpoint failed'),
          )
          .then(() => this.verifyIfDue())
          .then(
            () => undefined,
            (error: unknown) =>
              this.options.log?.error({ err: error }, 'verifying the audit trail failed'),
          )
          .finally(() => {
            running = undefined
          })
      },
      Math.min(seconds * 1000, Math.max(100, Math.floor(withinMs / 2))),
    )
    timer.unref()
    // A checkpoint under way is waited for: the service closes its database after the stop.
    return async () => {
      clearInterval(timer)
      await running
    }
  }

  private async checkpoint(): Promise<boolean> {
    const { database, repo } = this.options
    // Another process may extend the chain between reading and writing: read again, then.
    for (let attempt = 0; attempt < 3; attempt++) {
      const state = await trailState(database)
      if (state.length === 0) return false
      const known = this.last
      if (known && known.length === state.length && known.head === state.head) return false
      // The first attempt trusts the checkpoint this process knows: the compare-and-swap below
      // fails if the ref moved since, and the next attempt reads it (one git command less).
      const last = attempt === 0 && known ? known : await this.tip()
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
      }
      this.emptyTree ??= (await repo.git(['mktree'], '')).toString().trim()
      const commit = await repo.commitTree(this.emptyTree, {
        parents: last ? [last.commit] : [],
        author: SERVICE_PERSON,
        message: `Audit trail: ${state.length} entries\n\n${anchorLine(state)}\n`,
        date: now,
      })
      try {
        await repo.moveRef(CHECKPOINT_REF, commit, last?.commit ?? null, {
          log: `checkpoint: ${state.length} entries`,
        })
      } catch (error) {
        if (!(error instanceof RefMovedError)) throw error
        continue
      }
      // The commit's own time: git keeps seconds.
      this.last = { ...state, commit, at: Math.floor(now.getTime() / 1000) * 1000 }
      return true
    }
    return false
  }

  /**
   * The last checkpoint: as this process wrote or read it, or read from the ref. A ref that no
   * longer holds the checkpoint this process knows was moved back: no checkpoint goes on it.
   */
  private async tip(): Promise<Checkpoint | null> {
    const { repo } = this.options
    const commit = await repo.resolve(CHECKPOINT_REF)
    const known = this.last
    if (
      known &&
      (!commit || (commit !== known.commit && !(await repo.isAncestor(known.commit, commit))))
    ) {
      throw new AnchorDisagreesError(
        `${CHECKPOINT_REF} moved backwards: ${commit ? `it is at ${shortId(commit)}, whose chain` : 'it is gone, and'} no longer holds ${shortId(known.commit)} (entry ${known.length}), which this process wrote or read; npm run cms -- verify names what it finds`,
      )
    }
    if (!commit) {
      this.last = null
      return null
    }
    if (known?.commit === commit) return known
    const output = (await repo.git(['log', '-1', '--format=%ct%x1f%B', commit]))
      .toString('utf8')
      .trim()
    const [seconds = '0', body = ''] = output.split('\x1f')
    const [state] = anchorsIn(body)
    if (!state) throw new Error(`${CHECKPOINT_REF} (${commit}) records no anchor`)
    this.last = { length: state.length, head: state.head, commit, at: Number(seconds) * 1000 }
    return this.last
  }
}
