/**
 * The editors' guide (`docs/editors/en.md`, `de.md`) names screens and buttons in bold, as the
 * screens show them: each name must be one the screens of its language have (the publishing
 * service's own texts, the editor's (Decap's, with the service's words over them) in that
 * language, the content types' names), so
 * the guide fails here the day a button it names is renamed or goes. Both languages cover the
 * same sections and link each other.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CMS_COLLECTIONS } from '../../../src/cms/config'
import { mergePhrases, PHRASES, type Phrases } from '../../../src/publishing/editor/browser/locale'
import { SCREEN_TABLES } from '../../support/english-texts'

const ROOT = join(import.meta.dirname, '..', '..', '..')
type Language = 'en' | 'de'
const guide = (language: Language) =>
  readFileSync(join(ROOT, 'docs', 'editors', `${language}.md`), 'utf8')

/** Every string of a table, also what its sentences make of sample values. */
function strings(value: unknown, found: Set<string>): Set<string> {
  if (typeof value === 'string') found.add(value)
  else if (typeof value === 'function') strings(value('X', 'Y', 'Z'), found)
  else if (value && typeof value === 'object') {
    for (const each of Object.values(value)) strings(each, found)
  }
  return found
}

/** A name as the guide may write it: a template's fixed start, without a closing colon. */
const plain = (text: string) =>
  text
    .replace(/%\{[^}]*\}.*$/s, '')
    .trim()
    .replace(/:$/, '')

async function screenNames(language: Language): Promise<Set<string>> {
  const decap = (await import(`decap-cms-locales/dist/esm/${language}/index.js`)) as {
    default: Phrases
  }
  const names = new Set<string>()
  for (const table of SCREEN_TABLES) strings(table[language], names)
  // Decap's words as the service's editor says them: ours over Decap's own.
  strings(mergePhrases(decap.default, PHRASES[language]), names)
  // The content types, as the editor lists them in that language.
  for (const collection of CMS_COLLECTIONS) {
    names.add(language === 'de' ? collection.de.label : collection.label)
  }
  return new Set([...names].map(plain))
}

const boldNames = (text: string) =>
  [...text.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => (match[1] ?? '').replace(/\s+/g, ' '))

describe("the editors' guide", () => {
  for (const language of ['en', 'de'] as const) {
    it(`names only screens and buttons there are (${language})`, async () => {
      const names = await screenNames(language)
      // The guide's own signposts in bold are not names of the screens.
      const signposts = new Set([
        'Where:',
        'The first time:',
        'Every other time:',
        'Wo:',
        'Beim ersten Mal:',
        'Jedes weitere Mal:',
        'bold',
        'Fett',
      ])
      const named = boldNames(guide(language)).filter((name) => !signposts.has(name))
      expect(named.length).toBeGreaterThan(25)
      expect(named.filter((name) => !names.has(name))).toEqual([])
    })
  }

  it('fails on a name no screen has', async () => {
    const names = await screenNames('en')
    expect(names.has('Publish now')).toBe(true)
    expect(names.has('Publish immediately')).toBe(false)
  })

  it('has the same sections in both languages, each linking the other', () => {
    const sections = (text: string) => text.match(/^## /gm)?.length ?? 0
    expect(sections(guide('de'))).toBe(sections(guide('en')))
    expect(guide('en')).toContain('(de.md)')
    expect(guide('de')).toContain('(en.md)')
  })
})
