/**
 * What the editor is answered when the service's parts below it refuse (the workflow, git,
 * the build, which speak English): in German for a German editor, said again from what each
 * error holds; in English as each error says it.
 */
import { describe, expect, it } from 'vitest'
import { ContentValidationError } from '../../../../src/content/errors'
import { refusal } from '../../../../src/publishing/editor/answers'
import { PublishingError } from '../../../../src/publishing/errors'
import {
  RefMovedError,
  SpecialEntryError,
  UnsafePathError,
} from '../../../../src/publishing/git/repository'
import { PublishBusyError } from '../../../../src/publishing/publication/lease'
import { UpstreamConflictError } from '../../../../src/publishing/publication/publish'
import { BuildFailedError } from '../../../../src/publishing/publication/releases'
import { DraftConflictError, NoDraftError } from '../../../../src/publishing/workflow/drafts'

const said = (error: unknown, language: 'en' | 'de') =>
  (refusal(error, language).body as { error: string }).error

describe('a refusal from below the editor', () => {
  const errors = [
    new DraftConflictError('pages/about', ['content/en/pages/about.yaml']),
    new UpstreamConflictError(['content/site.yaml']),
    new NoDraftError('pages/about'),
    new RefMovedError('refs/heads/draft', 'abc'),
    new PublishBusyError('publish-busy'),
    new SpecialEntryError('the draft', [{ path: 'content/x', mode: '120000' }]),
    new ContentValidationError([
      { file: 'en/pages/about.yaml', field: 'title', message: 'expected the page title as text' },
    ]),
  ]

  it('is said in German to a German editor, with the same status', () => {
    const german = errors.map((error) => said(error, 'de'))
    expect(german).toEqual([
      expect.stringMatching(
        /^pages\/about lässt sich nicht mehr mit der veröffentlichten Website zusammenführen: content\/en\/pages\/about\.yaml wurde dort geändert/,
      ),
      expect.stringMatching(/^Im Repository der Website wurden dieselben Dateien geändert/),
      'Einen Entwurf von pages/about gibt es nicht (mehr): Er wurde veröffentlicht oder verworfen.',
      'Jemand hat diesen Eintrag inzwischen gespeichert: Laden Sie ihn neu und nehmen Sie Ihre Änderung dann erneut vor.',
      'Gerade läuft eine andere Veröffentlichung; bitte versuchen Sie es in einer Minute erneut.',
      expect.stringMatching(/^content\/x: Der Dienst nimmt nur gewöhnliche Dateien an/),
      'Die Website wurde nicht gebaut, deshalb wurde nichts veröffentlicht. Die Inhalte haben ein Problem: content/en/pages/about.yaml, Feld „Titel“: Der Seitentitel fehlt oder ist kein Text.',
    ])
    for (const error of errors) {
      expect(refusal(error, 'de').status).toBe(refusal(error, 'en').status)
    }
  })

  it('is said in English as each error says it', () => {
    expect(said(errors[0], 'en')).toBe((errors[0] as Error).message)
    expect(said(errors[3], 'en')).toBe(
      'Someone saved this entry meanwhile: reload it, then make your change again.',
    )
    expect(said(errors[6], 'en')).toMatch(
      /^The site did not build, so nothing was published\. The content store has 1 problem/,
    )
    expect(refusal(new PublishingError('comment-length'), 'en')).toEqual({
      status: 422,
      body: { error: 'a comment of 1 to 5,000 characters, please' },
    })
  })

  it('answers by code, never by words: an error without one is thrown on, whatever it says', () => {
    const uncoded = new Error('a comment of 1 to 5,000 characters, please')
    expect(() => refusal(uncoded, 'en')).toThrow(uncoded)
    expect(() => refusal(new Error('not a draft id: "x"'), 'de')).toThrow(/not a draft id/)
  })

  it('quotes in a German sentence what has no German (a build’s own words)', () => {
    expect(said(new BuildFailedError('vite: cannot resolve x', 'abc'), 'de')).toBe(
      'Die Website wurde nicht gebaut, deshalb wurde nichts veröffentlicht. Der Dienst meldet auf Englisch: „vite: cannot resolve x“',
    )
    expect(said(new UnsafePathError('unsafe-path', { path: '../x' }), 'de')).toBe(
      'Der Dienst meldet auf Englisch: „not a path inside the repository: "../x"“',
    )
  })
})
