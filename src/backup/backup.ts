/**
 * `npm run cms -- backup <file>`: both services' data in one archive, taken while they run.
 *
 * What it holds: every row of both services' tables (`database/<service>/<table>.jsonl`, read
 * in one REPEATABLE READ snapshot through the services' own connection, no `pg_dump`); the
 * publishing repository (`repository/objects.pack` with every object its refs and the audit
 * checkpoint's reflog reach, the refs themselves in the manifest, and the reflog in
 * `repository/logs/`); every release on disk and the `current` link (`releases/`, a page the
 * releases share stored once, as a hard link); and the manifest (manifest.ts), tagged with
 * `AUDIT_KEY` when it is set.
 *
 * One moment for all of it: the backup takes the publication lease (publication/lease.ts) for as
 * long as it reads the database, the refs and the list of releases, so no publication, rollback
 * or schedule is half-way; the one that holds it is waited for. What moves without the lease is
 * read in the order a restore can stand: the audit checkpoint first (then the database's trail
 * is at least as long as its anchors: at worst its last entries are not anchored yet, as
 * within 10 s of any entry), then the database, then the drafts' branches (then git is at least
 * as new as the drafts' records, as after a save whose record a crash lost). The archive is
 * written to a file of its own beside `file` and renamed over it once complete.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises'
import { hostname } from 'node:os'
import { basename, dirname, join, relative } from 'node:path'
import { PassThrough, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { Database, Queryable } from '../database/database'
import {
  appliedMigrations,
  dumpTable,
  type SequenceState,
  sequencesOf,
  tablesOf,
} from '../database/dump'
import { openDatabase } from '../database/open'
import { anchorsOfCommit, CHECKPOINT_REF } from '../publishing/audit/anchors'
import { auditKeyId, keyedTag } from '../publishing/audit/trail'
import { GitRepository } from '../publishing/git/repository'
import {
  LEASE_MS,
  leaseHolder,
  releaseLease,
  renewLease,
  takeOverFromDead,
  tryTakeLease,
} from '../publishing/publication/lease'
import {
  codeVersion,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST,
  MANIFEST_TAG,
  type Manifest,
  type ManifestAnchor,
  type ManifestFile,
  SERVICES,
  type ServiceDump,
  type ServiceName,
  TAG_PURPOSE,
} from './manifest'
import { gitWithFiles, MIGRATIONS, RELEASE_FOLDER, type Targets } from './parts'
import { TarWriter } from './tar'

export interface BackupOptions {
  /** The archive to write (`.tar`, or `.tar.gz` / `.tgz` for gzip). */
  file: string
  targets: Targets
  /** The project root: the code's version for the manifest. */
  root: string
  /** How long to wait for a publication under way to finish (10 minutes). */
  waitMs?: number
  /** Called holding the lease, before anything is read (tests). */
  holding?: () => Promise<void>
  /**
   * The services' databases, open already (a service backing itself up, or a test): read
   * through these, and left open, instead of opening the targets'.
   */
  databases?: Partial<Record<ServiceName, Database>>
}

export interface BackupResult {
  file: string
  manifest: Manifest
  /** The archive's size and SHA-256. */
  bytes: number
  sha256: string
  ms: number
}

/** A service's database as the backup reads it. */
interface Source {
  service: ServiceName
  database: Database
}

/** A file of the releases folder, listed holding the lease and read after. */
type ReleaseEntry =
  | { kind: 'file'; path: string; size: number; mode: number; mtime: number; inode: string }
  | { kind: 'directory'; path: string; mode: number; mtime: number }
  | { kind: 'symlink'; path: string; target: string; mtime: number }

