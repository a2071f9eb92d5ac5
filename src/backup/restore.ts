/**
 * `npm run cms -- restore <file> [--force]`: a backup (backup.ts) put back where the services'
 * settings say, with the services stopped.
 *
 * Nothing is written before the whole archive was read and found as its manifest says: every
 * file's size and SHA-256, no file more or less, the manifest's tag with `AUDIT_KEY` (when the
 * backup has one), a format and schemas this code knows, the key of the trail's last entry held
 * by `AUDIT_KEY`, and targets that are empty (or `force`) and used by no running service (the
 * publication lease, PGlite's lock). Then the archive is read a second time (and must hash the
 * same) into folders beside the targets: the repository made anew from its pack, refs and
 * reflog, the releases with their `current` link, PGlite's databases loaded; then each is
 * renamed into place, and on PostgreSQL the tables are loaded in one transaction (the
 * migrations the backup recorded, the rows, the sequences), the migrations since run over
 * them, and the services' role granted its rights. A failure puts back what was there.
 */
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import {
  closeSync,
  createReadStream,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  symlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs'
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { createGunzip } from 'node:zlib'
import type { Database, Queryable } from '../database/database'
import { quoteIdentifier } from '../database/database'
import { existingTables, functionsOf, loadRows, setSequences, tablesOf } from '../database/dump'
import { openDatabase } from '../database/open'
import { checkKeyedTag, holdsKeyOf } from '../publishing/audit/trail'
import { holderIsDead, liveLeaseHolder } from '../publishing/publication/lease'
import { isProcessAlive } from '../shared/process-alive'
import {
  MANIFEST,
  MANIFEST_TAG,
  type Manifest,
  type ManifestFile,
  parseManifest,
  SERVICES,
  type ServiceDump,
  type ServiceName,
  TAG_PURPOSE,
} from './manifest'
import { gitEnv, gitWithFiles, MIGRATIONS, type Targets } from './parts'
import { type TarEntry, TarReader } from './tar'

/** The restore was refused before anything was written: the message says what and where. */
export class RestoreRefusedError extends Error {}

/**
 * What zlib says of a file that is not a whole gzip file, by its codes: damaged data (an
 * incorrect header check, an invalid block) and data that ends early.
 */
const GZIP_FAILURES = new Set(['Z_DATA_ERROR', 'Z_BUF_ERROR'])

export interface RestoreOptions {
  file: string
  targets: Targets
  /** Replace targets that are not empty (a database with the services' tables, folders). */
  force?: boolean
}

export interface RestoreResult {
  manifest: Manifest
  /** The archive's SHA-256. */
  sha256: string
  /** Whether the manifest's tag was checked with `AUDIT_KEY` (no tag: the checksums only). */
  tagChecked: boolean
  /** The targets replaced (`force`). */
  replaced: string[]
}

/** What the first reading found of each entry. */
type Found =
  | { type: 'file'; size: number; sha256: string }
  | { type: 'directory' }
  | { type: 'symlink'; target: string }
  | { type: 'link'; target: string }

/** Reads the archive (gzip or not), handing each entry to `onEntry`; returns its SHA-256. */
async function readArchive(
  file: string,
  onEntry: ConstructorParameters<typeof TarReader>[0],
): Promise<string> {
  const head = Buffer.alloc(2)
  const handle = await open(file, 'r')
  await handle.read(head, 0, 2, 0)
  await handle.close()
  const gzipped = head[0] === 0x1f && head[1] === 0x8b
  const raw = createReadStream(file)
  const hash = createHash('sha256')
  raw.on('data', (chunk) => hash.update(chunk as Buffer))
  const stream = gzipped ? raw.pipe(createGunzip()) : raw
  raw.on('error', (error) => stream.destroy(error))
  const reader = new TarReader(onEntry)
  try {
    for await (const chunk of stream) reader.write(chunk as Buffer)
  } catch (error) {
    if (GZIP_FAILURES.has(String((error as NodeJS.ErrnoException | null)?.code))) {
      throw new RestoreRefusedError(`${file} is not a whole gzip file: ${(error as Error).message}`)
    }
    throw error
  }
  reader.end()
  return hash.digest('hex')
}

/** A path an archive may hold: relative, no `.` or `..`, under the parts a backup has. */
function checkArchivePath(path: string): void {
  const segments = path.split('/')
  if (
    segments.some((segment) => segment === '' || segment === '.' || segment === '..') ||
    !/^(database\/[a-z]+\/[a-z_][a-z0-9_]*\.jsonl|repository\/objects\.pack|repository\/logs\/refs\/audit\/[a-z0-9/_-]+|releases\/.+)$/.test(
      path,
    )
  ) {
    throw new RestoreRefusedError(`it holds ${JSON.stringify(path)}, which no backup holds`)
  }
}

/** The first reading: every entry's hash, the manifest and its tag. */
async function survey(file: string) {
  const found = new Map<string, Found>()
  let manifestBytes: Buffer | undefined
  let tagBytes: Buffer | undefined
  const sha256 = await readArchive(file, (entry) => {
    if (found.has(entry.path) || (entry.path === MANIFEST && manifestBytes)) {
      throw new RestoreRefusedError(`it holds ${entry.path} twice`)
    }
    if (entry.path === MANIFEST || entry.path === MANIFEST_TAG) {
      if (entry.type !== 'file') throw new RestoreRefusedError(`its ${entry.path} is no file`)
      const chunks: Buffer[] = []
      return {
        data: (chunk) => chunks.push(Buffer.from(chunk)),
        end: () => {
          if (entry.path === MANIFEST) manifestBytes = Buffer.concat(chunks)
          else tagBytes = Buffer.concat(chunks)
        },
      }
    }
    checkArchivePath(entry.path)
    if (entry.type !== 'file') {
      found.set(
        entry.path,
        entry.type === 'directory'
          ? { type: 'directory' }
          : { type: entry.type, target: entry.target },
      )
      return undefined
    }
    const hash = createHash('sha256')
    let size = 0
    return {
      data: (chunk) => {
        size += chunk.length
        hash.update(chunk)
      },
      end: () => found.set(entry.path, { type: 'file', size, sha256: hash.digest('hex') }),
    }
  }).catch((error: unknown) => {
    if (error instanceof RestoreRefusedError) throw error
    throw new RestoreRefusedError(error instanceof Error ? error.message : String(error))
  })
  if (!manifestBytes) throw new RestoreRefusedError('it has no manifest.json: not a backup')
  return { found, manifestBytes, tagBytes, sha256 }
}

/** What the archive holds against what its manifest says: the first difference, or nothing. */
function compare(found: Map<string, Found>, files: Record<string, ManifestFile>): string | null {
  for (const [path, listed] of Object.entries(files)) {
    const entry = found.get(path)
    if (!entry) return `${path} is missing`
    if ('sha256' in listed) {
      if (entry.type !== 'file') return `${path} is not the file the manifest lists`
      if (entry.size !== listed.size) {
        return `${path} has ${entry.size} bytes, the manifest says ${listed.size}`
      }
      if (entry.sha256 !== listed.sha256)
        return `${path} does not have the SHA-256 its manifest lists`
    } else if ('link' in listed) {
      if (entry.type !== 'link' || entry.target !== listed.link)
        return `${path} is not the link the manifest lists`
      const target = found.get(listed.link)
      if (target?.type !== 'file' || !listed.link.startsWith('releases/')) {
        return `${path} links to ${listed.link}, no file of the releases`
      }
    } else if ('symlink' in listed) {
      if (entry.type !== 'symlink' || entry.target !== listed.symlink) {
        return `${path} is not the symbolic link the manifest lists`
      }
      // A link only to a name beside it: nothing written through it leaves the releases.
      if (!/^[^/]+$/.test(listed.symlink) || listed.symlink === '..' || listed.symlink === '.') {
        return `${path} is a symbolic link out of its folder (${listed.symlink})`
      }
    } else if (entry.type !== 'directory') {
      return `${path} is not the folder the manifest lists`
    }
  }
  for (const path of found.keys()) {
    if (!(path in files)) return `${path} is not in its manifest`
  }
  return null
}

/** Whether `path` is missing or an empty folder. */
async function isEmpty(path: string): Promise<boolean> {
  try {
    return (await readdir(path)).length === 0
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return true
    if (code === 'ENOTDIR') return false
    throw error
  }
}

/** A PGlite folder's lock held by a running process: its pid, or `null`. */
async function pgliteUser(dir: string): Promise<number | null> {
  const owner = Number(await readFile(`${dir}.lock`, 'utf8').catch(() => '0'))
  return owner && owner !== process.pid && isProcessAlive(owner) ? owner : null
}

const run = promisify(execFile)

/** The repository made anew in `gitDir` from the archive's pack, refs and reflogs. */
async function buildRepository(gitDir: string, parts: string, manifest: Manifest): Promise<void> {
  const repository = manifest.repository
  if (!repository) return
  const { GIT_DIR: _dir, ...env } = gitEnv(gitDir)
  await run('git', ['init', '--quiet', '--bare', '--initial-branch=main', gitDir], { env })
  await gitWithFiles(gitDir, ['index-pack', '--stdin'], {
    input: { file: join(parts, 'repository', 'objects.pack') },
  })
  const lines = Object.entries(repository.refs).map(([ref, id]) => `create ${ref} ${id}\n`)
  await gitWithFiles(gitDir, ['update-ref', '--stdin'], { input: lines.join('') })
  for (const ref of repository.reflogs) {
    const target = join(gitDir, 'logs', ref)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, await readFile(join(parts, 'repository', 'logs', ref)))
  }
}

