/**
 * A draft's change as a reviewer reads it: fields, not files; the changed words marked; long
 * texts by paragraph as they read; images as images; nothing shown that only changed its form.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { dump, load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../../../src/engine/config'
import { compareFile, compareParagraphs, readable } from '../../../../src/publishing/review/compare'
import { diffSequences, diffWords } from '../../../../src/publishing/review/sequence-diff'

const ABOUT = 'content/en/pages/about.yaml'

describe('the comparison of sequences', () => {
  it('keeps what stayed and marks what came and went, in order', () => {
    expect(
      diffSequences(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e']).map((step) => step.kind),
    ).toEqual(['same', 'removed', 'added', 'same', 'same', 'added'])
  })

  it('marks the words added and removed, a space between two changed words with them', () => {
    expect(
      diffWords('We serve fintechs in Berlin.', 'We serve banks and fintechs in Berlin.'),
    ).toEqual({
      before: [{ kind: 'same', text: 'We serve fintechs in Berlin.' }],
      after: [
        { kind: 'same', text: 'We serve ' },
        { kind: 'added', text: 'banks and ' },
        { kind: 'same', text: 'fintechs in Berlin.' },
      ],
    })
    expect(diffWords('Old title here', 'New name here')).toEqual({
      before: [
        { kind: 'removed', text: 'Old title' },
        { kind: 'same', text: ' here' },
      ],
      after: [
        { kind: 'added', text: 'New name' },
        { kind: 'same', text: ' here' },
      ],
    })
  })
})

describe('a content file compared by field', () => {
  it('shows nothing for a save that only wrote the file in another form', async () => {
    const live = await readFile(join(ROOT, ABOUT), 'utf8')
    const reformatted = dump(load(live), { sortKeys: true, flowLevel: 4 })
    expect(reformatted).not.toBe(live)
    expect(compareFile(ABOUT, live, reformatted, 'en')).toEqual({
      path: ABOUT,
      change: 'changed',
      fields: [],
      // The entry's title names its draft on the page of changes.
      title: 'About Lumora Bank',
    })
  })

  it('names each changed field by its label, in English and in German, with the words marked', async () => {
    const live = await readFile(join(ROOT, ABOUT), 'utf8')
    const data = load(live) as { description: string; sections: { heading?: string }[] }
    const changed = structuredClone(data)
    changed.description = `${data.description} We answer within a day.`
    ;(changed.sections[1] as { heading: string }).heading = 'What we believe in'
    const draft = dump(changed)
    const english = compareFile(ABOUT, live, draft, 'en')
    expect(english.fields.map((field) => [field.path, field.label, field.change])).toEqual([
      ['description', 'Description', 'changed'],
      ['sections.1.heading', 'Sections › 2 (Feature grid) › Heading', 'changed'],
    ])
    expect(english.fields[0]?.words?.after.at(-1)).toEqual({
      kind: 'added',
      text: ' We answer within a day.',
    })
    expect(english.fields[1]?.words).toEqual({
      before: [
        { kind: 'same', text: 'What we ' },
        { kind: 'removed', text: 'stand for' },
      ],
      after: [
        { kind: 'same', text: 'What we ' },
        { kind: 'added', text: 'believe in' },
      ],
    })
    const german = compareFile(ABOUT, live, draft, 'de')
    expect(german.fields.map((field) => field.label)).toEqual([
      'Beschreibung',
      expect.stringMatching(/^Abschnitte › 2 \(.+\) › Überschrift$/),
    ])
  })

  it('pairs list items by what stayed: a section put in between is one section added', async () => {
    const live = await readFile(join(ROOT, ABOUT), 'utf8')
    const data = load(live) as { sections: unknown[] }
    const changed = structuredClone(data)
    changed.sections.splice(1, 0, { type: 'quote', quote: 'Banking, built in.', author: 'Ada' })
    changed.sections.pop()
    const review = compareFile(ABOUT, live, dump(changed), 'en')
    const where = review.fields.map((field) => `${field.change} ${field.path}`)
    expect(where.filter((line) => line.startsWith('added'))).toEqual([
      'added sections.1.type',
      'added sections.1.quote',
      'added sections.1.author',
    ])
    expect(where.filter((line) => line.startsWith('changed'))).toEqual([])
    expect(where.filter((line) => line.startsWith('removed')).length).toBeGreaterThan(0)
  })

  it('compares long texts by paragraph as they read, links with their address', () => {
    const before =
      'We are a **bank**.\n\n### Supervision\n\nSupervised by [BaFin](https://www.bafin.de/).\n\nLast paragraph.'
    const after =
      'We are a **bank**.\n\n### Supervision\n\nSupervised by [BaFin](https://www.bafin.example/).\n\nLast paragraph.\n\nA new one.'
    expect(readable('Supervised by [BaFin](https://www.bafin.de/) and *others*.')).toBe(
      'Supervised by BaFin (https://www.bafin.de/) and others.',
    )
    expect(compareParagraphs(before, after)).toEqual([
      {
        kind: 'changed',
        before: [
          { kind: 'same', text: 'Supervised by BaFin (https://www.bafin.' },
          { kind: 'removed', text: 'de' },
          { kind: 'same', text: '/).' },
        ],
        after: [
          { kind: 'same', text: 'Supervised by BaFin (https://www.bafin.' },
          { kind: 'added', text: 'example' },
          { kind: 'same', text: '/).' },
        ],
      },
      { kind: 'added', after: [{ kind: 'added', text: 'A new one.' }] },
    ])
  })

  it('shows an image field as images, a new file field by field, a deleted one as going', () => {
    const before = 'title: Card\nimage: /images/cards/old.png\n'
    const after = 'title: Card\nimage: /images/cards/new.png\n'
    expect(compareFile('content/en/pages/x.yaml', before, after, 'en').fields).toEqual([
      {
        path: 'image',
        label: 'Image',
        change: 'changed',
        kind: 'image',
        before: '/images/cards/old.png',
        after: '/images/cards/new.png',
      },
    ])
    expect(
      compareFile('content/en/pages/x.yaml', null, after, 'en').fields.map((f) => f.change),
    ).toEqual(['added', 'added'])
    // A deleted entry is named by the title it had.
    expect(compareFile('content/en/pages/x.yaml', before, null, 'en')).toEqual({
      path: 'content/en/pages/x.yaml',
      change: 'removed',
      fields: [],
      title: 'Card',
    })
    expect(compareFile('content/en/pages/x.yaml', before, 'title: [', 'en').unreadable).toMatch(
      /expected valid YAML/,
    )
  })
})
