/**
 * Where content comes from. The file store is the default; a hosted headless CMS can
 * replace it by yielding the same documents.
 */
import type { ContentProblem } from './errors'

/** One entry as stored: its location (a file path, or a CMS entry id shaped like one) and data. */
export interface ContentDocument {
  /** Relative location, e.g. `en/pages/about.yaml`; decides the entry's type and route. */
  file: string
  data: unknown
}

export interface ContentSource {
  /** Human name for messages: the content directory, or the CMS. */
  readonly label: string
  /** Every document, plus the problems met while reading (unparsable files). */
  read(): Promise<{ documents: ContentDocument[]; problems: ContentProblem[] }>
}
