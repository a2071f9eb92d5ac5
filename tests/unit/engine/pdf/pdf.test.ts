import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DocumentSpec, documentsOf } from '../../../../src/content/documents'
import { createFileStore } from '../../../../src/content/file-store'
import { loadContent } from '../../../../src/content/load'
import { renderMarkdown } from '../../../../src/content/markdown-render'
import type { SiteContent } from '../../../../src/content/site-content'
import { ROOT } from '../../../../src/engine/config'
import { blocksOf } from '../../../../src/engine/pdf/blocks'
import { mediaKit, writeDocuments } from '../../../../src/engine/pdf/documents'
import { renderPdf } from '../../../../src/engine/pdf/tagged-pdf'
import { type ReadPdf, readPdf, type StructNode, textOfNode, walk } from '../../../support/pdf'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? []

/** The words a document's source holds: title, issuer, each part's heading and text. */
function sourceWords(spec: DocumentSpec, issuer: string): string[] {
  const text = [
    spec.title,
    issuer,
    ...spec.parts.flatMap((part) => [
      part.heading ?? '',
      part.body.html
        .replace(/<[^>]+>/g, ' ')
        .replace(/&amp;/g, '&')
        .replace(/&[a-z]+;|&#\d+;/g, ' '),
    ]),
  ].join(' ')
  return words(text)
}

/** The words of the tagged text in reading order, list labels left out. */
function taggedWords(read: ReadPdf): string[] {
  const labels = new Set(
    walk(read.roots)
      .filter((node) => node.role === 'Lbl')
      .flatMap((node) => node.content),
  )
  return [...read.textById].filter(([id]) => !labels.has(id)).flatMap(([, text]) => words(text))
}

/** What every tagged document must show a reader, whatever its content. */
function expectAccessible(read: ReadPdf, spec: DocumentSpec) {
  expect(read.title, spec.path).toBe(spec.title)
  expect(read.language, spec.path).toBe(spec.language)
  expect(read.marked, spec.path).toBe(true)
  expect(read.displaysTitle, spec.path).toBe(true)
  expect(read.pdfUaPart, spec.path).toBe('1')
  // Every piece of text is in the structure tree or an artifact: page numbers only.
  expect(read.untagged, spec.path).toEqual([])
  expect(read.artifacts.length, spec.path).toBe(read.pages)
  for (const artifact of read.artifacts) expect(artifact).toMatch(/^\d+ \/ \d+$/)
  // One document, its title the one H1, headings never skipping a level.
  expect(
    read.roots.every((root) => root.role === 'Document'),
    spec.path,
  ).toBe(true)
  const headings = walk(read.roots)
    .filter((node) => /^H\d$/.test(node.role))
    .map((node) => Number(node.role[1]))
  expect(headings[0], spec.path).toBe(1)
  expect(headings.filter((level) => level === 1).length, spec.path).toBeLessThanOrEqual(read.pages)
  headings.forEach((level, index) => {
    if (index > 0) expect(level, spec.path).toBeLessThanOrEqual((headings[index - 1] ?? 1) + 1)
  })
}

describe('the rich text of a document', () => {
  it('reads headings, paragraphs with bold and italic, lists and tables from rendered Markdown', () => {
    const { html } = renderMarkdown(
      [
        '## Einlagensicherung',
        'Bis zu **100.000 EUR** & *mehr*.',
        '- erstens\n- zweitens\n  1. nested',
        '3. drei\n4. vier',
        '| Feld | Wert |\n|---|---|\n| Frist | 7 Arbeitstage |',
        '> Zitat',
      ].join('\n\n'),
    )
    expect(blocksOf(html)).toEqual([
      { kind: 'heading', level: 2, runs: [{ text: 'Einlagensicherung' }] },
      {
        kind: 'paragraph',
        runs: [
          { text: 'Bis zu ' },
          { text: '100.000 EUR', bold: true },
          { text: ' & ' },
          { text: 'mehr', italic: true },
          { text: '.' },
        ],
      },
      {
        kind: 'list',
        ordered: false,
        start: 1,
        items: [
          [{ kind: 'paragraph', runs: [{ text: 'erstens' }] }],
          [
            { kind: 'paragraph', runs: [{ text: 'zweitens' }] },
            {
              kind: 'list',
              ordered: true,
              start: 1,
              items: [[{ kind: 'paragraph', runs: [{ text: 'nested' }] }]],
            },
          ],
        ],
      },
      {
        kind: 'list',
        ordered: true,
        start: 3,
        items: [
          [{ kind: 'paragraph', runs: [{ text: 'drei' }] }],
          [{ kind: 'paragraph', runs: [{ text: 'vier' }] }],
        ],
      },
      {
        kind: 'table',
        rows: [
          { header: true, cells: [[{ text: 'Feld' }], [{ text: 'Wert' }]] },
          { header: false, cells: [[{ text: 'Frist' }], [{ text: '7 Arbeitstage' }]] },
        ],
      },
      { kind: 'quote', blocks: [{ kind: 'paragraph', runs: [{ text: 'Zitat' }] }] },
    ])
  })
})

describe('tagged PDF documents', () => {
  const long = Array.from(
    { length: 40 },
    (_, i) => `Absatz ${i}: Selin Aydın prüft die **Vertragsbedingungen** – € und ñ.`,
  ).join('\n\n')
  const spec: DocumentSpec = {
    path: '/documents/x.pdf',
    title: 'Informationsbogen für Einleger',
    language: 'de',
    parts: [
      {
        heading: 'Grundlegende Informationen',
        body: renderMarkdown(
          `${long}\n\n#### Zu tief\n\nText.\n\n- eins\n- zwei\n\n  > Ein Zitat im Punkt\n\n| Feld | Wert |\n|---|---|\n| Frist | 7 Arbeitstage |`,
        ),
      },
      { heading: 'About us', body: renderMarkdown('We are a bank.'), language: 'en' },
    ],
  }
  let read: ReadPdf

  beforeAll(async () => {
    read = await readPdf(await renderPdf(spec, 'Test Bank AG'))
  })

  it('has a title shown as the window title, a language, PDF/UA identification and pages', () => {
    expectAccessible(read, spec)
    expect(read.pages).toBeGreaterThan(1)
  })

  it('holds every word of the source, in order, in its structure', () => {
    expect(taggedWords(read)).toEqual(sourceWords(spec, 'Test Bank AG'))
  })

  it('tags headings, paragraphs, lists and tables, and a part in another language', () => {
    const [document] = read.roots
    const roles = (node: StructNode | undefined) => node?.children.map((child) => child.role)
    expect(roles(document)?.slice(0, 3)).toEqual(['H1', 'P', 'Sect'])
    const all = walk(read.roots)
    // The h4 after an H2 is read as H3: no level skipped.
    expect(all.find((node) => textOfNode(node, read.textById) === 'Zu tief')?.role).toBe('H3')
    const list = all.find((node) => node.role === 'L')
    expect(list?.children.map((item) => roles(item))).toEqual([
      ['Lbl', 'LBody'],
      ['Lbl', 'LBody'],
    ])
    const table = all.find((node) => node.role === 'Table')
    expect(table?.children.map((row) => roles(row))).toEqual([
      ['TH', 'TH'],
      ['TD', 'TD'],
    ])
    const english = all.find((node) => node.role === 'Sect' && node.lang === 'en')
    expect(english && textOfNode(english, read.textById)).toBe('About us We are a bank.')
  })
})

describe('every document the build writes', () => {
  let content: SiteContent
  let dir: string

  beforeAll(async () => {
    content = await loadContent(createFileStore(join(ROOT, 'content')))
    dir = await temporaryFolder('documents-')
    await writeDocuments(content, dir)
  }, 60_000)

  afterAll(async () => {
    await removeFolder(dir)
  })

  it('is tagged, in its language, titled, and holds the content store’s text', async () => {
    const issuer = content.settings.legalEntity
    const specs = [...documentsOf(content.entries), await mediaKit(content)]
    expect(specs.length).toBeGreaterThan(40)
    for (const each of specs) {
      const document = await readPdf(new Uint8Array(await readFile(join(dir, each.path))))
      expectAccessible(document, each)
      expect(taggedWords(document), each.path).toEqual(sourceWords(each, issuer))
    }
  }, 120_000)
})
