/**
 * The four-eyes rules: who may write, approve, send back, publish, schedule, roll back and
 * manage people, and the message a refused person reads, in their editor's language.
 */
import { describe, expect, it } from 'vitest'
import {
  approvalStands,
  type Draft,
  mayApprove,
  mayManagePeople,
  mayPublish,
  mayRequestChanges,
  mayRollBack,
  maySubmit,
  mayWrite,
} from '../../../src/publishing/workflow/four-eyes'
import { ada, paul, person, rita } from '../../support/people'

const all = person('all@bank.example', ['author', 'reviewer', 'publisher', 'administrator'])

/** Ada's draft, which she moved to review as it is (`c2`). */
const draft = (changes: Partial<Draft> = {}): Draft => ({
  id: 'services/cards',
  head: 'c2',
  writers: [ada.email],
  submission: { by: ada.email, commit: 'c2', at: '2026-11-26T09:00:00Z' },
  approval: null,
  ...changes,
})

describe('roles', () => {
  it('lets each role do its own part only, and says which role is needed', () => {
    expect(mayWrite(ada)).toEqual({ allowed: true })
    expect(mayWrite(rita)).toMatchObject({ allowed: false, code: 'role' })
    expect(mayApprove(ada, draft())).toMatchObject({
      allowed: false,
      reason:
        'Only people with the reviewer role may approve, and you do not have it. Ask an administrator.',
    })
    expect(mayRequestChanges(rita)).toEqual({ allowed: true })
    expect(mayRequestChanges(ada)).toMatchObject({ allowed: false, code: 'role' })
    expect(mayRollBack(paul)).toEqual({ allowed: true })
    expect(mayRollBack(rita)).toMatchObject({ allowed: false, code: 'role' })
    expect(mayManagePeople(all)).toEqual({ allowed: true })
    expect(mayManagePeople(paul)).toMatchObject({ allowed: false, code: 'role' })
  })

  it('speaks German to a person who chose it', () => {
    const anna = person('anna@bank.example', ['author'], 'de')
    expect(mayPublish(anna, draft())).toMatchObject({
      allowed: false,
      reason:
        'Nur Personen mit der Rolle „Veröffentlichung“ dürfen veröffentlichen; diese Rolle haben Sie nicht. Fragen Sie die Administration.',
    })
  })
})

describe('four eyes', () => {
  it('lets a reviewer who wrote none of the draft approve it, never one who wrote part of it', () => {
    expect(mayApprove(rita, draft())).toEqual({ allowed: true })
    const shared = draft({ writers: [ada.email, all.email] })
    expect(mayApprove(all, shared)).toMatchObject({ allowed: false, code: 'own-draft' })
    expect(mayApprove(all, shared)).toMatchObject({
      reason: expect.stringMatching(/four-eyes principle/),
    })
  })

  it('publishes an approved draft by a publisher who wrote none of it', () => {
    const approved = draft({
      approval: { by: rita.email, commit: 'c2', at: '2026-11-26T10:00:00Z' },
    })
    expect(approvalStands(approved)).toBe(true)
    expect(mayPublish(paul, approved)).toEqual({ allowed: true })
    expect(mayPublish(paul, approved, 'schedule')).toEqual({ allowed: true })
    // Someone who holds every role but wrote part of it may not.
    const written = { ...approved, writers: [ada.email, all.email] }
    expect(mayPublish(all, written)).toMatchObject({ allowed: false, code: 'own-draft' })
  })

  it('refuses a draft that was never approved, or edited after its approval', () => {
    expect(mayPublish(paul, draft())).toMatchObject({ allowed: false, code: 'not-approved' })
    const lapsed = draft({
      head: 'c3',
      approval: { by: rita.email, commit: 'c2', at: '2026-11-26T10:00:00Z' },
    })
    expect(approvalStands(lapsed)).toBe(false)
    expect(mayPublish(paul, lapsed)).toMatchObject({
      allowed: false,
      code: 'approval-lapsed',
      reason: expect.stringMatching(/edited since/),
    })
  })

  it('voids an approval whose reviewer has since written part of the draft', () => {
    const tainted = draft({
      head: 'c3',
      writers: [ada.email, rita.email],
      approval: { by: rita.email, commit: 'c3', at: '2026-11-26T10:00:00Z' },
    })
    expect(approvalStands(tainted)).toBe(false)
    expect(mayPublish(paul, tainted)).toMatchObject({ allowed: false, code: 'approver-wrote' })
  })
})

describe('submission', () => {
  it('lets only an author who wrote part of a draft move it to review', () => {
    expect(maySubmit(ada, draft())).toEqual({ allowed: true })
    const olga = person('olga@bank.example', ['author', 'reviewer'])
    expect(maySubmit(olga, draft())).toMatchObject({ allowed: false, code: 'not-own-draft' })
    expect(maySubmit(rita, draft())).toMatchObject({ allowed: false, code: 'role' })
  })

  it('approves only a draft its author moved to review, in the version they moved', () => {
    const unsubmitted = draft({ submission: null })
    expect(mayApprove(rita, unsubmitted)).toMatchObject({
      allowed: false,
      code: 'not-submitted',
      reason: expect.stringMatching(/not been moved to review by its author/),
    })
    // Changed after it was submitted (its branch moved without a save that submits it).
    const moved = draft({ head: 'c3' })
    expect(mayApprove(rita, moved)).toMatchObject({ allowed: false, code: 'submission-lapsed' })
    // Submitted by someone who wrote none of it: no submission by its author.
    const foreign = draft({ submission: { by: 'olga@bank.example', commit: 'c2', at: 'x' } })
    expect(mayApprove(rita, foreign)).toMatchObject({ allowed: false, code: 'submission-lapsed' })
  })

  it('publishes nothing its author did not submit, even with an approval on record', () => {
    const approval = { by: rita.email, commit: 'c2', at: '2026-11-26T10:00:00Z' }
    const unsubmitted = draft({ submission: null, approval })
    expect(approvalStands(unsubmitted)).toBe(false)
    expect(mayPublish(paul, unsubmitted)).toMatchObject({ allowed: false, code: 'not-submitted' })
    expect(mayPublish(paul, unsubmitted, 'schedule')).toMatchObject({ allowed: false })
  })

  it('says so in German too', () => {
    const rolf = person('rolf@bank.example', ['reviewer'], 'de')
    expect(mayApprove(rolf, draft({ submission: null }))).toMatchObject({
      reason: expect.stringMatching(/noch nicht zur Prüfung gegeben/),
    })
  })
})