/** The databases of both services: PostgreSQL's one, or PGlite's two (those that exist). */
async function openSources(
  targets: Targets,
  given?: Partial<Record<ServiceName, Database>>,
): Promise<{ sources: Source[]; close(): Promise<void> }> {
  if (given) {
    const sources: Source[] = []
    for (const service of SERVICES) {
      const database = given[service]
      if (database && (await appliedMigrations(database, MIGRATIONS[service]))) {
        sources.push({ service, database })
      }
    }
    return { sources, close: async () => {} }
  }
  const opened: Database[] = []
  const close = async () => {
    for (const database of opened) await database.close()
  }
  try {
    const sources: Source[] = []
    const { database: target } = targets
    if (target.kind === 'postgresql') {
      const database = await openDatabase({
        url: target.url,
        poolSize: 2,
        ...(target.schema ? { schema: target.schema } : {}),
      })
      opened.push(database)
      for (const service of SERVICES) {
        if (await appliedMigrations(database, MIGRATIONS[service])) {
          sources.push({ service, database })
        }
      }
    } else {
      for (const service of SERVICES) {
        const dir = target.dirs[service]
        // A folder PGlite never made is no database: opening it would make one.
        if (!existsSync(join(dir, 'PG_VERSION'))) continue
        const database = await openDatabase({ dataDir: dir })
        opened.push(database)
        if (await appliedMigrations(database, MIGRATIONS[service])) {
          sources.push({ service, database })
        }
      }
    }
    return { sources, close }
  } catch (error) {
    await close()
    throw error
  }
}

/** How long a backup waits for a publication under way, by default. */
const BACKUP_WAIT_MS = 10 * 60_000

/**
 * Takes the publication lease, waiting while a publication holds it (`waitMs` at most), and
 * keeps it renewed until the returned function gives it back.
 */
