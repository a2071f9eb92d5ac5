/**
 * The four-eyes rules: who may write, approve, send back, publish, schedule, roll back and
 * manage people, and the message a refused person reads, in their editor's language.
 */
import { describe, expect, it } from 'vitest'
import { MANAGE_TEXTS } from '../../../../src/publishing/pages/texts'
import type { Person } from '../../../../src/publishing/people/roles'
import {
  approvalStands,
  type Draft,
  mayApprove,
  mayConfirmRollback,
  mayDiscard,
  mayFireSchedule,
  mayManagePeople,
  mayPublish,
  mayRequestChanges,
  mayRequestRollback,
  mayRollBack,
  maySubmit,
  mayWrite,
  type Rollback,
  requestStands,
} from '../../../../src/publishing/workflow/four-eyes'
import { ada, olga, paul, person, rita } from '../../../support/people'

const all = person('all@bank.example', ['author', 'reviewer', 'publisher', 'administrator'])

/** A rollback to the release served just before the live one, bringing back Ada's text. */
const emergency: Rollback = { target: 'r1', oneStepBack: true, writers: [ada.email] }

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
    expect(mayRollBack(paul, emergency)).toEqual({ allowed: true })
    expect(mayRollBack(rita, emergency)).toMatchObject({ allowed: false, code: 'role' })
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

