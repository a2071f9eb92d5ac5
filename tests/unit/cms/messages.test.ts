/**
 * What the CMS's backend says when it refuses, in the editor's language: in German, a
 * content problem names its field by the German labels and, for the schemas' common messages,
 * says what is wrong in German; any other problem is said in a German sentence quoting the
 * validation's English words. English stays as the build says it.
 */
import { describe, expect, it } from 'vitest'
import {
  CMS_TEXTS,
  germanFieldPath,
  germanProblemMessage,
  megabytes,
  problemsIn,
} from '../../../src/cms/messages'

describe('a content problem in German', () => {
  it('says the schemas’ messages with the field’s German description', () => {
    expect(germanProblemMessage('expected the page title, found an empty text')).toBe(
      'Der Seitentitel fehlt: Das Feld ist leer.',
    )
    expect(germanProblemMessage('expected the section heading of at most 120 characters')).toBe(
      'Die Überschrift des Abschnitts darf höchstens 120 Zeichen lang sein.',
    )
    expect(germanProblemMessage('expected the publication date as a date (YYYY-MM-DD)')).toBe(
      'Das Veröffentlichungsdatum fehlt oder ist kein Datum der Form JJJJ-MM-TT.',
    )
    expect(germanProblemMessage('expected the survey name in German as text')).toBe(
      'Der Name der Umfrage auf Deutsch fehlt oder ist kein Text.',
    )
    expect(
      germanProblemMessage(
        "expected the post's address (its slug) in lowercase letters, digits and hyphens",
      ),
    ).toBe(
      'Die Adresse des Beitrags (ihr Slug) darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten.',
    )
    expect(
      germanProblemMessage(
        'expected a link to an existing page; nothing is published at /en/gone/',
      ),
    ).toBe('Der Link führt zu keiner Seite: Unter /en/gone/ ist nichts veröffentlicht.')
    expect(
      germanProblemMessage('expected an existing image; there is no public/images/x.png'),
    ).toBe('Das Bild public/images/x.png gibt es nicht.')
  })

  it('knows no German for a message of another form, or of a field it has no words for', () => {
    expect(germanProblemMessage('expected at least three findings')).toBeUndefined()
    expect(germanProblemMessage('expected the colour of the moon as text')).toBeUndefined()
  })

  it('names the field by its German labels, items by their number', () => {
    expect(germanFieldPath('sections.2.heading')).toBe('Abschnitte › Nr. 3 › Überschrift')
    expect(germanFieldPath('cover.src')).toBe('Titelbild › Bilddatei')
  })

  it('says each problem with its file and field, quoting English it has no German for', () => {
    const problems = [
      { file: 'de/pages/about.yaml', field: 'title', message: 'expected the page title as text' },
      { file: 'de/pages/about.yaml', field: 'sections', message: 'expected at least one section' },
      { file: 'site.yaml', field: '', message: 'expected this file; it is missing' },
    ]
    expect(problemsIn(problems, CMS_TEXTS.de)).toBe(
      [
        'content/de/pages/about.yaml, Feld „Titel“: Der Seitentitel fehlt oder ist kein Text.',
        'content/de/pages/about.yaml, Feld „Abschnitte“: Die Prüfung meldet auf Englisch: „expected at least one section“.',
        'content/site.yaml: Diese Datei fehlt.',
      ].join(' · '),
    )
    expect(problemsIn(problems.slice(0, 1), CMS_TEXTS.en)).toBe(
      'content/de/pages/about.yaml › title: expected the page title as text',
    )
  })
})

describe("the backend's refusals", () => {
  it('are there in both languages, German ones in German', () => {
    expect(Object.keys(CMS_TEXTS.de).sort()).toEqual(Object.keys(CMS_TEXTS.en).sort())
    expect(CMS_TEXTS.de.imageTooLarge('a.png', megabytes(6 * 1024 * 1024, 'de'), '5,0 MB')).toBe(
      'a.png ist 6,0 MB groß: Bilder dürfen höchstens 5,0 MB groß sein.',
    )
    expect(CMS_TEXTS.en.imageTooLarge('a.png', megabytes(6 * 1024 * 1024, 'en'), '5.0 MB')).toBe(
      'a.png is 6.0 MB: images may be 5.0 MB at most',
    )
    expect(CMS_TEXTS.de.badDrawing('x.svg', 'contains script')).toMatch(
      /^x\.svg wurde nicht angenommen: .*„x\.svg contains script“\.$/,
    )
  })
})
