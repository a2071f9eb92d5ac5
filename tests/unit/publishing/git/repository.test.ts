/**
 * The publishing service's git plumbing on a real repository: commits without a working tree,
 * carrying their author; compare-and-swap so two saves never lose each other's work; merges
 * without a working tree that name conflicting files; paths outside the tree refused.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  checkPath,
  cloneBare,
  commitsBetween,
  fetchBranch,
  type GitRepository,
  initBare,
  MergeConflictError,
  NoRemoteBranchError,
  pushBranch,
  RefMovedError,
  UnsafePathError,
} from '../../../../src/publishing/git/repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ADA = { name: 'Ada Author', email: 'ada@bank.example' }
const RITA = { name: 'Rita Reviewer', email: 'rita@bank.example' }
const MAIN = 'refs/heads/main'

let dir: string
let repo: GitRepository

beforeEach(async () => {
  dir = await temporaryFolder('publishing-git-')
  repo = await initBare(join(dir, 'site.git'))
})

afterEach(async () => {
  await removeFolder(dir)
})

const text = async (commit: string, path: string) =>
  (await repo.readFile(commit, path))?.toString('utf8') ?? null

async function first(): Promise<string> {
  return repo.commit({
    ref: MAIN,
    parent: null,
    changes: [
      { path: 'content/en/pages/about.yaml', content: 'title: About\n' },
      { path: 'content/de/pages/about.yaml', content: 'title: Über uns\n' },
    ],
    author: ADA,
    message: 'First',
  })
}

describe('commits without a working tree', () => {
  it('writes, changes and deletes files on the parent, with the person as author', async () => {
    const one = await first()
    const two = await repo.commit({
      ref: MAIN,
      parent: one,
      changes: [
        { path: 'content/en/pages/about.yaml', content: 'title: About us\n' },
        { path: 'content/de/pages/about.yaml', content: null },
        { path: 'public/images/logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
      ],
      author: RITA,
      message: 'Second',
    })
    expect(await repo.resolve(MAIN)).toBe(two)
    expect(await text(two, 'content/en/pages/about.yaml')).toBe('title: About us\n')
    expect(await repo.readFile(two, 'content/de/pages/about.yaml')).toBeNull()
    expect([...((await repo.readFile(two, 'public/images/logo.png')) ?? [])]).toEqual([
      0x89, 0x50, 0x4e, 0x47,
    ])
    // The earlier commit is unchanged.
    expect(await text(one, 'content/de/pages/about.yaml')).toBe('title: Über uns\n')
    expect((await repo.listFiles(two)).map((file) => file.path).sort()).toEqual([
      'content/en/pages/about.yaml',
      'public/images/logo.png',
    ])
    const author = execFileSync('git', [
      '--git-dir',
      repo.gitDir,
      'log',
      '-1',
      '--format=%an <%ae>|%cn',
      two,
    ])
      .toString()
      .trim()
    expect(author).toBe('Rita Reviewer <rita@bank.example>|Publishing service')
    expect(await repo.changedFiles(one, two)).toEqual([
      'content/de/pages/about.yaml',
      'content/en/pages/about.yaml',
      'public/images/logo.png',
    ])
  })

  it('lets one of two saves on the same tip through and tells the other the branch moved', async () => {
    const one = await first()
    const save = (author: typeof ADA, title: string) =>
      repo.commit({
        ref: MAIN,
        parent: one,
        changes: [{ path: 'content/en/pages/about.yaml', content: `title: ${title}\n` }],
        author,
        message: title,
      })
    const results = await Promise.allSettled([save(ADA, 'A'), save(RITA, 'B')])
    const done = results.filter((result) => result.status === 'fulfilled')
    const refused = results.filter((result) => result.status === 'rejected')
    expect(done).toHaveLength(1)
    expect(refused).toHaveLength(1)
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(RefMovedError)
    // The branch holds the save that went through, with its parent: nothing was lost.
    const tip = await repo.resolve(MAIN)
    expect(tip).toBe((done[0] as PromiseFulfilledResult<string>).value)
    expect(await repo.isAncestor(one, tip ?? '')).toBe(true)
  })

  it('creates a branch only where there is none', async () => {
    const one = await first()
    await repo.moveRef('refs/heads/draft', one, null)
    await expect(repo.moveRef('refs/heads/draft', one, null)).rejects.toBeInstanceOf(RefMovedError)
  })
})

describe('reads through one git process', () => {
  it('answers many reads at once, each with its own file, its blob id, or null', async () => {
    const binary = Buffer.from([0, 10, 13, 10, 255, 10])
    const names = Array.from({ length: 60 }, (_, index) => `content/en/faq/question ${index}.yaml`)
    const commit = await repo.commit({
      ref: MAIN,
      parent: null,
      changes: [
        ...names.map((path, index) => ({ path, content: `title: Question ${index}\n` })),
        { path: 'public/images/mark.png', content: binary },
      ],
      author: ADA,
      message: 'Many files',
    })
    const reads = await Promise.all([
      ...names.map((path) => text(commit, path)),
      repo.readFile(commit, 'content/en/faq/none.yaml'),
      repo.readFile(commit, 'content/en/faq'),
      repo.readFile('0'.repeat(40), names[0] ?? ''),
    ])
    expect(reads.slice(0, 60)).toEqual(names.map((_, index) => `title: Question ${index}\n`))
    // A file the commit lacks, a folder, a commit that does not exist.
    expect(reads.slice(60)).toEqual([null, null, null])
    const image = await repo.readBlob(commit, 'public/images/mark.png')
    expect(image?.data.equals(binary)).toBe(true)
    const [listed] = await repo.listFiles(commit, 'public/images/mark.png')
    expect(image?.id).toBe(listed?.blob)
    // By branch name too, and again after the process was stopped.
    repo.close()
    expect(await text('main', names[1] ?? '')).toBe('title: Question 1\n')
  })
})

describe('merges without a working tree', () => {
  it('merges changes to different files, and names the files where both changed the same lines', async () => {
    const base = await first()
    const draft = await repo.commit({
      ref: 'refs/heads/draft',
      parent: base,
      expected: null,
      changes: [{ path: 'content/en/pages/about.yaml', content: 'title: From the draft\n' }],
      author: ADA,
      message: 'Draft',
    })
    const elsewhere = await repo.commit({
      ref: MAIN,
      parent: base,
      changes: [{ path: 'content/de/pages/about.yaml', content: 'title: Von anderswo\n' }],
      author: RITA,
      message: 'A developer’s change',
    })
    const tree = await repo.mergeTrees(elsewhere, draft)
    const merged = await repo.commitTree(tree, {
      parents: [elsewhere, draft],
      author: ADA,
      message: 'Merge',
    })
    expect(await text(merged, 'content/en/pages/about.yaml')).toBe('title: From the draft\n')
    expect(await text(merged, 'content/de/pages/about.yaml')).toBe('title: Von anderswo\n')

    const clash = await repo.commit({
      ref: MAIN,
      parent: elsewhere,
      changes: [{ path: 'content/en/pages/about.yaml', content: 'title: Changed on main\n' }],
      author: RITA,
      message: 'Clash',
    })
    const error = await repo.mergeTrees(clash, draft).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(MergeConflictError)
    expect((error as MergeConflictError).files).toEqual(['content/en/pages/about.yaml'])
  })
})

describe('a repository made from a remote', () => {
  it('takes its main from the branch named, and says by its class that the remote has none', async () => {
    const tip = await first()
    const copy = await cloneBare(repo.gitDir, join(dir, 'copy.git'), 'main')
    expect(await copy.resolve(MAIN)).toBe(tip)
    copy.close()
    const missing = cloneBare(repo.gitDir, join(dir, 'none.git'), 'release')
    await expect(missing).rejects.toThrow(NoRemoteBranchError)
    await expect(missing).rejects.toMatchObject({ source: repo.gitDir, branch: 'release' })
  })
})

describe("a remote's branch fetched", () => {
  it('brings a new tip, takes one it holds already as it is, and says when there is none', async () => {
    const tip = await first()
    const remote = await cloneBare(repo.gitDir, join(dir, 'remote.git'), 'main')
    const tracking = 'refs/remotes/upstream/main'
    // A commit made on the remote alone is fetched, with its files.
    const theirs = await remote.commit({
      ref: MAIN,
      parent: tip,
      changes: [{ path: 'content/en/pages/about.yaml', content: 'title: Theirs\n' }],
      author: RITA,
      message: 'Made elsewhere',
    })
    expect(await fetchBranch(repo, remote.gitDir, 'main')).toBe(theirs)
    expect(await repo.resolve(tracking)).toBe(theirs)
    expect(await text(theirs, 'content/en/pages/about.yaml')).toBe('title: Theirs\n')
    // The service's own commit, pushed there: held already, taken without a fetch.
    await repo.moveRef(MAIN, theirs, tip)
    const ours = await repo.commit({
      ref: MAIN,
      parent: theirs,
      changes: [{ path: 'content/en/pages/about.yaml', content: 'title: Ours\n' }],
      author: ADA,
      message: 'Published',
    })
    await pushBranch(repo, remote.gitDir, 'main', ours)
    expect(await fetchBranch(repo, remote.gitDir, 'main')).toBe(ours)
    expect(await repo.resolve(tracking)).toBe(ours)
    expect(await fetchBranch(repo, remote.gitDir, 'main')).toBe(ours)
    remote.close()
    expect(await fetchBranch(repo, remote.gitDir, 'release')).toBeNull()
  })
})

describe('what a take-in brings', () => {
  it('names every file from one diff, and each commit’s author and files, whatever the author’s name holds', async () => {
    const base = await repo.commit({
      ref: MAIN,
      parent: null,
      changes: [{ path: 'content/en/pages/about.yaml', content: 'title: About\n' }],
      author: ADA,
      message: 'Start',
    })
    // A content change by someone whose address holds control characters (a separator of
    // git's log among them), then enough others that the record keeps only the newest.
    const hostile = { name: 'Mallory\u001e\u0007', email: 'mal\u001e@example.test' }
    const first = await repo.commit({
      ref: MAIN,
      parent: base,
      changes: [{ path: 'content/en/pages/imprint.yaml', content: 'title: Imprint\n' }],
      author: hostile,
      message: 'Imprint',
    })
    let tip = first
    for (const index of [1, 2]) {
      tip = await repo.commit({
        ref: MAIN,
        parent: tip,
        changes: [{ path: `notes/${index}.md`, content: `${index}\n` }],
        author: RITA,
        message: `Note ${index}`,
      })
    }
    const taken = await commitsBetween(repo, base, tip, 2)
    expect(taken.files).toEqual(['content/en/pages/imprint.yaml', 'notes/1.md', 'notes/2.md'])
    expect(taken.more).toBe(1)
    expect(taken.commits.map((commit) => commit.files)).toEqual([['notes/1.md'], ['notes/2.md']])
    const all = await commitsBetween(repo, base, tip)
    expect(all.commits[0]).toMatchObject({
      commit: first,
      files: ['content/en/pages/imprint.yaml'],
    })
    const names = `${all.commits[0]?.author} ${all.commits[0]?.email}`
    expect([...names].some((character) => character.charCodeAt(0) < 0x20)).toBe(false)
  })
})

describe('paths', () => {
  it.each([
    '../outside.yaml',
    'content/../../etc/passwd',
    '/etc/passwd',
    '.git/config',
    'content/.GIT/hooks/pre-commit',
    'content//double.yaml',
    'content/./here.yaml',
    'content\\windows.yaml',
    'content/new\nline.yaml',
    '',
  ])('refuses %j, and writes nothing', async (path) => {
    const one = await first()
    expect(() => checkPath(path)).toThrow(UnsafePathError)
    await expect(
      repo.commit({
        ref: MAIN,
        parent: one,
        changes: [{ path, content: 'x' }],
        author: ADA,
        message: 'Bad',
      }),
    ).rejects.toBeInstanceOf(UnsafePathError)
    expect(await repo.resolve(MAIN)).toBe(one)
  })
})
