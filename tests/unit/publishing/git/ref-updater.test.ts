/**
 * Refs moved through the running `git update-ref --stdin`: compare-and-swap as a process each
 * was, a refused change failing alone and leaving the ref as it was, transactions whole, in
 * order, and nothing written that is not a ref name or an object id.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RefUpdater } from '../../../../src/publishing/git/ref-updater'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const MAIN = 'refs/heads/main'
const DRAFT = 'refs/heads/cms/pages/about'

let dir: string
let gitDir: string
let updater: RefUpdater
let one: string
let two: string
let three: string

const git = (...args: string[]) =>
  execFileSync('git', args, { env: { ...process.env, GIT_DIR: gitDir } })
    .toString('utf8')
    .trim()

const at = (ref: string) => {
  try {
    return git('rev-parse', '--verify', '--quiet', ref)
  } catch {
    return null
  }
}

beforeEach(async () => {
  dir = await temporaryFolder('ref-updater-')
  gitDir = join(dir, 'site.git')
  execFileSync('git', ['init', '--quiet', '--bare', gitDir])
  const empty = git('hash-object', '-t', 'tree', '-w', '/dev/null')
  const commit = (message: string) =>
    execFileSync('git', ['commit-tree', empty, '-m', message], {
      env: {
        ...process.env,
        GIT_DIR: gitDir,
        GIT_AUTHOR_NAME: 'Ada',
        GIT_AUTHOR_EMAIL: 'ada@bank.example',
        GIT_COMMITTER_NAME: 'Ada',
        GIT_COMMITTER_EMAIL: 'ada@bank.example',
      },
    })
      .toString()
      .trim()
  ;[one, two, three] = [commit('one'), commit('two'), commit('three')]
  updater = new RefUpdater({ ...process.env, GIT_DIR: gitDir })
})

afterEach(async () => {
  updater.close()
  await removeFolder(dir)
})

describe('refs moved by the running updater', () => {
  it('creates, moves and deletes a ref where it is as expected', async () => {
    await updater.apply([{ ref: MAIN, to: one, from: null }])
    expect(at(MAIN)).toBe(one)
    await updater.apply([{ ref: MAIN, to: two, from: one }])
    expect(at(MAIN)).toBe(two)
    await updater.apply([{ ref: DRAFT, to: three, from: null }])
    await updater.apply([{ ref: DRAFT, delete: true, from: three }])
    expect(at(DRAFT)).toBeNull()
  })

  it('refuses a ref that moved or exists already, leaves it, and takes the next change', async () => {
    await updater.apply([{ ref: MAIN, to: one, from: null }])
    await expect(updater.apply([{ ref: MAIN, to: three, from: two }])).rejects.toThrow(
      /update-ref.*refs\/heads\/main/,
    )
    await expect(updater.apply([{ ref: MAIN, to: three, from: null }])).rejects.toThrow()
    await expect(updater.apply([{ ref: MAIN, delete: true, from: two }])).rejects.toThrow()
    expect(at(MAIN)).toBe(one)
    await updater.apply([{ ref: MAIN, to: two, from: one }])
    expect(at(MAIN)).toBe(two)
  })

  it('sees a move made by another process since its last change', async () => {
    await updater.apply([{ ref: MAIN, to: one, from: null }])
    git('update-ref', MAIN, two, one)
    await expect(updater.apply([{ ref: MAIN, to: three, from: one }])).rejects.toThrow()
    git('pack-refs', '--all', '--prune')
    await updater.apply([{ ref: MAIN, to: three, from: two }])
    expect(at(MAIN)).toBe(three)
  })

  it('applies a transaction whole or not at all', async () => {
    await updater.apply([{ ref: MAIN, to: one, from: null }])
    await expect(
      updater.apply([
        { ref: DRAFT, to: two, from: null },
        { ref: MAIN, to: three, from: two },
      ]),
    ).rejects.toThrow()
    expect(at(DRAFT)).toBeNull()
    expect(at(MAIN)).toBe(one)
  })

  it('runs changes asked for at once one after the other, each failing on its own', async () => {
    await updater.apply([{ ref: MAIN, to: one, from: null }])
    const results = await Promise.allSettled([
      updater.apply([{ ref: MAIN, to: two, from: one }]),
      updater.apply([{ ref: MAIN, to: three, from: one }]),
      updater.apply([{ ref: MAIN, to: three, from: two }]),
    ])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(at(MAIN)).toBe(three)
  })

  it('writes nothing but ref names and object ids', async () => {
    for (const change of [
      { ref: `${MAIN}\ncommit`, to: one, from: null },
      { ref: 'HEAD', to: one, from: null },
      { ref: MAIN, to: `${one}\nupdate refs/heads/x ${two}`, from: null },
      { ref: MAIN, to: 'main', from: null },
      { ref: 'refs/heads/a b', to: one, from: null },
    ]) {
      await expect(updater.apply([change])).rejects.toThrow(/cannot write/)
    }
    expect(git('for-each-ref')).toBe('')
  })
})
