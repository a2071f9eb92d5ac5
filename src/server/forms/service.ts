/**
 * Puts the forms service together from the environment: the database (`DATABASE_URL`, else
 * PGlite in `DATA_DIR`), the mailer (`SMTP_URL`, else the outbox in `DATA_DIR/outbox`), the
 * forms of the content store and the limits. `npm start` and the tests use it alike.
 */
import { resolve } from 'node:path'
import { createFileStore } from '../../content/file-store'
import { loadFormsContent } from '../../content/forms'
import { type Database, openDatabase } from './database'
import { createMailer, type Mailer } from './mail'
import type { FormsServiceOptions } from './routes'
import { FormsStore, type StoreOptions } from './store'

export interface FormsSettings {
  contentDir: string
  siteUrl: string
  /** `DATABASE_URL`: PostgreSQL; PGlite in `dataDir` when absent. */
  databaseUrl?: string
  /** `DATA_DIR`: PGlite's database and the outbox (default `data/`). */
  dataDir: string
  /** `SMTP_URL`: e.g. `smtps://user:password@smtp.example.com`; the outbox when absent. */
  smtpUrl?: string
  /** `MAIL_FROM`: the sender of the confirmation e-mails. */
  mailFrom: string
  /** `FORMS_RATE_LIMIT`: sends per address and minute (default 10; 0 turns it off). */
  rateLimit: number
}

export function readFormsSettings(
  root: string,
  contentDir: string,
  siteUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): FormsSettings {
  const rateLimit = Number(env.FORMS_RATE_LIMIT ?? 10)
  if (!Number.isInteger(rateLimit) || rateLimit < 0) {
    throw new Error(
      `FORMS_RATE_LIMIT must be a whole number (0 turns it off); got "${env.FORMS_RATE_LIMIT}"`,
    )
  }
  return {
    contentDir,
    siteUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(root, env.DATA_DIR ?? 'data'),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Lumora Bank <newsletter@lumora-bank.example>',
    rateLimit,
  }
}

export const outboxOf = (dataDir: string) => resolve(dataDir, 'outbox')

export interface FormsService {
  options: FormsServiceOptions
  database: Database
  mailer: Mailer
  close(): Promise<void>
}

export async function openFormsService(
  settings: FormsSettings,
  storeOptions: StoreOptions & { schema?: string; memory?: boolean } = {},
): Promise<FormsService> {
  const { forms, settings: site } = await loadFormsContent(createFileStore(settings.contentDir))
  const database = await openDatabase({
    url: settings.databaseUrl,
    dataDir: storeOptions.memory ? undefined : resolve(settings.dataDir, 'db'),
    schema: storeOptions.schema,
  })
  const mailer = await createMailer({
    smtpUrl: settings.smtpUrl,
    outboxDir: outboxOf(settings.dataDir),
    from: settings.mailFrom,
  })
  return {
    database,
    mailer,
    options: {
      store: new FormsStore(database, storeOptions),
      mailer,
      forms,
      settings: site,
      siteUrl: settings.siteUrl,
      rateLimit: settings.rateLimit > 0 ? { max: settings.rateLimit, timeWindowMs: 60_000 } : false,
    },
    async close() {
      await mailer.close()
      await database.close()
    },
  }
}
