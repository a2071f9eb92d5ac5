/**
 * The content's rich text (the HTML markdown-it renders) as the blocks a PDF is written from:
 * headings, paragraphs, lists (nested, numbered or not), tables and quotes, their text as runs
 * of plain, bold and italic. Each becomes an element of the PDF's structure tree (`./tagged-pdf.ts`).
 */
import { attributesOf, decodeEntities, scanHtml } from '../html-scan'

export interface Run {
  text: string
  bold?: boolean
  italic?: boolean
}

export type Block =
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { kind: 'table'; rows: { header: boolean; cells: Run[][] }[] }
  | { kind: 'quote'; blocks: Block[] }

/** The plain text of runs. */
export const textOf = (runs: readonly Run[]) => runs.map((run) => run.text).join('')

/** Runs with whitespace collapsed as a browser would, empty ones dropped. */
function tidy(runs: Run[]): Run[] {
  const tidied: Run[] = []
  for (const run of runs) {
    let text = run.text.replace(/\s+/g, ' ')
    const previous = tidied.at(-1)
    if (text.startsWith(' ') && (!previous || previous.text.endsWith(' '))) text = text.slice(1)
    if (!text) continue
    if (previous && previous.bold === run.bold && previous.italic === run.italic) {
      previous.text += text
    } else tidied.push({ ...run, text })
  }
  const last = tidied.at(-1)
  if (last) last.text = last.text.replace(/ $/, '')
  return tidied.filter((run) => run.text)
}

interface Container {
  blocks: Block[]
}

/** The blocks of rendered Markdown, in document order. */
export function blocksOf(html: string): Block[] {
  const root: Container = { blocks: [] }
  // Where blocks go: the document, a list item, a quote.
  const containers: Container[] = [root]
  const lists: Extract<Block, { kind: 'list' }>[] = []
  let table: Extract<Block, { kind: 'table' }> | undefined
  let row: { header: boolean; cells: Run[][] } | undefined
  let inHead = false
  // The runs being gathered: a paragraph, heading, cell or a list item's loose text.
  let runs: Run[] | undefined
  let heading = 0
  let bold = 0
  let italic = 0

  const container = () => containers.at(-1) ?? root
  const flushLoose = () => {
    // Text directly in a list item (a tight list) is a paragraph of the item.
    if (runs && !heading && !row) {
      const tidied = tidy(runs)
      if (tidied.length) container().blocks.push({ kind: 'paragraph', runs: tidied })
      runs = undefined
    }
  }

  scanHtml(html, {
    text(raw) {
      const text = decodeEntities(raw)
      if (!runs) {
        if (!text.trim()) return
        runs = []
      }
      runs.push({
        text,
        ...(bold ? { bold: true } : {}),
        ...(italic ? { italic: true } : {}),
      })
    },
    open(name, attributes) {
      switch (name) {
        case 'p':
          flushLoose()
          runs = []
          break
        case 'h1':
        case 'h2':
        case 'h3':
        case 'h4':
        case 'h5':
        case 'h6':
          flushLoose()
          heading = Number(name[1])
          runs = []
          break
        case 'ul':
        case 'ol': {
          flushLoose()
          const start = Number(attributesOf(attributes).get('start') ?? 1)
          const list: Extract<Block, { kind: 'list' }> = {
            kind: 'list',
            ordered: name === 'ol',
            start: Number.isFinite(start) ? start : 1,
            items: [],
          }
          container().blocks.push(list)
          lists.push(list)
          break
        }
        case 'li': {
          const item: Container = { blocks: [] }
          lists.at(-1)?.items.push(item.blocks)
          containers.push(item)
          break
        }
        case 'blockquote': {
          flushLoose()
          const quote: Extract<Block, { kind: 'quote' }> = { kind: 'quote', blocks: [] }
          container().blocks.push(quote)
          containers.push(quote)
          break
        }
        case 'table':
          flushLoose()
          table = { kind: 'table', rows: [] }
          container().blocks.push(table)
          break
        case 'thead':
          inHead = true
          break
        case 'tr':
          row = { header: inHead, cells: [] }
          table?.rows.push(row)
          break
        case 'th':
        case 'td':
          runs = []
          break
        case 'strong':
        case 'b':
          bold++
          break
        case 'em':
        case 'i':
          italic++
          break
        case 'br':
          runs?.push({ text: ' ' })
          break
      }
    },
    close(name) {
      switch (name) {
        case 'p':
        case 'h1':
        case 'h2':
        case 'h3':
        case 'h4':
        case 'h5':
        case 'h6': {
          const tidied = tidy(runs ?? [])
          if (tidied.length)
            container().blocks.push(
              name === 'p'
                ? { kind: 'paragraph', runs: tidied }
                : { kind: 'heading', level: heading, runs: tidied },
            )
          runs = undefined
          heading = 0
          break
        }
        case 'li':
          flushLoose()
          containers.pop()
          break
        case 'ul':
        case 'ol':
          flushLoose()
          lists.pop()
          break
        case 'blockquote':
          flushLoose()
          containers.pop()
          break
        case 'th':
        case 'td':
          row?.cells.push(tidy(runs ?? []))
          runs = undefined
          break
        case 'tr':
          row = undefined
          break
        case 'thead':
          inHead = false
          break
        case 'table':
          table = undefined
          break
        case 'strong':
        case 'b':
          bold--
          break
        case 'em':
        case 'i':
          italic--
          break
      }
    },
  })
  flushLoose()
  return root.blocks
}
