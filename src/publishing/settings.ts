/**
 * The publishing service's settings, each from the environment variable named beside it. Paths
 * are relative to the project's root; the defaults keep everything under `DATA_DIR`.
 */

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readDatabaseUrls } from '../database/settings'
import { mailFromOf, smtpUrlOf } from '../mail/transport'
import {
  portSetting,
  positiveNumberSetting,
  switchSetting,
  urlSetting,
  wholeNumberSetting,
} from '../shared/setting-values'
import { SettingError } from '../shared/settings-error'
import { AuditKeyError } from './audit/trail'
import { type OidcSettings, readOidcSettings } from './people/oidc'

export interface PublishingSettings {
  /** `CMS_PORT`, `CMS_HOST`: where the service listens (8081 on localhost). */
  port: number
  host: string
  /**
   * `CMS_URL`: the address people open the editor at (its origin is the only one writes are
   * taken from, and the passkeys' site); `http://localhost:<port>` by default.
   */
  url: string
  /** `DATA_DIR`/`publishing`: the service's own files (repository, workspace, PGlite). */
  dir: string
  /** `PUBLISHING_REPO`: the service's git repository (bare; made on first start). */
  repository: string
  /**
   * `PUBLISHING_REMOTE` (`none` for no remote): the bank's repository, whose main is taken in
   * before each publication; by default this checkout, when it is a git repository.
   */
  remote: { url: string; branch: string; push: boolean } | undefined
  /** `RELEASES_DIR`: the releases and the `current` link (`DATA_DIR/releases`). */
  releasesDir: string
  /** `RELEASES_KEPT`: releases kept on disk besides the live one (10). */
  releasesKept: number
  /** `AFTER_RELEASE`: a shell command run after every switch of the served release. */
  afterRelease: string | undefined
  /**
   * `RELEASE_AHEAD` (`on`): at a draft's approval, the release its publication would serve is
   * built ahead in the background, and taken by the publication if main has not moved.
   */
  releaseAhead: boolean
  /** `RELEASE_TWINS` (`on`): each live release's compressed twins, written in the background. */
  releaseTwins: boolean
  /** `DATABASE_URL`: PostgreSQL; PGlite in `dir/db` when absent. */
  databaseUrl: string | undefined
  /**
   * `DATABASE_OWNER_URL`: PostgreSQL as the role that owns the tables, for the migrations only;
   * the service's own role (`DATABASE_URL`) then may only read and append to the audit trail.
   */
  databaseOwnerUrl: string | undefined
  /**
   * `AUDIT_KEY`: the key (or keys, comma-separated: the first for new entries, older ones
   * after it) that the audit trail's hashes are keyed with; never in the database.
   */
  auditKeys: string[] | undefined
  /** `AUDIT_CHECKPOINT_MINUTES`: the longest a growing trail goes without a checkpoint (5). */
  checkpointMinutes: number
  /** `SCHEDULE_CHECK_SECONDS`: how often due schedules are looked for (15). */
  scheduleCheckSeconds: number
  /** `OIDC_*`: the bank's identity provider; without it, passkeys. */
  oidc: OidcSettings | undefined
  /**
   * How the notices to people (../notices/) are sent, as the forms service sends its mails:
   * over `SMTP_URL`, else into the outbox (`DATA_DIR/outbox`, `npm run forms -- outbox`), from
   * `CMS_MAIL_FROM`, with the forms service's `MAIL_LEASE_SECONDS` and `MAIL_OUTAGE_MINUTES`.
   */
  mail: {
    smtpUrl: string | undefined
    outboxDir: string
    from: string
    leaseSeconds: number
    outageMinutes: number
  }
}

/** `AUDIT_KEY`: one key or several, comma-separated, each of 32 characters at least. */
function auditKeysOf(value: string | undefined): string[] | undefined {
  if (!value) return undefined
  const keys = value.split(',').map((key) => key.trim())
  const short = keys.findIndex((key) => key.length < 32)
  if (short >= 0) {
    throw new AuditKeyError(
      `must be a key of 32 characters at least${keys.length > 1 ? ` (key ${short + 1} of ${keys.length} is shorter)` : ''}`,
      'set it to one such as openssl rand -base64 32 makes, or to several such keys, comma-separated',
    )
  }
  return keys
}

/**
 * `RELEASES_DIR`: where the editors' releases are, read alone (the public site serves the
 * current one whatever the publishing service's other settings).
 */
export function releasesDirOf(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(root, env.RELEASES_DIR || join(resolve(root, env.DATA_DIR || 'data'), 'releases'))
}

/** The publishing service's own folder (its database and repository), under `DATA_DIR`. */
export function publishingDirOf(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(resolve(root, env.DATA_DIR || 'data'), 'publishing')
}

export function readPublishingSettings(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): PublishingSettings {
  const dataDir = resolve(root, env.DATA_DIR || 'data')
  const dir = publishingDirOf(root, env)
  const port = portSetting(env, 'CMS_PORT', 8081)
  const host = env.CMS_HOST || 'localhost'
  const origin = urlSetting(env, 'CMS_URL', `http://localhost:${port}`, {
    example: 'https://cms.example.com',
    https: true,
    why: 'sessions and passkeys need it',
  })
  const remoteUrl =
    env.PUBLISHING_REMOTE === 'none'
      ? undefined
      : env.PUBLISHING_REMOTE || (existsSync(join(root, '.git')) ? root : undefined)
  const push = switchSetting(env, 'PUBLISHING_PUSH', 'off')
  if (push && !remoteUrl) {
    throw new SettingError(
      'PUBLISHING_PUSH',
      'is on, but there is no remote to push to (PUBLISHING_REMOTE)',
      "set PUBLISHING_REMOTE to the bank's repository, or PUBLISHING_PUSH to off",
    )
  }
  const settings = {
    port,
    host,
    url: origin.origin,
    dir,
    repository: resolve(root, env.PUBLISHING_REPO || join(dir, 'site.git')),
    remote: remoteUrl
      ? { url: remoteUrl, branch: env.PUBLISHING_BRANCH || 'main', push }
      : undefined,
    releasesDir: releasesDirOf(root, env),
    releasesKept: wholeNumberSetting(env, 'RELEASES_KEPT', 10, { min: 1 }),
    afterRelease: env.AFTER_RELEASE || undefined,
    releaseAhead: switchSetting(env, 'RELEASE_AHEAD', 'on'),
    releaseTwins: switchSetting(env, 'RELEASE_TWINS', 'on'),
    ...readDatabaseUrls(env),
    checkpointMinutes: wholeNumberSetting(env, 'AUDIT_CHECKPOINT_MINUTES', 5, { min: 1 }),
    scheduleCheckSeconds: wholeNumberSetting(env, 'SCHEDULE_CHECK_SECONDS', 15, { min: 1 }),
    oidc: readOidcSettings(env),
    mail: {
      smtpUrl: smtpUrlOf(env),
      outboxDir: join(dataDir, 'outbox'),
      from: mailFromOf(env, 'CMS_MAIL_FROM', 'Lumora Bank <publishing@lumora-bank.example>'),
      leaseSeconds: positiveNumberSetting(env, 'MAIL_LEASE_SECONDS', 60, 'seconds'),
      outageMinutes: positiveNumberSetting(env, 'MAIL_OUTAGE_MINUTES', 15, 'minutes'),
    },
  }
  // Last: npm start goes on without the service when it alone is wrong, not when others are.
  return { ...settings, auditKeys: auditKeysOf(env.AUDIT_KEY) }
}
