/**
 * Drafts on a real git repository and database: a save is a commit on the draft's own branch
 * by its author, main untouched; approvals by a reviewer who wrote none of it, bound to the
 * commit and lapsing with the next edit; a draft sent back with a comment; each refusal a
 * clear message that changes nothing and is in the audit trail.
 */
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '../../../../src/database/database'
import { readAudit, verifyAudit } from '../../../../src/publishing/audit/trail'
import {
  type GitRepository,
  initBare,
  RefMovedError,
  UnsafePathError,
} from '../../../../src/publishing/git/repository'
import type { Person } from '../../../../src/publishing/people/roles'
import { landDraft, mergeDraft } from '../../../../src/publishing/publication/publish'
import {
  branchOf,
  DraftConflictError,
  Drafts,
  type DraftView,
  MAIN,
  RefusedError,
} from '../../../../src/publishing/workflow/drafts'
import { approvalStands } from '../../../../src/publishing/workflow/four-eyes'
import { ada, olga, paul, person, rita } from '../../../support/people'
import {
  ABOUT,
  approveSeen,
  openPublishingDatabase,
  type TestDatabase,
} from '../../../support/publishing'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let dir: string
let repo: GitRepository
let database: Database
let opened: TestDatabase
let drafts: Drafts
let main: string
let tick = 0
const clock = () => new Date(Date.UTC(2026, 10, 26, 9, 0, tick++))

beforeEach(async () => {
  dir = await temporaryFolder('publishing-drafts-')
  repo = await initBare(join(dir, 'site.git'))
  main = await repo.commit({
    ref: MAIN,
    parent: null,
    changes: [{ path: ABOUT, content: 'title: About\n' }],
    author: { name: 'Developer', email: 'dev@bank.example' },
    message: 'Site',
  })
  opened = await openPublishingDatabase({})
  database = opened.database
  drafts = new Drafts(database, repo, clock)
})

afterEach(async () => {
  await opened.close()
  await removeFolder(dir)
})

const save = (who: Person, title: string) =>
  drafts.save(
    who,
    'pages/about',
    [{ path: ABOUT, content: `title: ${title}\n` }],
    `About: ${title}`,
  )

/** What publishing a draft works with here (src/publishing/publication/publish.ts): no build, no lease. */
const publishing = () => ({ database, repo, drafts, clock })

