/**
 * Reads a PDF back as a screen reader's software would: its metadata, its structure tree and
 * its text by marked-content sequence (pdf.js, Mozilla's reader).
 */
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'

export interface StructNode {
  role: string
  lang?: string
  children: StructNode[]
  /** The marked-content ids the element holds directly. */
  content: string[]
}

export interface ReadPdf {
  title: string
  language: string
  marked: boolean
  /** The raw file names `/DisplayDocTitle true`: viewers show the title, not the file name. */
  displaysTitle: boolean
  /** PDF/UA's identification in the XMP metadata (`pdfuaid:part`). */
  pdfUaPart?: string
  pages: number
  /** The structure tree of every page, joined under one root in page order. */
  roots: StructNode[]
  /** Text pieces outside any structure element (neither tagged nor an artifact). */
  untagged: string[]
  /** Text pieces marked as artifacts (page numbers). */
  artifacts: string[]
  /** Text of each marked-content id. */
  textById: Map<string, string>
}

interface RawNode {
  role?: string
  lang?: string
  type?: string
  id?: string
  children?: RawNode[]
}

function toNode(raw: RawNode): StructNode {
  const children: StructNode[] = []
  const content: string[] = []
  for (const child of raw.children ?? []) {
    if (child.type === 'content' && child.id) content.push(child.id)
    else if (child.role) children.push(toNode(child))
  }
  return { role: raw.role ?? 'Root', ...(raw.lang ? { lang: raw.lang } : {}), children, content }
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const raw = Buffer.from(bytes).toString('latin1')
  const pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false }).promise
  try {
    const metadata = await pdf.getMetadata()
    const info = metadata.info as { Title?: string; Language?: string }
    const mark = (await pdf.getMarkInfo()) as { Marked?: boolean } | null
    const roots: StructNode[] = []
    const untagged: string[] = []
    const artifacts: string[] = []
    const textById = new Map<string, string>()
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const tree = (await page.getStructTree()) as RawNode | null
      if (tree) roots.push(...toNode(tree).children)
      const content = await page.getTextContent({ includeMarkedContent: true })
      const open: { tag?: string; id?: string }[] = []
      for (const item of content.items as {
        type?: string
        tag?: string
        id?: string
        str?: string
      }[]) {
        if (item.type === 'beginMarkedContentProps' || item.type === 'beginMarkedContent') {
          open.push({ tag: item.tag, id: item.id })
        } else if (item.type === 'endMarkedContent') open.pop()
        else if (item.str?.trim()) {
          const tagged = open.findLast((mark) => mark.id)
          if (open.some((mark) => mark.tag === 'Artifact')) artifacts.push(item.str)
          else if (tagged?.id) {
            textById.set(tagged.id, `${textById.get(tagged.id) ?? ''} ${item.str}`)
          } else untagged.push(item.str)
        }
      }
    }
    const part = /<pdfuaid:part>(\d+)<\/pdfuaid:part>/.exec(raw)?.[1]
    return {
      title: info.Title ?? '',
      language: info.Language ?? '',
      marked: mark?.Marked === true,
      displaysTitle: /\/DisplayDocTitle true/.test(raw),
      ...(part ? { pdfUaPart: part } : {}),
      pages: pdf.numPages,
      roots,
      untagged,
      artifacts,
      textById,
    }
  } finally {
    await pdf.destroy()
  }
}

/** Every element of the trees, depth first, in reading order. */
export function walk(nodes: readonly StructNode[]): StructNode[] {
  return nodes.flatMap((node) => [node, ...walk(node.children)])
}

/** The text an element holds, its descendants' included, spaces collapsed. */
export function textOfNode(node: StructNode, textById: ReadonlyMap<string, string>): string {
  const own = node.content.map((id) => textById.get(id) ?? '')
  const children = node.children.map((child) => textOfNode(child, textById))
  return [...own, ...children].join(' ').replace(/\s+/g, ' ').trim()
}
