/**
 * What a backup says of itself (`manifest.json`, the archive's last file): when and by which
 * code it was made, the schema of each service (its migrations), the audit trail's length and
 * head, its anchors and the id of `AUDIT_KEY` (never the key), the repository's refs, the
 * releases, and the size and SHA-256 of every file in the archive. With `AUDIT_KEY`, the
 * manifest is tagged (`manifest.tag`, an HMAC with the key over it): an archive changed and its
 * checksums computed again is refused all the same.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AppliedMigration, SequenceState } from '../database/dump'

export const FORMAT = 'lumora-website-backup'
export const FORMAT_VERSION = 1
export const MANIFEST = 'manifest.json'
export const MANIFEST_TAG = 'manifest.tag'
/** What the manifest's tag is for (the HMAC's domain). */
export const TAG_PURPOSE = 'backup manifest'

/** The two services whose tables a backup holds. */
export const SERVICES = ['forms', 'publishing'] as const
export type ServiceName = (typeof SERVICES)[number]

export interface ServiceDump {
  /** The migrations applied (the schema's version), oldest first. */
  migrations: AppliedMigration[]
  /** Each table's rows: `database/<service>/<table>.jsonl`, one row a line. */
  tables: Record<string, { rows: number }>
  sequences: SequenceState[]
}

/** An anchor of the audit trail as git holds it. */
export interface ManifestAnchor {
  commit: string
  length: number
  head: string
  keyId?: string
}

export type ManifestFile =
  | { size: number; sha256: string }
  | { link: string }
  | { symlink: string }
  | { directory: true }

export interface Manifest {
  format: typeof FORMAT
  version: typeof FORMAT_VERSION
  createdAt: string
  host: string
  /** The code that made it: its package version and, in a git checkout, its commit. */
  code: { version: string; commit: string | null }
  database: {
    kind: 'pglite' | 'postgresql'
    services: Partial<Record<ServiceName, ServiceDump>>
  }
  /** The audit trail in the backup: its length and last hash, and the keys. */
  audit: {
    entries: number
    head: string
    /** The key id of its last entry (`null`: not keyed): restoring it needs that key. */
    lastKeyId: string | null
    /** The id of `AUDIT_KEY`'s first key when the backup was made (`null`: none set). */
    auditKeyId: string | null
    /** The anchors at the tips of the checkpoint ref and of main, as the backup has them. */
    anchors: { checkpoint: ManifestAnchor | null; main: ManifestAnchor | null }
    /** Tips the checkpoint's reflog keeps (verify reads their anchors too). */
    checkpointReflog: number
  } | null
  repository: {
    refs: Record<string, string>
    /** The reflogs kept (`repository/logs/<ref>`). */
    reflogs: string[]
  } | null
  releases: { live: string | null; folders: string[] } | null
  /** How long the backup waited for a publication to finish, and held its lease. */
  lease: { waitedMs: number; heldMs: number } | null
  files: Record<string, ManifestFile>
}

/** The code's own version: `package.json`'s, and the checkout's commit when it is one. */
export function codeVersion(root: string): Manifest['code'] {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string
  }
  let commit: string | null = null
  try {
    commit =
      execFileSync('git', ['rev-parse', 'HEAD'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .toString()
        .trim() || null
  } catch {
    commit = null
  }
  return { version, commit }
}

/** The manifest's text, or a one-line reason it is not one this code reads. */
export function parseManifest(text: string): Manifest {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new Error('its manifest.json is not JSON')
  }
  const manifest = parsed as Partial<Manifest>
  if (manifest.format !== FORMAT) {
    throw new Error(`its manifest.json is not a backup of this website's services (${FORMAT})`)
  }
  if (manifest.version !== FORMAT_VERSION) {
    throw new Error(
      `its format is version ${String(manifest.version)}; this code reads version ${FORMAT_VERSION}: restore it with the code that made it`,
    )
  }
  if (typeof manifest.files !== 'object' || manifest.files === null || !manifest.database) {
    throw new Error('its manifest.json lists no files')
  }
  return manifest as Manifest
}
