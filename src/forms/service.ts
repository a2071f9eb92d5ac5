/**
 * Puts the forms service together from the environment: the database (`DATABASE_URL`, else
 * PGlite in `DATA_DIR`), the mailer (`SMTP_URL`, else the outbox in `DATA_DIR/outbox`), the
 * sender of the queued mails, the forms of the content store and the limits. `npm start`,
 * `npm run serve:api` and the tests use it alike.
 */
import { resolve } from 'node:path'
import type { Registry } from 'prom-client'
import { createFileStore } from '../content/file-store'
import { loadFormsContent } from '../content/forms'
import type { Database } from '../database/database'
import { ensureWritableFolder } from '../database/folder'
import { openDatabase } from '../database/open'
import { readDatabaseUrls } from '../database/settings'
import { createMailer, type Mailer, mailFromOf, smtpUrlOf } from '../mail/transport'
import { positiveNumberSetting, wholeNumberSetting } from '../shared/setting-values'
import { DiskSpace, watchingDisk } from './disk-space'
import { formsMetrics } from './metrics'
import { FORMS_MIGRATIONS } from './migrations'
import type { FormsServiceOptions } from './routes'
import { MailSender, type SenderLog, type SenderOptions } from './sender'
import { DEFAULTS, defaultMailsPerClient, FormsStore, type StoreOptions } from './store'

export interface FormsSettings {
  contentDir: string
  siteUrl: string
  /** `DATABASE_URL`: PostgreSQL; PGlite in `dataDir` when absent. */
  databaseUrl?: string
  /** `DATABASE_OWNER_URL`: PostgreSQL as the tables' owner, for the migrations only. */
  databaseOwnerUrl?: string
  /** `DATA_DIR`: PGlite's database and the outbox (default `data/`). */
  dataDir: string
  /** `SMTP_URL`: e.g. `smtps://user:password@smtp.example.com`; the outbox when absent. */
  smtpUrl?: string
  /** `MAIL_FROM`: the sender of the confirmation e-mails. */
  mailFrom: string
  /** `FORMS_RATE_LIMIT`: sends per address and minute (default 10; 0 turns it off). */
  rateLimit: number
  /** `MAIL_LEASE_SECONDS`: how long a mail claimed by a process is its own (default 60). */
  mailLeaseSeconds?: number
  /** `CONFIRMATION_MAILS_PER_HOUR`: the service's cap on confirmation mails (0: none). */
  mailsPerHour?: number
  /**
   * `CONFIRMATION_MAILS_PER_CLIENT`: a client network's share of them an hour (an IPv4 /24, an
   * IPv6 /64; default a 25th of the cap, at least 1; 0: none).
   */
  mailsPerClient?: number
  /**
   * `MAIL_OUTAGE_MINUTES`: how long the sender may fail to send (every attempt refused, the mail
   * server unreachable) while mails wait before `/readyz` says `mail` (default 15).
   */
  mailOutageMinutes?: number
}

export function readFormsSettings(
  root: string,
  contentDir: string,
  siteUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): FormsSettings {
  const rateLimit = wholeNumberSetting(env, 'FORMS_RATE_LIMIT', 10, { note: '0 turns it off' })
  const lease = positiveNumberSetting(env, 'MAIL_LEASE_SECONDS', 60, 'seconds')
  const mailsPerHour = wholeNumberSetting(
    env,
    'CONFIRMATION_MAILS_PER_HOUR',
    DEFAULTS.mailsPerHour,
    {
      note: '0 turns the cap off',
    },
  )
  const mailsPerClient = wholeNumberSetting(
    env,
    'CONFIRMATION_MAILS_PER_CLIENT',
    defaultMailsPerClient(mailsPerHour),
    { note: '0: no share per client network' },
  )
  const outage = positiveNumberSetting(env, 'MAIL_OUTAGE_MINUTES', 15, 'minutes')
  return {
    contentDir,
    siteUrl,
    mailsPerHour,
    mailOutageMinutes: outage,
    mailsPerClient,
    ...readDatabaseUrls(env),
    dataDir: resolve(root, env.DATA_DIR || 'data'),
    smtpUrl: smtpUrlOf(env),
    mailFrom: mailFromOf(env, 'MAIL_FROM', 'Lumora Bank <newsletter@lumora-bank.example>'),
    rateLimit,
    mailLeaseSeconds: lease,
  }
}

export const outboxOf = (dataDir: string) => resolve(dataDir, 'outbox')

export interface FormsService {
  options: FormsServiceOptions
  database: Database
  mailer: Mailer
  sender: MailSender
  /**
   * Resolves while mails can be sent; rejects when the sender has failed to send for longer
   * than `MAIL_OUTAGE_MINUTES` and mails are waiting (a readiness check).
   */
  mailReady(): Promise<void>
  /**
   * Resolves while the database has room; rejects after it reported its disk full, and with
   * PGlite while its folder's file system has little space left (a readiness check).
   */
  diskReady(): Promise<void>
  /** Starts sending the queued mails in the background, logging to `log`. */
  startSender(log: SenderLog): void
  /** Stops the sender (its mails in flight finished), then closes mailer and database. */
  close(): Promise<void>
}