/** Reads a table's file line by line and loads it in batches; returns the rows loaded. */
async function loadTable(tx: Queryable, table: string, file: string): Promise<number> {
  let batch: string[] = []
  let bytes = 0
  let count = 0
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity })
  for await (const line of lines) {
    if (!line) continue
    batch.push(line)
    bytes += line.length
    count++
    if (batch.length >= 1000 || bytes >= 4 * 1024 * 1024) {
      await loadRows(tx, table, batch)
      batch = []
      bytes = 0
    }
  }
  await loadRows(tx, table, batch)
  return count
}

/**
 * A service's tables in `database`, in one transaction: those there dropped (`replace`), the
 * migrations the backup recorded, its rows, its sequences; then the migrations since.
 */
async function loadService(
  database: Database,
  service: ServiceName,
  dump: ServiceDump,
  parts: string,
  replace: boolean,
): Promise<void> {
  const set = MIGRATIONS[service]
  const recorded = new Map(dump.migrations.map((migration) => [migration.id, migration.appliedAt]))
  const migrations = set.migrations.filter((migration) => recorded.has(migration.id))
  await database.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [set.lock])
    if (replace) {
      for (const table of [...tablesOf(set.migrations)].reverse()) {
        await tx.query(`DROP TABLE IF EXISTS ${quoteIdentifier(table)} CASCADE`)
      }
      await tx.query(`DROP TABLE IF EXISTS ${quoteIdentifier(set.table)}`)
    }
    // A function a migration makes, left behind by tables dropped by hand, would stop it.
    for (const name of functionsOf(set.migrations)) {
      await tx.query(`DROP FUNCTION IF EXISTS ${name}${replace ? ' CASCADE' : ''}`)
    }
    const table = quoteIdentifier(set.table)
    await tx.query(
      `CREATE TABLE ${table} (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    )
    for (const migration of migrations) {
      for (const statement of migration.statements) await tx.query(statement)
      await tx.query(`INSERT INTO ${table} (id, applied_at) VALUES ($1, $2)`, [
        migration.id,
        recorded.get(migration.id),
      ])
    }
    for (const name of tablesOf(migrations)) {
      // What a migration wrote (a fresh secret) gives way to the backup's rows; the trail's
      // table is append-only, and empty here.
      if (name !== 'audit_entries') await tx.query(`DELETE FROM ${quoteIdentifier(name)}`)
      const expected = dump.tables[name]?.rows ?? 0
      const loaded = await loadTable(tx, name, join(parts, 'database', service, `${name}.jsonl`))
      if (loaded !== expected) {
        throw new Error(
          `database/${service}/${name}.jsonl holds ${loaded} rows, its manifest says ${expected}`,
        )
      }
    }
    await setSequences(tx, dump.sequences)
  })
}

/**
 * Step 1 of a restore: the archive against its manifest, and the manifest against this code and
 * AUDIT_KEY.
 */
async function checkedArchive(
  file: string,
  refuse: (reason: string) => never,
): Promise<{ first: Awaited<ReturnType<typeof survey>>; manifest: Manifest; tagChecked: boolean }> {
  const first = await survey(file).catch((error: unknown) =>
    refuse(error instanceof Error ? error.message : String(error)),
  )
  let manifest: Manifest
  try {
    manifest = parseManifest(first.manifestBytes.toString('utf8'))
  } catch (error) {
    return refuse((error as Error).message)
  }
  let tagChecked = false
  if (first.tagBytes) {
    let tag: { keyId: string; tag: string }
    try {
      tag = JSON.parse(first.tagBytes.toString('utf8'))
    } catch {
      return refuse('its manifest.tag is not JSON')
    }
    const verdict = checkKeyedTag(TAG_PURPOSE, first.manifestBytes, tag)
    if (verdict === 'forged') {
      refuse('its manifest.json does not have the tag AUDIT_KEY made: the archive was changed')
    }
    if (verdict === 'unknown-key') {
      refuse(
        `its manifest is tagged with the AUDIT_KEY of id ${tag.keyId}, which AUDIT_KEY does not hold: set AUDIT_KEY to the key the services had when the backup was made (it is never in the backup)`,
      )
    }
    tagChecked = true
  } else if (manifest.audit?.auditKeyId) {
    refuse(
      `its manifest.tag is missing, though it was made with AUDIT_KEY ${manifest.audit.auditKeyId}: the archive was changed`,
    )
  }
  const difference = compare(first.found, manifest.files)
  if (difference) refuse(`${difference}: the archive was changed or is damaged`)
  for (const [service, dump] of Object.entries(manifest.database.services) as [
    ServiceName,
    ServiceDump,
  ][]) {
    if (!SERVICES.includes(service))
      refuse(`it holds a service this code does not know: ${service}`)
    const known = new Set(MIGRATIONS[service].migrations.map((migration) => migration.id))
    const unknown = dump.migrations.filter((migration) => !known.has(migration.id))
    if (unknown.length > 0) {
      refuse(
        `the ${service} service's schema in it has migrations this code does not know (${unknown.map((migration) => migration.id).join(', ')}): restore it with the code that made it (${manifest.code.version}${manifest.code.commit ? `, ${manifest.code.commit.slice(0, 12)}` : ''})`,
      )
    }
    const recorded = new Set(dump.migrations.map((migration) => migration.id))
    const tables = tablesOf(MIGRATIONS[service].migrations.filter((m) => recorded.has(m.id)))
    for (const table of tables) {
      const path = `database/${service}/${table}.jsonl`
      if (!(path in manifest.files) || !(table in dump.tables)) refuse(`${path} is missing`)
    }
  }
  const lastKey = manifest.audit?.lastKeyId
  if (lastKey && !holdsKeyOf(lastKey)) {
    refuse(
      `its audit trail is keyed with the AUDIT_KEY of id ${lastKey}, which AUDIT_KEY does not hold: set AUDIT_KEY to that key (the key is never in the backup), or the service cannot write to the trail`,
    )
  }
  return { first, manifest, tagChecked }
}

