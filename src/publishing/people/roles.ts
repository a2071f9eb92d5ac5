/**
 * The publishing service's roles and a signed-in person as every part of the service sees them.
 * What each role may do is the workflow's (`../workflow/four-eyes.ts`).
 */

export const ROLES = ['author', 'reviewer', 'publisher', 'administrator'] as const
export type Role = (typeof ROLES)[number]

export type EditorLanguage = 'en' | 'de'

export interface Person {
  /** The person's e-mail address: their id in the trail and in commits. */
  email: string
  name: string
  roles: readonly Role[]
  language: EditorLanguage
}
