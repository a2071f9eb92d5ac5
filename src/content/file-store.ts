/** The embedded content store: YAML files under the content directory. */
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { CORE_SCHEMA, load, YAMLException } from 'js-yaml'
import type { ContentProblem } from './errors'
import type { ContentDocument, ContentSource } from './source'

const DATA_FILE = /\.(ya?ml|md|xml|csv|json)$/
/** Data files read as text and parsed by their own readers (exchange rates: XML, CSV, JSON). */
const RAW_FILE = /\.(xml|csv|json)$/
/** Markdown files open with YAML front matter between two `---` lines; the rest is `body`. */
export const FRONT_MATTER = /^---\r?\n(?<front>[\s\S]*?)\r?\n---\r?\n?(?<body>[\s\S]*)$/

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && DATA_FILE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
}

/**
 * YAML 1.2 with its core schema: `2025-01-31` and `yes` stay text. js-yaml reads the content
 * four to five times faster than the `yaml` package (57 instead of 224 ms for the site's
 * files), which the CMS still writes with (`file-format.ts`); both read every stored file alike.
 */
export function parseYaml(source: string): unknown {
  return load(source, { schema: CORE_SCHEMA })
}

export function parseMarkdownFile(source: string): unknown {
  const match = FRONT_MATTER.exec(source)
  if (!match?.groups) throw new Error('expected front matter between two "---" lines at the top')
  const front: unknown = parseYaml(match.groups.front ?? '') ?? {}
  if (typeof front !== 'object' || front === null || Array.isArray(front)) {
    throw new Error('expected the front matter to hold fields (name: value)')
  }
  return { ...front, body: match.groups.body ?? '' }
}

/** One stored file's document, or the problem that stops it being read. */
export function parseContentFile(
  file: string,
  source: string,
): { document: ContentDocument } | { problem: ContentProblem } {
  if (RAW_FILE.test(file)) return { document: { file, data: { text: source } } }
  try {
    const data = file.endsWith('.md') ? parseMarkdownFile(source) : (parseYaml(source) ?? {})
    return { document: { file, data } }
  } catch (error) {
    const yaml = error instanceof YAMLException ? error : undefined
    // In Markdown the YAML starts on the line after the opening `---`.
    const line = yaml?.mark && yaml.mark.line + (file.endsWith('.md') ? 2 : 1)
    const reason = yaml
      ? yaml.reason
      : error instanceof Error
        ? error.message.split('\n')[0]
        : String(error)
    return {
      problem: {
        file,
        field: '',
        message: `expected valid YAML${line ? ` (line ${line})` : ''}: ${reason}`,
      },
    }
  }
}

/** Every data file below `dir`, as paths relative to it with forward slashes. */
export async function listContentFiles(dir: string): Promise<string[]> {
  return (await listFiles(dir)).map((path) => relative(dir, path).split(sep).join('/'))
}

/**
 * What each stored file last parsed to, by its name in the store and its text, for this process:
 * a long-running builder (the publishing service, a build per publication) parses only the files
 * that changed since its last build. YAML was the largest part of such a build (about 60 of its
 * 500 ms on the real site). Held frozen, since every build shares it: validation makes new
 * objects of it and never changes it. By the name in the store, not the path on disk: a parse
 * depends on nothing else, and stores read from a folder of their own each time (a commit's
 * content unpacked to a temporary folder) would otherwise have kept a copy of every file per
 * read (80 MB over 20 publications). At most `PARSED_KEPT` files, the least recently read going
 * first.
 */
const parsedFiles = new Map<string, { source: string; document: ContentDocument }>()
const PARSED_KEPT = 4096

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const item of Object.values(value)) deepFreeze(item)
  }
  return value
}

/** `parseContentFile`, remembered by the file's name and text (see `parsedFiles`). */
function parseRemembered(
  file: string,
  source: string,
): { document: ContentDocument } | { problem: ContentProblem } {
  const known = parsedFiles.get(file)
  parsedFiles.delete(file)
  if (known && known.source === source) {
    parsedFiles.set(file, known)
    return { document: known.document }
  }
  const parsed = parseContentFile(file, source)
  if ('document' in parsed) {
    parsedFiles.set(file, { source, document: deepFreeze(parsed.document) })
    if (parsedFiles.size > PARSED_KEPT) {
      parsedFiles.delete(parsedFiles.keys().next().value as string)
    }
  }
  return parsed
}

export function createFileStore(dir: string): ContentSource {
  return {
    label: dir,
    async read() {
      const documents: ContentDocument[] = []
      const problems: ContentProblem[] = []
      let files: string[]
      try {
        files = await listFiles(dir)
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        return {
          documents,
          problems: [
            { file: '.', field: '', message: `cannot read the content directory (${reason})` },
          ],
        }
      }
      await Promise.all(
        files.map(async (path) => {
          const file = relative(dir, path).split(sep).join('/')
          const parsed = parseRemembered(file, await readFile(path, 'utf8'))
          if ('problem' in parsed) problems.push(parsed.problem)
          else documents.push(parsed.document)
        }),
      )
      documents.sort((a, b) => a.file.localeCompare(b.file))
      return { documents, problems }
    },
  }
}
