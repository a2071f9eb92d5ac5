/**
 * `npm run cms`: a lost first administrator's link replaced (the old one withdrawn), the audit
 * trail checked and exported, the people listed; unknown commands get the usage. `verify`
 * checks the trail against every anchor in git, one exit code per outcome: 0 intact and fully
 * anchored, 4 with entries not anchored yet, 3 unverifiable (no key, or no anchor), 1 naming
 * the entry or the anchor where someone holding the database and the machine changed an entry,
 * computed the chain again, or removed entries and moved or deleted the checkpoint ref.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../../src/database/database'
import { openDatabase } from '../../../src/database/open'
import { ROOT } from '../../../src/engine/config'
import {
  AuditCheckpoints,
  CHECKPOINT_REF,
  mainTrailers,
} from '../../../src/publishing/audit/anchors'
import {
  appendAudit,
  keyIdOf,
  recordAuditKey,
  setAuditKeys,
} from '../../../src/publishing/audit/trail'
import { PUBLISHING_MIGRATIONS } from '../../../src/publishing/migrations'
import { invitationOf } from '../../../src/publishing/people/people'
import { MAIN } from '../../../src/publishing/workflow/drafts'
import { asOwner, rewrite } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

const run = promisify(execFile)
let dir: string

beforeAll(async () => {
  dir = await temporaryFolder('publishing-cli-')
})

afterAll(async () => {
  await removeFolder(dir)
})

const cmsWith = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, ['scripts/run.mjs', 'cms', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, NODE_ENV: 'production', ...env },
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
const cms = (...args: string[]) => cmsWith({}, ...args)

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

describe('npm run cms -- verify', () => {
  const KEY = 'the bank’s audit key kept in its vault (32+)'
  /** Whoever rewrites the trail holding the key too: only the anchors then tell. */
  const BANK_KEY = { key: KEY, keyId: keyIdOf(KEY) }

  /** The publishing service's database and repository under `data`, as the service keeps them. */
  async function withTrail(data: string, work: (database: Database) => Promise<void>) {
    const database = await openDatabase({
      dataDir: join(data, 'publishing', 'db'),
      migrations: PUBLISHING_MIGRATIONS,
    })
    try {
      await work(database)
    } finally {
      await database.close()
    }
  }
  const record = (database: Database, n: number) =>
    appendAudit(database, { actor: 'ada@bank.example', action: 'save', subject: `pages/p${n}` })

  /** Writes with the bank's key, as the service does with `AUDIT_KEY`. */
  async function keyed<T>(work: () => Promise<T>): Promise<T> {
    setAuditKeys([KEY])
    try {
      return await work()
    } finally {
      setAuditKeys(undefined)
    }
  }

  it('exits 0 intact and anchored, 4 with entries not anchored yet, 1 naming the entry or the anchor where the trail was changed, computed again or cut short', async () => {
    const data = join(dir, 'anchored')
    const repo = await siteRepository(join(data, 'publishing', 'site.git'))
    const verify = () =>
      cmsWith({ DATA_DIR: data, PUBLISHING_REMOTE: 'none', AUDIT_KEY: KEY }, 'verify')
    await withTrail(data, (database) =>
      keyed(async () => {
        for (const n of [1, 2, 3, 4]) await record(database, n)
        await new AuditCheckpoints({ database, repo, everyMs: 60_000 }).write()
        await record(database, 5)
      }),
    )
    const unanchored = await verify()
    expect(unanchored.code).toBe(4)
    expect(unanchored.stderr).toMatch(/chain of 5 entries is intact/)
    expect(unanchored.stderr).toMatch(
      /agrees with its 1 anchor in git \(.*site\.git \(main, refs\/audit\/checkpoint and its reflog\)\); the furthest names entry 4/,
    )
    expect(unanchored.stderr).toMatch(/Intact, 1 entry not anchored yet/)
    await withTrail(data, async (database) => {
      await keyed(() => new AuditCheckpoints({ database, repo, everyMs: 60_000 }).write())
    })
    const intact = await verify()
    expect(intact.code).toBe(0)
    expect(intact.stderr).toMatch(/Intact and fully anchored\./)

    // An entry changed: named.
    let original = ''
    await withTrail(data, async (database) => {
      original =
        (
          await database.query<{ subject: string }>(
            'SELECT subject FROM audit_entries WHERE id = 2',
          )
        )[0]?.subject ?? ''
      await asOwner(database, async () => {
        await database.query("UPDATE audit_entries SET subject = 'pages/other' WHERE id = 2")
      })
    })
    const changed = await verify()
    expect(changed.code).toBe(1)
    expect(changed.stderr).toMatch(
      /Tampered: the audit trail is broken at entry 2: its content was changed/,
    )

    // The chain computed again after it (with the key): the checkpoint disagrees, and is named.
    await withTrail(data, (database) =>
      rewrite(database, 2, (entry) => ({ ...entry, subject: 'pages/other' }), BANK_KEY),
    )
    const recomputed = await verify()
    expect(recomputed.code).toBe(1)
    expect(recomputed.stderr).toMatch(
      /broken at entry 4: checkpoint [0-9a-f]{12} \(refs\/audit\/checkpoint, [^)]*\) records entry 4 with hash [0-9a-f]{12}…, the database's has [0-9a-f]{12}…/,
    )

    // Put back as it was (the same hashes), then the last two entries removed.
    await withTrail(data, async (database) => {
      await rewrite(database, 2, (entry) => ({ ...entry, subject: original }), BANK_KEY)
      await asOwner(database, async () => {
        await database.query('DELETE FROM audit_entries WHERE id > 3')
      })
    })
    const truncated = await verify()
    expect(truncated.code).toBe(1)
    expect(truncated.stderr).toMatch(
      /broken at entry 4: checkpoint [0-9a-f]{12} \(refs\/audit\/checkpoint, [^)]*\) records 5 entries, the last with hash [0-9a-f]{12}…, the database has 3: entries were removed from the end/,
    )
  }, 180_000)

  it('cannot be made to disown the service’s anchors: a trail cut with its checkpoint moved back, or deleted, fails', async () => {
    const data = join(dir, 'cut')
    const repo = await siteRepository(join(data, 'publishing', 'site.git'))
    const verify = () =>
      cmsWith({ DATA_DIR: data, PUBLISHING_REMOTE: 'none', AUDIT_KEY: KEY }, 'verify')
    let early = ''
    await withTrail(data, (database) =>
      keyed(async () => {
        repo.mainTrailers = () => mainTrailers(database)
        const checkpoints = new AuditCheckpoints({ database, repo, everyMs: 60_000 })
        // Two publications, as the service makes them: a commit on main anchoring the trail,
        // then the entry that records it, then a checkpoint.
        const publish = async (n: number) => {
          const parent = (await repo.resolve(MAIN)) as string
          const tree = (await repo.git(['rev-parse', `${parent}^{tree}`])).toString().trim()
          const commit = await repo.commitTree(tree, {
            parents: [parent],
            author: { name: 'Publishing service', email: 'publishing@localhost' },
            message: await repo.withTrailers(`Publish note ${n}`),
          })
          await repo.moveRef(MAIN, commit, parent)
          await appendAudit(database, {
            actor: 'paul@bank.example',
            action: 'publish',
            subject: `note-${n}`,
            before: parent,
            after: commit,
          })
          await checkpoints.write()
        }
        for (const n of [1, 2, 3]) await record(database, n)
        await publish(4)
        early = (await repo.resolve(CHECKPOINT_REF)) as string
        for (const n of [5, 6]) await record(database, n)
        await publish(7)
        await record(database, 8)
        await checkpoints.write()
      }),
    )
    expect((await verify()).code).toBe(0)

    // Whoever holds the machine moves the checkpoint back to entry 4 and removes the entries
    // after it, the publication that recorded main's later anchor among them.
    await repo.git(['update-ref', CHECKPOINT_REF, early])
    await withTrail(data, (database) =>
      asOwner(database, async () => {
        await database.query('DELETE FROM audit_entries WHERE id > 4')
      }),
    )
    const moved = await verify()
    expect(moved.code).toBe(1)
    expect(moved.stderr).toMatch(
      /^Tampered: the audit trail is broken at entry 5: .* records (7|8) entries/m,
    )
    expect(moved.stderr).not.toMatch(/Not counted/)

    // The ref deleted instead (its reflog with it): main's anchors still count.
    await repo.git(['update-ref', '-d', CHECKPOINT_REF])
    const deleted = await verify()
    expect(deleted.code).toBe(1)
    expect(deleted.stderr).toMatch(
      /broken at entry 5: commit [0-9a-f]{12} on main \("Publish note 7", [^)]*\) records 6 entries, .*the database has 4/,
    )
  }, 180_000)

  it('says unverifiable, exit 3, without AUDIT_KEY or without an anchor', async () => {
    const data = join(dir, 'keyed')
    await siteRepository(join(data, 'publishing', 'site.git'))
    await withTrail(data, async (database) => {
      await record(database, 1)
      await keyed(async () => {
        await recordAuditKey(database, new Date())
        await record(database, 3)
      })
    })
    const verify = (env: Record<string, string> = {}) =>
      cmsWith({ DATA_DIR: data, PUBLISHING_REMOTE: 'none', AUDIT_KEY: '', ...env }, 'verify')
    const withoutKey = await verify()
    expect(withoutKey.code).toBe(3)
    expect(withoutKey.stderr).toMatch(/chain of 3 entries is intact/)
    expect(withoutKey.stderr).toMatch(
      /Unverifiable: AUDIT_KEY is not set: 2 keyed entries were not checked \(key [0-9a-f]{16}\)/,
    )
    const withKey = await verify({ AUDIT_KEY: KEY })
    expect(withKey.code).toBe(3)
    expect(withKey.stderr).toMatch(/Unverifiable: no anchor of it was found in git/)
  }, 120_000)
})
