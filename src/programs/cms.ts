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
 *   backup <file> [--wait <seconds>]         both services' data in one archive (.tar, or
 *                                            .tar.gz): the database, the repository with every
 *                                            ref and the checkpoint's reflog, the releases; the
 *                                            services may run (PostgreSQL), waited for while a
 *                                            publication holds its lease (600 s at most)
 *   restore <file> [--force]                 puts a backup back where the settings say, with
 *                                            the services stopped; checks it whole first, refuses
 *                                            targets that are not empty unless --force, records
 *                                            the restore in the trail, then verifies (its exit
 *                                            code is verify's; 5: not restored)
 *   record-gap                               after an older backup was restored while anchors
 *                                            in git record entries it lacks: records that gap in
 *                                            the trail (those anchors no longer count; they stay
 *                                            as the proof), continues the checkpoint on the
 *                                            remote's, then verifies
 */
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { hostname, userInfo } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createBackup } from '../backup/backup'
import type { Manifest } from '../backup/manifest'
import { type Targets, targetsOf } from '../backup/parts'
import { restoreBackup } from '../backup/restore'
import { ensureWritableFolder } from '../database/folder'
import { openDatabase } from '../database/open'
import { readBuildConfig } from '../engine/config'
import { FORMS_MIGRATIONS } from '../forms/migrations'
import {
  ANCHOR_WITHIN_MS,
  AuditCheckpoints,
  OUTCOME_EXIT_CODES,
  recordRestoreGap,
  verifyWithAnchors,
} from '../publishing/audit/anchors'
import { appendAudit, exportAudit, setAuditKeys } from '../publishing/audit/trail'
import { GitRepository } from '../publishing/git/repository'
import { PUBLISHING_MIGRATIONS } from '../publishing/migrations'
import { hasPeople, listPeople, normalEmail, SERVICE_ACTOR } from '../publishing/people/people'
import { firstAdministratorMessage } from '../publishing/service'
import { readPublishingSettings } from '../publishing/settings'
import { runProgram, SettingError } from '../shared/settings-error'

const USAGE = `usage: npm run cms -- <command>
  audit [--format csv|json] [--out <file>]
  verify
  migrate
  people
  first-administrator
  release-account <email>
  backup <file> [--wait <seconds>]
  restore <file> [--force]
  record-gap`

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'csv' },
      out: { type: 'string' },
      force: { type: 'boolean', default: false },
      wait: { type: 'string', default: '600' },
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
    'backup',
    'restore',
    'record-gap',
  ]
  if (!command || !commands.includes(command)) {
    console.error(USAGE)
    return 2
  }
  const root = readBuildConfig().root
  const settings = readPublishingSettings(root)
  if (command === 'migrate') return migrateAsOwner(settings)
  setAuditKeys(settings.auditKeys)
  if (command === 'backup' || command === 'restore') {
    const file = positionals[1]
    if (!file || positionals.length > 2) {
      console.error(USAGE)
      return 2
    }
    const targets = targetsOf(settings, resolve(root, process.env.DATA_DIR ?? 'data'))
    if (command === 'backup') {
      const wait = Number(values.wait)
      if (!Number.isFinite(wait) || wait < 0) {
        console.error(`--wait must be a number of seconds; got "${values.wait}"`)
        return 2
      }
      return backup(resolve(file), targets, root, wait * 1000)
    }
    return restore(resolve(file), targets, settings, values.force === true)
  }
  // PGlite writes its folder even to read: one that cannot be written is said in one line.
  if (!settings.databaseUrl) {
    await ensureWritableFolder(join(settings.dir, 'db'), {
      what: "the publishing service's database folder",
      setting: 'DATA_DIR',
      instead: 'DATABASE_URL, for PostgreSQL',
      deep: true,
    })
  }
  const database = await openPublishingDatabaseOf(settings, { fromSettings: true })
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
    if (command === 'record-gap') return await recordGap(database, settings)
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

