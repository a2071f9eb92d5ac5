import { PDFDocument } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { blocksOf, renderPdf } from '../../../src/build/pdf'
import { renderMarkdown } from '../../../src/content/markdown-render'

describe('PDF documents', () => {
  it('reads headings, paragraphs, list items and table rows from rendered Markdown', () => {
    const { html } = renderMarkdown(
      '## Einlagensicherung\n\nBis zu 100.000 EUR & mehr.\n\n- erstens\n- zweitens\n\n| Feld | Wert |\n|---|---|\n| Frist | 7 Arbeitstage |',
    )
    expect(blocksOf(html)).toEqual([
      { kind: 'h2', text: 'Einlagensicherung' },
      { kind: 'p', text: 'Bis zu 100.000 EUR & mehr.' },
      { kind: 'li', text: 'erstens' },
      { kind: 'li', text: 'zweitens' },
      { kind: 'tr', text: 'Feld  |  Wert' },
      { kind: 'tr', text: 'Frist  |  7 Arbeitstage' },
    ])
  })

  it('writes a PDF with title, language and every page numbered, whatever the letters', async () => {
    const long = Array.from(
      { length: 120 },
      (_, i) => `Absatz ${i}: Selin Aydın prüft die Vertragsbedingungen – € und ñ.`,
    ).join('\n\n')
    const bytes = await renderPdf(
      {
        path: '/documents/x.pdf',
        title: 'Informationsbogen für Einleger',
        language: 'de',
        parts: [{ body: renderMarkdown(long) }],
      },
      'Test Bank AG',
    )
    expect(Buffer.from(bytes.slice(0, 5)).toString()).toBe('%PDF-')
    const pdf = await PDFDocument.load(bytes)
    expect(pdf.getTitle()).toBe('Informationsbogen für Einleger')
    expect(pdf.getAuthor()).toBe('Test Bank AG')
    expect(pdf.getPageCount()).toBeGreaterThan(1)
  })
})
