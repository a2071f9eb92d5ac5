/**
 * `npm run cms -- backup` and `restore`, on PGlite and on PostgreSQL (its two roles): a
 * service with people (a passkey, a session), drafts, an approval, a schedule, a publication,
 * notices waiting, subscribers and their confirmation mails waiting, survey answers and banner
 * choices is backed up, wiped (the database's tables dropped, the folders deleted) and
 * restored: every row of both services comes back as it was, `verify` passes, the passkey signs
 * in and the session stands. A backup taken while a publication runs waits for it and restores
 * to a state `verify` accepts; an archive changed after the backup is refused before anything
 * is written; an older backup restored while the bank's remote holds newer anchors is reported
 * as exactly that, naming the entries it lacks.
 */
import { execFile } from 'node:child_process'
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import { mkdir, readFile, readlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBackup } from '../../../src/backup/backup'
import { MIGRATIONS, targetsOf } from '../../../src/backup/parts'
import { RestoreRefusedError, restoreBackup } from '../../../src/backup/restore'
import { TarReader, TarWriter } from '../../../src/backup/tar'
import { type Database, quoteIdentifier } from '../../../src/database/database'
import { sequencesOf, tablesOf } from '../../../src/database/dump'
import { openDatabase } from '../../../src/database/open'
import { ROOT } from '../../../src/engine/config'
import { FormsStore } from '../../../src/forms/store'
import { CHECKPOINT_REF } from '../../../src/publishing/audit/anchors'
import { readAudit, setAuditKeys } from '../../../src/publishing/audit/trail'
import type { GitRepository } from '../../../src/publishing/git/repository'
import {
  relyingPartyOf,
  signInOptions,
  verifySignIn,
} from '../../../src/publishing/people/passkeys'
import { sessionPerson, startSession } from '../../../src/publishing/people/people'
import type { PublishingService } from '../../../src/publishing/service'
import { readPublishingSettings } from '../../../src/publishing/settings'
import { ada, addPeople, paul, rita } from '../../support/people'
import { approvedDraft, openServiceWithStandInBuild } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const run = promisify(execFile)
const KEY = 'the bank’s audit key kept in its vault (32+)'
const OWNER_URL = process.env.TEST_DATABASE_URL
const SERVICE_URL = process.env.TEST_DATABASE_SERVICE_URL

let dir: string
beforeAll(async () => {
  dir = await temporaryFolder('publishing-backup-')
})
afterAll(async () => {
  setAuditKeys(undefined)
  await removeFolder(dir)
})

/** `npm run cms -- <args>` with `env`: its exit code and what it printed. */
const cms = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['scripts/run.mjs', 'cms', ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )

/** Where a test's service keeps its data: PGlite under `DATA_DIR`, or a PostgreSQL schema. */
interface Place {
  env: Record<string, string>
  /** The forms service's database, migrated (as its service does at start). */
  openForms(): Promise<Database>
  /** Drops the database's contents (the schema, or PGlite's folders) and every folder. */
  wipe(): Promise<void>
  close(): Promise<void>
}

async function pgliteAt(name: string, extra: Record<string, string> = {}): Promise<Place> {
  const data = join(dir, name)
  const env = {
    DATA_DIR: data,
    PUBLISHING_REPO: join(data, 'publishing', 'site.git'),
    PUBLISHING_REMOTE: 'none',
    AUDIT_KEY: KEY,
    ...extra,
  }
  await siteRepository(env.PUBLISHING_REPO)
  return {
    env,
    openForms: () => openDatabase({ dataDir: join(data, 'db'), migrations: MIGRATIONS.forms }),
    wipe: () => removeFolder(data),
    close: async () => {},
  }
}

