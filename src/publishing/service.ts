/**
 * The publishing service's parts, opened together: its database (PGlite under `DATA_DIR`, or
 * PostgreSQL), its git repository (made from the bank's repository on first start), the
 * drafts, the releases and the publisher. `start.ts` puts them behind HTTP (`http/`).
 */
import { existsSync } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Registry } from 'prom-client'
import type { Database } from '../database/database'
import { openDatabase } from '../database/open'
import type { BuildReport } from '../engine/build'
import type { BuildConfig } from '../engine/config'
import type { QueueSender, SenderTiming } from '../mail/queue-sender'
import { createMailer, type Mailer } from '../mail/transport'
import { SettingError } from '../shared/settings-error'
import { AuditCheckpoints, CHECKPOINT_REF, mainTrailers } from './audit/anchors'
import { writeHeldRefusals } from './audit/refusal-limit'
import { checkAuditKey, recordAuditKey, setAuditKeys, trailOwnedByServiceRole } from './audit/trail'
import { cloneBare, GitRepository, NoRemoteBranchError } from './git/repository'
import { NO_METRICS, type PublishingMetrics, publishingMetrics } from './metrics'
import { PUBLISHING_MIGRATIONS } from './migrations'
import { Notices } from './notices/notices'
import { type NoticeJob, noticeSender } from './notices/sender'
import { type RelyingParty, relyingPartyOf } from './people/passkeys'
import { firstAdministratorInvitation, hasPeople } from './people/people'
import { Publisher } from './publication/publisher'
import { ReleaseTwins } from './publication/release-twins'
import { Releases } from './publication/releases'
import type { PublishingSettings } from './settings'
import { Drafts } from './workflow/drafts'
import { Previews } from './workflow/previews'
import { Schedules } from './workflow/schedules'

export interface PublishingService {
  settings: PublishingSettings
  /** The site's build settings and the service's own code (its root). */
  buildConfig: BuildConfig
  database: Database
  repo: GitRepository
  drafts: Drafts
  releases: Releases
  publisher: Publisher
  schedules: Schedules
  /** The audit trail's checkpoint ref (audit/anchors.ts): its timer runs in start.ts. */
  checkpoints: AuditCheckpoints
  previews: Previews
  /** The live releases' compressed twins, written in the background (off: `RELEASE_TWINS`). */
  twins: ReleaseTwins | undefined
  /** The notices to people: queued by the workflow, sent by `sender` (started in start.ts). */
  notices: {
    queue: Notices
    sender: QueueSender<NoticeJob>
    mailer: Mailer
    /** Rejects while no notice could be sent for `MAIL_OUTAGE_MINUTES` and notices wait. */
    ready(): Promise<void>
  }
  party: RelyingParty
  clock: () => Date
  /** The operators' metrics (`NO_METRICS` when off): the HTTP layer counts sign-ins there. */
  metrics: PublishingMetrics
  /** What the service's log says at start: a setting that weakens the audit trail. */
  warnings: string[]
  close(): Promise<void>
}

export interface OpenOptions {
  /** The project root: its `node_modules` serve the builds. */
  root: string
  /** The site's build settings (address, trackers). */
  buildConfig: BuildConfig
  build: (config: BuildConfig) => Promise<BuildReport>
  clock?: () => Date
  /** PostgreSQL schema (tests isolate themselves in one). */
  schema?: string
  log?: {
    info(data: object, message: string): void
    error(data: object, message: string): void
  }
  /** The operators' metrics (`METRICS_PORT` or `METRICS_TOKEN`): counted into this registry. */
  registry?: Registry
  /**
   * The database URLs are the settings (a program's start): a server that cannot be used is
   * said as `DATABASE_URL`'s fault (see database/settings.ts).
   */
  fromSettings?: boolean
  /** The notices' sender's timing (tests shorten its retries). */
  noticeSender?: SenderTiming
}