describe('German that a German editor would write', () => {
  const anna = person('anna@bank.example', ['author', 'reviewer', 'publisher'], 'de')

  it('names the authors as people, and the author’s role by what it does', () => {
    const unsubmitted = mayApprove(
      person('rolf@bank.example', ['reviewer'], 'de'),
      draft({ submission: null }),
    )
    expect(unsubmitted).toMatchObject({
      reason:
        'Dieser Entwurf wurde noch nicht zur Prüfung gegeben und kann deshalb noch nicht freigegeben oder veröffentlicht werden: Wann er bereit ist, entscheiden die Autorinnen und Autoren.',
    })
    expect(mayWrite(person('pia@bank.example', ['reviewer'], 'de'))).toMatchObject({
      reason: expect.stringContaining('Rolle „Redaktion“'),
    })
  })

  it('puts "nicht" before the verb when a draft of one’s own may not be scheduled', () => {
    const own = draft({ writers: [anna.email] })
    expect(mayPublish(anna, own, 'schedule')).toMatchObject({
      reason: expect.stringContaining('dürfen ihn deshalb nicht zur Veröffentlichung einplanen:'),
    })
    expect(mayPublish(anna, own)).toMatchObject({
      reason: expect.stringContaining('dürfen ihn deshalb nicht veröffentlichen:'),
    })
  })

  it('says what one may not do on the screens with "nicht" before the verb', () => {
    const t = MANAGE_TEXTS.de
    expect(t.mayNot(t.actionNames.approve, 'Grund.')).toBe('Sie dürfen ihn nicht freigeben: Grund.')
    expect(t.mayNot(t.confirmRollbackName, 'Grund.')).toBe('Sie dürfen es nicht bestätigen: Grund.')
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

describe('discarding a draft', () => {
  it('is for its authors, and for an administrator clearing a leaver’s work; nobody else', () => {
    expect(mayDiscard(ada, draft())).toEqual({ allowed: true })
    const otto = person('otto@bank.example', ['author'])
    expect(mayDiscard(otto, draft())).toMatchObject({
      allowed: false,
      code: 'not-writer-discard',
      reason: expect.stringContaining('Send it back with a comment instead'),
    })
    expect(mayDiscard(rita, draft())).toMatchObject({ allowed: false, code: 'role' })
    expect(mayDiscard(paul, draft())).toMatchObject({ allowed: false, code: 'role' })
    const admin = person('adam@bank.example', ['administrator'])
    expect(mayDiscard(admin, draft())).toEqual({ allowed: true })
    const anna = person('anna@bank.example', ['author'], 'de')
    expect(mayDiscard(anna, draft()).allowed).toBe(false)
    expect(mayDiscard(anna, draft())).toMatchObject({
      reason: expect.stringMatching(
        /^Nur wer an diesem Entwurf mitgeschrieben hat, darf ihn verwerfen/,
      ),
    })
  })
})

describe('rollback', () => {
  /** Two releases back: it brings back Ada's text, which a later approved change removed. */
  const further: Rollback = { target: 'r0', oneStepBack: false, writers: [ada.email] }

  it('lets a publisher alone roll back one step, as an emergency, and nothing further', () => {
    expect(mayRequestRollback(paul)).toEqual({ allowed: true })
    expect(mayRequestRollback(rita)).toMatchObject({ allowed: false, code: 'role' })
    expect(mayRollBack(paul, emergency)).toEqual({ allowed: true })
    expect(mayRollBack(paul, further)).toMatchObject({
      allowed: false,
      code: 'rollback-steps',
      reason: expect.stringMatching(/a reviewer who did not ask for it must confirm it/),
    })
  })

  it('never lets a publisher bring back their own text alone, not even one step back', () => {
    const own = { ...emergency, writers: [ada.email, olga.email] }
    expect(mayRollBack(olga, own)).toMatchObject({
      allowed: false,
      code: 'own-content',
      reason: expect.stringMatching(/four-eyes principle/),
    })
  })

  it('lets a reviewer confirm a rollback they did not ask for and whose content they did not write', () => {
    const asked = { ...further, requestedBy: paul.email }
    expect(mayConfirmRollback(rita, asked)).toEqual({ allowed: true })
    expect(mayConfirmRollback(paul, asked)).toMatchObject({ allowed: false, code: 'role' })
    expect(mayConfirmRollback(olga, { ...asked, requestedBy: olga.email })).toMatchObject({
      allowed: false,
      code: 'own-request',
    })
    expect(mayConfirmRollback(olga, { ...asked, writers: [olga.email] })).toMatchObject({
      allowed: false,
      code: 'own-content',
    })
  })

  it('holds a request only while its publisher has access and the role, and says so in German', () => {
    const rolf = person('rolf@bank.example', ['reviewer'], 'de')
    expect(requestStands('en', paul.email, new Map([[paul.email, paul]]))).toEqual({
      allowed: true,
    })
    expect(requestStands('en', paul.email, new Map())).toMatchObject({
      allowed: false,
      code: 'person-gone',
      reason:
        'paul@bank.example, who asked for it, no longer has access to the publishing service, so what they did no longer stands under the four-eyes rules.',
    })
    expect(mayConfirmRollback(rolf, { ...further, requestedBy: rolf.email })).toMatchObject({
      reason: expect.stringMatching(/^Sie haben dieses Zurücksetzen beantragt/),
    })
  })
})

describe('a schedule when it is due', () => {
  const approved = draft({
    approval: { by: rita.email, commit: 'c2', at: '2026-11-26T10:00:00Z' },
  })
  const everyone = (...people: Person[]) => new Map(people.map((one) => [one.email, one]))

  it('fires while the publisher who set it, the reviewer and the author still stand', () => {
    expect(mayFireSchedule('en', paul.email, approved, everyone(ada, rita, paul))).toEqual({
      allowed: true,
    })
  })

  it('does not fire once the author who submitted it has no access or no author role', () => {
    expect(mayFireSchedule('en', paul.email, approved, everyone(rita, paul))).toMatchObject({
      allowed: false,
      code: 'person-gone',
      reason: expect.stringMatching(
        /^ada@bank\.example, who moved it to review, no longer has access/,
      ),
    })
    const adaReviewing = person(ada.email, ['reviewer'])
    expect(
      mayFireSchedule('en', paul.email, approved, everyone(adaReviewing, rita, paul)),
    ).toMatchObject({
      allowed: false,
      code: 'person-role',
      reason: expect.stringMatching(/author role/),
    })
  })

  it('does not fire once the reviewer or the publisher has gone, or lost the role', () => {
    expect(mayFireSchedule('en', paul.email, approved, everyone(ada, paul))).toMatchObject({
      code: 'person-gone',
      reason: expect.stringMatching(/who approved it/),
    })
    const ritaWriting = person(rita.email, ['author'])
    expect(
      mayFireSchedule('en', paul.email, approved, everyone(ada, ritaWriting, paul)),
    ).toMatchObject({
      code: 'person-role',
    })
    expect(mayFireSchedule('de', paul.email, approved, everyone(ada, rita))).toMatchObject({
      code: 'person-gone',
      reason: expect.stringMatching(/^paul@bank\.example, die oder der sie eingeplant hat/),
    })
    // An approval withdrawn (its reviewer's access taken away) or lapsed: the rules' own codes.
    expect(mayFireSchedule('en', paul.email, draft(), everyone(ada, rita, paul))).toMatchObject({
      code: 'not-approved',
    })
    expect(
      mayFireSchedule('en', paul.email, { ...approved, head: 'c3' }, everyone(ada, rita, paul)),
    ).toMatchObject({ code: 'approval-lapsed' })
  })
})
