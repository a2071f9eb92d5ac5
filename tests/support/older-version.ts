/**
 * An older version of the project's code, checked out of its git history with `git archive`
 * into a folder inside the project (`.cache/older-versions/`, git-ignored), so that it finds
 * the project's `node_modules` as the checkout's own code does. The upgrade fixture is made by
 * one, and the rolling upgrade runs one beside the current code. A clone without that commit
 * (a shallow one) cannot: `unreachable` says why, and those tests skip with that reason.
 */
import { execFile, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { removeFolder } from './temporary-folder'

const run = promisify(execFile)

/** The checkout these tests run in. */
export const PROJECT_ROOT = resolve(import.meta.dirname, '../..')

/** Where older versions are checked out, inside the project (git-ignored with `.cache/`). */
export const OLDER_VERSIONS = join(PROJECT_ROOT, '.cache', 'older-versions')

export interface OlderVersion {
  commit: string
  /** The folder it is in: its `scripts/run.mjs` runs its programs. */
  root: string
  /** Removes the folder with everything the version wrote in it. */
  remove(): Promise<void>
}

const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim()

/** Why `commit` is not in this clone (a shallow clone, say), or undefined when it is. */
export function unreachable(commit: string): string | undefined {
  try {
    git('cat-file', '-e', `${commit}^{commit}`)
    return undefined
  } catch {
    let shallow = false
    try {
      shallow = git('rev-parse', '--is-shallow-repository') === 'true'
    } catch {
      return `no git repository at ${PROJECT_ROOT} to take commit ${commit} from`
    }
    return shallow
      ? `commit ${commit} is not in this shallow clone: fetch the whole history (git fetch --unshallow)`
      : `commit ${commit} is not in this clone's history`
  }
}

/** The code of `commit`, as `git archive` gives it, in a new folder inside the project. */
export async function checkOutOlderVersion(commit: string): Promise<OlderVersion> {
  const reason = unreachable(commit)
  if (reason) throw new Error(reason)
  const full = git('rev-parse', `${commit}^{commit}`)
  const root = join(OLDER_VERSIONS, `${full.slice(0, 12)}-${randomBytes(4).toString('hex')}`)
  await mkdir(root, { recursive: true })
  try {
    await run('sh', ['-c', 'git archive --format=tar "$1" | tar -x -C "$2"', 'sh', full, root], {
      cwd: PROJECT_ROOT,
    })
  } catch (error) {
    await removeFolder(root)
    throw error
  }
  return { commit: full, root, remove: () => removeFolder(root) }
}
