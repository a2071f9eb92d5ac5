/**
 * The publishing service's metrics (served as the site's are, see `../http/metrics.ts`): what
 * publications came to and how long their phases took, rollbacks, schedules, previews, sign-ins,
 * and, read from the database at each scrape, how long the publication lease has been held, how
 * many role grants are in effect unconfirmed and how long the audit trail is; with when the
 * trail was last verified and whether it held.
 *
 * The service's parts count through `PublishingMetrics`, never prom-client: its workflow, people
 * and audit stay free of how the numbers are served, and without metrics (`NO_METRICS`) they
 * cost a call to an empty function. Labels are fixed words only: never a person, a draft or a path.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client'
import type { Queryable } from '../database/database'
import { unconfirmedGrants } from './people/people'

/** What a publication (pressed, or a schedule's) came to. */
export type PublicationOutcome =
  /** Built, main moved and the new release served. */
  | 'published'
  /** The four-eyes rules said no, or there is no such draft: nothing was tried. */
  | 'refused'
  /** The draft no longer merges onto main, or the remote's main changed the same files. */
  | 'conflict'
  /** The site did not build with the draft: main and the live release stay as they were. */
  | 'build_failed'
  /** Another publication held the lease too long, or took over this one's turn. */
  | 'busy'
  /** Anything else (git, the disk, the database). */
  | 'error'

export const PUBLICATION_OUTCOMES: readonly PublicationOutcome[] = [
  'published',
  'refused',
  'conflict',
  'build_failed',
  'busy',
  'error',
]

/** A publication's phases: merging the draft, building the release, moving main and switching. */
export type PublicationPhase = 'merge' | 'build' | 'switch'
export type ScheduleEvent = 'due' | 'fired' | 'failed'
export type PreviewOutcome = 'built' | 'failed'
export type SignInMethod = 'passkey' | 'oidc' | 'invitation'
export type SignInOutcome = 'success' | 'refused'
/** What became of the notices to people (../notices/): queued, sent, put back, given up. */
export type NoticeEvent = 'queued' | 'sent' | 'retried' | 'failed'

export interface PublishingMetrics {
  publication(outcome: PublicationOutcome): void
  /** Starts timing a phase of a publication: the function returned ends it. */
  phase(phase: PublicationPhase): () => void
  rollback(): void
  schedule(event: ScheduleEvent): void
  preview(outcome: PreviewOutcome): void
  signIn(method: SignInMethod, outcome: SignInOutcome): void
  /** The trail was verified at `at`: its outcome, and the entries no anchor covers yet. */
  auditVerified(
    outcome: AuditOutcomeKind,
    unanchored: { entries: number; ageSeconds: number },
    at: Date,
  ): void
  /** `count` notices queued, sent, put back for a retry or given up. */
  notice(event: NoticeEvent, count?: number): void
  /** A statement of the notices' sender failed because the database could not be reached. */
  noticeQueueError(): void
}

/** What verifying the audit trail found (./audit/anchors.ts, `auditOutcome`). */
export const AUDIT_OUTCOMES = ['intact', 'unanchored', 'unverifiable', 'tampered'] as const
export type AuditOutcomeKind = (typeof AUDIT_OUTCOMES)[number]

const nothing = () => {}

/** Metrics off: nothing counted, nothing kept. */
export const NO_METRICS: PublishingMetrics = {
  publication: nothing,
  phase: () => nothing,
  rollback: nothing,
  schedule: nothing,
  preview: nothing,
  signIn: nothing,
  auditVerified: nothing,
  notice: nothing,
  noticeQueueError: nothing,
}

/** Seconds: a merge's fraction of a second to a full build's minute. */
const PHASE_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60]