describe('drafts', () => {
  it('saves to the draft’s own branch as its author; main stays as it was', async () => {
    const draft = await save(ada, 'About us')
    expect(draft).toMatchObject({
      status: 'draft',
      writers: [ada.email],
      files: [ABOUT],
      approval: null,
      base: main,
    })
    expect(await repo.resolve(MAIN)).toBe(main)
    expect((await repo.readFile(draft.head, ABOUT))?.toString()).toBe('title: About us\n')
    expect(await repo.resolve(branchOf('pages/about'))).toBe(draft.head)
  })

  it('lets a reviewer who wrote none of it approve the current commit; the next edit voids it', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await expect(approveSeen(drafts, ada, 'pages/about')).rejects.toThrow(
      /Only people with the reviewer role may approve/,
    )
    const approved = await approveSeen(drafts, rita, 'pages/about')
    expect(approved.status).toBe('pending_publish')
    expect(approvalStands(approved)).toBe(true)

    // An edit returns it to draft: that version is not what anyone submitted or approved.
    const edited = await save(ada, 'About Lumora')
    expect(edited).toMatchObject({ status: 'draft', submission: null })
    expect(approvalStands(edited)).toBe(false)
    await drafts.setStatus(ada, 'pages/about', 'pending_review', edited.head)
    const again = await approveSeen(drafts, rita, 'pages/about')
    expect(approvalStands(again)).toBe(true)
    expect(again.approval?.commit).toBe(edited.head)
  })

  it('approves only the version the reviewer saw: a save after she opened it is refused, saying who saved it', async () => {
    // Finding 1 of the insider's probe: SAFE submitted, seen by Rita, EVIL saved, Approve.
    await save(ada, 'SAFE')
    const submitted = await drafts.setStatus(ada, 'pages/about', 'pending_review')
    const seen = submitted.head
    const evil = await save(ada, 'EVIL')
    await drafts.setStatus(ada, 'pages/about', 'pending_review', evil.head)
    const refusal = await drafts.approve(rita, 'pages/about', seen).catch((error) => error)
    expect(refusal).toBeInstanceOf(RefusedError)
    expect((refusal as RefusedError).status).toBe(409)
    expect((refusal as RefusedError).message).toMatch(
      new RegExp(
        `changed after you opened it: you saw version ${seen.slice(0, 7)}, and ada saved version ${evil.head.slice(0, 7)} at .* \\(Berlin\\)`,
      ),
    )
    const after = (await drafts.get('pages/about')) as DraftView
    expect(after).toMatchObject({ status: 'pending_review', approval: null })
    expect((await readAudit(database)).at(-1)).toMatchObject({
      action: 'refusal',
      actor: rita.email,
      details: { code: 'draft-changed' },
    })
    // Without a version named, nothing is approved either; with the one there, it is.
    await expect(drafts.approve(rita, 'pages/about', undefined)).rejects.toThrow(
      /Which version of this draft did you review/,
    )
    expect(
      (await drafts.approve(rita, 'pages/about', evil.head.slice(0, 7))).approval,
    ).toMatchObject({ by: rita.email, commit: evil.head })
    // In German for a person who chose it.
    await save(ada, 'EVIL 2')
    const german = { ...rita, language: 'de' as const }
    await expect(drafts.approve(german, 'pages/about', evil.head)).rejects.toThrow(
      /Dieser Entwurf wurde geändert, nachdem Sie ihn geöffnet haben/,
    )
    expect(await verifyAudit(database)).toMatchObject({ ok: true })
  })

  it('moves to review only the version its author saw, when the editor names one', async () => {
    const first = await save(ada, 'About us')
    await save(olga, 'About us, by Olga')
    await expect(
      drafts.setStatus(ada, 'pages/about', 'pending_review', first.head),
    ).rejects.toThrow(/olga saved version/)
    expect((await drafts.get('pages/about'))?.status).toBe('draft')
  })

  it('refuses an approval by anyone who wrote part of the draft, and records the refusal', async () => {
    await save(ada, 'About us')
    await save(olga, 'About us, by Olga too')
    const before = await drafts.get('pages/about')
    const refusal = await approveSeen(drafts, olga, 'pages/about').catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(RefusedError)
    expect((refusal as RefusedError).message).toMatch(/four-eyes principle/)
    expect(await drafts.get('pages/about')).toEqual(before)
    const trail = await readAudit(database)
    expect(trail.map((entry) => entry.action)).toEqual(['save', 'save', 'refusal'])
    expect(trail.at(-1)).toMatchObject({
      actor: olga.email,
      subject: 'pages/about',
      details: { code: 'own-draft' },
    })
    expect(await verifyAudit(database)).toMatchObject({ ok: true })
  })

  it('approves only what its author moved to review: never a draft left in draft, sent back, or moved since', async () => {
    const refusals = async () =>
      (await readAudit(database))
        .filter((entry) => entry.action === 'refusal')
        .map((entry) => [entry.actor, entry.details.code])
    // Saved and left in draft: neither approving nor moving it to ready gets through.
    await save(ada, 'About us')
    await expect(approveSeen(drafts, rita, 'pages/about')).rejects.toThrow(
      /not been moved to review by its author/,
    )
    await expect(drafts.setStatus(rita, 'pages/about', 'pending_publish')).rejects.toBeInstanceOf(
      RefusedError,
    )
    // An author who wrote none of it may not submit it for Ada (and then approve it).
    await expect(drafts.setStatus(olga, 'pages/about', 'pending_review')).rejects.toThrow(
      /Only someone who wrote part of this draft may move it to review/,
    )
    await expect(approveSeen(drafts, olga, 'pages/about')).rejects.toBeInstanceOf(RefusedError)
    // Submitted, then sent back: the choice is Ada's again.
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    expect((await drafts.get('pages/about'))?.submission).toMatchObject({ by: ada.email })
    await drafts.requestChanges(rita, 'pages/about', 'Please name the licence.')
    expect((await drafts.get('pages/about'))?.submission).toBeNull()
    await expect(approveSeen(drafts, rita, 'pages/about')).rejects.toThrow(
      /not been moved to review/,
    )
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await drafts.setStatus(rita, 'pages/about', 'draft')
    await expect(approveSeen(drafts, rita, 'pages/about')).rejects.toThrow(
      /not been moved to review/,
    )
    // Submitted, then its branch moved outside the service: that version was never submitted.
    const submitted = await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await repo.commit({
      ref: branchOf('pages/about'),
      parent: submitted.head,
      expected: submitted.head,
      changes: [{ path: ABOUT, content: 'title: Slipped in\n' }],
      author: { name: 'Ada', email: ada.email },
      message: 'Pushed to the draft by hand',
    })
    await expect(approveSeen(drafts, rita, 'pages/about')).rejects.toThrow(
      /changed since its author moved it to review/,
    )
    expect(await refusals()).toEqual([
      [rita.email, 'not-submitted'],
      [rita.email, 'version-unknown'],
      [olga.email, 'not-own-draft'],
      [olga.email, 'not-submitted'],
      [rita.email, 'not-submitted'],
      [rita.email, 'not-submitted'],
      [rita.email, 'submission-lapsed'],
    ])
    expect(await verifyAudit(database)).toMatchObject({ ok: true })
  })

  it('returns a draft in review or approved to draft when anyone saves it, its own submitter too', async () => {
    for (const [who, status] of [
      [ada, 'pending_review'],
      [person('otto@bank.example', ['author']), 'pending_review'],
      [ada, 'pending_publish'],
    ] as const) {
      const draft = (await drafts.get('pages/about')) ?? (await save(ada, 'About us'))
      if (draft.status === 'draft') await drafts.setStatus(ada, 'pages/about', 'pending_review')
      if (status === 'pending_publish') await approveSeen(drafts, rita, 'pages/about')
      const saved = await save(who, `About us, by ${who.email}`)
      expect(saved, `${who.email} saving it ${status}`).toMatchObject({
        status: 'draft',
        submission: null,
      })
      expect((await readAudit(database)).at(-1)?.details).toMatchObject({
        returnedToDraft: status,
      })
      await expect(approveSeen(drafts, rita, 'pages/about')).rejects.toThrow(
        /not been moved to review/,
      )
    }
    // Any of its authors may submit it again, and that version may be approved.
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    expect((await approveSeen(drafts, rita, 'pages/about')).status).toBe('pending_publish')
  })

  it('approves nothing that changed between reading it and approving it', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    // Ada saves again just after Rita's approval read the draft: the approval is refused, and
    // the draft is back in draft, the new version for its author to submit.
    class Racing extends Drafts {
      race = true
      override async get(id: string) {
        const read = await super.get(id)
        if (this.race) {
          this.race = false
          await this.save(ada, id, [{ path: ABOUT, content: 'title: Meanwhile\n' }], 'Meanwhile')
        }
        return read
      }
    }
    const racing = new Racing(database, repo, () => new Date(Date.UTC(2026, 10, 26, 10)))
    const seen = (await drafts.get('pages/about'))?.head
    await expect(racing.approve(rita, 'pages/about', seen)).rejects.toThrow(
      /changed after you opened it/,
    )
    const after = (await drafts.get('pages/about')) as DraftView
    expect(after).toMatchObject({ status: 'draft', approval: null, submission: null })
  })

  it('sends a draft back with a comment its author sees', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    const back = await drafts.requestChanges(rita, 'pages/about', 'Please name the licence.')
    expect(back.status).toBe('draft')
    expect(back.comments).toEqual([
      {
        by: rita.email,
        name: rita.email,
        body: 'Please name the licence.',
        at: expect.any(String),
      },
    ])
    await expect(drafts.requestChanges(ada, 'pages/about', 'Fine by me')).rejects.toBeInstanceOf(
      RefusedError,
    )
    // A forged status is named, and the draft stays as it was.
    await expect(drafts.setStatus(ada, 'pages/about', 'published' as 'draft')).rejects.toThrow(
      /not a draft status: "published"/,
    )
    expect((await drafts.get('pages/about'))?.status).toBe('draft')
  })

  it('refuses paths outside the tree and ids that are no entries, and changes nothing', async () => {
    await expect(
      drafts.save(ada, 'pages/about', [{ path: '../../etc/passwd', content: 'x' }], 'Bad'),
    ).rejects.toBeInstanceOf(UnsafePathError)
    await expect(
      drafts.save(ada, '../main', [{ path: ABOUT, content: 'x' }], 'Bad'),
    ).rejects.toThrow(/not a draft id/)
    expect(await drafts.get('pages/about')).toBeNull()
    expect(await repo.resolve(MAIN)).toBe(main)
  })
})

