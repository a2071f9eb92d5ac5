/**
 * Sending e-mail: over SMTP (Nodemailer) when `SMTP_URL` is set; otherwise into a local
 * outbox folder, one `.eml` file per message, so a fresh machine can sign up and follow the
 * confirmation link without a mail server (`npm run forms -- outbox` lists them).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Transporter } from 'nodemailer'

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

export async function createMailer(options: MailerOptions): Promise<Mailer> {
  const { default: nodemailer } = await import('nodemailer')
  if (options.smtpUrl) {
    const url = new URL(options.smtpUrl)
    const transport: Transporter = nodemailer.createTransport(options.smtpUrl)
    return {
      target: `${url.protocol}//${url.host}`,
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail })
      },
      async close() {
        transport.close()
      },
    }
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true })
  await mkdir(options.outboxDir, { recursive: true })
  let sequence = 0
  return {
    target: options.outboxDir,
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, ...mail })
      sequence += 1
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}-${sequence}.eml`
      await writeFile(join(options.outboxDir, name), info.message as Buffer)
    },
    async close() {
      transport.close()
    },
  }
}

/** The outbox's mails, newest last: file name and raw message. */
export async function readOutbox(outboxDir: string): Promise<{ file: string; raw: string }[]> {
  let files: string[]
  try {
    files = (await readdir(outboxDir)).filter((file) => file.endsWith('.eml')).sort()
  } catch {
    return []
  }
  return Promise.all(
    files.map(async (file) => ({ file, raw: await readFile(join(outboxDir, file), 'utf8') })),
  )
}
