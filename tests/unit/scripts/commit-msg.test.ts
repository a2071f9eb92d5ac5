/**
 * The commit-msg hook (`scripts/git-hooks/commit-msg`, installed by `npm run hooks`) on sample
 * messages: what it lets through, what it refuses, and that each refusal says what is wrong.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from '../../support/project-files'

const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>
}
const HOOKS = /core\.hooksPath\s+(\S+)/.exec(scripts.hooks ?? '')?.[1] ?? ''
const HOOK = join(PROJECT_ROOT, HOOKS, 'commit-msg')

const folder = mkdtempSync(join(tmpdir(), 'commit-msg-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** The hook's exit code and what it wrote on standard error, for `message`. */
function commitMsg(message: string): { status: number | null; stderr: string } {
  const file = join(folder, 'COMMIT_EDITMSG')
  writeFileSync(file, message)
  const { status, stderr } = spawnSync(process.execPath, [HOOK, file], { encoding: 'utf8' })
  return { status, stderr }
}

const subject72 = `Make ${'x'.repeat(67)}`

describe('the commit-msg hook', () => {
  it('is what npm run hooks installs, and git may run it', () => {
    expect(HOOKS).toBe('scripts/git-hooks')
    expect(statSync(HOOK).mode & 0o111).not.toBe(0)
    expect(readFileSync(HOOK, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true)
  })

  it('lets a readable message through', () => {
    expect(subject72).toHaveLength(72)
    for (const message of [
      'Document every setting the code reads\n',
      `${subject72}\n\nThe detail, in the body.\nOver as many lines as it takes.\n`,
      // As git hands it over: its comments, the scissors of git commit -v, blank lines first.
      '\nHold the docs to the code\n\nBody.\n# Please enter the commit message.\n# ------------------------ >8 ------------------------\nA diff line.\n',
      'Fix the lease’s figure: about 31 minutes\n',
    ]) {
      expect(commitMsg(message)).toEqual({ status: 0, stderr: '' })
    }
  })

  it('lets merges and fixups through as git writes them', () => {
    for (const message of [
      "Merge branch 'settings-docs' of the house's second pass into main, after the review.\n",
      'fixup! Document every setting the code reads, and the tests’ own ones, in their tables.\n',
      'squash! Hold the docs to the code.\n',
      'amend! Hold the docs to the code.\nNo blank line.\n',
    ]) {
      expect(commitMsg(message).status).toBe(0)
    }
  })

  it('refuses a subject over 72 characters, saying how long it is', () => {
    const { status, stderr } = commitMsg(`${subject72}y\n\nBody.\n`)
    expect(status).toBe(1)
    expect(stderr).toContain('the subject has 73 characters, more than 72')
  })

  it('counts characters, not bytes', () => {
    expect(commitMsg(`${'ä'.repeat(72)}\n`).status).toBe(0)
    expect(commitMsg(`${'ä'.repeat(73)}\n`).stderr).toContain('73 characters')
  })

  it('refuses a subject ending in a period', () => {
    const { status, stderr } = commitMsg('Document every setting.\n\nBody.\n')
    expect(status).toBe(1)
    expect(stderr).toContain('the subject ends in a period')
    expect(stderr).not.toContain('characters')
  })

  it('refuses a body that begins on the second line', () => {
    const { status, stderr } = commitMsg('Document every setting\nThe body, too soon.\n')
    expect(status).toBe(1)
    expect(stderr).toContain('leave it blank, between subject and body')
  })

  it('names every problem at once, and where the message is kept', () => {
    const { status, stderr } = commitMsg(`${subject72}.\nBody.\n`)
    expect(status).toBe(1)
    expect(stderr.match(/^ {2}- /gm)).toHaveLength(3)
    expect(stderr).toContain(join(folder, 'COMMIT_EDITMSG'))
  })
})