/**
 * Step 2 of a restore: what the targets hold already (to be replaced only with force); refused
 * outright when a running service uses one.
 */
async function occupiedTargets(
  manifest: Manifest,
  targets: RestoreOptions['targets'],
  refuse: (reason: string) => never,
): Promise<string[]> {
  const services = Object.keys(manifest.database.services) as ServiceName[]
  const occupied: string[] = []
  const { database: target } = targets
  if (target.kind === 'postgresql') {
    const database = await openDatabase({
      url: target.ownerUrl ?? target.url,
      poolSize: 1,
      ...(target.schema ? { schema: target.schema } : {}),
    })
    try {
      for (const service of services) {
        const existing = await existingTables(database, MIGRATIONS[service])
        if (existing.length > 0) {
          occupied.push(
            `the database (${target.ownerUrl ? 'DATABASE_OWNER_URL' : 'DATABASE_URL'}) holds the ${service} service's tables (${existing.slice(0, 3).join(', ')}${existing.length > 3 ? ', …' : ''})`,
          )
        }
        if (service === 'publishing' && existing.includes('publish_lease')) {
          const holder = await liveLeaseHolder(database)
          if (holder && !holderIsDead(holder.holder)) {
            refuse(
              `a publishing service holds the publication lease (${holder.holder}, until ${holder.until}): stop the services first; a restore runs with them stopped`,
            )
          }
        }
      }
    } finally {
      await database.close()
    }
  } else {
    for (const service of services) {
      const dir = target.dirs[service]
      const user = await pgliteUser(dir)
      if (user) {
        refuse(
          `the database in ${dir} is in use by process ${user} (npm start?): stop the services first; a restore runs with them stopped`,
        )
      }
      if (!(await isEmpty(dir))) occupied.push(`${dir} holds a database`)
    }
  }
  if (manifest.repository && !(await isEmpty(targets.repository))) {
    occupied.push(`${targets.repository} holds a repository (PUBLISHING_REPO)`)
  }
  if (manifest.releases && !(await isEmpty(targets.releasesDir))) {
    occupied.push(`${targets.releasesDir} holds releases (RELEASES_DIR)`)
  }
  return occupied
}

