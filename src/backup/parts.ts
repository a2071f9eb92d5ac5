/**
 * What a backup and a restore share: where each part lives (the targets, from the services'
 * settings), the two services' migrations, git run on a file, and the releases folder's names.
 */
import { spawn } from 'node:child_process'
import { createReadStream, createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { MigrationSet } from '../database/migrations'
import { FORMS_MIGRATIONS } from '../forms/migrations'
import { PUBLISHING_MIGRATIONS } from '../publishing/migrations'
import type { PublishingSettings } from '../publishing/settings'
import type { ServiceName } from './manifest'

/** Where the services keep what a backup holds. */
export interface Targets {
  /** PostgreSQL (both services' tables, `DATABASE_URL`), or PGlite's two folders. */
  database:
    | { kind: 'postgresql'; url: string; ownerUrl?: string; schema?: string }
    | { kind: 'pglite'; dirs: Record<ServiceName, string> }
  /** The publishing service's repository (`PUBLISHING_REPO`). */
  repository: string
  /** `RELEASES_DIR`: the releases and the `current` link. */
  releasesDir: string
  /** The publishing service's own folder: its caches (workspace, previews) go with a restore. */
  publishingDir: string
}

/** The targets of the services configured by `settings` (`dataDir`: `DATA_DIR`). */
export function targetsOf(settings: PublishingSettings, dataDir: string): Targets {
  return {
    database: settings.databaseUrl
      ? {
          kind: 'postgresql',
          url: settings.databaseUrl,
          ...(settings.databaseOwnerUrl ? { ownerUrl: settings.databaseOwnerUrl } : {}),
        }
      : {
          kind: 'pglite',
          dirs: { forms: join(dataDir, 'db'), publishing: join(settings.dir, 'db') },
        },
    repository: settings.repository,
    releasesDir: settings.releasesDir,
    publishingDir: settings.dir,
  }
}

export const MIGRATIONS: Record<ServiceName, MigrationSet> = {
  forms: FORMS_MIGRATIONS,
  publishing: PUBLISHING_MIGRATIONS,
}

/** A release's folder name (releases.ts): when (UTC) and from which commit. */
export const RELEASE_FOLDER = /^\d{8}T\d{6}Z-[0-9a-f]{12}(?:-\d+)?$/

/** The environment git runs in on `gitDir`, as the service runs it (git/repository.ts). */
export const gitEnv = (gitDir: string): NodeJS.ProcessEnv => ({
  ...process.env,
  GIT_DIR: gitDir,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LC_ALL: 'C',
})

/**
 * Runs git on `gitDir` with its input from `input` (text, or a file's path as `{ file }`) and
 * its output into the file `output`, streamed (a repository's pack can be large).
 */
export async function gitWithFiles(
  gitDir: string,
  args: string[],
  { input, output }: { input?: string | { file: string }; output?: string },
): Promise<void> {
  const child = spawn('git', args, {
    env: gitEnv(gitDir),
    stdio: ['pipe', output ? 'pipe' : 'ignore', 'pipe'],
  })
  const errors: Buffer[] = []
  child.stderr?.on('data', (chunk: Buffer) => errors.push(chunk))
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  const writing = output && child.stdout ? pipeline(child.stdout, createWriteStream(output)) : null
  const stdin = child.stdin as NonNullable<typeof child.stdin>
  if (typeof input === 'object') await pipeline(createReadStream(input.file), stdin)
  else stdin.end(input ?? '')
  const [code] = await Promise.all([exited, writing])
  if (code !== 0) {
    throw new Error(
      `git ${args[0]} failed in ${gitDir} (${code}): ${Buffer.concat(errors)
        .toString()
        .trim()
        .replace(/\s*\n\s*/g, '; ')}`,
    )
  }
}
