/**
 * People, invitations and sessions on PGlite and PostgreSQL: the first administrator's link
 * only while nobody exists, invitations used once, sessions that expire, idle out and are
 * revoked, roles that apply at once, and no token in the database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import {
  acceptInvitation,
  disablePerson,
  endSession,
  firstAdministratorInvitation,
  IDLE_MS,
  invitationOf,
  invite,
  listPeople,
  normalEmail,
  PeopleError,
  SESSION_MS,
  sessionPerson,
  setRoles,
  startSession,
} from '../../../../src/publishing/people/people'
import { databases } from '../../../support/forms'
import { openPublishingDatabase, type TestDatabase } from '../../../support/publishing'

const T0 = new Date('2026-11-26T09:00:00Z')
const later = (ms: number) => new Date(T0.getTime() + ms)

for (const kind of databases()) {
  describe(`people on ${kind.name}`, () => {
    let database: Database
    let opened: TestDatabase

    beforeEach(async () => {
      opened = await openPublishingDatabase(kind)
      database = opened.database
    })

    afterEach(async () => {
      await opened.close()
    })

    /** The first administrator, signed up through the printed link. */
    async function administrator() {
      const link = await firstAdministratorInvitation(database, 'Ada@Bank.example', T0)
      if (!link) throw new Error('no first link')
      return acceptInvitation(database, link.token, { name: 'Ada Admin' }, T0)
    }

    it('offers the first administrator one link, only while nobody exists', async () => {
      const [one, two] = await Promise.all([
        firstAdministratorInvitation(database, 'ada@bank.example', T0),
        firstAdministratorInvitation(database, 'ada@bank.example', T0),
      ])
      expect([one, two].filter(Boolean)).toHaveLength(1)
      const link = one ?? two
      expect(await invitationOf(database, link?.token ?? '', T0)).toEqual({
        email: 'ada@bank.example',
        roles: ['administrator'],
        first: true,
      })
      const ada = await acceptInvitation(database, link?.token ?? '', { name: 'Ada' }, T0)
      expect(ada).toEqual({
        email: 'ada@bank.example',
        name: 'Ada',
        roles: ['administrator'],
        language: 'en',
      })
      expect(await firstAdministratorInvitation(database, 'eve@evil.example', T0)).toBeNull()
    })

    it('lets the first administrator give their address; an invitation is for the address it was sent to', async () => {
      const link = await firstAdministratorInvitation(
        database,
        'placeholder@publishing.invalid',
        T0,
      )
      const first = await acceptInvitation(
        database,
        link?.token ?? '',
        { name: 'Ada', email: ' Ada@Bank.example ' },
        T0,
      )
      expect(first.email).toBe('ada@bank.example')
      const sent = await invite(
        database,
        { email: 'rita@bank.example', roles: ['reviewer'], by: first.email },
        T0,
      )
      const rita = await acceptInvitation(
        database,
        sent.token,
        { name: 'Rita', email: 'mallory@evil.example' },
        T0,
      )
      expect(rita.email).toBe('rita@bank.example')
    })

    it('invites no one who can sign in already, and ends the invitations of someone whose access is taken away', async () => {
      const ada = await administrator()
      await expect(
        invite(database, { email: ada.email, roles: ['author'], by: ada.email }, T0),
      ).rejects.toThrow(/can sign in already/)
      const sent = await invite(
        database,
        { email: 'rita@bank.example', roles: ['reviewer'], by: ada.email },
        T0,
      )
      await acceptInvitation(database, sent.token, { name: 'Rita' }, T0)
      const again = await invite(
        database,
        { email: 'olga@bank.example', roles: ['author'], by: ada.email },
        T0,
      )
      await acceptInvitation(database, again.token, { name: 'Olga' }, T0)
      const open = await invite(
        database,
        { email: 'max@bank.example', roles: ['author'], by: ada.email },
        T0,
      )
      await disablePerson(database, 'max@bank.example', T0)
      expect(await invitationOf(database, open.token, later(1000))).toBeNull()
    })

    it('takes plain addresses only, as git records them', () => {
      for (const address of [
        'eve@bank.com.',
        "'eve@bank.com",
        '<eve@bank.com>',
        'eve..x@bank.com',
        'eve@bank',
      ]) {
        expect(() => normalEmail(address), address).toThrow(PeopleError)
      }
      expect(normalEmail(' Eve.Example+cms@Bank.example ')).toBe('eve.example+cms@bank.example')
    })

    it('uses an invitation once, and not after it expired', async () => {
      await administrator()
      const { token } = await invite(
        database,
        { email: 'rita@bank.example', roles: ['reviewer'], by: 'ada@bank.example' },
        T0,
      )
      const expired = await invite(
        database,
        { email: 'paul@bank.example', roles: ['publisher'], by: 'ada@bank.example' },
        T0,
      )
      const rita = await acceptInvitation(
        database,
        token,
        { name: 'Rita', language: 'de' },
        later(60_000),
      )
      expect(rita.roles).toEqual(['reviewer'])
      expect(rita.language).toBe('de')
      await expect(
        acceptInvitation(database, token, { name: 'Mallory' }, later(120_000)),
      ).rejects.toThrow(/used already or has expired/)
      await expect(
        acceptInvitation(database, expired.token, { name: 'Paul' }, later(73 * 3600_000)),
      ).rejects.toBeInstanceOf(PeopleError)
      expect((await listPeople(database)).map((person) => person.name)).toEqual([
        'Ada Admin',
        'Rita',
      ])
    })

    it('refuses unknown roles, no roles, and addresses that are none', async () => {
      await expect(
        invite(database, { email: 'x@bank.example', roles: ['owner'], by: 'a' }, T0),
      ).rejects.toThrow(/Unknown roles: owner/)
      await expect(
        invite(database, { email: 'x@bank.example', roles: [], by: 'a' }, T0),
      ).rejects.toThrow(/at least one role/)
      await expect(
        invite(database, { email: 'not an address', roles: ['author'], by: 'a' }, T0),
      ).rejects.toThrow(/Not an e-mail address/)
    })

    it('keeps sessions on the server: idle, expired, signed out and revoked sessions open nothing', async () => {
      await administrator()
      const { token } = await startSession(database, 'ada@bank.example', T0)
      expect((await sessionPerson(database, token, later(IDLE_MS - 1000)))?.email).toBe(
        'ada@bank.example',
      )
      // Each use moves the idle limit on; the absolute limit holds anyway.
      let at = IDLE_MS - 1000
      while (at + IDLE_MS - 1000 < SESSION_MS) {
        at += IDLE_MS - 1000
        expect(await sessionPerson(database, token, later(at)), `at ${at}`).not.toBeNull()
      }
      expect(await sessionPerson(database, token, later(SESSION_MS + 1))).toBeNull()

      const idle = await startSession(database, 'ada@bank.example', T0)
      expect(await sessionPerson(database, idle.token, later(IDLE_MS + 1))).toBeNull()

      const out = await startSession(database, 'ada@bank.example', T0)
      await endSession(database, out.token, later(1000))
      expect(await sessionPerson(database, out.token, later(2000))).toBeNull()
      expect(await sessionPerson(database, 'a forged token', T0)).toBeNull()
      // The database holds hashes only.
      const stored = await database.query<{ token_hash: string }>('SELECT token_hash FROM sessions')
      expect(stored.map((row) => row.token_hash)).not.toContain(token)
    })

    it('applies new roles at once by ending the person’s sessions, and keeps one administrator', async () => {
      await administrator()
      const { token } = await invite(
        database,
        { email: 'rita@bank.example', roles: ['reviewer'], by: 'ada@bank.example' },
        T0,
      )
      await acceptInvitation(database, token, { name: 'Rita' }, T0)
      const session = await startSession(database, 'rita@bank.example', T0)
      const rita = await setRoles(
        database,
        'rita@bank.example',
        ['reviewer', 'publisher'],
        later(1000),
      )
      expect(rita.roles).toEqual(['reviewer', 'publisher'])
      expect(await sessionPerson(database, session.token, later(2000))).toBeNull()
      await expect(setRoles(database, 'ada@bank.example', ['author'], later(3000))).rejects.toThrow(
        /Someone else must be an administrator/,
      )
      await setRoles(database, 'rita@bank.example', ['administrator'], later(4000))
      expect((await setRoles(database, 'ada@bank.example', ['author'], later(5000))).roles).toEqual(
        ['author'],
      )
    })

    it('withdraws a reviewer’s approvals when the role or the access is taken away: the drafts go back to review', async () => {
      await administrator()
      for (const [email, roles] of [
        ['rita@bank.example', ['reviewer']],
        ['rolf@bank.example', ['reviewer']],
      ] as const) {
        const { token } = await invite(database, { email, roles, by: 'ada@bank.example' }, T0)
        await acceptInvitation(database, token, { name: email.split('@')[0] ?? '' }, T0)
      }
      // Three drafts ready: two approved by Rita, one by Rolf.
      for (const [id, by] of [
        ['pages/about', 'rita@bank.example'],
        ['pages/imprint', 'rita@bank.example'],
        ['pages/privacy', 'rolf@bank.example'],
      ]) {
        await database.query(
          `INSERT INTO drafts (id, status, base_commit, created_by, created_at, updated_at)
           VALUES ($1, 'pending_publish', $2, 'ada@bank.example', $3, $3)`,
          [id, 'a'.repeat(40), T0.toISOString()],
        )
        await database.query(
          'INSERT INTO approvals (draft_id, approved_by, commit, at) VALUES ($1, $2, $3, $4)',
          [id, by, 'b'.repeat(40), T0.toISOString()],
        )
      }
      const statuses = async () =>
        Object.fromEntries(
          (
            await database.query<{ id: string; status: string }>(
              'SELECT id, status FROM drafts ORDER BY id',
            )
          ).map((row) => [row.id, row.status]),
        )
      // Another role besides keeps the approvals; losing the reviewer's withdraws them.
      expect(
        (await setRoles(database, 'rita@bank.example', ['reviewer', 'author'], later(1000)))
          .approvalsWithdrawn,
      ).toEqual([])
      const rita = await setRoles(database, 'rita@bank.example', ['author'], later(2000))
      expect(rita.approvalsWithdrawn).toEqual(['pages/about', 'pages/imprint'])
      expect(await statuses()).toEqual({
        'pages/about': 'pending_review',
        'pages/imprint': 'pending_review',
        'pages/privacy': 'pending_publish',
      })
      expect(await disablePerson(database, 'rolf@bank.example', later(3000))).toEqual({
        approvalsWithdrawn: ['pages/privacy'],
      })
      expect((await statuses())['pages/privacy']).toBe('pending_review')
      expect(await database.query('SELECT * FROM approvals')).toEqual([])
    })

    it('takes a person’s access away, sessions included, and keeps their record', async () => {
      await administrator()
      const { token } = await invite(
        database,
        { email: 'paul@bank.example', roles: ['publisher'], by: 'ada@bank.example' },
        T0,
      )
      await acceptInvitation(database, token, { name: 'Paul' }, T0)
      const session = await startSession(database, 'paul@bank.example', T0)
      await disablePerson(database, 'paul@bank.example', later(1000))
      expect(await sessionPerson(database, session.token, later(2000))).toBeNull()
      expect(
        (await listPeople(database)).find((person) => person.email === 'paul@bank.example')
          ?.disabled,
      ).toBe(true)
    })
  })
}
