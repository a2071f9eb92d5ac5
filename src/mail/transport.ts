/**
 * Sending e-mail: over SMTP (Nodemailer) when `SMTP_URL` is set; otherwise into a local
 * outbox folder, one `.eml` file per message, so a fresh machine can sign up and follow the
 * confirmation link without a mail server (`npm run forms -- outbox` shows them).
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Transporter } from 'nodemailer'
import { type Environment, settingOf } from '../shared/setting-values'
import { SettingError } from '../shared/settings-error'

export interface Mail {
  to: string
  subject: string
  text: string
  html: string
  headers?: Record<string, string>
}

export interface Mailer {
  /** Where mails go, for the start-up log: `smtp://host:port` or the outbox folder. */
  readonly target: string
  send(mail: Mail): Promise<void>
  close(): Promise<void>
}

export interface MailerOptions {
  smtpUrl?: string
  outboxDir: string
  from: string
}

/**
 * `SMTP_URL`, checked: an `smtp://` or `smtps://` URL with a host, or undefined (the outbox).
 * The value is not repeated in the error (it holds a password).
 */
export function smtpUrlOf(env: Environment): string | undefined {
  const value = settingOf(env, 'SMTP_URL')
  if (value === undefined) return undefined
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {}
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) {
    throw new SettingError(
      'SMTP_URL',
      'is not an SMTP URL with a host (it must begin with smtp:// or smtps://)',
      'set it to one such as smtps://user:password@smtp.example.com, or unset it to write the mails to the outbox (DATA_DIR/outbox)',
    )
  }
  return value
}

/** A sender (`MAIL_FROM`, `CMS_MAIL_FROM`): an address, with a name before it in <> or not. */
export function mailFromOf(env: Environment, name: string, fallback: string): string {
  const value = settingOf(env, name) ?? fallback
  if (!/^(?:[^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(value.trim())) {
    throw new SettingError(
      name,
      `must be an e-mail address, with a name before it or not; got "${value}"`,
      `set it to one such as ${fallback}, or unset it for that`,
    )
  }
  return value
}

/**
 * The outbox's files are numbered per process, not per mailer: the forms service and the
 * publishing service (its notices) write into one outbox from the same process under
 * `npm start`, and two mails of one millisecond must not take one name.
 */
let outboxSequence = 0

export async function createMailer(options: MailerOptions): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer')
  if (options.smtpUrl) {
    const url = new URL(options.smtpUrl)
    // Connections kept open and reused, ten at a time (the sender sends a batch at once:
    // twice the mails a second of five), unless the URL says otherwise (`?pool=false`,
    // `?maxConnections=…`). A server that stops answering fails a mail within a minute, well
    // inside the sender's lease on it.
    const defaults = {
      pool: 'true',
      maxConnections: '10',
      maxMessages: '1000',
      connectionTimeout: '10000',
      greetingTimeout: '10000',
      socketTimeout: '30000',
    }
    for (const [key, value] of Object.entries(defaults)) {
      if (!url.searchParams.has(key)) url.searchParams.set(key, value)
    }
    const transport: Transporter = nodemailer.createTransport(url.toString())
    return {
      target: `${url.protocol}//${url.host}`,
      async send(mail) {
        // The address as one plain recipient: never parsed as a list, a group or a name.
        await transport.sendMail({
          from: options.from,
          ...mail,
          to: { name: '', address: mail.to },
        })
      },
      async close() {
        transport.close()
      },
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true })
  await mkdir(options.outboxDir, { recursive: true })
  return {
    target: options.outboxDir,
    async send(mail) {
      const info = await transport.sendMail({
        from: options.from,
        ...mail,
        to: { name: '', address: mail.to },
      })
      outboxSequence += 1
      const date = new Date()
      const name = `${date.toISOString().replace(/[:.]/g, '-')}-${process.pid}-${outboxSequence}`
      await writeFile(join(options.outboxDir, `${name}.eml`), info.message as Buffer)
      // Beside the message as sent, its readable parts: what `npm run forms -- outbox` shows.
      const summary: OutboxMail = {
        file: `${name}.eml`,
        date: date.toISOString(),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
      }
      await writeFile(join(options.outboxDir, `${name}.json`), JSON.stringify(summary, null, 2))
    },
    async close() {
      transport.close()
    },
  }
}

/** A mail in the outbox: the `.eml` file as sent, and its readable parts. */
export interface OutboxMail {
  file: string
  date: string
  to: string
  subject: string
  text: string
}

/** The outbox's mails, oldest first. */
export async function readOutbox(outboxDir: string): Promise<OutboxMail[]> {
  let files: string[]
  try {
    files = (await readdir(outboxDir)).filter((file) => file.endsWith('.json')).sort()
  } catch {
    return []
  }
  return Promise.all(
    files.map(
      async (file) => JSON.parse(await readFile(join(outboxDir, file), 'utf8')) as OutboxMail,
    ),
  )
}

/** Removes the outbox's mails to `address` (an erasure request covers them too). */
export async function eraseFromOutbox(outboxDir: string, address: string): Promise<number> {
  const mails = (await readOutbox(outboxDir)).filter((mail) => mail.to === address)
  for (const mail of mails) {
    await rm(join(outboxDir, mail.file), { force: true })
    await rm(join(outboxDir, mail.file.replace(/\.eml$/, '.json')), { force: true })
  }
  return mails.length
}