async function postgresqlAt(name: string): Promise<Place> {
  const owner = OWNER_URL as string
  const data = join(dir, `postgresql-${name}`)
  // The repository first: should it fail, no schema is left behind.
  await siteRepository(join(data, 'publishing', 'site.git'))
  const schema = `backup_${name}_${process.pid}_${Date.now().toString(36)}`
  const admin = await openDatabase({ url: owner, poolSize: 1 })
  await admin.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`)
  const scoped = (url: string) => {
    const scopedUrl = new URL(url)
    scopedUrl.searchParams.set('options', `-c search_path=${schema}`)
    return scopedUrl.toString()
  }
  const env = {
    DATA_DIR: data,
    DATABASE_URL: scoped(SERVICE_URL as string),
    DATABASE_OWNER_URL: scoped(owner),
    PUBLISHING_REPO: join(data, 'publishing', 'site.git'),
    PUBLISHING_REMOTE: 'none',
    AUDIT_KEY: KEY,
  }
  return {
    env,
    openForms: () =>
      openDatabase({
        url: env.DATABASE_URL,
        ownerUrl: env.DATABASE_OWNER_URL,
        migrations: MIGRATIONS.forms,
      }),
    async wipe() {
      await admin.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
      await admin.query(`CREATE SCHEMA ${quoteIdentifier(schema)}`)
      await removeFolder(data)
    },
    async close() {
      await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`)
      await admin.close()
    },
  }
}

/** A passkey of the tests' own (P-256): what a browser's authenticator does, without one. */
function softwarePasskey() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string }
  // The COSE key (RFC 9053) of an EC2 P-256 ES256 key: {1: 2, 3: -7, -1: 1, -2: x, -3: y}.
  const cose = Buffer.concat([
    Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
    Buffer.from(jwk.x, 'base64url'),
    Buffer.from([0x22, 0x58, 0x20]),
    Buffer.from(jwk.y, 'base64url'),
  ])
  return { id: 'c29mdHdhcmUtcGFzc2tleQ', cose, privateKey }
}

/** The assertion a passkey signs for a sign-in ceremony's challenge. */
function assertion(
  passkey: { id: string; privateKey: KeyObject },
  party: { id: string; origin: string },
  challenge: string,
  counter: number,
) {
  const clientData = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge, origin: party.origin, crossOrigin: false }),
  )
  const count = Buffer.alloc(4)
  count.writeUInt32BE(counter)
  const authenticatorData = Buffer.concat([
    createHash('sha256').update(party.id).digest(),
    Buffer.from([0x05]),
    count,
  ])
  const signature = sign(
    'sha256',
    Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]),
    passkey.privateKey,
  )
  return {
    id: passkey.id,
    rawId: passkey.id,
    type: 'public-key' as const,
    clientExtensionResults: {},
    response: {
      clientDataJSON: clientData.toString('base64url'),
      authenticatorData: authenticatorData.toString('base64url'),
      signature: signature.toString('base64url'),
    },
  }
}

/** Every row of both services' tables as text, and their sequences: the state to compare. */
async function stateOf(databases: Record<'forms' | 'publishing', Database>) {
  const state: Record<string, string[]> = {}
  for (const service of ['forms', 'publishing'] as const) {
    const database = databases[service]
    const tables = tablesOf(MIGRATIONS[service].migrations)
    for (const table of tables) {
      if (table === 'publish_lease') continue
      const rows = await database.query<{ row: string }>(
        `SELECT to_jsonb(t)::text AS row FROM ${quoteIdentifier(table)} t ORDER BY 1`,
      )
      state[`${service}.${table}`] = rows.map((row) => row.row)
    }
    state[`${service} sequences`] = (await sequencesOf(database, tables)).map(
      (sequence) => `${sequence.table}.${sequence.column} ${sequence.lastValue}`,
    )
  }
  return state
}

/**
 * A service with something of everything: people with a passkey (Ada) and a session (Rita), a
 * published draft (a release), an approved draft with a schedule, a draft in the making, the
 * notices they queued, and the forms' subscribers with their mails waiting, a survey answer and
 * a banner choice.
 */
