/**
 * The PDF documents the build publishes under /documents/, derived from the content: the
 * customer-information documents, each study's report and the media kit. The loader checks
 * links against this list; the build writes exactly these files.
 */
import type { Language } from '../shared/languages'
import type { RichText } from './rich-text'

export const MEDIA_KIT_PATH = '/documents/press/media-kit.pdf'

export interface DocumentSpec {
  path: string
  title: string
  /** Language of the document's text (a contract language for customer information). */
  language: string
  /** Blocks of the document in order: a heading and its rich text, in another language where set. */
  parts: { heading?: string; body: RichText; language?: string }[]
}

interface EntryLike {
  collection: string
  file: string
  name: string
  language: Language | undefined
  data: Record<string, unknown>
}

/** Where the build publishes a customer-information document. */
export function customerDocumentPath(
  entry: Pick<EntryLike, 'name' | 'language'>,
  id: string,
): string {
  const [, country, iban, language] = entry.name.split('/')
  return `/documents/customer-information/${country}-${iban}-${language}-${id}-${entry.language}.pdf`
}

/** Every document the content asks for, with the file that asks (for error messages). */
export function documentsOf(entries: readonly EntryLike[]): (DocumentSpec & { file: string })[] {
  const documents: (DocumentSpec & { file: string })[] = []
  for (const entry of entries) {
    if (entry.collection === 'customerInformation') {
      const items = entry.data.documents as { id: string; title: string; body: RichText }[]
      for (const item of items) {
        documents.push({
          file: entry.file,
          path: customerDocumentPath(entry, item.id),
          title: item.title,
          language: String(entry.data.contractLanguage),
          parts: [{ body: item.body }],
        })
      }
    }
    if (entry.collection === 'study') {
      const download = entry.data.download as { href: string }
      const findings = entry.data.findings as { title: string; text: string }[]
      documents.push({
        file: entry.file,
        path: download.href,
        title: String(entry.data.title),
        language: entry.language ?? 'en',
        parts: [
          { body: { html: `<p>${asHtmlText(String(entry.data.intro))}</p>` } },
          ...findings.map((finding) => ({
            heading: finding.title,
            body: { html: `<p>${asHtmlText(finding.text)}</p>` },
          })),
          { body: entry.data.methodology as RichText },
        ],
      })
    }
  }
  return documents
}

/** Plain text as the text of an HTML paragraph. */
function asHtmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