/**
 * Step 6 of a restore on PostgreSQL: the tables in one transaction per service, as the tables'
 * owner.
 */
async function loadIntoPostgres(
  target: Extract<RestoreOptions['targets']['database'], { kind: 'postgresql' }>,
  services: ServiceName[],
  manifest: Manifest,
  parts: string,
  force: boolean,
): Promise<void> {
  const owner = await openDatabase({
    url: target.ownerUrl ?? target.url,
    poolSize: 1,
    ...(target.schema ? { schema: target.schema } : {}),
  })
  try {
    for (const service of services) {
      const dump = manifest.database.services[service] as ServiceDump
      await loadService(owner, service, dump, parts, force).catch((error: unknown) => {
        // insufficient_privilege: the services' role, which owns nothing, as it should.
        if ((error as { code?: string }).code !== '42501') throw error
        throw new Error(
          `${(error as Error).message}: the role of ${target.ownerUrl ? 'DATABASE_OWNER_URL' : 'DATABASE_URL'} may not make the tables; give the restore the tables' owner as DATABASE_OWNER_URL`,
        )
      })
    }
  } finally {
    await owner.close()
  }
}

/**
 * Step 3 of a restore: the archive read again, its releases into `into.releases` and the rest
 * into `into.parts`, each file hashed as it is written and refused unless it is the one the
 * first reading (`sha256` the archive's hash) and the manifest found.
 */