describe('after a crash between the commit and its record', () => {
  it('takes the branch up again from where it left main, its first writer included', async () => {
    await repo.commit({
      ref: branchOf('pages/about'),
      parent: main,
      expected: null,
      changes: [{ path: ABOUT, content: 'title: Half saved\n' }],
      author: { name: 'ada', email: ada.email },
      message: 'Saved before the crash',
    })
    const draft = await save(olga, 'Taken up')
    expect(draft.base).toBe(main)
    expect(draft.writers).toEqual([ada.email, olga.email])
  })
})

describe('publishing a draft', () => {
  const OTHER = 'content/de/pages/about.yaml'

  it('merges an approved draft onto main by the publisher, keeps what reached main meanwhile, and removes the draft', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    // A developer's change reaches main meanwhile.
    const elsewhere = await repo.commit({
      ref: MAIN,
      parent: main,
      changes: [{ path: OTHER, content: 'title: Über uns\n' }],
      author: { name: 'Developer', email: 'dev@bank.example' },
      message: 'German page',
    })
    const merged = await mergeDraft(publishing(), paul, 'pages/about')
    expect(await repo.resolve(MAIN)).toBe(elsewhere)
    await landDraft(publishing(), paul, merged)
    const tip = (await repo.resolve(MAIN)) ?? ''
    expect(tip).toBe(merged.commit)
    expect((await repo.readFile(tip, ABOUT))?.toString()).toBe('title: About us\n')
    expect((await repo.readFile(tip, OTHER))?.toString()).toBe('title: Über uns\n')
    expect(await repo.resolve(branchOf('pages/about'))).toBeNull()
    expect(await drafts.get('pages/about')).toBeNull()
    expect((await readAudit(database)).at(-1)).toMatchObject({
      actor: paul.email,
      action: 'publish',
      before: elsewhere,
      after: tip,
      details: { approvedBy: rita.email, files: [ABOUT] },
    })
  })

  it('withdraws the approval when a draft is sent back, so it cannot be published', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    await drafts.setStatus(rita, 'pages/about', 'draft')
    expect((await drafts.get('pages/about'))?.approval).toBeNull()
    await expect(mergeDraft(publishing(), paul, 'pages/about')).rejects.toThrow(
      /has not been approved yet/,
    )
  })

  it('refuses a save made on a draft someone saved meanwhile, and keeps theirs', async () => {
    const first = await save(ada, 'About us')
    const theirs = await drafts.save(
      olga,
      'pages/about',
      [{ path: ABOUT, content: 'title: Theirs\n' }],
      'Theirs',
      first.head,
    )
    await expect(
      drafts.save(
        ada,
        'pages/about',
        [{ path: ABOUT, content: 'title: Mine\n' }],
        'Mine',
        first.head,
      ),
    ).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(
        new RegExp(
          `^Not saved: olga saved this entry at .* \\(Berlin\\) \\(version ${theirs.head.slice(0, 7)}\\), after you opened it`,
        ),
      ),
    })
    expect((await drafts.get('pages/about'))?.head).toBe(theirs.head)
    // Opened before a draft existed (the live entry): Olga's draft is there now.
    await expect(
      drafts.save(ada, 'pages/about', [{ path: ABOUT, content: 'title: Mine\n' }], 'Mine', null),
    ).rejects.toMatchObject({ status: 409, decision: { code: 'saved-meanwhile' } })
    // The draft opened is gone (published, discarded): nothing of it comes back unseen.
    await expect(
      drafts.save(ada, 'pages/new', [{ path: OTHER, content: 'x\n' }], 'New', first.head),
    ).rejects.toMatchObject({ status: 409, decision: { code: 'draft-gone' } })
    expect(
      (await readAudit(database))
        .filter((entry) => entry.action === 'refusal')
        .map((entry) => entry.details.code),
    ).toEqual(['saved-meanwhile', 'saved-meanwhile', 'draft-gone'])
  })

  it('keeps one file to one draft, whatever name the entry is opened by', async () => {
    await save(ada, 'About us')
    const refusal = await drafts
      .save(olga, 'about/page', [{ path: ABOUT, content: 'title: Twice\n' }], 'Twice', null)
      .catch((error) => error)
    expect(refusal).toMatchObject({
      status: 409,
      message: `Not saved: ${ABOUT} is changed by another draft already, pages/about, and one file belongs to one draft. Open that draft to change it, or wait until it is published or discarded.`,
    })
    expect(await drafts.get('about/page')).toBeNull()
    expect(await drafts.ids()).toEqual(['pages/about'])
  })

  it('refuses draft names git cannot keep as branches', async () => {
    for (const id of ['pages/about.lock', 'pages/about.', 'pages/a..b', 'pages', '../x']) {
      await expect(
        drafts.save(ada, id, [{ path: ABOUT, content: 'title: x\n' }], 'x'),
      ).rejects.toThrow(/not a draft id/)
    }
  })

  it('lets a reviewer send a draft back to draft, but not move it along', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await expect(drafts.setStatus(rita, 'pages/about', 'pending_review')).rejects.toThrow(/author/)
    expect((await drafts.setStatus(rita, 'pages/about', 'draft')).status).toBe('draft')
  })

  it('refuses an unapproved draft, and one whose approval lapsed; main stays', async () => {
    await save(ada, 'About us')
    await expect(mergeDraft(publishing(), paul, 'pages/about')).rejects.toThrow(
      /has not been approved yet/,
    )
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    await save(ada, 'About us, edited')
    await expect(mergeDraft(publishing(), paul, 'pages/about')).rejects.toThrow(/approved again/)
    expect(await repo.resolve(MAIN)).toBe(main)
  })

  it('refuses a draft that no longer merges, naming the file to re-save', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    await repo.commit({
      ref: MAIN,
      parent: main,
      changes: [{ path: ABOUT, content: 'title: Changed by a developer\n' }],
      author: { name: 'Developer', email: 'dev@bank.example' },
      message: 'Clash',
    })
    const error = await mergeDraft(publishing(), paul, 'pages/about').catch(
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(DraftConflictError)
    expect((error as Error).message).toMatch(
      /content\/en\/pages\/about\.yaml changed on the live site/,
    )
  })

  it('restarts a draft that no longer merges on main’s tip when it is saved again; its writers still count', async () => {
    await save(ada, 'About us')
    const developer = await repo.commit({
      ref: MAIN,
      parent: main,
      changes: [
        { path: ABOUT, content: 'title: Changed by a developer\n' },
        { path: OTHER, content: 'other\n' },
      ],
      author: { name: 'Developer', email: 'dev@bank.example' },
      message: 'Clash',
    })
    const resaved = await drafts.save(
      olga,
      'pages/about',
      [{ path: ABOUT, content: 'title: About us, again\n' }],
      'Again',
    )
    expect(resaved).toMatchObject({ base: developer, files: [ABOUT] })
    expect(resaved.writers).toEqual([ada.email, olga.email])
    await expect(approveSeen(drafts, olga, 'pages/about')).rejects.toThrow(/wrote/)
    await drafts.setStatus(olga, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    const merged = await mergeDraft(publishing(), paul, 'pages/about')
    expect((await repo.readFile(merged.commit, ABOUT))?.toString()).toBe('title: About us, again\n')
    expect((await repo.readFile(merged.commit, OTHER))?.toString()).toBe('other\n')
  })

  it('restarted, keeps main’s newer changes to fields the draft left alone, and notes where the draft’s text replaced main’s', async () => {
    const entry = (fields: { title: string; intro: string; description: string; image: string }) =>
      `title: ${fields.title}\nintro: ${fields.intro}\nseo:\n  description: ${fields.description}\n  image: ${fields.image}\n`
    const first = { title: 'About', intro: 'Who we are', description: 'Old', image: 'a.png' }
    const start = await repo.commit({
      ref: MAIN,
      parent: main,
      changes: [{ path: ABOUT, content: entry(first) }],
      author: { name: 'Developer', email: 'dev@bank.example' },
      message: 'Longer about page',
    })
    const mine = { ...first, title: 'About us', description: 'Drafted description' }
    await drafts.save(ada, 'pages/about', [{ path: ABOUT, content: entry(mine) }], 'Draft')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    // Meanwhile on main: the intro, the same description, the image, and a new field.
    const developer = await repo.commit({
      ref: MAIN,
      parent: start,
      changes: [
        {
          path: ABOUT,
          content: `${entry({ ...first, intro: 'Who we are, since 2019', description: 'Main description', image: 'b.png' })}kicker: New\n`,
        },
      ],
      author: { name: 'Developer', email: 'dev@bank.example' },
      message: 'Meanwhile',
    })
    await expect(mergeDraft(publishing(), olga, 'pages/about')).rejects.toBeInstanceOf(
      DraftConflictError,
    )

    // The editor sends the entry whole, as the draft had it: saved again, it merges by field.
    const resaved = await drafts.save(
      ada,
      'pages/about',
      [{ path: ABOUT, content: entry(mine) }],
      'Again',
    )
    expect(resaved.base).toBe(developer)
    expect((await repo.readFile(resaved.head, ABOUT))?.toString()).toBe(
      'title: About us\nintro: Who we are, since 2019\nseo:\n  description: Drafted description\n  image: b.png\nkicker: New\n',
    )
    expect(resaved.comments.map((comment) => comment.body)).toEqual([
      `Saved again on the live site's newer version. The live site had changed these too, and this draft's version replaces the live site's: ${ABOUT}: seo.description.`,
    ])
    const saves = (await readAudit(database)).filter((entry) => entry.action === 'save')
    expect(saves.at(-1)?.details).toMatchObject({ overridden: [`${ABOUT}: seo.description`] })
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    expect(
      await repo.readFile((await mergeDraft(publishing(), olga, 'pages/about')).commit, ABOUT),
    ).toEqual(await repo.readFile(resaved.head, ABOUT))
  })

  it('keeps a draft saved again while it was being published: its newer edit waits for review of its own', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    const merged = await mergeDraft(publishing(), olga, 'pages/about')
    // Saved again while the site was being built for the publication.
    const newer = await save(ada, 'About us, edited meanwhile')
    await landDraft(publishing(), olga, merged)
    expect(await repo.resolve(MAIN)).toBe(merged.commit)
    const kept = (await drafts.get('pages/about')) as DraftView
    expect(kept.head).toBe(newer.head)
    expect(kept.base).toBe(merged.draft.head)
    expect(approvalStands(kept)).toBe(false)
    expect((await repo.readFile(kept.head, ABOUT))?.toString()).toBe(
      'title: About us, edited meanwhile\n',
    )
    expect((await readAudit(database)).at(-1)).toMatchObject({
      action: 'publish',
      after: merged.commit,
      details: { draftKeptForNewerEdit: true },
    })
  })

  it('lands nothing when main moved after the merge was made', async () => {
    await save(ada, 'About us')
    await drafts.setStatus(ada, 'pages/about', 'pending_review')
    await approveSeen(drafts, rita, 'pages/about')
    const merged = await mergeDraft(publishing(), paul, 'pages/about')
    const moved = await repo.commit({
      ref: MAIN,
      parent: main,
      changes: [{ path: OTHER, content: 'x\n' }],
      author: { name: 'Developer', email: 'dev@bank.example' },
      message: 'Meanwhile',
    })
    await expect(landDraft(publishing(), paul, merged)).rejects.toBeInstanceOf(RefMovedError)
    expect(await repo.resolve(MAIN)).toBe(moved)
    expect(await drafts.get('pages/about')).not.toBeNull()
  })
})
