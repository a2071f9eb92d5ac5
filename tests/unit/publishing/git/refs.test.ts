/**
 * Refs read from the repository's files answer what `git rev-parse` answers: loose and packed,
 * moved and deleted, and what the reader leaves to git (symbolic refs, tags, expressions).
 */
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readRef } from '../../../../src/publishing/git/refs'
import { type GitRepository, initBare } from '../../../../src/publishing/git/repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ADA = { name: 'Ada Author', email: 'ada@bank.example' }
const MAIN = 'refs/heads/main'

let dir: string
let gitDir: string
let repo: GitRepository

beforeEach(async () => {
  dir = await temporaryFolder('publishing-refs-')
  gitDir = join(dir, 'site.git')
  repo = await initBare(gitDir)
})

afterEach(async () => {
  await removeFolder(dir)
})

const git = (...args: string[]) =>
  execFileSync('git', args, { env: { ...process.env, GIT_DIR: gitDir } })
    .toString('utf8')
    .trim()

/** What git itself answers for the ref, `null` for none. */
function revParse(ref: string): string | null {
  try {
    return git('rev-parse', '--verify', '--quiet', `${ref}^{commit}`)
  } catch {
    return null
  }
}

/** A commit on `ref`, which starts at `parent` if it is new. */
async function commit(ref: string, parent: string | null, content: string): Promise<string> {
  if (parent && revParse(ref) === null) git('update-ref', ref, parent)
  return repo.commit({
    ref,
    parent,
    changes: [{ path: 'content/en/pages/about.yaml', content }],
    author: ADA,
    message: content,
  })
}

describe('refs read from the files', () => {
  it('answers for loose refs as git does, and null for a ref there is not', async () => {
    const one = await commit(MAIN, null, 'title: One\n')
    const draft = await commit('refs/heads/cms/pages/about', one, 'title: Two\n')
    expect(await readRef(gitDir, MAIN)).toBe(one)
    expect(await readRef(gitDir, 'refs/heads/cms/pages/about')).toBe(draft)
    expect(await readRef(gitDir, 'refs/heads/cms/pages/missing')).toBeNull()
    expect(revParse('refs/heads/cms/pages/missing')).toBeNull()
    expect(await repo.resolve(MAIN)).toBe(revParse(MAIN))
  })

  it('reads packed refs, and a loose ref written after packing wins over its packed value', async () => {
    const one = await commit(MAIN, null, 'title: One\n')
    await commit('refs/audit/checkpoint', null, 'trail\n')
    git('pack-refs', '--all', '--prune')
    expect(await readRef(gitDir, MAIN)).toBe(one)
    expect(await readRef(gitDir, 'refs/audit/checkpoint')).toBe(revParse('refs/audit/checkpoint'))
    const two = await commit(MAIN, one, 'title: Two\n')
    expect(await readRef(gitDir, MAIN)).toBe(two)
    expect(revParse(MAIN)).toBe(two)
  })

  it('knows a deleted ref is gone, loose or packed', async () => {
    const one = await commit(MAIN, null, 'title: One\n')
    await commit('refs/heads/cms/pages/about', one, 'title: Two\n')
    await commit('refs/heads/cms/pages/home', one, 'title: Home\n')
    git('pack-refs', '--all', '--prune')
    git('update-ref', '-d', 'refs/heads/cms/pages/about')
    expect(await readRef(gitDir, 'refs/heads/cms/pages/about')).toBeNull()
    await commit('refs/heads/cms/pages/blog', one, 'title: Blog\n')
    git('update-ref', '-d', 'refs/heads/cms/pages/blog')
    expect(await readRef(gitDir, 'refs/heads/cms/pages/blog')).toBeNull()
    expect(await repo.resolve('refs/heads/cms/pages/home')).toBe(
      revParse('refs/heads/cms/pages/home'),
    )
  })

  it('leaves to git what it cannot be sure of: tags, symbolic refs, names and expressions', async () => {
    const one = await commit(MAIN, null, 'title: One\n')
    git('tag', '-a', '-m', 'Release', 'v1', one)
    git('symbolic-ref', 'refs/heads/current', MAIN)
    for (const ref of ['refs/tags/v1', 'main', 'HEAD', `${MAIN}~0`, 'refs/heads/../HEAD', one]) {
      expect(await readRef(gitDir, ref)).toBeUndefined()
    }
    expect(await readRef(gitDir, 'refs/heads/current')).toBeUndefined()
    // git answers them all the same, through resolve.
    expect(await repo.resolve('refs/tags/v1')).toBe(one)
    expect(await repo.resolve('refs/heads/current')).toBe(one)
    // A ref holding something else than an object id: git decides.
    await writeFile(join(gitDir, 'refs/heads/broken'), 'not an id\n')
    expect(await readRef(gitDir, 'refs/heads/broken')).toBeUndefined()
    expect(await repo.resolve('refs/heads/broken')).toBeNull()
  })

  it('leaves a folder where the ref would be to git', async () => {
    const one = await commit(MAIN, null, 'title: One\n')
    await commit('refs/heads/cms/pages/about', one, 'title: Two\n')
    expect(await readRef(gitDir, 'refs/heads/cms')).toBeUndefined()
    expect(await repo.resolve('refs/heads/cms')).toBeNull()
  })
})
