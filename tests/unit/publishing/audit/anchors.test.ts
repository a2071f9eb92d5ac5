/**
 * The audit trail anchored outside the database, on PGlite and PostgreSQL with real git: every
 * commit the service makes on main and a checkpoint ref record the trail's length and last
 * hash, pushed with the published commit; whoever holds the database (its owner: the trigger
 * off) and removes the last entries, changes one, or changes one and computes every later hash
 * again is named by `verifyAudit`, by the entry or the anchor that disagrees. Keyed hashes
 * (`AUDIT_KEY`) cannot be computed again without the key, nor dropped.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import {
  AnchorDisagreesError,
  AuditCheckpoints,
  auditOutcome,
  CHECKPOINT_REF,
  mainTrailers,
  readAnchors,
  verifyWithAnchors,
} from '../../../../src/publishing/audit/anchors'
import {
  AuditKeyError,
  appendAudit,
  checkAuditKey,
  keyIdOf,
  readAudit,
  recordAuditKey,
  setAuditKeys,
  verifyAudit,
} from '../../../../src/publishing/audit/trail'
import type { GitRepository } from '../../../../src/publishing/git/repository'
import { Publisher } from '../../../../src/publishing/publication/publisher'
import { Releases } from '../../../../src/publishing/publication/releases'
import { Drafts, MAIN } from '../../../../src/publishing/workflow/drafts'
import { standInReport } from '../../../support/build-report'
import { databases } from '../../../support/forms'
import { heldWork } from '../../../support/held-work'
import { ada, paul } from '../../../support/people'
import {
  ABOUT,
  approvedDraft,
  asOwner,
  openPublishingDatabase,
  openServiceWithStandInBuild,
  rewrite,
  type TestDatabase,
} from '../../../support/publishing'
import { DEVELOPER, siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const KEY = 'the bank’s audit key kept in its vault (32+)'
const OTHER_KEY = 'a newer audit key from the same vault (32+)'

for (const kind of databases()) {
  describe(`the audit trail's anchors on ${kind.name}`, () => {
    let opened: TestDatabase
    let database: Database
    let dir: string
    let repo: GitRepository
    let remote: GitRepository
    let checkpoints: AuditCheckpoints
    let now: Date
    const clock = () => now

    beforeEach(async () => {
      now = new Date('2026-11-26T09:00:00Z')
      opened = await openPublishingDatabase(kind)
      database = opened.database
      dir = await temporaryFolder('audit-anchor-')
      repo = await siteRepository(join(dir, 'site.git'))
      remote = await siteRepository(join(dir, 'remote.git'))
      repo.mainTrailers = () => mainTrailers(database)
      checkpoints = new AuditCheckpoints({
        database,
        repo,
        remote: { url: remote.gitDir, push: true },
        everyMs: 5 * 60_000,
        clock,
      })
    })

    afterEach(async () => {
      setAuditKeys(undefined)
      await opened.close()
      await removeFolder(dir)
    })

    const record = (n: number) =>
      appendAudit(
        database,
        { actor: 'ada@bank.example', action: 'save', subject: `pages/page-${n}`, details: { n } },
        now,
      )
    const records = async (from: number, to: number) => {
      for (let n = from; n <= to; n++) await record(n)
    }
    const anchors = async () => (await readAnchors(repo)).anchors
    const checked = async () => {
      const { check, sources } = await verifyWithAnchors(database, repo)
      return [check, sources] as const
    }
    const messageOf = async (ref: string, target = repo) =>
      (await target.git(['log', '-1', '--format=%B', ref])).toString('utf8').trimEnd()

    it('anchors each publication, take-in and rollback on main and in the checkpoint ref, pushed with the published commit', async () => {
      const releasesIn = new Releases({
        dir: join(dir, 'releases'),
        workspace: join(dir, 'workspace'),
        nodeModules: join(ROOT, 'node_modules'),
        buildConfig: readBuildConfig({}),
        build: async (config) => {
          await mkdir(config.outDir, { recursive: true })
          await writeFile(join(config.outDir, 'index.html'), 'site')
          return standInReport()
        },
        keep: 5,
      })
      const drafts = new Drafts(database, repo, clock)
      const publisherPushing = (push: boolean) =>
        new Publisher({
          database,
          repo,
          drafts,
          releases: releasesIn,
          remote: { url: remote.gitDir, branch: 'main', push },
          clock,
          checkpoints,
        })
      const draft = (title: string) => approvedDraft(drafts, title)

      // A publication not pushed yet: its merge commit records the trail before it (the save,
      // the submission and the approval), the checkpoint the trail after it (with its own entry).
      await draft('About us, first')
      const first = await publisherPushing(false).publish(paul, 'pages/about')
      let trail = await readAudit(database)
      expect(trail.map((entry) => entry.action)).toEqual(['save', 'submit', 'approve', 'publish'])
      expect(await messageOf(MAIN)).toMatch(
        new RegExp(`^Publish pages/about\\n\\n.*\\n\\nAudit-Trail: 3 ${trail[2]?.hash}$`),
      )
      expect(await messageOf(CHECKPOINT_REF)).toBe(
        `Audit trail: 4 entries\n\nAudit-Trail: 4 ${trail[3]?.hash}`,
      )

      // A developer pushed meanwhile: the next publication takes it in with a merge commit,
      // anchored too, and pushes main and the checkpoint.
      const developer = await remote.commit({
        ref: MAIN,
        parent: await remote.resolve(MAIN),
        changes: [{ path: 'NOTES.md', content: 'a developer’s note\n' }],
        author: DEVELOPER,
        message: 'Notes',
      })
      now = new Date('2026-11-26T09:10:00Z')
      await draft('About us, second')
      await publisherPushing(true).publish(paul, 'pages/about')
      trail = await readAudit(database)
      const takeIn = trail.findIndex((entry) => entry.action === 'take-in')
      const mainTip = (await repo.resolve(MAIN)) as string
      expect(await messageOf(`${mainTip}^`)).toMatch(
        new RegExp(
          `^Take in main of the remote\\n\\nAudit-Trail: ${takeIn} ${trail[takeIn - 1]?.hash}$`,
        ),
      )
      expect(await repo.isAncestor(developer, mainTip)).toBe(true)
      expect(await remote.resolve(MAIN)).toBe(mainTip)
      expect(await remote.resolve(CHECKPOINT_REF)).toBe(await repo.resolve(CHECKPOINT_REF))
      expect(await messageOf(CHECKPOINT_REF, remote)).toContain(
        `Audit-Trail: ${trail.length} ${trail.at(-1)?.hash}`,
      )

      // A rollback: its commit on main and the checkpoint after it.
      now = new Date('2026-11-26T09:20:00Z')
      await publisherPushing(true).rollBack(paul, first.folder)
      trail = await readAudit(database)
      expect(await messageOf(MAIN)).toMatch(/^Roll back to release /)
      expect(await messageOf(MAIN)).toContain(`Audit-Trail: ${trail.length - 1} `)
      expect(await messageOf(CHECKPOINT_REF, remote)).toContain(
        `Audit-Trail: ${trail.length} ${trail.at(-1)?.hash}`,
      )

      // Every anchor agrees: four on main (two publications, a take-in, a rollback), three
      // checkpoints; locally and on the remote.
      const found = await readAnchors(repo, { url: remote.gitDir, branch: 'main', push: true })
      expect(found.problems).toEqual([])
      expect(found.anchors.filter((anchor) => anchor.name.startsWith('commit'))).toHaveLength(4)
      expect(found.anchors.filter((anchor) => anchor.name.startsWith('checkpoint'))).toHaveLength(3)
      expect(await verifyAudit(database, found.anchors)).toEqual({
        ok: true,
        entries: trail.length,
        anchors: { checked: 7, last: trail.length },
      })

      // The last entries removed by the database's owner: the newest checkpoint names it.
      await asOwner(database, async () => {
        await database.query('DELETE FROM audit_entries WHERE id > $1', [trail.length - 2])
      })
      const check = await verifyAudit(database, found.anchors)
      expect(check).toMatchObject({ ok: false, brokenAt: trail.length - 1 })
      expect(check.ok || check.reason).toMatch(
        new RegExp(
          `^checkpoint [0-9a-f]{12} \\(refs/audit/checkpoint, .*\\) records ${trail.length} entries, the last with hash ${trail.at(-1)?.hash.slice(0, 12)}…, the database has ${trail.length - 2}: entries were removed from the end$`,
        ),
      )
    })

    it('names the checkpoint that records more entries than the database has', async () => {
      await records(1, 5)
      expect(await checkpoints.write()).toBe(true)
      await records(6, 7)
      // Without anchors, removing the last entries leaves a chain that checks out.
      await asOwner(database, async () => {
        await database.query('DELETE FROM audit_entries WHERE id > 3')
      })
      expect(await verifyAudit(database)).toEqual({ ok: true, entries: 3 })
      const check = await verifyAudit(database, await anchors())
      expect(check).toMatchObject({ ok: false, entries: 3, brokenAt: 4 })
      expect(check.ok || check.anchor).toMatch(/^checkpoint [0-9a-f]{12} \(refs\/audit\/checkpoint/)
      expect(check.ok || check.reason).toMatch(/records 5 entries, .* the database has 3/)
    })

    it('names the entry changed without computing the chain again', async () => {
      await records(1, 5)
      await checkpoints.write()
      await asOwner(database, async () => {
        await database.query("UPDATE audit_entries SET subject = 'pages/other' WHERE id = 3")
      })
      expect(await verifyAudit(database, await anchors())).toEqual({
        ok: false,
        entries: 2,
        brokenAt: 3,
        reason: 'its content was changed',
      })
    })

    it('names the first anchor after an entry changed with every later hash computed again', async () => {
      await records(1, 2)
      await checkpoints.write()
      now = new Date('2026-11-26T09:10:00Z')
      await records(3, 5)
      // A commit on main made by the service, anchoring 5 entries.
      const main = (await repo.resolve(MAIN)) as string
      const tree = (await repo.git(['rev-parse', `${main}^{tree}`])).toString().trim()
      const commit = await repo.commitTree(tree, {
        parents: [main],
        author: DEVELOPER,
        message: await repo.withTrailers('Publish pages/news'),
      })
      await repo.moveRef(MAIN, commit, main)
      await records(6, 6)

      await rewrite(database, 4, (entry) => ({ ...entry, subject: 'pages/never-saved' }))
      // The chain alone checks out: that is what the anchors are for.
      expect(await verifyAudit(database)).toEqual({ ok: true, entries: 6 })
      const check = await verifyAudit(database, await anchors())
      expect(check).toMatchObject({
        ok: false,
        brokenAt: 5,
        anchor: expect.stringMatching(/^commit [0-9a-f]{12} on main \("Publish pages\/news", /),
      })
      expect(check.ok || check.reason).toMatch(
        /records entry 5 with hash [0-9a-f]{12}…, the database's has [0-9a-f]{12}…: the trail was rewritten at or before entry 5, after entry 2 \(the last anchor that agrees\)$/,
      )
    })

    it('keys the hashes with AUDIT_KEY: no one without it computes them again, nor drops them', async () => {
      await records(1, 2)
      setAuditKeys([KEY])
      // Keying starts with an entry of its own, anchored at once (the service does both).
      const started = await recordAuditKey(database, now)
      expect(started).toMatchObject({ id: 3, action: 'audit-key', keyId: keyIdOf(KEY) })
      expect(await recordAuditKey(database, now)).toBeNull()
      await checkpoints.write()
      await records(4, 6)
      const trail = await readAudit(database)
      expect(trail.map((entry) => entry.keyId)).toEqual([
        null,
        null,
        keyIdOf(KEY),
        keyIdOf(KEY),
        keyIdOf(KEY),
        keyIdOf(KEY),
      ])
      expect(await verifyAudit(database, await anchors())).toEqual({
        ok: true,
        entries: 6,
        anchors: { checked: 1, last: 3 },
      })

      // Without the key: links and anchors checked, the keyed hashes said to be unchecked.
      setAuditKeys(undefined)
      expect(await verifyAudit(database, await anchors())).toEqual({
        ok: true,
        entries: 6,
        anchors: { checked: 1, last: 3 },
        unchecked: { entries: 4, keys: [keyIdOf(KEY)] },
      })
      // Nor is anything appended without it, and the service does not start.
      await expect(record(7)).rejects.toThrow(AuditKeyError)
      await expect(checkAuditKey(database)).rejects.toThrow(/set AUDIT_KEY/)
      setAuditKeys([OTHER_KEY])
      await expect(checkAuditKey(database)).rejects.toThrow(/keep the old key after the new one/)

      // An entry after the last anchor, changed and computed again by someone without the key:
      // unkeyed, the downgrade is named; keyed with a guess, its hash.
      setAuditKeys([KEY])
      await rewrite(database, 5, (entry) => ({ ...entry, subject: 'pages/never-saved' }))
      expect(await verifyAudit(database, await anchors())).toMatchObject({
        ok: false,
        brokenAt: 5,
        reason:
          'it is not keyed, though the entries from 3 on are: it was written again without the key',
      })
      await rewrite(database, 5, (entry) => ({ ...entry, subject: 'pages/never-saved' }), {
        key: 'a guess at the key of at least 32 chars',
        keyId: keyIdOf(KEY),
      })
      expect(await verifyAudit(database, await anchors())).toMatchObject({
        ok: false,
        brokenAt: 5,
        reason: 'its content was changed',
      })
      // The whole keyed part written again unkeyed: the anchor where keying began disagrees.
      await rewrite(database, 3, (entry) => ({ ...entry, subject: 'pages/never-keyed' }))
      expect(await verifyAudit(database, await anchors())).toMatchObject({
        ok: false,
        brokenAt: 3,
        anchor: expect.stringMatching(/^checkpoint /),
      })
    })

    it('checks entries keyed with an older key kept after the new one', async () => {
      setAuditKeys([KEY])
      await recordAuditKey(database, now)
      await records(2, 3)
      setAuditKeys([OTHER_KEY, KEY])
      await checkAuditKey(database)
      expect(await recordAuditKey(database, now)).toMatchObject({
        id: 4,
        details: { keyId: keyIdOf(OTHER_KEY), previousKeyId: keyIdOf(KEY) },
      })
      await records(5, 5)
      expect((await readAudit(database)).map((entry) => entry.keyId)).toEqual([
        keyIdOf(KEY),
        keyIdOf(KEY),
        keyIdOf(KEY),
        keyIdOf(OTHER_KEY),
        keyIdOf(OTHER_KEY),
      ])
      expect(await verifyAudit(database)).toEqual({ ok: true, entries: 5 })
      // The old key left out: its entries pass unchecked where an anchor written since (the
      // checkpoint the service writes when keying changes) vouches for them, and only there.
      setAuditKeys([OTHER_KEY])
      const trail = await readAudit(database)
      const checkpoint = { length: 4, head: trail[3]?.hash as string, name: 'checkpoint' }
      expect(await verifyAudit(database, [checkpoint])).toEqual({
        ok: true,
        entries: 5,
        anchors: { checked: 1, last: 4 },
        unchecked: { entries: 3, keys: [keyIdOf(KEY)] },
      })
      // Without that anchor, an old key dropped from AUDIT_KEY cannot be told from someone
      // else's: unverifiable, not tampered, from the first entry no anchor vouches for.
      expect(await verifyAudit(database)).toEqual({
        ok: true,
        entries: 5,
        unchecked: { entries: 3, keys: [keyIdOf(KEY)], unvouchedFrom: 1 },
      })
      // Someone who may only insert rows writes an entry with a key of their own: it links to
      // the last entry, and no anchor vouches for it.
      await database.query(
        `INSERT INTO audit_entries
           (id, at, actor, action, subject, details, previous_hash, key_id, hash)
         VALUES (6, now(), 'rita@bank.example', 'approve', 'pages/evil', '{}', $1, 'deadbeefdeadbeef', $2)`,
        [trail[4]?.hash, 'a'.repeat(64)],
      )
      const forged = await verifyAudit(database, [checkpoint])
      expect(forged).toEqual({
        ok: true,
        entries: 6,
        anchors: { checked: 1, last: 4 },
        unchecked: { entries: 4, keys: [keyIdOf(KEY), 'deadbeefdeadbeef'], unvouchedFrom: 6 },
      })
      expect(auditOutcome(forged, undefined)).toMatchObject({
        kind: 'unverifiable',
        reason: expect.stringMatching(
          /\(.*deadbeefdeadbeef\), and from entry 6 on no anchor vouches for them: if that is not an old key of the bank's.*they were written by someone else/,
        ),
      })
    })

    it('takes no anchor from an editor’s commit message', async () => {
      await records(1, 2)
      const forged = `Audit-Trail: 2 ${'f'.repeat(64)}`
      const main = (await repo.resolve(MAIN)) as string
      const commit = await repo.commit({
        ref: 'refs/heads/cms/pages/about',
        parent: main,
        changes: [{ path: ABOUT, content: 'title: x\n' }],
        expected: null,
        author: { name: 'Ada', email: ada.email },
        message: `About\n\n${forged}\n  audit-trail : 1 ${'e'.repeat(64)}`,
      })
      const message = await messageOf(commit)
      expect(message).toContain(`> ${forged}`)
      expect(message).toContain('>   audit-trail : 1')
      // On main it would be reachable from a publication's merge.
      await repo.moveRef(MAIN, commit, main)
      expect(await anchors()).toEqual([])
      expect(await verifyAudit(database, await anchors())).toEqual({
        ok: true,
        entries: 2,
      })
    })

    it('writes a checkpoint as the trail grows, pushed at the interval, one chain across processes', async () => {
      expect(await checkpoints.writeIfDue()).toBe(false)
      await records(1, 2)
      expect(await checkpoints.writeIfDue()).toBe(true)
      // Pushed: the remote has it.
      const pushed = await repo.resolve(CHECKPOINT_REF)
      expect(await remote.resolve(CHECKPOINT_REF)).toBe(pushed)
      // Each turn of the timer writes one while the trail grows; pushes wait for the interval.
      await records(3, 3)
      now = new Date('2026-11-26T09:04:59Z')
      expect(await checkpoints.writeIfDue()).toBe(true)
      expect(await remote.resolve(CHECKPOINT_REF)).toBe(pushed)
      expect(await checkpoints.writeIfDue()).toBe(false)
      now = new Date('2026-11-26T09:05:00Z')
      await records(4, 4)
      expect(await checkpoints.writeIfDue()).toBe(true)
      expect(await remote.resolve(CHECKPOINT_REF)).toBe(await repo.resolve(CHECKPOINT_REF))
      // Another process's checkpoints extend the same chain.
      const other = new AuditCheckpoints({ database, repo, everyMs: 60_000, clock })
      await records(5, 5)
      expect(await other.write()).toBe(true)
      await records(6, 6)
      expect(await checkpoints.write()).toBe(true)
      const chain = (await repo.git(['log', '--format=%s', CHECKPOINT_REF])).toString('utf8')
      expect(chain.trim().split('\n')).toEqual([
        'Audit trail: 6 entries',
        'Audit trail: 5 entries',
        'Audit trail: 4 entries',
        'Audit trail: 3 entries',
        'Audit trail: 2 entries',
      ])
      // A trail that lost what its last checkpoint records gets no new one.
      await asOwner(database, async () => {
        await database.query('DELETE FROM audit_entries WHERE id > 3')
      })
      now = new Date('2026-11-26T09:30:00Z')
      await records(4, 7)
      await expect(checkpoints.write()).rejects.toThrow(AnchorDisagreesError)
      await expect(checkpoints.write()).rejects.toThrow(
        /no longer has what its last checkpoint \([0-9a-f]{12}\) records: entry 6/,
      )
    })

    it('counts a tagged anchor only with its key’s tag, and names a checkpoint ref moved back', async () => {
      setAuditKeys([KEY])
      await records(1, 2)
      await checkpoints.write()
      const early = (await repo.resolve(CHECKPOINT_REF)) as string
      await records(3, 4)
      await checkpoints.write()
      expect(auditOutcome(...(await checked()))).toEqual({ kind: 'intact', entries: 4, anchors: 2 })
      // An anchor with a made-up tag, or one of a key the service does not hold, counts for
      // nothing: neither vouches for the trail, neither can be used to disown it.
      const head = (await readAudit(database))[3]?.hash as string
      for (const [keyId, tag] of [
        [keyIdOf(KEY), 'b'.repeat(64)],
        ['0123456789abcdef', 'c'.repeat(64)],
      ]) {
        const parent = (await repo.resolve(CHECKPOINT_REF)) as string
        const commit = await repo.commitTree((await repo.git(['mktree'], '')).toString().trim(), {
          parents: [parent],
          author: DEVELOPER,
          message: `Audit trail: 9 entries\n\nAudit-Trail: 9 ${head} ${keyId} ${tag}\n`,
        })
        await repo.git(['update-ref', CHECKPOINT_REF, commit])
      }
      const [, sources] = await checked()
      expect(sources?.ignored).toEqual([
        expect.stringMatching(/carries an anchor whose tag AUDIT_KEY did not make \(forged\)$/),
      ])
      expect(sources?.unknownKeys).toEqual([expect.stringMatching(/\(key 0123456789abcdef\)$/)])
      expect(auditOutcome(...(await checked()))).toMatchObject({ kind: 'intact', entries: 4 })

      // The ref moved back to the checkpoint of entry 2, the entries after it removed: the
      // tips its reflog keeps still count, and the move is named.
      await repo.git(['update-ref', CHECKPOINT_REF, early])
      await asOwner(database, async () => {
        await database.query('DELETE FROM audit_entries WHERE id > 2')
      })
      const found = await readAnchors(repo)
      expect(found.rewritten).toEqual([
        expect.stringMatching(
          /^refs\/audit\/checkpoint moved backwards: its chain no longer holds [0-9a-f]{12}/,
        ),
      ])
      expect(auditOutcome(...(await checked()))).toMatchObject({
        kind: 'tampered',
        brokenAt: 3,
        reason: expect.stringMatching(
          /records 4 entries, .* the database has 2: entries were removed from the end/,
        ),
      })
      // And this process, which wrote the later checkpoint, writes none on the moved ref.
      await records(3, 3)
      await expect(checkpoints.write()).rejects.toThrow(AnchorDisagreesError)
      // A process that did not know it reads the ref, and says it moved.
      const other = new AuditCheckpoints({ database, repo, everyMs: 60_000, clock })
      await expect(other.write()).resolves.toBe(true)
      await repo.git(['update-ref', CHECKPOINT_REF, early])
      await records(4, 4)
      await expect(other.write()).rejects.toThrow(/refs\/audit\/checkpoint moved backwards/)
    })

    it('anchors every entry within the timer’s window, each process on its own', async () => {
      setAuditKeys([KEY])
      const quick = new AuditCheckpoints({
        database,
        repo,
        everyMs: 60_000,
        anchorWithinMs: 400,
        clock,
      })
      const stop = quick.start(15)
      try {
        await records(1, 3)
        await expect
          .poll(async () => auditOutcome(...(await checked())), { timeout: 10_000 })
          .toMatchObject({ kind: 'intact', entries: 3 })
        await records(4, 4)
        await expect
          .poll(async () => auditOutcome(...(await checked())).kind, { timeout: 10_000 })
          .toBe('intact')
      } finally {
        await stop()
      }
    })

    it('stops only once a checkpoint under way is written, so the database is never closed under it', async () => {
      const slow = new AuditCheckpoints({ database, repo, everyMs: 60_000, clock })
      const work = heldWork()
      const write = slow.writeIfDue.bind(slow)
      slow.writeIfDue = async () => {
        await work.hold()
        return write()
      }
      await work.expectStopToWait(slow.start(0.01))
    })

    it('finds the remote’s anchors when the service’s repository was rewritten too', async () => {
      await records(1, 4)
      await checkpoints.write()
      await checkpoints.push()
      // Whoever holds this machine removes entries, and the checkpoint ref here.
      await asOwner(database, async () => {
        await database.query('DELETE FROM audit_entries WHERE id > 2')
      })
      await repo.deleteRef(CHECKPOINT_REF, (await repo.resolve(CHECKPOINT_REF)) as string)
      expect(await verifyAudit(database, await anchors())).toEqual({ ok: true, entries: 2 })
      const found = await readAnchors(repo, { url: remote.gitDir, branch: 'main', push: true })
      expect(await verifyAudit(database, found.anchors)).toMatchObject({
        ok: false,
        brokenAt: 3,
        anchor: expect.stringMatching(/^checkpoint [0-9a-f]{12} \(the remote's refs\/audit\//),
      })
      // A remote that cannot be read is said so, the rest checked.
      const unreachable = await readAnchors(repo, {
        url: join(dir, 'nowhere.git'),
        branch: 'main',
        push: true,
      })
      expect(unreachable.problems).toEqual([
        expect.stringMatching(/^the remote's anchors could not be read/),
      ])
    })

    it('finds the remote’s checkpoints rewritten since the last look, or gone', async () => {
      const bank = { url: remote.gitDir, branch: 'main', push: true }
      await records(1, 2)
      await checkpoints.write()
      await checkpoints.push()
      expect((await readAnchors(repo, bank)).rewritten).toEqual([])
      // Whoever may push to the bank's repository replaces its checkpoints with a chain of
      // their own (after the trail was rewritten): the last look's checkpoint is not in it.
      await records(3, 3)
      const forged = await remote.commitTree((await remote.git(['mktree'], '')).toString().trim(), {
        parents: [],
        author: DEVELOPER,
        message: `Audit trail: 3 entries\n\nAudit-Trail: 3 ${(await readAudit(database))[2]?.hash}\n`,
      })
      await remote.git(['update-ref', CHECKPOINT_REF, forged])
      const rewritten = await readAnchors(repo, bank)
      expect(rewritten.rewritten).toEqual([
        expect.stringMatching(
          /^the remote's refs\/audit\/checkpoint was rewritten: it no longer holds [0-9a-f]{12}/,
        ),
      ])
      // And found again at the next look: what was seen stays what it must descend from.
      expect((await readAnchors(repo, bank)).rewritten).toHaveLength(1)
      await remote.git(['update-ref', '-d', CHECKPOINT_REF])
      expect((await readAnchors(repo, bank)).rewritten).toEqual([
        expect.stringMatching(/^the remote's refs\/audit\/checkpoint is gone/),
      ])
    })

    it('counts no anchor that someone pushed to main: only those on the service’s own commits', async () => {
      await records(1, 2)
      // A developer's commit whose message reads as an anchor, taken in by a fast-forward.
      // (Written with git itself: the service's own commits quote such lines.)
      const parent = (await remote.resolve(MAIN)) as string
      const tree = (await remote.git(['rev-parse', `${parent}^{tree}`])).toString().trim()
      const pushed = (
        await remote.git(
          [
            'commit-tree',
            tree,
            '-p',
            parent,
            '-m',
            'Notes',
            '-m',
            `Audit-Trail: 99999 ${'a'.repeat(64)}`,
          ],
          undefined,
          {
            GIT_AUTHOR_NAME: DEVELOPER.name,
            GIT_AUTHOR_EMAIL: DEVELOPER.email,
            GIT_COMMITTER_NAME: DEVELOPER.name,
            GIT_COMMITTER_EMAIL: DEVELOPER.email,
          },
        )
      )
        .toString()
        .trim()
      await remote.git(['update-ref', MAIN, pushed])
      await repo.git(['fetch', '--quiet', remote.gitDir, `+${MAIN}:${MAIN}`])
      expect(await repo.resolve(MAIN)).toBe(pushed)
      const { check, sources } = await verifyWithAnchors(database, repo)
      expect(check).toMatchObject({ ok: true, entries: 2 })
      expect(sources?.ignored).toEqual([
        expect.stringMatching(/^commit [0-9a-f]{12} on main \("Notes"/),
      ])
    })
  })
}

describe('the publishing service with AUDIT_KEY', () => {
  it('starts keying with an entry of its own, anchored at once, and does not start without the key', async () => {
    const dir = await temporaryFolder('audit-key-service-')
    try {
      const repository = join(dir, 'site.git')
      await siteRepository(repository)
      const env = { DATA_DIR: dir, PUBLISHING_REPO: repository, PUBLISHING_REMOTE: 'none' }
      const first = await openServiceWithStandInBuild({ ...env, AUDIT_KEY: KEY })
      const [entry] = await readAudit(first.database)
      expect(entry).toMatchObject({ id: 1, action: 'audit-key', keyId: keyIdOf(KEY) })
      expect(
        (await first.repo.git(['log', '-1', '--format=%B', CHECKPOINT_REF])).toString('utf8'),
      ).toContain(`Audit-Trail: 1 ${entry?.hash}`)
      await first.close()
      await expect(openServiceWithStandInBuild(env)).rejects.toThrow(
        /^AUDIT_KEY: is not set, and the audit trail is keyed from an AUDIT_KEY .*; set AUDIT_KEY to that key$/,
      )
      // Started again with its key: nothing more to record.
      const again = await openServiceWithStandInBuild({ ...env, AUDIT_KEY: KEY })
      expect(await readAudit(again.database)).toHaveLength(1)
      await again.close()
    } finally {
      setAuditKeys(undefined)
      await removeFolder(dir)
    }
  })
})