/** The publishing service's database as its settings name it: PostgreSQL, or PGlite in DATA_DIR. */
function openPublishingDatabaseOf(
  settings: ReturnType<typeof readPublishingSettings>,
  options: { fromSettings?: boolean } = {},
) {
  return openDatabase({
    ...(settings.databaseUrl
      ? {
          url: settings.databaseUrl,
          ...(settings.databaseOwnerUrl ? { ownerUrl: settings.databaseOwnerUrl } : {}),
        }
      : { dataDir: join(settings.dir, 'db') }),
    migrations: PUBLISHING_MIGRATIONS,
    ...options,
  })
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

/** `n` bytes for people: `812 KB`, `45.6 MB`. */
const size = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 ** 2
      ? `${(n / 1024).toFixed(0)} KB`
      : n < 1024 ** 3
        ? `${(n / 1024 ** 2).toFixed(1)} MB`
        : `${(n / 1024 ** 3).toFixed(2)} GB`

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** What a backup holds, for people: one line per part. */
function partsOf(manifest: Manifest): string[] {
  const lines: string[] = []
  const files = Object.entries(manifest.files)
  const bytesOf = (prefix: string) =>
    files
      .filter(([path]) => path.startsWith(prefix))
      .reduce((sum, [, file]) => sum + ('size' in file ? file.size : 0), 0)
  const services = Object.entries(manifest.database.services).map(([service, dump]) => {
    const rows = Object.values(dump.tables).reduce((sum, table) => sum + table.rows, 0)
    return `${service} ${count(rows, 'row')} in ${count(Object.keys(dump.tables).length, 'table')} (schema ${dump.migrations.at(-1)?.id ?? 'none'})`
  })
  lines.push(
    `  database (${manifest.database.kind}): ${services.join('; ')}, ${size(bytesOf('database/'))}`,
  )
  const { audit } = manifest
  if (audit) {
    const anchor = (name: string, found: NonNullable<Manifest['audit']>['anchors']['main']) =>
      found ? `${name} ${found.commit.slice(0, 12)} (${found.length})` : null
    const anchors = [
      anchor('checkpoint', audit.anchors.checkpoint),
      anchor('main', audit.anchors.main),
    ].filter(Boolean)
    lines.push(
      `  audit trail: ${count(audit.entries, 'entry', 'entries')}, head ${audit.head.slice(0, 12)}…, ${audit.auditKeyId ? `AUDIT_KEY ${audit.auditKeyId}` : 'no AUDIT_KEY'}; anchors ${anchors.length > 0 ? anchors.join(', ') : 'none'}; the checkpoint's reflog ${count(audit.checkpointReflog, 'tip')}`,
    )
  }
  if (manifest.repository) {
    lines.push(
      `  repository: ${count(Object.keys(manifest.repository.refs).length, 'ref')}, ${size(bytesOf('repository/'))}`,
    )
  }
  if (manifest.releases) {
    const stored = files.filter(([path, file]) => path.startsWith('releases/') && 'size' in file)
    lines.push(
      `  releases: ${count(manifest.releases.folders.length, 'release')} (live ${manifest.releases.live ?? 'none'}), ${count(stored.length, 'file')}, ${size(bytesOf('releases/'))}`,
    )
  }
  return lines
}

/** `backup`: the archive written, and what it holds. */
async function backup(file: string, targets: Targets, root: string, waitMs: number) {
  const result = await createBackup({ file, targets, root, waitMs })
  const { manifest } = result
  console.log(
    `Backed up to ${file}: ${size(result.bytes)} in ${seconds(result.ms)}, sha256 ${result.sha256}`,
  )
  for (const line of partsOf(manifest)) console.log(line)
  if (manifest.lease) {
    console.log(
      `  publication lease held ${seconds(manifest.lease.heldMs)}${manifest.lease.waitedMs > 200 ? `, after waiting ${seconds(manifest.lease.waitedMs)} for a publication` : ''}`,
    )
  }
  if (!manifest.audit?.auditKeyId) {
    console.log(
      '  AUDIT_KEY is not set: the manifest is not tagged, so only its checksums protect the archive',
    )
  }
  return 0
}

/**
 * `record-gap`: the gap an older backup's restore left recorded in the trail (restoredBehind),
 * the checkpoint continued on the remote's; then the same check as `verify`.
 */
async function recordGap(
  database: Awaited<ReturnType<typeof openDatabase>>,
  settings: ReturnType<typeof readPublishingSettings>,
): Promise<number> {
  if (!existsSync(join(settings.repository, 'HEAD'))) {
    console.error(`There is no repository at ${settings.repository} (PUBLISHING_REPO).`)
    return 1
  }
  const repo = new GitRepository({ gitDir: settings.repository })
  try {
    const recorded = await recordRestoreGap(database, repo, settings.remote)
    if (!recorded) {
      console.error(
        'Nothing to record: no anchor written before a restore records entries the trail lacks.',
      )
    } else {
      const { behind, entry, checkpoint } = recorded
      console.log(
        `Recorded as entry ${entry.id}: the backup restored in entry ${behind.entry} lacks entries ${behind.lacks.from} to ${behind.lacks.to}; their ${count(behind.anchors.length, 'anchor')} in git no longer count, and stay as the proof. The checkpoint (${checkpoint.slice(0, 12)}) goes on from ${settings.remote?.push ? "the remote's, pushed" : 'here'}.`,
      )
    }
    return await verify(database, settings)
  } finally {
    repo.close()
  }
}

/** Exit code of a restore refused or failed: nothing (or nothing more) was written. */
const NOT_RESTORED = 5

/**
 * `restore`: the backup put back, the restore recorded in the trail and anchored, then the
 * same check as `verify` (its exit code).
 */
async function restore(
  file: string,
  targets: Targets,
  settings: ReturnType<typeof readPublishingSettings>,
  force: boolean,
): Promise<number> {
  let result: Awaited<ReturnType<typeof restoreBackup>>
  try {
    result = await restoreBackup({ file, targets, force })
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    return NOT_RESTORED
  }
  const { manifest } = result
  console.log(
    `Restored ${file} (sha256 ${result.sha256}), taken ${manifest.createdAt} on ${manifest.host} by version ${manifest.code.version}${manifest.code.commit ? ` (${manifest.code.commit.slice(0, 12)})` : ''}; ${result.tagChecked ? `its manifest's tag checked with AUDIT_KEY ${manifest.audit?.auditKeyId ?? ''}`.trim() : 'untagged (made without AUDIT_KEY): its checksums checked'}`,
  )
  for (const line of partsOf(manifest)) console.log(line)
  if (result.replaced.length > 0) console.log(`  replaced (--force): ${result.replaced.join(', ')}`)
  if (!manifest.database.services.publishing) return 0
  const database = await openPublishingDatabaseOf(settings)
  try {
    const entry = await appendAudit(database, {
      actor: SERVICE_ACTOR,
      action: 'restore',
      subject: basename(file),
      details: {
        from: 'npm run cms -- restore',
        by: `${userInfo().username}@${hostname()}`,
        backup: {
          sha256: result.sha256,
          takenAt: manifest.createdAt,
          host: manifest.host,
          code: manifest.code,
          entries: manifest.audit?.entries ?? 0,
          head: manifest.audit?.head ?? null,
        },
        ...(force ? { replaced: result.replaced } : {}),
      },
    })
    let anchored = false
    if (existsSync(join(settings.repository, 'HEAD'))) {
      const repo = new GitRepository({ gitDir: settings.repository })
      try {
        anchored = await new AuditCheckpoints({ database, repo, everyMs: 60_000 }).write()
      } finally {
        repo.close()
      }
    }
    console.log(
      `The audit trail records the restore as entry ${entry.id}${anchored ? ', anchored in refs/audit/checkpoint' : ''}. Checking it as npm run cms -- verify does:`,
    )
    return await verify(database, settings)
  } finally {
    await database.close()
  }
}

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
    if (outcome.kind === 'tampered' && outcome.behind) {
      const { behind } = outcome
      say(
        `Behind its anchors: the audit trail was restored on ${behind.restoredAt} from a backup${behind.takenAt ? ` taken ${behind.takenAt}` : ''} with ${count(behind.backupEntries, 'entry', 'entries')} (entry ${behind.entry} records the restore); ${behind.anchor}, written before the restore, records ${behind.lacks.to}: the backup lacks entries ${behind.lacks.from} to ${behind.lacks.to} (${count(behind.lacks.to - behind.lacks.from + 1, 'entry', 'entries')}) of the trail before the restore, which the database no longer has.`,
      )
      say(
        `Their content is lost; ${count(behind.anchors.length, 'anchor')} in git prove they existed: keep them. Restore a newer backup that has them, or record the gap with npm run cms -- record-gap (docs/operators.md, Backup and restore).`,
      )
    } else if (outcome.kind === 'tampered') {
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
    for (const gap of sources?.gaps ?? []) say(`Not counted: ${gap}.`)
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
