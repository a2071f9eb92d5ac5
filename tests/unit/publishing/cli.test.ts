/**
 * `npm run cms`: a lost first administrator's link replaced (the old one withdrawn), the audit
 * trail checked and exported, the people listed; unknown commands get the usage.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../../src/build/config'
import { invitationOf } from '../../../src/publishing/people'
import { PUBLISHING_MIGRATIONS } from '../../../src/publishing/schema'
import { openDatabase } from '../../../src/server/forms/database'

const run = promisify(execFile)
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'publishing-cli-'))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 10 })
})

const cms = (...args: string[]) =>
  run(process.execPath, ['scripts/run.mjs', 'cms', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, NODE_ENV: 'production' },
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )

describe('npm run cms', () => {
  it('replaces a lost first administrator’s link, checks and exports the trail, lists people', async () => {
    const first = await cms('first-administrator')
    const second = await cms('first-administrator')
    const link = /invitation#([\w-]+)/
    expect(first.stdout).toMatch(link)
    expect(second.stdout).toMatch(link)
    expect(link.exec(second.stdout)?.[1]).not.toBe(link.exec(first.stdout)?.[1])
    const database = await openDatabase({
      dataDir: join(dir, 'publishing', 'db'),
      migrations: PUBLISHING_MIGRATIONS,
    })
    expect(await invitationOf(database, link.exec(first.stdout)?.[1] ?? '')).toBeNull()
    expect(await invitationOf(database, link.exec(second.stdout)?.[1] ?? '')).not.toBeNull()
    await database.close()
    const verify = await cms('verify')
    expect(verify.code).toBe(0)
    expect(verify.stderr).toMatch(/chain of 0 entries is intact/)
    expect(JSON.parse((await cms('audit', '--format', 'json')).stdout)).toEqual([])
    expect((await cms('people')).stdout).toBe('')
    // A person bound to the identity provider's account they signed in with, freed from it.
    const people = await openDatabase({
      dataDir: join(dir, 'publishing', 'db'),
      migrations: PUBLISHING_MIGRATIONS,
    })
    await people.query(
      `INSERT INTO people (email, name, roles, language, created_at, provider_account)
       VALUES ('ada@bank.example', 'Ada', '{author}', 'en', now(), 'https://id.bank.example 42')`,
    )
    await people.close()
    const released = await cms('release-account', 'Ada@bank.example')
    expect(released.code).toBe(0)
    expect((await cms('release-account', 'ada@bank.example')).code).toBe(1)
    expect(JSON.parse((await cms('audit', '--format', 'json')).stdout)).toMatchObject([
      { action: 'role-change', subject: 'ada@bank.example' },
    ])
    const wrong = await cms('drop-tables')
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/usage: npm run cms/)
  }, 120_000)
})
