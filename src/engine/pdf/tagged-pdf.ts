/**
 * Writes the build's PDF documents as tagged PDF, PDF/UA-1 in intent (PDFKit): a structure tree
 * of the document's title, headings, paragraphs, lists and tables in reading order, every piece
 * of text inside one of its elements, page numbers marked as artifacts; the document's language
 * (and the language of parts in another one), its title shown as the window's title, and the
 * font embedded (Inter, as on the site).
 */
import PDFDocument from 'pdfkit'
import type { DocumentSpec } from '../../content/documents'
import { type Block, blocksOf, type Run, textOf } from './blocks'
import { FONT_FILES, type FontName, pdfFont } from './fonts'

const A4: [number, number] = [595.28, 841.89]
const MARGIN = 56
const BOTTOM = 64
const BODY_SIZE = 10
const LEADING = 3.5
const TEXT = '#1c1b1a'
const MUTED = '#57534e'
const RULE = '#d6cfc7'
/** Sizes of the title (H1) and of headings H2-H6. */
const HEADING_SIZES = [18, 13.5, 12, 11, 10.5, 10]

const fontOf = (run: Pick<Run, 'bold' | 'italic'>): FontName =>
  run.bold ? (run.italic ? 'boldItalic' : 'bold') : run.italic ? 'italic' : 'regular'

type Doc = PDFKit.PDFDocument
type Element = PDFKit.PDFStructureElement

interface Writer {
  doc: Doc
  /** The level of the last heading: the next may go one deeper at most. */
  lastHeading: number
}

/** The runs of a block as text in one marked-content sequence of `element`. */
function writeRuns(
  writer: Writer,
  element: Element,
  tag: string,
  runs: readonly Run[],
  options: PDFKit.Mixins.TextOptions & {
    size?: number
    bold?: boolean
    color?: string
    /** Where the text starts (a table cell, a list item's body); else where the last ended. */
    at?: { x: number; y?: number }
  } = {},
) {
  const { doc } = writer
  const { size = BODY_SIZE, bold = false, color = TEXT, at, ...text } = options
  if (at) {
    doc.x = at.x
    if (at.y !== undefined) doc.y = at.y
  }
  element.add(doc.markStructureContent(tag))
  doc.fontSize(size).fillColor(color)
  runs.forEach((run, index) => {
    const last = index === runs.length - 1
    doc.font(fontOf({ bold: bold || run.bold, italic: run.italic }))
    // The space after the last word belongs to the text (PDF/UA: words stay apart when read).
    doc.text(last ? `${run.text} ` : run.text, {
      lineGap: LEADING,
      ...text,
      continued: !last,
    })
  })
  doc.endMarkedContent()
}

function heading(writer: Writer, parent: Element, level: number, runs: readonly Run[]) {
  // Headings go down one level at a time: a document that starts at h3 reads as H2.
  const tag = `H${Math.min(Math.max(level, 2), writer.lastHeading + 1, 6)}`
  writer.lastHeading = Number(tag[1])
  const element = writer.doc.struct(tag)
  parent.add(element)
  writer.doc.moveDown(0.6)
  writeRuns(writer, element, tag, runs, {
    size: HEADING_SIZES[writer.lastHeading - 1] ?? BODY_SIZE,
    bold: true,
  })
  writer.doc.moveDown(0.15)
  element.end()
}

function paragraph(writer: Writer, parent: Element, runs: readonly Run[]) {
  const element = writer.doc.struct('P')
  parent.add(element)
  writeRuns(writer, element, 'P', runs)
  writer.doc.moveDown(0.45)
  element.end()
}

function list(
  writer: Writer,
  parent: Element,
  block: Extract<Block, { kind: 'list' }>,
  indent: number,
) {
  const { doc } = writer
  const element = doc.struct('L')
  parent.add(element)
  const width = A4[0] - 2 * MARGIN - indent - 16
  block.items.forEach((item, index) => {
    const li = doc.struct('LI')
    element.add(li)
    const label = block.ordered ? `${block.start + index}.` : '•'
    const lbl = doc.struct('Lbl')
    li.add(lbl)
    const top = doc.y
    lbl.add(doc.markStructureContent('Lbl'))
    doc.font('regular').fontSize(BODY_SIZE).fillColor(TEXT)
    doc.text(`${label} `, MARGIN + indent, top, { width: 16, lineGap: LEADING })
    doc.endMarkedContent()
    lbl.end()
    doc.y = top
    const body = doc.struct('LBody')
    li.add(body)
    for (const child of item) {
      if (child.kind === 'list') list(writer, body, child, indent + 16)
      else if (child.kind !== 'paragraph') {
        // A heading, table or quote inside an item: written as it would be outside one.
        blocks(writer, body, [child])
        doc.x = MARGIN + indent + 16
      } else {
        const p = doc.struct('P')
        body.add(p)
        writeRuns(writer, p, 'P', child.runs, { width, at: { x: MARGIN + indent + 16 } })
        p.end()
      }
    }
    body.end()
    li.end()
    doc.x = MARGIN
    doc.moveDown(0.2)
  })
  element.end()
  doc.x = MARGIN
  doc.moveDown(0.3)
}

