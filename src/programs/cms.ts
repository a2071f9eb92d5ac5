/**
 * `npm run cms -- <command>`: the administrators' and operators' tools for the publishing
 * service, on its database (`DATABASE_URL`, else PGlite under `DATA_DIR`; with PGlite, stop
 * `npm start` first).
 *
 *   audit [--format csv|json] [--out file]   the whole audit trail, checked first as by verify
 *   verify                                   checks the audit trail's chain against every
 *                                            anchor in git (the service's repository, and the
 *                                            remote's with PUBLISHING_PUSH=on): exit 0 intact and
 *                                            fully anchored, 4 intact with entries not anchored
 *                                            yet, 3 unverifiable (AUDIT_KEY not set or not the
 *                                            entries' key, or no anchor), 1 tampered (naming the
 *                                            first entry and the anchor)
 *   migrate                                  PostgreSQL: the forms' and the publishing
 *                                            service's migrations as the tables' owner
 *                                            (DATABASE_OWNER_URL), granting the service's role
 *                                            (DATABASE_URL) its rights; the service then runs
 *                                            with DATABASE_URL alone
 *   people                                   who may sign in, with their roles
 *   first-administrator                      a new one-time link while nobody can sign in
 *   release-account <email>                  frees a person from the identity provider's
 *                                            account they signed in with (the provider made
 *                                            them a new one): their next sign-in binds again
 */
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ensureWritableFolder } from '../database/folder'
import { openDatabase } from '../database/open'
import { readBuildConfig } from '../engine/config'
import {
  ANCHOR_WITHIN_MS,
  OUTCOME_EXIT_CODES,
  verifyWithAnchors,
} from '../publishing/audit/anchors'
import { appendAudit, exportAudit, setAuditKeys } from '../publishing/audit/trail'
import { GitRepository } from '../publishing/git/repository'
import { PUBLISHING_MIGRATIONS } from '../publishing/migrations'
import { hasPeople, listPeople, normalEmail, SERVICE_ACTOR } from '../publishing/people/people'
import { firstAdministratorMessage } from '../publishing/service'
import { readPublishingSettings } from '../publishing/settings'
import { FORMS_MIGRATIONS } from '../server/forms/migrations'
import { runProgram, SettingError } from '../shared/settings-error'

const USAGE = `usage: npm run cms -- <command>
  audit [--format csv|json] [--out <file>]
  verify
  migrate
  people
  first-administrator
  release-account <email>`

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'csv' },
      out: { type: 'string' },
    },
  })
  const [command] = positionals
  const commands = [
    'audit',
    'verify',
    'migrate',
    'people',
    'first-administrator',
    'release-account',
  ]
  if (!command || !commands.includes(command)) {
    console.error(USAGE)
    return 2
  }
  const settings = readPublishingSettings(readBuildConfig().root)
  if (command === 'migrate') return migrateAsOwner(settings)
  setAuditKeys(settings.auditKeys)
  // PGlite writes its folder even to read: one that cannot be written is said in one line.
  if (!settings.databaseUrl) {
    await ensureWritableFolder(join(settings.dir, 'db'), {
      what: "the publishing service's database folder",
      setting: 'DATA_DIR',
      instead: 'DATABASE_URL, for PostgreSQL',
      deep: true,
    })
  }
  const database = await openDatabase({
    ...(settings.databaseUrl
      ? {
          url: settings.databaseUrl,
          ...(settings.databaseOwnerUrl ? { ownerUrl: settings.databaseOwnerUrl } : {}),
        }
      : { dataDir: join(settings.dir, 'db') }),
    migrations: PUBLISHING_MIGRATIONS,
    fromSettings: true,
  })
  try {
    if (command === 'verify' || command === 'audit') {
      const code = await verify(database, settings)
      if (command === 'verify') return code
      const format = values.format === 'json' ? 'json' : values.format === 'csv' ? 'csv' : undefined
      if (!format) {
        console.error(`--format must be csv or json; got "${values.format}"`)
        return 2
      }
      const text = await exportAudit(database, format)
      if (values.out) await writeFile(values.out, text)
      else process.stdout.write(text)
      return code
    }
    if (command === 'people') {
      for (const person of await listPeople(database)) {
        console.log(
          `${person.email}\t${person.name}\t${person.roles.join(',')}${person.disabled ? '\t(no access)' : ''}`,
        )
      }
      return 0
    }
    if (command === 'release-account') {
      const email = normalEmail(positionals[1] ?? '')
      const [released] = await database.query<{ email: string }>(
        'UPDATE people SET provider_account = NULL WHERE email = $1 AND provider_account IS NOT NULL RETURNING email',
        [email],
      )
      if (!released) {
        console.error(`${email} is bound to no account of the identity provider.`)
        return 1
      }
      await appendAudit(
        database,
        {
          actor: SERVICE_ACTOR,
          action: 'role-change',
          subject: email,
          details: { providerAccountReleased: true, from: 'npm run cms -- release-account' },
        },
        new Date(),
      )
      console.log(`${email} signs in with the identity provider's account it comes with next.`)
      return 0
    }
    if (await hasPeople(database)) {
      console.error('Someone can sign in already: an administrator invites others on /people.')
      return 1
    }
    // The open link was lost (it is shown once): it is withdrawn and a new one made.
    await database.query('UPDATE invitations SET expires_at = now() WHERE invited_by = $1', [
      SERVICE_ACTOR,
    ])
    const message = await firstAdministratorMessage({
      database,
      settings,
      clock: () => new Date(),
    })
    console.log(message)
    return 0
  } finally {
    await database.close()
  }
}