async function populate(service: PublishingService, forms: Database) {
  const { database, drafts } = service
  await addPeople(database, [ada, rita, paul])
  const passkey = softwarePasskey()
  await database.query(
    `INSERT INTO passkeys (id, email, public_key, counter, transports, created_at)
     VALUES ($1, $2, $3, 0, '{internal}', now())`,
    [passkey.id, ada.email, passkey.cose.toString('base64')],
  )
  const session = await startSession(database, rita.email)
  await approvedDraft(drafts, 'Published before the backup')
  const release = await service.publisher.publish(paul, 'pages/about')
  await approvedDraft(drafts, 'Scheduled', {
    file: 'content/en/pages/careers.yaml',
    id: 'pages/careers',
  })
  await service.schedules.schedule(paul, 'pages/careers', new Date(Date.now() + 86_400_000))
  const text = await readFile(join(ROOT, 'content/en/pages/accessibility.yaml'), 'utf8')
  await drafts.save(
    ada,
    'pages/accessibility',
    [
      {
        path: 'content/en/pages/accessibility.yaml',
        content: text.replace(/^title: .*$/m, 'title: In the making'),
      },
    ],
    'In the making',
  )
  await service.checkpoints.write()
  const store = new FormsStore(forms)
  for (const email of ['eve@lumora.example', 'frank@lumora.example']) {
    const outcome = await store.signUp({
      list: 'newsletter',
      email,
      language: 'en',
      topics: ['products'],
      consentVersion: '1',
      consentText: 'Yes, send me the newsletter.',
    })
    expect(outcome.outcome).toBe('queued')
  }
  await store.saveSurvey({ survey: 'survey', version: '1', language: 'de', answers: { q: 'a' } })
  await store.saveConsent({
    consentId: '7b1f4d2e-64c4-4a5b-9b3e-2f8d5c1a9e10',
    categories: { analytics: true },
    trackers: { ga: true },
    revision: '3',
    language: 'en',
  })
  return { passkey, session: session.token, release }
}

/** What must be there after a restore, checked through the service as people use it. */
async function expectUsable(
  service: PublishingService,
  forms: Database,
  populated: Awaited<ReturnType<typeof populate>>,
) {
  const { database } = service
  // Rita's session stands; Ada's passkey signs her in.
  expect((await sessionPerson(database, populated.session))?.email).toBe(rita.email)
  const party = relyingPartyOf(service.settings.url)
  const ceremony = await signInOptions(database, party)
  const signedIn = await verifySignIn(
    database,
    party,
    ceremony.ceremony,
    assertion(populated.passkey, party, ceremony.options.challenge, 1),
  )
  expect(signedIn.email).toBe(ada.email)
  // Drafts, the approval, the schedule, the release served.
  expect((await service.drafts.get('pages/careers'))?.status).toBe('pending_publish')
  expect((await service.drafts.get('pages/careers'))?.approval?.by).toBe(rita.email)
  expect((await service.drafts.get('pages/accessibility'))?.status).toBe('draft')
  expect(await service.drafts.get('pages/about')).toBeNull()
  expect((await service.schedules.list()).map((schedule) => schedule.state)).toEqual(['pending'])
  expect(await service.releases.current()).toBe(populated.release.folder)
  expect(
    await readFile(join(service.releases.pathOf(populated.release.folder), 'index.html'), 'utf8'),
  ).toBe('site')
  const [notices] = await database.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM notice_mails WHERE sent_at IS NULL',
  )
  expect(notices?.n).toBeGreaterThan(0)
  // The subscribers, with their confirmation mails waiting.
  const [waiting] = await forms.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM mail_jobs WHERE sent_at IS NULL AND failed_at IS NULL',
  )
  expect(waiting?.n).toBe(2)
  // New rows take ids after the restored ones.
  const [next] = await forms.query<{ id: string }>(
    `INSERT INTO consent_records (consent_id, categories, trackers, revision, language, recorded_at)
     VALUES (gen_random_uuid(), '{}', '{}', '3', 'en', now()) RETURNING id::text`,
  )
  expect(Number(next?.id)).toBe(2)
}

const kinds = [
  { name: 'PGlite', place: pgliteAt },
  ...(OWNER_URL && SERVICE_URL ? [{ name: 'PostgreSQL', place: postgresqlAt }] : []),
]