async function holdLease(database: Queryable, waitMs: number) {
  const holder = leaseHolder()
  const began = Date.now()
  for (;;) {
    if (await tryTakeLease(database, holder)) break
    if (await takeOverFromDead(database, holder)) break
    if (Date.now() - began > waitMs) {
      throw new Error(
        `a publication has held the publication lease for over ${Math.round(waitMs / 1000)} s: the backup did not start; try again when it is done (npm run cms -- backup waits --wait seconds)`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const waitedMs = Date.now() - began
  const renewal = setInterval(() => {
    renewLease(database, holder).catch(() => {})
  }, LEASE_MS / 3)
  renewal.unref()
  return {
    waitedMs,
    async release() {
      clearInterval(renewal)
      await releaseLease(database, holder).catch(() => {})
    },
  }
}

/** A reflog's lines up to the one that moved its ref to `tip` (later ones are newer than it). */
function reflogUpTo(text: string, tip: string): string {
  const lines = text.split('\n').filter(Boolean)
  const last = lines.findLastIndex((line) => line.split(' ')[1] === tip)
  return last === -1 ? '' : `${lines.slice(0, last + 1).join('\n')}\n`
}

/** The objects of `ids` that the repository has (a reflog may name some no longer there). */
async function present(repo: GitRepository, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const output = (await repo.git(['cat-file', '--batch-check'], `${ids.join('\n')}\n`)).toString()
  return output
    .split('\n')
    .filter((line) => line && !line.endsWith(' missing'))
    .map((line) => line.split(' ')[0] ?? '')
}

/** Every file, folder and link under the releases folder's releases and `current`. */
async function listReleases(dir: string): Promise<{
  entries: ReleaseEntry[]
  live: string | null
  folders: string[]
}> {
  const names = await readdir(dir).catch(() => [] as string[])
  const folders = names.filter((name) => RELEASE_FOLDER.test(name)).sort()
  const entries: ReleaseEntry[] = []
  const walk = async (path: string) => {
    const stat = await lstat(join(dir, path))
    const mtime = Math.floor(stat.mtimeMs / 1000)
    if (stat.isSymbolicLink()) {
      entries.push({ kind: 'symlink', path, target: await readlink(join(dir, path)), mtime })
    } else if (stat.isDirectory()) {
      entries.push({ kind: 'directory', path, mode: stat.mode & 0o7777, mtime })
      for (const name of (await readdir(join(dir, path))).sort()) await walk(`${path}/${name}`)
    } else if (stat.isFile()) {
      entries.push({
        kind: 'file',
        path,
        size: stat.size,
        mode: stat.mode & 0o7777,
        mtime,
        inode: `${stat.dev}:${stat.ino}`,
      })
    }
  }
  for (const folder of folders) await walk(folder)
  let live: string | null = null
  const current = await readlink(join(dir, 'current')).catch(() => null)
  if (current !== null) {
    live = basename(current)
    const stat = await lstat(join(dir, 'current'))
    entries.push({
      kind: 'symlink',
      path: 'current',
      target: current,
      mtime: Math.floor(stat.mtimeMs / 1000),
    })
  }
  return { entries, live, folders }
}

/** Writes a service's tables, in the snapshot of `tx`, into `dir` (one file per table). */
async function dumpService(
  tx: Queryable,
  service: ServiceName,
  dir: string,
): Promise<ServiceDump & { files: string[] }> {
  const set = MIGRATIONS[service]
  const applied = (await appliedMigrations(tx, set)) ?? []
  const known = new Set(set.migrations.map((migration) => migration.id))
  const unknown = applied.filter((migration) => !known.has(migration.id))
  if (unknown.length > 0) {
    throw new Error(
      `the ${service} service's database has migrations this code does not know (${unknown.map((migration) => migration.id).join(', ')}): back it up with the code that made them`,
    )
  }
  const done = new Set(applied.map((migration) => migration.id))
  const tables = tablesOf(set.migrations.filter((migration) => done.has(migration.id)))
  await mkdir(dir, { recursive: true })
  const dump: ServiceDump & { files: string[] } = {
    migrations: applied,
    tables: {},
    sequences: [],
    files: [],
  }
  for (const table of tables) {
    const file = join(dir, `${table}.jsonl`)
    const out = await open(file, 'w')
    try {
      const rows = await dumpTable(
        tx,
        table,
        async (lines) => {
          await out.write(`${lines.join('\n')}\n`)
        },
        // The lease is the running service's own (this backup's, now): none is restored.
        table === 'publish_lease'
          ? { where: 'false' }
          : table === 'audit_entries'
            ? { orderBy: 'id' }
            : {},
      )
      dump.tables[table] = { rows }
    } finally {
      await out.close()
    }
    dump.files.push(file)
  }
  dump.sequences = (await sequencesOf(tx, tables)) as SequenceState[]
  return dump
}

/** The trail in the snapshot: its length, last hash and the last entry's key. */
async function trailOf(tx: Queryable) {
  const [last] = await tx.query<{ id: string | number; hash: string; key_id: string | null }>(
    'SELECT id, hash, key_id FROM audit_entries ORDER BY id DESC LIMIT 1',
  )
  return last
    ? { entries: Number(last.id), head: last.hash, lastKeyId: last.key_id ?? null }
    : { entries: 0, head: '0'.repeat(64), lastKeyId: null }
}

const firstAnchor = async (
  repo: GitRepository,
  commit: string | null,
): Promise<ManifestAnchor | null> => {
  if (!commit) return null
  const [anchor] = await anchorsOfCommit(repo, commit)
  return anchor ? { commit, ...anchor } : null
}

/**
 * Step 3 of a backup: the refs, after the database (drafts' branches at least as new as their
 * records), but the checkpoint as read before it; then every object they and the reflog reach,
 * packed into `parts`; with the audit trail's first anchors in them.
 */
async function packRepository(
  repo: GitRepository,
  gitDir: string,
  parts: string,
  checkpoint: string | null,
  reflog: string,
  want: { anchors: boolean },
) {
  const files: { path: string; source: string }[] = []
  const listed = (await repo.git(['for-each-ref', '--format=%(objectname) %(refname)']))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
  const refs: Record<string, string> = {}
  for (const line of listed) {
    const [id = '', name = ''] = line.split(' ')
    if (name === CHECKPOINT_REF) continue
    refs[name] = id
  }
  if (checkpoint) refs[CHECKPOINT_REF] = checkpoint
  const logged = reflog
    .split('\n')
    .flatMap((line) => line.split(' ').slice(0, 2))
    .filter((id) => /^[0-9a-f]{40,64}$/.test(id) && !/^0+$/.test(id))
  const wanted = [...new Set([...Object.values(refs), ...(await present(repo, logged))])]
  const pack = join(parts, 'objects.pack')
  await gitWithFiles(gitDir, ['pack-objects', '--revs', '--stdout', '-q'], {
    input: `${wanted.join('\n')}\n`,
    output: pack,
  })
  files.push({ path: 'repository/objects.pack', source: pack })
  const reflogs: string[] = []
  if (reflog) {
    const logFile = join(parts, 'checkpoint.reflog')
    await writeFile(logFile, reflog)
    files.push({ path: `repository/logs/${CHECKPOINT_REF}`, source: logFile })
    reflogs.push(CHECKPOINT_REF)
  }
  return {
    files,
    repository: { refs, reflogs },
    anchors: want.anchors
      ? {
          checkpoint: await firstAnchor(repo, checkpoint),
          main: await firstAnchor(repo, refs['refs/heads/main'] ?? null),
        }
      : null,
    reflogLines: reflog.split('\n').filter(Boolean).length,
  }
}

/** The releases on disk into the archive: a file read once, its other names as hard links. */
async function writeReleases(
  tar: TarWriter,
  entries: Awaited<ReturnType<typeof listReleases>>['entries'],
  releasesDir: string,
  listedFiles: Record<string, ManifestFile>,
): Promise<void> {
  const first = new Map<string, string>()
  for (const entry of entries) {
    const path = `releases/${entry.path}`
    const source = join(releasesDir, entry.path)
    if (entry.kind === 'directory') {
      await tar.directory(path, { mode: entry.mode, mtime: entry.mtime })
      listedFiles[path] = { directory: true }
    } else if (entry.kind === 'symlink') {
      await tar.symlink(path, entry.target, { mtime: entry.mtime })
      listedFiles[path] = { symlink: entry.target }
    } else {
      const earlier = first.get(entry.inode)
      if (earlier) {
        await tar.link(path, earlier, { mode: entry.mode, mtime: entry.mtime })
        listedFiles[path] = { link: earlier }
      } else {
        first.set(entry.inode, path)
        listedFiles[path] = await tar.file(path, source, entry).catch((error: unknown) => {
          throw new Error(
            `${relative(releasesDir, source)} in ${releasesDir} could not be read (a publication removed an old release meanwhile?): ${error instanceof Error ? error.message : String(error)}; run the backup again`,
          )
        })
      }
    }
  }
}

/** Refuses a backup's file in a folder that is not there, or named as a folder. */
async function checkDestination(file: string): Promise<void> {
  const folder = await lstat(dirname(file)).catch(() => null)
  if (!folder?.isDirectory()) {
    throw new Error(`Cannot write the backup ${file}: there is no folder ${dirname(file)}`)
  }
  if ((await lstat(file).catch(() => null))?.isDirectory()) {
    throw new Error(`Cannot write the backup ${file}: it is a folder; name the archive's file`)
  }
}

/** Renames `partial` over `file` once it is on disk, and the rename with it. */
async function renameDurably(partial: string, file: string): Promise<void> {
  const handle = await open(partial, 'r')
  await handle.sync()
  await handle.close()
  await rename(partial, file)
  const directory = await open(dirname(file), 'r')
  await directory.sync().catch(() => {})
  await directory.close()
}

/** Writes the backup of `options.targets` to `options.file`. */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const started = Date.now()
  const { targets } = options
  const file = options.file
  await checkDestination(file)
  const stamp = `${process.pid}-${randomBytes(4).toString('hex')}`
  const parts = join(dirname(file), `.${basename(file)}.parts-${stamp}`)
  const partial = join(dirname(file), `.${basename(file)}.partial-${stamp}`)
  await mkdir(parts, { recursive: true })
  const { sources, close } = await openSources(targets, options.databases)
  try {
    if (sources.length === 0) {
      throw new Error(
        targets.database.kind === 'postgresql'
          ? 'the database DATABASE_URL names holds neither service’s tables: nothing to back up'
          : `there is no database in ${Object.values(targets.database.dirs).join(' or ')}: nothing to back up (DATA_DIR)`,
      )
    }
    const publishing = sources.find((source) => source.service === 'publishing')
    const lease = publishing
      ? await holdLease(publishing.database, options.waitMs ?? BACKUP_WAIT_MS)
      : undefined
    const leaseTaken = Date.now()
    const repo = existsSync(join(targets.repository, 'HEAD'))
      ? new GitRepository({ gitDir: targets.repository })
      : undefined
    const files: { path: string; source: string }[] = []
    let services: Manifest['database']['services'] = {}
    let audit: Manifest['audit'] = null
    let repository: Manifest['repository'] = null
    let releases: Awaited<ReturnType<typeof listReleases>> | null = null
    try {
      await options.holding?.()
      // 1. The audit checkpoint and its reflog, before the database: never past its trail.
      const checkpoint = repo ? await repo.resolve(CHECKPOINT_REF) : null
      const reflogFile = join(targets.repository, 'logs', CHECKPOINT_REF)
      const reflog =
        checkpoint && existsSync(reflogFile)
          ? reflogUpTo(await readFile(reflogFile, 'utf8'), checkpoint)
          : ''
      // 2. The database: both services' tables in one snapshot (one per PGlite database).
      const byDatabase = new Map<Database, Source[]>()
      for (const source of sources) {
        byDatabase.set(source.database, [...(byDatabase.get(source.database) ?? []), source])
      }
      for (const [database, group] of byDatabase) {
        await database.transaction(async (tx) => {
          await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
          for (const { service } of group) {
            const { files: written, ...dump } = await dumpService(
              tx,
              service,
              join(parts, 'database', service),
            )
            services = { ...services, [service]: dump }
            for (const source of written) {
              files.push({ path: `database/${service}/${basename(source)}`, source })
            }
            if (service === 'publishing') {
              const trail = await trailOf(tx)
              audit = {
                ...trail,
                auditKeyId: auditKeyId(),
                anchors: { checkpoint: null, main: null },
                checkpointReflog: 0,
              }
            }
          }
        })
      }
      // 3. The refs, after the database (drafts' branches at least as new as their records),
      // but the checkpoint as read before it; then every object they and the reflog reach.
      if (repo) {
        // Set in the database's transaction above: the compiler cannot see it there.
        const trail = audit as Manifest['audit']
        const packed = await packRepository(repo, targets.repository, parts, checkpoint, reflog, {
          anchors: trail !== null,
        })
        files.push(...packed.files)
        repository = packed.repository
        if (trail && packed.anchors) {
          audit = { ...trail, anchors: packed.anchors, checkpointReflog: packed.reflogLines }
        }
      }
      // 4. The releases on disk, listed (they are read after: a release never changes).
      releases = await listReleases(targets.releasesDir)
    } finally {
      repo?.close()
      await lease?.release()
    }
    const heldMs = Date.now() - leaseTaken

    // The archive, beside its final name, then renamed over it; hashed on its way to disk.
    const output = createWriteStream(partial, { flags: 'wx', mode: 0o600 })
    const sink = /\.(tgz|gz)$/.test(file) ? createGzip() : new PassThrough()
    const hash = createHash('sha256')
    let bytes = 0
    const counting = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk)
        bytes += chunk.length
        done(null, chunk)
      },
    })
    const flushed = pipeline(sink, counting, output)
    flushed.catch(() => {})
    const tar = new TarWriter(sink)
    const listedFiles: Record<string, ManifestFile> = {}
    const now = Math.floor(Date.now() / 1000)
    for (const { path, source } of files) {
      const stat = await lstat(source)
      listedFiles[path] = await tar.file(path, source, {
        size: stat.size,
        mode: 0o600,
        mtime: now,
      })
    }
    if (releases) await writeReleases(tar, releases.entries, targets.releasesDir, listedFiles)
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date(started).toISOString(),
      host: hostname(),
      code: codeVersion(options.root),
      database: { kind: targets.database.kind, services },
      audit,
      repository,
      releases: releases ? { live: releases.live, folders: releases.folders } : null,
      lease: lease ? { waitedMs: lease.waitedMs, heldMs } : null,
      files: listedFiles,
    }
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)
    await tar.buffer(MANIFEST, manifestBytes, { mode: 0o600, mtime: now })
    const tag = keyedTag(TAG_PURPOSE, manifestBytes)
    if (tag)
      await tar.buffer(MANIFEST_TAG, Buffer.from(`${JSON.stringify(tag)}\n`), { mode: 0o600 })
    await tar.end()
    sink.end()
    await flushed
    await renameDurably(partial, file)
    return { file, manifest, bytes, sha256: hash.digest('hex'), ms: Date.now() - started }
  } finally {
    await close()
    await rm(parts, { recursive: true, force: true })
    await rm(partial, { force: true })
  }
}