/** `migrate`: both services' migrations as the tables' owner, and the service's role granted. */
async function migrateAsOwner(
  settings: ReturnType<typeof readPublishingSettings>,
): Promise<number> {
  const { databaseUrl: url, databaseOwnerUrl: ownerUrl } = settings
  if (!url || !ownerUrl) {
    throw new SettingError(
      url ? 'DATABASE_OWNER_URL' : 'DATABASE_URL',
      'is not set, and migrate needs both DATABASE_URL (the services’ role) and DATABASE_OWNER_URL (the tables’ owner)',
      `set it to the PostgreSQL URL of ${url ? 'the role that owns the tables' : 'the role the services connect as'}`,
    )
  }
  let role = ''
  for (const migrations of [FORMS_MIGRATIONS, PUBLISHING_MIGRATIONS]) {
    const database = await openDatabase({
      url,
      ownerUrl,
      migrations,
      poolSize: 1,
      fromSettings: true,
    })
    role = (await database.query<{ name: string }>('SELECT current_user AS name'))[0]?.name ?? ''
    await database.close()
  }
  console.log(
    `The tables are up to date. ${role} (DATABASE_URL) may read and write their rows, and only read and append to the audit trail; the services may now run with DATABASE_URL alone.`,
  )
  return 0
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/**
 * Checks the trail against every anchor in git and says what it found on standard error, with
 * one exit code per outcome (`OUTCOME_EXIT_CODES`): 0 intact and fully anchored, 4 intact with
 * entries not anchored yet, 3 unverifiable (no key, a key not held, or no anchor), 1 tampered
 * (the first entry that differs and the anchor that says so).
 */
async function verify(
  database: Awaited<ReturnType<typeof openDatabase>>,
  settings: ReturnType<typeof readPublishingSettings>,
): Promise<number> {
  const repo = existsSync(join(settings.repository, 'HEAD'))
    ? new GitRepository({ gitDir: settings.repository })
    : undefined
  try {
    const { check, sources, outcome } = await verifyWithAnchors(database, repo, settings.remote)
    const say = (line: string) => console.error(line)
    if (outcome.kind === 'tampered') {
      say(
        `Tampered: the audit trail is broken at entry ${outcome.brokenAt}: ${outcome.reason}.${outcome.anchor ? ` (anchor: ${outcome.anchor})` : ''}`,
      )
    } else {
      say(`The audit trail's chain of ${check.entries} entries is intact.`)
      if (!sources) {
        say(`Its anchors in git were not read: there is no repository at ${settings.repository}.`)
      } else if (check.ok && check.anchors && check.anchors.checked > 0) {
        say(
          `It agrees with its ${count(check.anchors.checked, 'anchor')} in git (${sources.read.join('; ')}); the furthest names entry ${check.anchors.last}.`,
        )
      }
    }
    for (const problem of sources?.problems ?? []) say(`Not read: ${problem}.`)
    for (const ignored of sources?.ignored ?? []) say(`Not counted: ${ignored}.`)
    for (const unknown of sources?.unknownKeys ?? []) {
      say(`Not counted: ${unknown} is tagged with a key AUDIT_KEY does not hold.`)
    }
    if (outcome.kind === 'unanchored') {
      say(
        `Intact, ${count(outcome.unanchored, 'entry', 'entries')} not anchored yet: entries after the furthest anchor could be removed without a trace until the next checkpoint (within ${ANCHOR_WITHIN_MS / 1000} seconds while the service runs).`,
      )
    } else if (outcome.kind === 'unverifiable') {
      say(`Unverifiable: ${outcome.reason}.`)
    } else if (outcome.kind === 'intact') {
      say(
        outcome.entries > 0 ? 'Intact and fully anchored.' : 'Intact: the trail has no entry yet.',
      )
    }
    return OUTCOME_EXIT_CODES[outcome.kind]
  } finally {
    repo?.close()
  }
}

// Its own refusals are said in a line; a wrong setting too.
runProgram(
  async () => process.exit(await main(process.argv.slice(2))),
  (error) => (error instanceof Error ? error.message : undefined),
)