/** The service's repository: the existing one, or a new one from the remote's branch. */
async function openRepository(settings: PublishingSettings): Promise<GitRepository> {
  if (existsSync(join(settings.repository, 'HEAD'))) {
    return new GitRepository({ gitDir: settings.repository })
  }
  if (!settings.remote) {
    throw new SettingError(
      'PUBLISHING_REPO',
      `there is no repository at ${settings.repository}`,
      "set PUBLISHING_REPO to the site's repository, or PUBLISHING_REMOTE to one to start from",
    )
  }
  const { url, branch } = settings.remote
  // Made beside and renamed into place whole: a clone that fails leaves nothing a next start
  // would take for the repository (it would have an empty one, without main).
  const staging = `${settings.repository}.new-${process.pid}`
  await rm(staging, { recursive: true, force: true })
  try {
    const made = await cloneBare(url, staging, branch).catch((error: unknown) => {
      throw remoteFailure(error, url, branch)
    })
    // The audit trail's checkpoints go on from the remote's (a repository made anew).
    const listed = await made.git(['ls-remote', url, CHECKPOINT_REF])
    if (listed.toString('utf8').trim()) {
      await made.git(['fetch', '--quiet', '--no-tags', url, `${CHECKPOINT_REF}:${CHECKPOINT_REF}`])
    }
    made.close()
    // Over the empty folder the start's check made, if it did.
    await rename(staging, settings.repository).catch(async (error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error
      // Another process starting at the same time made it first: theirs is taken.
      if (existsSync(join(settings.repository, 'HEAD'))) {
        await rm(staging, { recursive: true, force: true })
        return
      }
      throw new SettingError(
        'PUBLISHING_REPO',
        `${settings.repository} holds files but no repository`,
        'move them away, or set PUBLISHING_REPO to an empty or missing folder',
      )
    })
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
  return new GitRepository({ gitDir: settings.repository })
}

/** A URL without the password it may carry. */
const withoutPassword = (text: string) => text.replace(/\/\/[^/@\s]*@/g, '//')

/**
 * Why the repository could not be made from the remote, as the setting's error: the branch is
 * not there (PUBLISHING_BRANCH), or the remote could not be read (PUBLISHING_REMOTE); what git
 * said on one line, without a password.
 */
function remoteFailure(error: unknown, url: string, branch: string): SettingError {
  if (error instanceof NoRemoteBranchError) {
    return new SettingError(
      'PUBLISHING_BRANCH',
      `${withoutPassword(url)} has no branch ${branch} to make the service's repository from`,
      'set PUBLISHING_BRANCH to its main branch, or unset it for main',
    )
  }
  // git fails every way with one exit code: the line of its words that says why is quoted.
  const said = withoutPassword(String(error instanceof Error ? error.message : error))
    .split('\n')
    .find((line) => /fatal|error/i.test(line))
    ?.trim()
  return new SettingError(
    'PUBLISHING_REMOTE',
    `the service's repository could not be made from branch ${branch} of ${withoutPassword(url)}${said ? ` (${said})` : ''}`,
    "set PUBLISHING_REMOTE to the bank's repository, or PUBLISHING_REPO to a repository the service made before",
  )
}

/**
 * The notices to people: the mailer (SMTP, or the outbox), the sender of their queue, the
 * queue the workflow writes to, and whether they are being sent (`/readyz`).
 */
async function openNotices(
  settings: PublishingSettings,
  options: OpenOptions,
  database: Database,
  clock: () => Date,
  metrics: PublishingMetrics,
): Promise<PublishingService['notices']> {
  const mailer = await createMailer({
    smtpUrl: settings.mail.smtpUrl,
    outboxDir: settings.mail.outboxDir,
    from: settings.mail.from,
  })
  const sender = noticeSender({
    database,
    mailer,
    now: clock,
    leaseMs: settings.mail.leaseSeconds * 1000,
    metrics: {
      mail: (event, count) => metrics.notice(event, count),
      databaseError: () => metrics.noticeQueueError(),
    },
    ...options.noticeSender,
  })
  const notices = new Notices({
    url: settings.url,
    clock,
    wake: () => sender.wake(),
    queued: (count) => metrics.notice('queued', count),
  })
  return {
    queue: notices,
    sender,
    mailer,
    async ready() {
      const since = sender.failingSince
      if (!since || Date.now() - since.getTime() < settings.mail.outageMinutes * 60_000) return
      const [waiting] = await database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM notice_mails WHERE sent_at IS NULL AND failed_at IS NULL',
      )
      if ((waiting?.n ?? 0) > 0) throw new Error('notices wait and none could be sent')
    },
  }
}