export async function openFormsService(
  settings: FormsSettings,
  storeOptions: StoreOptions & {
    schema?: string
    memory?: boolean
    /** The operators' metrics (`METRICS_PORT` or `METRICS_TOKEN`): counted into this registry. */
    registry?: Registry
    /**
     * The database URLs are the settings (a program's start): a server that cannot be used is
     * said as `DATABASE_URL`'s fault (see database/settings.ts).
     */
    fromSettings?: boolean
    /** The sender's timing (tests shorten it). */
    sender?: Pick<
      SenderOptions,
      'batchSize' | 'pollMs' | 'leaseMs' | 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts'
    >
  } = {},
): Promise<FormsService> {
  const { forms, settings: site } = await loadFormsContent(createFileStore(settings.contentDir))
  const dataDir =
    settings.databaseUrl || storeOptions.memory ? undefined : resolve(settings.dataDir, 'db')
  // PGlite's folder (and the lock file beside it), and the outbox without SMTP_URL, are
  // written: a folder that cannot be is said in one line before anything opens.
  if (dataDir) {
    const database = {
      what: "the forms service's database folder",
      setting: 'DATA_DIR',
      instead: 'DATABASE_URL, for PostgreSQL',
    }
    // The lock file is written beside the folder, the database's files in it.
    await ensureWritableFolder(resolve(settings.dataDir), database)
    await ensureWritableFolder(dataDir, { ...database, deep: true })
  }
  if (!settings.smtpUrl) {
    await ensureWritableFolder(outboxOf(settings.dataDir), {
      what: "the forms service's outbox",
      setting: 'DATA_DIR',
      instead: 'SMTP_URL, to send mail',
    })
  }
  const disk = new DiskSpace(dataDir ? { folder: dataDir } : {})
  // Every statement's error that says the disk is full is noted, the sender's too.
  const database = watchingDisk(
    await openDatabase({
      url: settings.databaseUrl,
      ownerUrl: settings.databaseOwnerUrl,
      dataDir,
      schema: storeOptions.schema,
      migrations: FORMS_MIGRATIONS,
      fromSettings: storeOptions.fromSettings,
    }),
    disk,
  )
  const mailer = await createMailer({
    smtpUrl: settings.smtpUrl,
    outboxDir: outboxOf(settings.dataDir),
    from: settings.mailFrom,
  })
  const metrics = storeOptions.registry
    ? formsMetrics(storeOptions.registry, {
        database,
        forms: [...Object.keys(forms.lists), ...Object.keys(forms.surveys)],
        mailsPerHour: settings.mailsPerHour ?? DEFAULTS.mailsPerHour,
      })
    : undefined
  const sender = new MailSender({
    ...(metrics ? { metrics } : {}),
    database,
    mailer,
    forms,
    settings: site,
    siteUrl: settings.siteUrl,
    ...(storeOptions.now ? { now: storeOptions.now } : {}),
    ...(storeOptions.confirmTtlMs ? { confirmTtlMs: storeOptions.confirmTtlMs } : {}),
    ...(storeOptions.unsubscribeTtlMs ? { unsubscribeTtlMs: storeOptions.unsubscribeTtlMs } : {}),
    ...(settings.mailLeaseSeconds ? { leaseMs: settings.mailLeaseSeconds * 1000 } : {}),
    ...storeOptions.sender,
  })
  let closed: Promise<void> | undefined
  return {
    database,
    mailer,
    sender,
    options: {
      store: new FormsStore(database, {
        ...(settings.mailsPerHour !== undefined ? { mailsPerHour: settings.mailsPerHour } : {}),
        ...(settings.mailsPerClient !== undefined
          ? { mailsPerClient: settings.mailsPerClient }
          : {}),
        ...storeOptions,
      }),
      forms,
      siteUrl: settings.siteUrl,
      rateLimit: settings.rateLimit > 0 ? { max: settings.rateLimit, timeWindowMs: 60_000 } : false,
      mailQueued: () => sender.wake(),
      diskSpace: disk,
      ...(metrics ? { metrics } : {}),
    },
    async mailReady() {
      const since = sender.failingSince
      const outageMs = (settings.mailOutageMinutes ?? 15) * 60_000
      if (!since || Date.now() - since.getTime() < outageMs) return
      const [waiting] = await database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM mail_jobs WHERE sent_at IS NULL AND failed_at IS NULL',
      )
      if ((waiting?.n ?? 0) > 0) throw new Error('mails wait and none could be sent')
    },
    diskReady: () => disk.ready(),
    startSender: (log) => sender.start(log),
    close() {
      closed ??= (async () => {
        await sender.stop()
        await mailer.close()
        await database.close()
      })()
      return closed
    },
  }
}