export function publishingMetrics(
  registry: Registry,
  options: { database: Queryable },
): PublishingMetrics {
  const publications = new Counter({
    name: 'publishing_publications_total',
    help: 'Publications (pressed or scheduled), by outcome: published; refused (the four-eyes rules said no, or no such draft); conflict (the draft no longer merges, or the remote changed the same files); build_failed (the site did not build: nothing changed); busy (another publication held the lease); error (anything else).',
    labelNames: ['outcome'],
    registers: [registry],
  })
  const phases = new Histogram({
    name: 'publishing_publication_phase_seconds',
    help: "Time a publication spent in each phase: merge (taking in the remote's main, the rules, merging the draft), build (the site built into a release), switch (main moved, the release served and recorded, the checkpoint written and pushed).",
    labelNames: ['phase'],
    buckets: PHASE_BUCKETS,
    registers: [registry],
  })
  const rollbacks = new Counter({
    name: 'publishing_rollbacks_total',
    help: 'Rollbacks done: an earlier release served again, recorded on main.',
    registers: [registry],
  })
  const schedules = new Counter({
    name: 'publishing_schedules_total',
    help: 'Scheduled publications: due (taken by this process when their time came), fired (published), failed (not published: the reason is in the trail).',
    labelNames: ['event'],
    registers: [registry],
  })
  const previews = new Counter({
    name: 'publishing_previews_total',
    help: 'Previews of drafts made: built, or failed (the site did not build with the draft, or the draft no longer merges).',
    labelNames: ['outcome'],
    registers: [registry],
  })
  const signIns = new Counter({
    name: 'publishing_sign_ins_total',
    help: "Sign-ins, by way (passkey; oidc, the bank's identity provider; invitation, a new person's first) and outcome (success, refused).",
    labelNames: ['method', 'outcome'],
    registers: [registry],
  })
  const notices = new Counter({
    name: 'publishing_notices_total',
    help: 'E-mails to people about drafts (waiting for them, approved, sent back, published, a schedule cancelled): queued, sent, retried (put back after a failed attempt), failed (given up).',
    labelNames: ['event'],
    registers: [registry],
  })
  const noticeQueueErrors = new Counter({
    name: 'publishing_notice_queue_errors_total',
    help: "Rounds of the notices' sender that failed because the database could not be reached.",
    registers: [registry],
  })
  const verifiedOk = new Gauge({
    name: 'publishing_audit_verification_ok',
    help: 'Whether the audit trail held when last verified (1) or was found tampered with (0): its chain of hashes against every anchor in git.',
    registers: [registry],
  })
  const verifiedOutcome = new Gauge({
    name: 'publishing_audit_verification_outcome',
    help: "The last verification's outcome: 1 for the one found (intact, unanchored: intact with entries not anchored yet, unverifiable: no key or no anchor, tampered), 0 for the others.",
    labelNames: ['outcome'],
    registers: [registry],
  })
  const unanchoredEntries = new Gauge({
    name: 'publishing_audit_unanchored_entries',
    help: 'Entries of the audit trail after the furthest anchor in git, at the last verification.',
    registers: [registry],
  })
  const unanchoredAge = new Gauge({
    name: 'publishing_audit_unanchored_age_seconds',
    help: 'How old the first entry after the furthest anchor was at the last verification (0 when every entry is anchored): over 10 seconds, the checkpoints are not being written.',
    registers: [registry],
  })
  const verifiedAt = new Gauge({
    name: 'publishing_audit_verification_timestamp_seconds',
    help: 'When the audit trail was last verified (Unix time, seconds; 0 before the first).',
    registers: [registry],
  })
  // Start at zero: a rate, or an alert on an increase, is defined before the first one.
  for (const outcome of PUBLICATION_OUTCOMES) publications.inc({ outcome }, 0)
  rollbacks.inc(0)
  for (const event of ['due', 'fired', 'failed'] as const) schedules.inc({ event }, 0)
  for (const outcome of ['built', 'failed'] as const) previews.inc({ outcome }, 0)
  for (const event of ['queued', 'sent', 'retried', 'failed'] as const) notices.inc({ event }, 0)
  noticeQueueErrors.inc(0)
  for (const method of ['passkey', 'oidc', 'invitation'] as const) {
    for (const outcome of ['success', 'refused'] as const) signIns.inc({ method, outcome }, 0)
  }
  // Not verified yet: no verdict (an alert on 0 waits for the first), and the time 0.
  verifiedOk.set(Number.NaN)
  verifiedAt.set(0)

  databaseGauges(registry, options.database)

  return {
    publication(outcome) {
      publications.inc({ outcome })
    },
    phase(phase) {
      const end = phases.startTimer({ phase })
      return () => {
        end()
      }
    },
    rollback() {
      rollbacks.inc()
    },
    schedule(event) {
      schedules.inc({ event })
    },
    preview(outcome) {
      previews.inc({ outcome })
    },
    signIn(method, outcome) {
      signIns.inc({ method, outcome })
    },
    auditVerified(outcome, unanchored, at) {
      verifiedOk.set(outcome === 'tampered' ? 0 : 1)
      for (const kind of AUDIT_OUTCOMES)
        verifiedOutcome.set({ outcome: kind }, kind === outcome ? 1 : 0)
      unanchoredEntries.set(unanchored.entries)
      unanchoredAge.set(unanchored.ageSeconds)
      verifiedAt.set(at.getTime() / 1000)
    },
    notice(event, count = 1) {
      notices.inc({ event }, count)
    },
    noticeQueueError() {
      noticeQueueErrors.inc()
    },
  }
}

/**
 * The gauges read from the database at each scrape, each with one query on an index; NaN when
 * the database cannot answer.
 */
function databaseGauges(registry: Registry, database: Queryable): void {
  new Gauge({
    name: 'publishing_lease_held_seconds',
    help: 'How long the publication lease has been held, in seconds (0 when no publication runs): a publication that hangs keeps it.',
    registers: [registry],
    async collect() {
      this.set(await leaseSeconds(database).catch(() => Number.NaN))
    },
  })
  new Gauge({
    name: 'publishing_role_grants_unconfirmed',
    help: "Grants of the reviewer's, publisher's or administrator's role in effect without a second administrator's confirmation (given while there was only one administrator), of people who can still sign in or invitations still open: another administrator confirms or refuses each on /people.",
    registers: [registry],
    async collect() {
      this.set(await unconfirmedGrants(database).catch(() => Number.NaN))
    },
  })
  new Gauge({
    name: 'publishing_audit_entries',
    help: 'Entries in the audit trail.',
    registers: [registry],
    async collect() {
      this.set(await trailLength(database).catch(() => Number.NaN))
    },
  })
}

/**
 * How long the publisher's lease (`LEASE` in publication/lease.ts) has been held: while it has
 * not lapsed (a dead holder's row does not hold).
 */
async function leaseSeconds(database: Queryable): Promise<number> {
  const [row] = await database.query<{ seconds: number }>(
    `SELECT EXTRACT(EPOCH FROM (now() - since))::float8 AS seconds FROM publish_lease
      WHERE name = 'publish' AND until > now()`,
  )
  return Math.max(0, row?.seconds ?? 0)
}

/**
 * The trail's length: its last entry's id (ids run from 1 without a gap, or the trail does not
 * verify), read from the primary key rather than by counting every row.
 */
async function trailLength(database: Queryable): Promise<number> {
  const [row] = await database.query<{ entries: number | string }>(
    'SELECT coalesce(max(id), 0) AS entries FROM audit_entries',
  )
  return Number(row?.entries ?? 0)
}