/** Column widths in proportion to the longest text of each column, none under 15 %. */
function columnWidths(rows: readonly { cells: Run[][] }[], width: number): number[] {
  const columns = Math.max(...rows.map((row) => row.cells.length))
  const longest = Array.from({ length: columns }, (_, column) =>
    Math.max(8, ...rows.map((row) => Math.min(60, textOf(row.cells[column] ?? []).length))),
  )
  const total = longest.reduce((sum, n) => sum + n, 0)
  const minimum = width * 0.15
  const raw = longest.map((n) => Math.max(minimum, (n / total) * width))
  const scale = width / raw.reduce((sum, n) => sum + n, 0)
  return raw.map((n) => n * scale)
}

function table(writer: Writer, parent: Element, block: Extract<Block, { kind: 'table' }>) {
  const { doc } = writer
  const element = doc.struct('Table')
  parent.add(element)
  const widths = columnWidths(block.rows, A4[0] - 2 * MARGIN)
  const padding = 4
  for (const row of block.rows) {
    const heights = row.cells.map((cell, column) => {
      doc.font(row.header ? 'bold' : 'regular').fontSize(BODY_SIZE - 0.5)
      return doc.heightOfString(`${textOf(cell)} `, {
        width: (widths[column] ?? 0) - 2 * padding,
        lineGap: LEADING,
      })
    })
    const height = Math.max(BODY_SIZE, ...heights) + 2 * padding
    if (doc.y + height > A4[1] - BOTTOM) doc.addPage()
    const top = doc.y
    const tr = doc.struct('TR')
    element.add(tr)
    let x = MARGIN
    row.cells.forEach((cell, column) => {
      const tag = row.header ? 'TH' : 'TD'
      const td = doc.struct(tag)
      tr.add(td)
      writeRuns(writer, td, tag, cell, {
        size: BODY_SIZE - 0.5,
        bold: row.header,
        width: (widths[column] ?? 0) - 2 * padding,
        at: { x: x + padding, y: top + padding },
      })
      td.end()
      x += widths[column] ?? 0
    })
    tr.end()
    // The rule under the row is no content.
    doc.markContent('Artifact', { type: 'Layout' })
    doc
      .moveTo(MARGIN, top + height)
      .lineTo(A4[0] - MARGIN, top + height)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke()
    doc.endMarkedContent()
    doc.x = MARGIN
    doc.y = top + height
  }
  element.end()
  doc.moveDown(0.6)
}

function blocks(writer: Writer, parent: Element, items: readonly Block[]) {
  for (const block of items) {
    if (block.kind === 'heading') heading(writer, parent, block.level, block.runs)
    else if (block.kind === 'paragraph') paragraph(writer, parent, block.runs)
    else if (block.kind === 'list') list(writer, parent, block, 0)
    else if (block.kind === 'table') table(writer, parent, block)
    else {
      const quote = writer.doc.struct('BlockQuote')
      parent.add(quote)
      blocks(writer, quote, block.blocks)
      quote.end()
    }
  }
}

/** A document as a tagged PDF. */
export async function renderPdf(spec: DocumentSpec, issuer: string): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: A4,
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM },
    pdfVersion: '1.7',
    tagged: true,
    subset: 'PDF/UA' as PDFKit.Mixins.PDFSubsets,
    lang: spec.language,
    displayTitle: true,
    bufferPages: true,
    info: { Title: spec.title, Author: issuer, Creator: issuer, Producer: issuer },
    // No default font: PDFKit would load and parse Helvetica's metrics for every document,
    // which none of them uses (all text is Inter, embedded): about 5 % of a document's time.
    font: '',
  })
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve)
    doc.on('error', reject)
  })
  for (const name of Object.keys(FONT_FILES) as FontName[]) {
    doc.registerFont(name, pdfFont(name) as unknown as string)
  }

  const writer: Writer = { doc, lastHeading: 1 }
  const root = doc.struct('Document')
  doc.addStructure(root)
  const title = doc.struct('H1')
  root.add(title)
  writeRuns(writer, title, 'H1', [{ text: spec.title }], { size: HEADING_SIZES[0], bold: true })
  title.end()
  const by = doc.struct('P')
  root.add(by)
  writeRuns(writer, by, 'P', [{ text: issuer }], { size: 9, color: MUTED })
  by.end()
  doc.moveDown(0.8)

  for (const part of spec.parts) {
    // A part in another language is a section that says so.
    const other = part.language && part.language !== spec.language
    const section = doc.struct('Sect', other ? { lang: part.language } : {})
    root.add(section)
    writer.lastHeading = 1
    if (part.heading) heading(writer, section, 2, [{ text: part.heading }])
    blocks(writer, section, blocksOf(part.body.html))
    section.end()
  }
  root.end()

  // Page numbers, once the pages are known: artifacts, not content.
  const range = doc.bufferedPageRange()
  for (let index = 0; index < range.count; index++) {
    doc.switchToPage(range.start + index)
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    doc.markContent('Artifact', { type: 'Pagination', attached: ['Bottom'] })
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(MUTED)
      .text(`${index + 1} / ${range.count}`, MARGIN, A4[1] - BOTTOM / 2, {
        width: A4[0] - 2 * MARGIN,
        align: 'right',
        lineBreak: false,
      })
    doc.endMarkedContent()
    doc.page.margins.bottom = bottom
  }
  doc.end()
  await ended
  return new Uint8Array(Buffer.concat(chunks))
}
