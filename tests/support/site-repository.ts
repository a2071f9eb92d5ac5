/**
 * The site as a git repository for the publishing tests: a bare repository whose main is this
 * checkout's last commit (sharing its objects, so nothing is copied), and a remote beside it
 * that plays the bank's repository a developer pushes to.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ROOT } from '../../src/engine/config'
import { type GitRepository, initBare } from '../../src/publishing/git/repository'

const HEAD = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT }).toString().trim()
const OBJECTS = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
  cwd: ROOT,
})
  .toString()
  .trim()

/**
 * A bare repository at `gitDir` whose main is the checkout's HEAD, or `commit` of its history
 * (an older version's site, for the upgrade fixture).
 */
export async function siteRepository(gitDir: string, commit = HEAD): Promise<GitRepository> {
  const repo = await initBare(gitDir)
  await shareObjects(gitDir)
  await repo.moveRef('refs/heads/main', commit, null)
  return repo
}

/** Lets the repository at `gitDir` read every object of this checkout's (nothing is copied). */
export async function shareObjects(gitDir: string): Promise<void> {
  await mkdir(join(gitDir, 'objects', 'info'), { recursive: true })
  await writeFile(join(gitDir, 'objects', 'info', 'alternates'), `${join(OBJECTS, 'objects')}\n`)
}

export const DEVELOPER = { name: 'Developer', email: 'dev@bank.example' }
