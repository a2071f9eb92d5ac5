/**
 * The publishing service's settings, each from the environment variable named beside it. Paths
 * are relative to the project's root; the defaults keep everything under `DATA_DIR`.
 */

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
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

/** A positive number of seconds or minutes (fractions allowed, as the forms service takes them). */
const positive = (name: string, value: string | undefined, fallback: number) => {
  if (value === undefined || value === '') return fallback
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed <= 0) {
    throw new Error(`${name} must be a positive number; got "${value}"`)
  }
  return parsed
}

const number = (name: string, value: string | undefined, fallback: number, min: number) => {
  if (value === undefined || value === '') return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new Error(`${name} must be a whole number of at least ${min}; got "${value}"`)
  }
  return parsed
}

/** `AUDIT_KEY`: one key or several, comma-separated, each of 32 characters at least. */
function auditKeysOf(value: string | undefined): string[] | undefined {
  if (!value) return undefined
  const keys = value.split(',').map((key) => key.trim())
  if (keys.some((key) => key.length < 32)) {
    throw new AuditKeyError(
      'AUDIT_KEY must be a key of 32 characters at least (e.g. openssl rand -base64 32), or several such keys, comma-separated',
    )
  }
  return keys
}

/**
 * `RELEASES_DIR`: where the editors' releases are, read alone (the public site serves the
 * current one whatever the publishing service's other settings).
 */
export function releasesDirOf(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(root, env.RELEASES_DIR ?? join(resolve(root, env.DATA_DIR ?? 'data'), 'releases'))
}

/** The publishing service's own folder (its database and repository), under `DATA_DIR`. */
export function publishingDirOf(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(resolve(root, env.DATA_DIR ?? 'data'), 'publishing')
}

export function readPublishingSettings(
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): PublishingSettings {
  const dataDir = resolve(root, env.DATA_DIR ?? 'data')
  const dir = publishingDirOf(root, env)
  const port = number('CMS_PORT', env.CMS_PORT, 8081, 0)
  const host = env.CMS_HOST || 'localhost'
  const url = (env.CMS_URL || `http://localhost:${port}`).replace(/\/+$/, '')
  let origin: URL
  try {
    origin = new URL(url)
  } catch {
    throw new Error(`CMS_URL must be an absolute URL such as https://cms.example.com; got "${url}"`)
  }
  if (
    origin.protocol !== 'https:' &&
    !['localhost', '127.0.0.1', '[::1]'].includes(origin.hostname)
  ) {
    throw new Error(`CMS_URL must use https (sessions and passkeys need it); got "${url}"`)
  }
  const remoteUrl =
    env.PUBLISHING_REMOTE === 'none'
      ? undefined
      : env.PUBLISHING_REMOTE || (existsSync(join(root, '.git')) ? root : undefined)
  const push = env.PUBLISHING_PUSH ?? 'off'
  if (push !== 'on' && push !== 'off') {
    throw new Error(`PUBLISHING_PUSH must be on or off; got "${push}"`)
  }
  if (env.DATABASE_OWNER_URL && !env.DATABASE_URL) {
    throw new Error(
      'DATABASE_OWNER_URL is the owner of the PostgreSQL that DATABASE_URL names: set both',
    )
  }
  return {
    port,
    host,
    url: origin.origin,
    dir,
    repository: resolve(root, env.PUBLISHING_REPO ?? join(dir, 'site.git')),
    remote: remoteUrl
      ? { url: remoteUrl, branch: env.PUBLISHING_BRANCH || 'main', push: push === 'on' }
      : undefined,
    releasesDir: releasesDirOf(root, env),
    releasesKept: number('RELEASES_KEPT', env.RELEASES_KEPT, 10, 1),
    afterRelease: env.AFTER_RELEASE || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseOwnerUrl: env.DATABASE_OWNER_URL || undefined,
    auditKeys: auditKeysOf(env.AUDIT_KEY),
    checkpointMinutes: number('AUDIT_CHECKPOINT_MINUTES', env.AUDIT_CHECKPOINT_MINUTES, 5, 1),
    scheduleCheckSeconds: number('SCHEDULE_CHECK_SECONDS', env.SCHEDULE_CHECK_SECONDS, 15, 1),
    oidc: readOidcSettings(env),
    mail: {
      smtpUrl: env.SMTP_URL || undefined,
      outboxDir: join(dataDir, 'outbox'),
      from: env.CMS_MAIL_FROM || 'Lumora Bank <publishing@lumora-bank.example>',
      leaseSeconds: positive('MAIL_LEASE_SECONDS', env.MAIL_LEASE_SECONDS, 60),
      outageMinutes: positive('MAIL_OUTAGE_MINUTES', env.MAIL_OUTAGE_MINUTES, 15),
    },
  }
}
