/**
 * The bank's editors in the publishing service's tests: Ada writes, Rita reviews, Paul
 * publishes, and Olga may do all three (so the four-eyes rules, not her roles, stop her).
 */
import type { Queryable } from '../../src/database/database'
import type { EditorLanguage, Person, Role } from '../../src/publishing/people/roles'

/** A person as the rules see them, named after their address. */
export const person = (email: string, roles: Role[], language: EditorLanguage = 'en'): Person => ({
  email,
  name: email.split('@')[0] ?? '',
  roles,
  language,
})

export const ada = person('ada@bank.example', ['author'])
export const rita = person('rita@bank.example', ['reviewer'])
export const paul = person('paul@bank.example', ['publisher'])
export const olga = person('olga@bank.example', ['author', 'reviewer', 'publisher'])

/** Writes `people` into the service's table of people, as added at `at` (now when absent). */
export async function addPeople(
  database: Queryable,
  people: readonly Person[],
  at?: Date,
): Promise<void> {
  for (const { email, name, roles, language } of people) {
    await database.query(
      `INSERT INTO people (email, name, roles, language, created_at)
       VALUES ($1, $2, $3, $4, coalesce($5::timestamptz, now()))`,
      [email, name, roles, language, at?.toISOString() ?? null],
    )
  }
}
