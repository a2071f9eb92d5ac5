/**
 * Writes PDF documents from content at build time (pdf-lib, pure JavaScript): a title, then
 * headings, paragraphs, list items and table rows taken from the sanitised HTML of the
 * content's rich text, wrapped to A4 with page numbers.
 */
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'
import type { DocumentSpec } from '../content/documents'

const A4: [number, number] = [595.28, 841.89]
const MARGIN = 56
const BODY_SIZE = 10.5
const LINE = 1.45

type Block = { kind: 'h2' | 'h3' | 'p' | 'li' | 'tr'; text: string }

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (/^#x/i.test(name)) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10))
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity
  })
}

/** Text of an HTML fragment: tags dropped first, then entities decoded (so `&lt;` stays text). */
function plain(html: string): string {
  const text = html.replace(/<br\s*\/?>/g, ' ').replace(/<[^>]+>/g, '')
  return decodeEntities(text).replace(/\s+/g, ' ').trim()
}

/** The blocks of our own rendered Markdown, in document order. */
export function blocksOf(html: string): Block[] {
  const blocks: Block[] = []
  const pattern =
    /<(h[2-4])[^>]*>([\s\S]*?)<\/\1>|<li>([\s\S]*?)<\/li>|<tr>([\s\S]*?)<\/tr>|<p>([\s\S]*?)<\/p>/g
  for (const match of html.matchAll(pattern)) {
    const [, heading, headingText, item, row, paragraph] = match
    if (heading)
      blocks.push({ kind: heading === 'h2' ? 'h2' : 'h3', text: plain(headingText ?? '') })
    else if (item !== undefined)
      blocks.push({ kind: 'li', text: plain(item.replace(/<\/?p>/g, ' ')) })
    else if (row !== undefined) {
      const cells = [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
        plain(cell[1] ?? ''),
      )
      blocks.push({ kind: 'tr', text: cells.join('  |  ') })
    } else if (paragraph !== undefined) blocks.push({ kind: 'p', text: plain(paragraph) })
  }
  return blocks.filter((block) => block.text !== '')
}

/** The standard fonts encode Windows-1252 only; other letters fall back to their base letter. */
function encodable(text: string, font: PDFFont): string {
  let result = ''
  for (const char of text) {
    try {
      font.encodeText(char)
      result += char
    } catch {
      const base = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
      result += base && base !== char ? base : char === 'ı' ? 'i' : '?'
    }
  }
  return result
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word
    if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate
    else {
      lines.push(line)
      line = word
    }
  }
  if (line) lines.push(line)
  return lines
}

export async function renderPdf(spec: DocumentSpec, issuer: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create()
  pdf.setTitle(spec.title)
  pdf.setAuthor(issuer)
  pdf.setLanguage(spec.language)
  pdf.setCreator(issuer)
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const width = A4[0] - 2 * MARGIN
  let page: PDFPage = pdf.addPage(A4)
  let y = A4[1] - MARGIN

  const write = (text: string, font: PDFFont, size: number, indent = 0, spaceBefore = 0) => {
    const lines = wrap(encodable(text, font), font, size, width - indent)
    y -= spaceBefore
    for (const line of lines) {
      if (y - size * LINE < MARGIN) {
        page = pdf.addPage(A4)
        y = A4[1] - MARGIN
      }
      y -= size * LINE
      page.drawText(line, { x: MARGIN + indent, y, size, font, color: rgb(0.11, 0.11, 0.1) })
    }
  }

  write(spec.title, bold, 18)
  write(issuer, regular, 9, 0, 4)
  for (const part of spec.parts) {
    if (part.heading) write(part.heading, bold, 13, 0, 12)
    for (const block of blocksOf(part.body.html)) {
      if (block.kind === 'h2') write(block.text, bold, 13, 0, 12)
      else if (block.kind === 'h3') write(block.text, bold, 11.5, 0, 9)
      else if (block.kind === 'li') write(`•  ${block.text}`, regular, BODY_SIZE, 10, 3)
      else if (block.kind === 'tr') write(block.text, regular, BODY_SIZE - 0.5, 0, 3)
      else write(block.text, regular, BODY_SIZE, 0, 6)
    }
  }
  const pages = pdf.getPages()
  pages.forEach((each, index) => {
    each.drawText(`${index + 1} / ${pages.length}`, {
      x: A4[0] - MARGIN - 30,
      y: MARGIN / 2,
      size: 8,
      font: regular,
    })
  })
  return pdf.save({ useObjectStreams: true })
}
