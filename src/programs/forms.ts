/**
 * `npm run forms -- <command>`: the operators' tools for the forms service's data, on the same
 * database as `npm start` (`DATABASE_URL`, else PGlite in `DATA_DIR`; with PGlite, stop
 * `npm start` first).
 *
 *   export subscribers [--list newsletter] [--out file.csv]   confirmed subscribers as CSV
 *   export surveys [--survey survey] [--out file.csv]         survey answers as CSV
 *   erase <e-mail address>                                    a person's data on every list
 *   purge [--days 30] [--years 3]                             what is no longer needed
 *   outbox [--last 5]                                         mails written without SMTP_URL
 *   help                                                      these commands
 *
 * Backups of the forms service's data are made with the publishing service's, in one archive:
 * `npm run cms -- backup <file>` and `npm run cms -- restore <file>` (docs/operators.md).
 */
import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { ensureWritableFolder } from '../database/folder'
import { openDatabase } from '../database/open'
import { readBuildConfig } from '../engine/config'
import { FORMS_MIGRATIONS } from '../forms/migrations'
import { eraseEmail, exportSubscribers, exportSurveys, purge } from '../forms/operations'
import { outboxOf, readFormsSettings } from '../forms/service'
import { subscriptionLink } from '../forms/store'
import { eraseFromOutbox, readOutbox } from '../mail/transport'
import { normalizeEmail } from '../shared/forms/validate'
import { runProgram } from '../shared/settings-error'

const USAGE = `usage: npm run forms -- <command>
  export subscribers [--list <list>] [--out <file.csv>]
  export surveys [--survey <survey>] [--out <file.csv>]
  erase <e-mail address>
  purge [--days <days>] [--years <years>]
  outbox [--last <count>]
  help

Backups hold both services' data (these subscribers, answers and mails too):
  npm run cms -- backup <file>              (.tar, or .tar.gz)
  npm run cms -- restore <file> [--force]   with the services stopped
See docs/operators.md, "Backup and restore".`

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      list: { type: 'string' },
      survey: { type: 'string' },
      out: { type: 'string' },
      days: { type: 'string', default: '30' },
      years: { type: 'string', default: '3' },
      last: { type: 'string', default: '5' },
    },
  })
  const [command, subject] = positionals
  const config = readBuildConfig()
  const settings = readFormsSettings(config.root, config.contentDir, config.siteUrl)

  if (command === 'help') {
    console.log(USAGE)
    return 0
  }

  if (command === 'outbox') {
    const mails = (await readOutbox(outboxOf(settings.dataDir))).slice(-Number(values.last))
    if (mails.length === 0) console.log(`No mails in ${outboxOf(settings.dataDir)}.`)
    for (const mail of mails) {
      console.log(`── ${mail.date}  to ${mail.to}\n   ${mail.subject}  (${mail.file})\n`)
      console.log(`${mail.text.replace(/^/gm, '   ')}\n`)
    }
    return 0
  }

  const write = async (csv: string) => {
    if (values.out) {
      await writeFile(values.out, csv)
      console.error(`Wrote ${csv.split('\r\n').length - 2} rows to ${values.out}.`)
    } else process.stdout.write(csv)
  }
  const run = async (work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) => {
    // PGlite writes its folder (and a lock file beside it) even to read: as npm start, a
    // folder that cannot be written is said in one line before it opens.
    if (!settings.databaseUrl) {
      const database = {
        what: "the forms service's database folder",
        setting: 'DATA_DIR',
        instead: 'DATABASE_URL, for PostgreSQL',
      }
      await ensureWritableFolder(settings.dataDir, database)
      await ensureWritableFolder(`${settings.dataDir}/db`, { ...database, deep: true })
    }
    const db = await openDatabase({
      url: settings.databaseUrl,
      ownerUrl: settings.databaseOwnerUrl,
      dataDir: `${settings.dataDir}/db`,
      migrations: FORMS_MIGRATIONS,
      fromSettings: true,
    })
    try {
      await work(db)
    } finally {
      await db.close()
    }
  }

  if (command === 'export' && subject === 'subscribers') {
    await run(async (db) =>
      write(
        await exportSubscribers(db, {
          list: values.list,
          now: new Date(),
          unsubscribeLink: (token, language) =>
            subscriptionLink(config.siteUrl, 'unsubscribe', token, language),
        }),
      ),
    )
  } else if (command === 'export' && subject === 'surveys') {
    await run(async (db) => write(await exportSurveys(db, values.survey)))
  } else if (command === 'erase' && subject?.includes('@')) {
    await run(async (db) => {
      const address = normalizeEmail(subject) ?? subject.trim().toLowerCase()
      const { subscriptions } = await eraseEmail(db, address)
      const mails = await eraseFromOutbox(outboxOf(settings.dataDir), address)
      console.log(
        subscriptions === 0
          ? `Nothing stored for ${address}. (Survey answers are anonymous and name no address.)`
          : `Erased ${address}: ${subscriptions} subscription(s) with their links and consent history.`,
      )
      if (mails > 0) console.log(`Removed ${mails} mail(s) to ${address} from the outbox.`)
    })
  } else if (command === 'purge') {
    const days = Number(values.days)
    const years = Number(values.years)
    if (![days, years].every((value) => Number.isInteger(value) && value >= 1)) {
      console.error('--days and --years must be whole numbers, at least 1')
      return 2
    }
    await run(async (db) => {
      const removed = await purge(db, new Date(), { unconfirmedDays: days, formerYears: years })
      console.log(
        `Deleted ${removed.unconfirmed} sign-up(s) unconfirmed for more than ${days} days, ${removed.former} former subscriber(s) inactive for more than ${years} years, ${removed.consentRecords} cookie-banner record(s) older than ${years} years and ${removed.mails} record(s) of mails sent or given up more than ${days} days ago.`,
      )
    })
  } else {
    console.error(USAGE)
    return 2
  }
  return 0
}

// Its own refusals (an option it does not take) are said in a line; a wrong setting too.
runProgram(
  async () => process.exit(await main(process.argv.slice(2))),
  (error) => (error instanceof Error ? error.message : undefined),
)