describe.each(kinds)('backup and restore on $name', ({ place: at }) => {
  it('backs up, wipes, restores every record of both services, and verify passes', async () => {
    const place = await at('whole')
    try {
      const service = await openServiceWithStandInBuild(place.env)
      const forms = await place.openForms()
      const populated = await populate(service, forms)
      const before = await stateOf({ forms, publishing: service.database })
      const trail = (await readAudit(service.database, { limit: 10_000 })).length
      await forms.close()
      await service.close()

      const archive = join(dir, `whole-${place.env.DATABASE_URL ? 'pg' : 'pglite'}.tar.gz`)
      const backup = await cms(place.env, 'backup', archive)
      expect(backup.stderr).toBe('')
      expect(backup.code).toBe(0)
      expect(backup.stdout).toMatch(
        /^Backed up to .*whole-.*\.tar\.gz: [\d.]+ [KM]B in [\d.]+ s, sha256 [0-9a-f]{64}$/m,
      )
      expect(backup.stdout).toMatch(
        new RegExp(`audit trail: ${trail} entries, head [0-9a-f]{12}…, AUDIT_KEY [0-9a-f]{16}`),
      )

      // Restoring over what is there is refused, naming it; nothing is changed.
      const refused = await cms(place.env, 'restore', archive)
      expect(refused.code).toBe(5)
      expect(refused.stderr).toMatch(
        /was not restored: .*holds .*: restore into empty ones, or pass --force/,
      )

      await place.wipe()
      const restored = await cms(place.env, 'restore', archive)
      expect(restored.stderr).toMatch(/Intact and fully anchored\./)
      expect(restored.code).toBe(0)
      expect(restored.stdout).toMatch(/its manifest's tag checked with AUDIT_KEY [0-9a-f]{16}/)
      expect(restored.stdout).toMatch(
        new RegExp(`records the restore as entry ${trail + 1}, anchored in refs/audit/checkpoint`),
      )

      const again = await openServiceWithStandInBuild(place.env)
      const formsAgain = await place.openForms()
      try {
        const after = await stateOf({ forms: formsAgain, publishing: again.database })
        const restoreEntry = after['publishing.audit_entries']?.pop()
        expect(JSON.parse(restoreEntry ?? '{}')).toMatchObject({ id: trail + 1, action: 'restore' })
        expect(after).toEqual(before)
        await expectUsable(again, formsAgain, populated)
        // The checkpoint's reflog came back: verify still reads every tip it had.
        const log = await readFile(
          join(place.env.PUBLISHING_REPO as string, 'logs', CHECKPOINT_REF),
          'utf8',
        )
        expect(log.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(3)
      } finally {
        await formsAgain.close()
        await again.close()
      }
      // --force replaces what is there (the restored state, and what was done since).
      const forced = await cms(place.env, 'restore', archive, '--force')
      expect(forced.stderr).toMatch(/Intact and fully anchored\./)
      expect(forced.stdout).toMatch(/replaced \(--force\): /)
      expect(forced.code).toBe(0)
    } finally {
      await place.close()
    }
  }, 300_000)

  it('takes a backup while a publication runs: it waits for it, and restores to what verify accepts', async () => {
    const place = await at('during')
    try {
      let release: () => void = () => {}
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      const service = await openServiceWithStandInBuild(place.env)
      const forms = await place.openForms()
      // The build waits at the gate: the publication holds its lease meanwhile.
      const build = service.releases as unknown as {
        options: { build: (config: never) => Promise<unknown> }
      }
      const quick = build.options.build
      build.options.build = async (config) => {
        await gate
        return quick(config)
      }
      await addPeople(service.database, [ada, rita, paul])
      await approvedDraft(service.drafts, 'Published during the backup')
      const publishing = service.publisher.publish(paul, 'pages/about')
      await expect
        .poll(async () => (await service.database.query('SELECT 1 FROM publish_lease')).length)
        .toBe(1)
      let done = false
      const archive = join(dir, 'during.tar')
      const backup = createBackup({
        file: archive,
        targets: targetsOf(readPublishingSettings(ROOT, place.env), place.env.DATA_DIR as string),
        root: ROOT,
        databases: { publishing: service.database, forms },
      }).finally(() => {
        done = true
      })
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(done).toBe(false)
      release()
      const published = await publishing
      const made = await backup
      expect(made.manifest.lease?.waitedMs).toBeGreaterThan(1000)
      expect(made.manifest.releases?.live).toBe(published.folder)
      await forms.close()
      await service.close()

      await place.wipe()
      const restored = await cms(place.env, 'restore', archive)
      expect(restored.stderr).toMatch(/Intact and fully anchored\./)
      expect(restored.code).toBe(0)
      const again = await openServiceWithStandInBuild(place.env)
      try {
        expect(await again.releases.current()).toBe(published.folder)
        expect(await again.repo.resolve('refs/heads/main')).toBe(published.commit)
        expect(await again.drafts.get('pages/about')).toBeNull()
        expect((await readAudit(again.database)).map((entry) => entry.action)).toContain('publish')
      } finally {
        await again.close()
      }
    } finally {
      await place.close()
    }
  }, 300_000)
})

describe('an archive changed after the backup', () => {
  it('is refused before anything is written, whether its checksums were computed again or not', async () => {
    const place = await pgliteAt('tampered')
    const service = await openServiceWithStandInBuild(place.env)
    const forms = await place.openForms()
    await populate(service, forms)
    await forms.close()
    await service.close()
    const archive = join(dir, 'tampered.tar')
    expect((await cms(place.env, 'backup', archive)).code).toBe(0)
    await place.wipe()

    // One byte of a subscriber's row changed.
    const bytes = await readFile(archive)
    const at = bytes.indexOf('eve@lumora.example')
    expect(at).toBeGreaterThan(0)
    bytes[at] = 'E'.charCodeAt(0)
    const changed = join(dir, 'changed.tar')
    await writeFile(changed, bytes)
    const refused = await cms(place.env, 'restore', changed)
    expect(refused.code).toBe(5)
    expect(refused.stderr.trim()).toMatch(
      /^.*changed\.tar was not restored: database\/forms\/subscribers\.jsonl does not have the SHA-256 its manifest lists: the archive was changed or is damaged$/,
    )
    expect(existsSync(place.env.DATA_DIR as string)).toBe(false)

    // The same change with the manifest's checksum computed again: its tag gives it away.
    const rewritten = join(dir, 'rewritten.tar')
    await rewrite(archive, rewritten, (path, data) =>
      path === 'database/forms/subscribers.jsonl'
        ? Buffer.from(data.toString().replace('eve@lumora.example', 'Eve@lumora.example'))
        : data,
    )
    const forged = await cms(place.env, 'restore', rewritten)
    expect(forged.code).toBe(5)
    expect(forged.stderr).toMatch(
      /was not restored: its manifest\.json does not have the tag AUDIT_KEY made: the archive was changed/,
    )
    // Without its tag, a backup made with AUDIT_KEY is refused too.
    const untagged = join(dir, 'untagged.tar')
    await rewrite(archive, untagged, (path, data) => (path === 'manifest.tag' ? null : data))
    const stripped = await cms(place.env, 'restore', untagged)
    expect(stripped.code).toBe(5)
    expect(stripped.stderr).toMatch(
      /its manifest\.tag is missing, though it was made with AUDIT_KEY/,
    )
    // Not a backup at all.
    await writeFile(join(dir, 'not.tar'), 'hello')
    const notBackup = await cms(place.env, 'restore', join(dir, 'not.tar'))
    expect(notBackup.code).toBe(5)
    expect(notBackup.stderr).toMatch(/not\.tar was not restored: the archive ends early/)
    expect(existsSync(place.env.DATA_DIR as string)).toBe(false)
  }, 300_000)
})

/**
 * Copies the archive `from` to `to` through `change` (a file's new content, or `null` to leave
 * it out), with the manifest's checksums computed again and its old tag kept.
 */
async function rewrite(
  from: string,
  to: string,
  change: (path: string, data: Buffer) => Buffer | null,
) {
  const files: { path: string; data: Buffer }[] = []
  const others: { path: string; type: string; target: string }[] = []
  const reader = new TarReader((entry) => {
    if (entry.type !== 'file') {
      others.push({
        path: entry.path,
        type: entry.type,
        target: 'target' in entry ? entry.target : '',
      })
      return undefined
    }
    const chunks: Buffer[] = []
    return {
      data: (chunk) => chunks.push(Buffer.from(chunk)),
      end: () => files.push({ path: entry.path, data: Buffer.concat(chunks) }),
    }
  })
  reader.write(await readFile(from))
  reader.end()
  const out = createWriteStream(to)
  const tar = new TarWriter(out)
  const manifest = JSON.parse(
    files.find((file) => file.path === 'manifest.json')?.data.toString() ?? '{}',
  )
  for (const file of files) {
    if (file.path === 'manifest.json') continue
    const data = change(file.path, file.data)
    if (!data) continue
    if (file.path !== 'manifest.tag') {
      manifest.files[file.path] = {
        size: data.length,
        sha256: createHash('sha256').update(data).digest('hex'),
      }
    }
    await tar.buffer(file.path, data)
  }
  for (const other of others) {
    if (other.type === 'directory') await tar.directory(other.path)
    else if (other.type === 'symlink') await tar.symlink(other.path, other.target)
    else await tar.link(other.path, other.target)
  }
  await tar.buffer('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)))
  await tar.end()
  await new Promise<void>((resolve) => out.end(resolve))
}

describe('an older backup restored while the bank’s remote holds newer anchors', () => {
  it('is reported as exactly that: verify names the entries the backup lacks', async () => {
    const remoteDir = join(dir, 'bank.git')
    const remote: GitRepository = await siteRepository(remoteDir)
    const place = await pgliteAt('behind', {
      PUBLISHING_REMOTE: remote.gitDir,
      PUBLISHING_PUSH: 'on',
    })
    const service = await openServiceWithStandInBuild(place.env)
    await addPeople(service.database, [ada, rita, paul])
    await approvedDraft(service.drafts, 'Before the backup')
    await service.publisher.publish(paul, 'pages/about')
    const backedUp = (await readAudit(service.database, { limit: 10_000 })).length
    await service.close()
    const archive = join(dir, 'older.tar')
    expect((await cms(place.env, 'backup', archive)).code).toBe(0)

    // The service goes on: another publication, pushed to the bank's remote with its anchors.
    const later = await openServiceWithStandInBuild(place.env)
    await approvedDraft(later.drafts, 'After the backup', {
      file: 'content/en/pages/careers.yaml',
      id: 'pages/careers',
    })
    await later.publisher.publish(paul, 'pages/careers')
    const lost = (await readAudit(later.database, { limit: 10_000 })).length
    expect(await remote.resolve(CHECKPOINT_REF)).toBe(await later.repo.resolve(CHECKPOINT_REF))
    await later.close()

    // The machine is lost; the older backup is all there is.
    await place.wipe()
    const restored = await cms(place.env, 'restore', archive)
    expect(restored.code).toBe(1)
    expect(restored.stderr).toMatch(
      new RegExp(
        `^Behind its anchors: the audit trail was restored on \\S+ from a backup taken \\S+ with ${backedUp} entries \\(entry ${backedUp + 1} records the restore\\); checkpoint [0-9a-f]{12} \\(the remote's refs/audit/checkpoint, [^)]*\\), written before the restore, records ${lost}: the backup lacks entries ${backedUp + 1} to ${lost} \\(${lost - backedUp} entries\\) of the trail before the restore, which the database no longer has\\.$`,
        'm',
      ),
    )
    expect(restored.stderr).toMatch(/prove they existed: keep them/)
    // verify says the same afterwards.
    const verify = await cms(place.env, 'verify')
    expect(verify.code).toBe(1)
    expect(verify.stderr).toMatch(new RegExp(`the backup lacks entries ${backedUp + 1} to ${lost}`))

    // No newer backup: the gap is recorded, those anchors stay in git and no longer count.
    const recorded = await cms(place.env, 'record-gap')
    expect(recorded.stdout).toMatch(
      new RegExp(
        `^Recorded as entry ${backedUp + 2}: the backup restored in entry ${backedUp + 1} lacks entries ${backedUp + 1} to ${lost}; their \\d+ anchors in git no longer count`,
      ),
    )
    expect(recorded.stderr).toMatch(
      new RegExp(
        `Not counted: \\d+ anchors of entries ${backedUp + 1} to ${lost} of the trail before the restore in entry ${backedUp + 1}: the backup restored lacked those entries, and entry ${backedUp + 2} records the gap\\.`,
      ),
    )
    expect(recorded.stderr).toMatch(/Intact and fully anchored\./)
    expect(recorded.code).toBe(0)
    // The checkpoint goes on from the remote's: pushed, it fast-forwards there.
    const restoredRepo = join(place.env.PUBLISHING_REPO as string)
    const local = await run('git', ['--git-dir', restoredRepo, 'rev-parse', CHECKPOINT_REF])
    expect(await remote.resolve(CHECKPOINT_REF)).toBe(local.stdout.trim())

    // The service goes on: it takes in the remote's main (the publication the backup lacks)
    // and publishes; the trail verifies, its anchors pushed to the bank's remote again.
    const resumed = await openServiceWithStandInBuild(place.env)
    try {
      await approvedDraft(resumed.drafts, 'After the restore', {
        file: 'content/en/pages/accessibility.yaml',
        id: 'pages/accessibility',
      })
      await resumed.publisher.publish(paul, 'pages/accessibility')
      expect(await remote.resolve(CHECKPOINT_REF)).toBe(await resumed.repo.resolve(CHECKPOINT_REF))
      const actions = (await readAudit(resumed.database, { afterId: backedUp })).map(
        (entry) => entry.action,
      )
      expect(actions).toEqual(
        expect.arrayContaining(['restore', 'restore-gap', 'take-in', 'publish']),
      )
    } finally {
      await resumed.close()
    }
    const after = await cms(place.env, 'verify')
    expect(after.stderr).toMatch(/Intact and fully anchored\./)
    expect(after.code).toBe(0)
  }, 300_000)
})

describe('the tar archive', () => {
  it('holds long and non-ASCII names, links and empty files, read back chunk by chunk', async () => {
    const file = join(dir, 'names.tar')
    const out = createWriteStream(file)
    const tar = new TarWriter(out)
    const long = `releases/${'a'.repeat(150)}/ä-${'b'.repeat(120)}.html`
    await tar.buffer(long, Buffer.from('page'))
    await tar.buffer('releases/empty', Buffer.alloc(0))
    await tar.link('releases/same.html', long)
    await tar.symlink('releases/current', 'x')
    await tar.end()
    await new Promise<void>((resolve) => out.end(resolve))
    const seen: string[] = []
    const reader = new TarReader((entry) => {
      const chunks: Buffer[] = []
      return {
        data: (chunk) => chunks.push(Buffer.from(chunk)),
        end: () =>
          seen.push(
            `${entry.type} ${entry.path} ${'target' in entry ? entry.target : Buffer.concat(chunks).toString()}`,
          ),
      }
    })
    const bytes = await readFile(file)
    for (let at = 0; at < bytes.length; at += 333) reader.write(bytes.subarray(at, at + 333))
    reader.end()
    expect(seen).toEqual([
      `file ${long} page`,
      'file releases/empty ',
      `link releases/same.html ${long}`,
      'symlink releases/current x',
    ])
    // The system's tar reads it too.
    await mkdir(join(dir, 'untarred'))
    await run('tar', ['xf', file, '-C', join(dir, 'untarred')])
    expect(await readFile(join(dir, 'untarred', long), 'utf8')).toBe('page')
    expect(await readlink(join(dir, 'untarred', 'releases', 'current'))).toBe('x')
    // Cut short: refused.
    const cut = new TarReader(() => undefined)
    cut.write(bytes.subarray(0, 1024))
    expect(() => cut.end()).toThrow(/the archive ends early/)
  })

  it('refuses a gzip file cut short or damaged, by what zlib says of it, writing nothing', async () => {
    const tarFile = join(dir, 'whole.tar')
    const out = createWriteStream(tarFile)
    const tar = new TarWriter(out)
    await tar.buffer('releases/page.html', randomBytes(200_000))
    await tar.end()
    await new Promise<void>((resolve) => out.end(resolve))
    const whole = gzipSync(await readFile(tarFile))
    const damaged = Buffer.from(whole)
    damaged.fill(0xff, 10, 60)
    for (const [name, bytes] of [
      ['cut.tar.gz', whole.subarray(0, whole.length / 2)],
      ['damaged.tar.gz', damaged],
    ] as const) {
      const file = join(dir, name)
      await writeFile(file, bytes)
      const restored = restoreBackup({ file, targets: {} as never })
      await expect(restored).rejects.toThrow(RestoreRefusedError)
      await expect(restored).rejects.toThrow(`${file} is not a whole gzip file: `)
    }
  })
})
