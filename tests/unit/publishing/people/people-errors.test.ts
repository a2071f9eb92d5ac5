import { describe, expect, it } from 'vitest'
import { PEOPLE_ERROR_CODES, PeopleError } from '../../../../src/publishing/people/people-errors'

const params = {
  email: 'ada@bank.example',
  before: 'ada@old.example',
  roles: 'owner',
  id: '7',
  max: '60',
}

describe('what the service says about people', () => {
  it('says every case as a sentence in English and German, each its own', () => {
    expect(PEOPLE_ERROR_CODES.length).toBeGreaterThan(15)
    for (const code of PEOPLE_ERROR_CODES) {
      const error = new PeopleError(code, params)
      expect(error.message, code).toBe(error.in('en'))
      for (const text of [error.in('en'), error.in('de')]) {
        expect(text, code).toMatch(/^[A-ZÄÖÜa-z].*\.$/)
        expect(text, code).not.toContain('undefined')
      }
      // German is German: no sentence left as the English one.
      expect(error.in('de'), code).not.toBe(error.in('en'))
    }
  })

  it('names roles as the screens of each language do', () => {
    expect(new PeopleError('unknown-roles', { roles: 'owner' }).in('de')).toBe(
      'Unbekannte Rollen: owner (bekannt: Redaktion, Prüfung, Veröffentlichung, Administration).',
    )
    expect(new PeopleError('unknown-roles', { roles: 'owner' }).message).toBe(
      'Unknown roles: owner (known: author, reviewer, publisher, administrator).',
    )
  })
})