async function unpackArchive(
  file: string,
  manifest: Manifest,
  sha256: string,
  into: { parts: string; releases: string },
): Promise<void> {
  const times: { path: string; mtime: number }[] = []
  const second = await readArchive(file, (entry: TarEntry) => {
    if (entry.path === MANIFEST || entry.path === MANIFEST_TAG) return undefined
    const inReleases = entry.path.startsWith('releases/')
    const path = inReleases
      ? join(into.releases, entry.path.slice('releases/'.length))
      : join(into.parts, entry.path)
    if (entry.type === 'directory') {
      mkdirSync(path, { recursive: true, mode: entry.mode || 0o755 })
      times.push({ path, mtime: entry.mtime })
      return undefined
    }
    mkdirSync(dirname(path), { recursive: true })
    if (entry.type === 'symlink') {
      symlinkSync(entry.target, path)
      return undefined
    }
    if (entry.type === 'link') {
      linkSync(join(into.releases, entry.target.slice('releases/'.length)), path)
      return undefined
    }
    const listed = manifest.files[entry.path]
    const fd = openSync(path, 'wx', entry.mode || 0o644)
    const hash = createHash('sha256')
    return {
      data(chunk) {
        hash.update(chunk)
        writeSync(fd, chunk)
      },
      end() {
        closeSync(fd)
        if (!listed || !('sha256' in listed) || hash.digest('hex') !== listed.sha256) {
          throw new RestoreRefusedError(
            `${entry.path} changed between the two readings of ${file}: nothing was restored`,
          )
        }
        if (inReleases) times.push({ path, mtime: entry.mtime })
      },
    }
  })
  if (second !== sha256) {
    throw new RestoreRefusedError(`${file} changed while it was read: nothing was restored`)
  }
  // Folders last, deepest first: writing into a folder sets its time again.
  for (const { path, mtime } of times.reverse()) utimesSync(path, mtime, mtime)
}