export async function openPublishingService(
  settings: PublishingSettings,
  options: OpenOptions,
): Promise<PublishingService> {
  const clock = options.clock ?? (() => new Date())
  await mkdir(settings.dir, { recursive: true })
  const database = await openDatabase({
    ...(settings.databaseUrl
      ? {
          url: settings.databaseUrl,
          ...(settings.databaseOwnerUrl ? { ownerUrl: settings.databaseOwnerUrl } : {}),
          ...(options.schema ? { schema: options.schema } : {}),
        }
      : { dataDir: join(settings.dir, 'db') }),
    migrations: PUBLISHING_MIGRATIONS,
    fromSettings: options.fromSettings,
  })
  const metrics = options.registry ? publishingMetrics(options.registry, { database }) : NO_METRICS
  try {
    // A keyed trail is only written with its key (AUDIT_KEY): without it, nothing starts.
    setAuditKeys(settings.auditKeys)
    await checkAuditKey(database)
    const warnings: string[] = []
    if (database.kind === 'postgresql' && (await trailOwnedByServiceRole(database))) {
      warnings.push(
        'the audit trail is owned by the database role the service connects as (DATABASE_URL): whoever holds that role can drop its trigger and rewrite it; give the migrations a role of their own with DATABASE_OWNER_URL (docs/operators.md, the two roles of the database)',
      )
    }
    const repo = await openRepository(settings)
    // Each commit the service makes on main anchors the trail as it stands.
    repo.mainTrailers = () => mainTrailers(database)
    const checkpoints = new AuditCheckpoints({
      database,
      repo,
      ...(settings.remote ? { remote: settings.remote } : {}),
      everyMs: settings.checkpointMinutes * 60_000,
      clock,
      ...(options.log ? { log: options.log } : {}),
      ...(options.registry ? { metrics } : {}),
    })
    // A trail keyed from now on is anchored at once where keying starts: no one without the
    // key can write it again unkeyed from there.
    if (await recordAuditKey(database, clock())) {
      await (async () => {
        await checkpoints.write()
        await checkpoints.push()
      })().catch((error: unknown) => {
        warnings.push(
          `the audit trail's first entry with this AUDIT_KEY could not be anchored: ${error instanceof Error ? error.message : String(error)}`,
        )
      })
    }
    const {
      queue: notices,
      sender,
      mailer,
      ready,
    } = await openNotices(settings, options, database, clock, metrics)
    const drafts = new Drafts(database, repo, clock, notices)
    const releases = new Releases({
      dir: settings.releasesDir,
      workspace: join(settings.dir, 'workspace'),
      nodeModules: join(options.root, 'node_modules'),
      buildConfig: options.buildConfig,
      build: options.build,
      keep: settings.releasesKept,
    })
    const twins = settings.releaseTwins
      ? new ReleaseTwins({
          storeDir: releases.twinsDir,
          ...(options.log ? { log: options.log } : {}),
        })
      : undefined
    const publisher = new Publisher({
      database,
      repo,
      drafts,
      releases,
      ...(settings.remote ? { remote: settings.remote } : {}),
      ...(settings.afterRelease ? { afterRelease: settings.afterRelease } : {}),
      ...(twins ? { twins } : {}),
      clock,
      ...(options.log ? { log: options.log } : {}),
      checkpoints,
      metrics,
      notices,
    })
    // The release an approved draft's publication would serve, built while the publisher reads.
    if (settings.releaseAhead) drafts.onApproved((id) => void publisher.prepare(id))
    const schedules = new Schedules({
      database,
      drafts,
      publisher,
      clock,
      ...(options.log ? { log: options.log } : {}),
      metrics,
      notices,
    })
    const previews = new Previews({
      repo,
      drafts,
      dir: join(settings.dir, 'previews'),
      nodeModules: join(options.root, 'node_modules'),
      buildConfig: options.buildConfig,
      build: options.build,
      metrics,
    })
    return {
      settings,
      buildConfig: { ...options.buildConfig, root: options.root },
      database,
      repo,
      drafts,
      releases,
      publisher,
      schedules,
      checkpoints,
      previews,
      twins,
      notices: { queue: notices, sender, mailer, ready },
      party: relyingPartyOf(settings.url),
      clock,
      metrics,
      warnings,
      async close() {
        await publisher.idle()
        await twins?.close()
        await sender.stop()
        await mailer.close()
        await writeHeldRefusals(database).catch(() => {})
        await database.close()
      },
    }
  } catch (error) {
    await database.close()
    throw error
  }
}

/**
 * While nobody can sign in: the first administrator's one-time link (a new one only when none
 * is open, so two processes starting together print one), or a line saying it was printed.
 */
export async function firstAdministratorMessage(
  service: Pick<PublishingService, 'database' | 'settings' | 'clock'>,
): Promise<string | null> {
  // With the bank's identity provider, people and roles come from there.
  if (service.settings.oidc || (await hasPeople(service.database))) return null
  const invitation = await firstAdministratorInvitation(
    service.database,
    'first-administrator@publishing.invalid',
    service.clock(),
  )
  if (!invitation) {
    return 'Nobody has signed in yet: the first administrator’s link was printed when it was made (npm run cms -- first-administrator makes a new one).'
  }
  return `First administrator: open ${service.settings.url}/invitation#${invitation.token} (once, within 72 hours) and create your passkey.`
}