/** Checks the archive, then restores it into `options.targets`. */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const { file, targets, force = false } = options
  if (!existsSync(file)) throw new RestoreRefusedError(`there is no file ${file}`)
  const refuse = (reason: string): never => {
    throw new RestoreRefusedError(`${file} was not restored: ${reason}`)
  }

  // 1. The archive against its manifest, and the manifest against this code and AUDIT_KEY.
  const { first, manifest, tagChecked } = await checkedArchive(file, refuse)

  // 2. The targets: empty, or replaced with force; none used by a running service.
  const services = Object.keys(manifest.database.services) as ServiceName[]
  const occupied = await occupiedTargets(manifest, targets, refuse)
  if (occupied.length > 0 && !force) {
    refuse(`${occupied.join('; ')}: restore into empty ones, or pass --force to replace them`)
  }
  const { database: target } = targets

  // 3. The archive read again into folders beside the targets (hashing the same as before).
  const stamp = `${process.pid}-${randomBytes(4).toString('hex')}`
  const parts = join(dirname(targets.repository), `.restore-${stamp}`)
  const staged = {
    repository: `${targets.repository}.restoring-${stamp}`,
    releases: `${targets.releasesDir}.restoring-${stamp}`,
  }
  const pglite =
    target.kind === 'pglite'
      ? services.map((service) => ({
          service,
          dir: target.dirs[service],
          staged: `${target.dirs[service]}.restoring-${stamp}`,
        }))
      : []
  const swapped: { target: string; replaced: string | null }[] = []
  const replaced: string[] = []
  const cleanUp = async () => {
    await rm(parts, { recursive: true, force: true })
    await rm(staged.repository, { recursive: true, force: true })
    await rm(staged.releases, { recursive: true, force: true })
    for (const database of pglite) await rm(database.staged, { recursive: true, force: true })
  }
  try {
    await mkdir(parts, { recursive: true })
    if (manifest.releases) await mkdir(staged.releases, { recursive: true })
    await unpackArchive(file, manifest, first.sha256, { parts, releases: staged.releases })

    // 4. Repository and PGlite's databases built beside their targets.
    await buildRepository(staged.repository, parts, manifest)
    for (const database of pglite) {
      const dump = manifest.database.services[database.service] as ServiceDump
      await mkdir(database.staged, { recursive: true })
      const opened = await openDatabase({ dataDir: database.staged })
      try {
        await loadService(opened, database.service, dump, parts, false)
      } finally {
        await opened.close()
      }
    }

    // 5. Into place: each target renamed aside (force), the new one renamed in.
    const swap = async (stagedPath: string, targetPath: string) => {
      await mkdir(dirname(targetPath), { recursive: true })
      let aside: string | null = null
      if (existsSync(targetPath)) {
        aside = `${targetPath}.replaced-${stamp}`
        await rename(targetPath, aside)
        replaced.push(targetPath)
      }
      swapped.push({ target: targetPath, replaced: aside })
      await rename(stagedPath, targetPath)
    }
    for (const database of pglite) {
      await rm(`${database.dir}.lock`, { force: true })
      await swap(database.staged, database.dir)
    }
    if (manifest.repository) await swap(staged.repository, targets.repository)
    if (manifest.releases) await swap(staged.releases, targets.releasesDir)

    // 6. PostgreSQL: the tables in one transaction per service, then the migrations since and
    // the grants, as a start with DATABASE_OWNER_URL makes them.
    if (target.kind === 'postgresql') {
      await loadIntoPostgres(target, services, manifest, parts, force)
    }
    for (const service of services) {
      const database = await openDatabase({
        ...(target.kind === 'postgresql'
          ? {
              url: target.url,
              ...(target.ownerUrl ? { ownerUrl: target.ownerUrl } : {}),
              ...(target.schema ? { schema: target.schema } : {}),
              poolSize: 1,
            }
          : { dataDir: target.dirs[service] }),
        migrations: MIGRATIONS[service],
      })
      await database.close()
    }
  } catch (error) {
    // What was renamed into place goes, what was there comes back.
    for (const { target: path, replaced: aside } of swapped.reverse()) {
      await rm(path, { recursive: true, force: true })
      if (aside) await rename(aside, path)
    }
    await cleanUp()
    throw error
  }
  for (const { replaced: aside } of swapped) {
    if (aside) await rm(aside, { recursive: true, force: true })
  }
  await cleanUp()
  // The service's caches of the state replaced: made again from what was restored.
  for (const cache of ['workspace', 'workspace.index', 'previews']) {
    await rm(join(targets.publishingDir, cache), { recursive: true, force: true })
  }
  return { manifest, sha256: first.sha256, tagChecked, replaced }
}
