/**
 * No comment or document names an issue of the tracker (which is not in the repository, so a
 * reader of the code cannot follow such a number) or a file that is not there. Read are the
 * comments of the code (`src/`, `tests/`, `bench/`, `scripts/`, `deploy/`: of JavaScript and
 * TypeScript as the parser finds them, of CSS, shell and YAML by their comment marks) and the
 * whole of the Markdown (`docs/`, `README.md`, and any other `.md` there). A file is named by a
 * path-like word with an extension of the project's files (`src/publishing/publication/lease.ts`,
 * `publication/lease.ts`, `../structure.test.ts`, `lease.ts`); one that begins with `./` or `../`
 * is found from the naming file's folder alone, any other when it is a file of the project
 * from the project's folder, from `src/`, from the naming file's folder or any folder
 * above it, when a file of the project ends with it (`publication/releases.ts`), or when it is a
 * path of the editors' tools that maps onto a file of the content store. Every broken mention
 * is printed with its file and line.
 */
import { readFileSync } from 'node:fs'
import { join, posix } from 'node:path'
import { parseSync } from 'rolldown/utils'
import { describe, expect, it } from 'vitest'
import { CMS_CONTENT_ROOT, storeFileOf } from '../../../src/cms/paths'
import { PROJECT_ROOT, projectFiles } from '../../support/project-files'

const ROOT = PROJECT_ROOT
const SCANNED = ['src/', 'tests/', 'bench/', 'scripts/', 'deploy/', 'docs/', 'README.md']

/**
 * Paths that name what the programs and tools make, never a file of the repository: the built
 * site (`dist/`), the services' data (`data/`, and the folders `DATA_DIR` and `RELEASES_DIR`
 * name), the caches (`.cache/`) and the bench's results (`bench/out/`); and the team's shared
 * folder beside the checkout (`../shared/`: its peer script and notes), which a clone has not.
 */
const GENERATED = [
  'dist/',
  'data/',
  'DATA_DIR/',
  'RELEASES_DIR/',
  '.cache/',
  'bench/out/',
  '../shared/',
]

const EXTENSIONS = 'tsx|ts|mts|mjs|cjs|jsx|js|json|md|css|yaml|yml|sh|sql|html|svg|png|txt|csv|xml'
/** A path-like word ending in one of the extensions; not inside a path or an address. */
const PATH = new RegExp(
  `(?<![\\w@/.:*$~{}<>-])((?:\\.{1,2}/)*(?:[\\w@.-]+/)*[\\w-][\\w.-]*\\.(?:${EXTENSIONS}))(?![\\w/{}<>*-])`,
  'g',
)
const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi
/**
 * An issue by its number: the word (issue, ticket, pull request, PR; singular or plural) and
 * the number, with or without `#`, or a number after `#` in brackets as GitHub writes it. Not
 * "PKCS #8", nor a colour (six digits).
 */
const ISSUE = [
  /\b(?:issues?|tickets?|pull requests?|PRs?)\s+#?\d+(?:\s*(?:,|and|or|&)\s*#?\d+)*/gi,
  /(?<=[([]\s*)#\d{1,4}(?=\s*[)\],;])/g,
]

/** A stretch of a file that is prose: a comment, or a whole Markdown file; `line` its first. */
interface Prose {
  text: string
  line: number
}

const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length

function proseOf(file: string, text: string): Prose[] {
  if (file.endsWith('.md')) return [{ text, line: 1 }]
  if (/\.(?:[cm]?[jt]sx?)$/.test(file)) {
    const parsed = parseSync(file, text)
    return parsed.comments.map((comment) => ({
      text: comment.value,
      line: lineAt(text, comment.start),
    }))
  }
  if (file.endsWith('.css')) {
    return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((match) => ({
      text: match[0],
      line: lineAt(text, match.index),
    }))
  }
  if (/\.(?:sh|ya?ml)$|(?:^|\/)Containerfile$/.test(file)) {
    return text.split('\n').flatMap((line, index) => {
      const comment = /(?:^|\s)#(?!!)(.*)$/.exec(line)
      return comment ? [{ text: comment[1] ?? '', line: index + 1 }] : []
    })
  }
  return []
}

interface Mention {
  file: string
  line: number
  what: string
}

function mentionsIn(file: string, stretches: readonly Prose[], pattern: RegExp): Mention[] {
  return stretches.flatMap((prose) =>
    [...prose.text.replace(URL_LIKE, (url) => ' '.repeat(url.length)).matchAll(pattern)].map(
      (match) => ({
        file,
        line: prose.line + (prose.text.slice(0, match.index).match(/\n/g)?.length ?? 0),
        what: match[1] ?? match[0],
      }),
    ),
  )
}

/**
 * A word without a folder names a file of the project only with a source's extension
 * (`lease.ts`, `operators.md`): `sw.js`, `404.html`, `_redirects.json` or Node.js name what the
 * build writes, or a product.
 */
const SOURCE = /\.(?:tsx?|mts|mjs|cjs|md)$/

/** Whether `mention`, named in `file`, is a file of the project (`files`). */
function resolves(mention: string, file: string, files: ReadonlySet<string>): boolean {
  const bare = mention.split('#')[0] ?? mention
  if (!bare.includes('/') && !SOURCE.test(bare)) return true
  if (GENERATED.some((prefix) => bare.startsWith(prefix))) return true
  // A path that begins with a dot or two says where it is: from the naming file's folder alone.
  if (/^\.\.?\//.test(bare)) return files.has(posix.join(posix.dirname(file), bare))
  const bases = ['', 'src']
  for (let folder = posix.dirname(file); folder !== '.'; folder = posix.dirname(folder)) {
    bases.push(folder)
  }
  if (bases.some((base) => files.has(posix.join(base, bare)))) return true
  const tail = `/${posix.normalize(bare).replace(/^(?:\.\.\/)+/, '')}`
  for (const each of files) if (`/${each}`.endsWith(tail)) return true
  return files.has(`${CMS_CONTENT_ROOT}/${storeFileOfCms(bare)}`)
}

/**
 * The store's file a path of the editors' tools names: Decap and the publishing service's
 * editor see a collection's folder with a language folder inside
 * (`content/service/en/cards.yaml`), which the backend maps onto the store as here.
 */
function storeFileOfCms(path: string): string | undefined {
  if (!path.startsWith(`${CMS_CONTENT_ROOT}/`)) return undefined
  try {
    return storeFileOf(path)
  } catch {
    return undefined
  }
}

const scanned = (file: string) => SCANNED.some((start) => file === start || file.startsWith(start))
const format = (mentions: Mention[]) =>
  mentions.map((mention) => `${mention.file}:${mention.line}: ${mention.what}`)

describe('references in comments and documents', () => {
  const files = projectFiles()
  const fileSet = new Set(files)
  const texts = files
    .filter(scanned)
    .filter((file) => /\.(?:[cm]?[jt]sx?|md|css|sh|ya?ml)$|Containerfile$/.test(file))
    .map((file) => ({ file, prose: proseOf(file, readFileSync(join(ROOT, file), 'utf8')) }))

  it('name no issue of the tracker', () => {
    const found = texts.flatMap(({ file, prose }) =>
      ISSUE.flatMap((pattern) => mentionsIn(file, prose, pattern)),
    )
    if (found.length > 0) console.log(format(found).join('\n'))
    expect(format(found)).toEqual([])
  })

  it('name only files that are there', () => {
    const broken = texts.flatMap(({ file, prose }) =>
      mentionsIn(file, prose, PATH).filter((mention) => !resolves(mention.what, file, fileSet)),
    )
    if (broken.length > 0) console.log(format(broken).join('\n'))
    expect(format(broken)).toEqual([])
  })

  it('finds an issue however it is written, and nothing else', () => {
    const text = [
      'As issue 5 asks; Issues 12 and 23; see PR #7 (#31) [#40].',
      'PKCS #8, the colour (#798291), the entity &#39; and 2 issues open.',
    ].join('\n')
    expect(format(mentionsIn('a.ts', [{ text, line: 10 }], ISSUE[0] as RegExp))).toEqual([
      'a.ts:10: issue 5',
      'a.ts:10: Issues 12 and 23',
      'a.ts:10: PR #7',
    ])
    expect(format(mentionsIn('a.ts', [{ text, line: 10 }], ISSUE[1] as RegExp))).toEqual([
      'a.ts:10: #31',
      'a.ts:10: #40',
    ])
  })

  it('finds a named file where this test says, and only there', () => {
    const at = (mention: string, file = 'src/engine/search/collect.ts') =>
      resolves(mention, file, fileSet)
    expect(at('src/engine/cache/page-reuse.ts')).toBe(true)
    expect(at('cache/page-reuse.ts')).toBe(true)
    expect(at('../cache/page-reuse.ts')).toBe(true)
    expect(at('publication/releases.ts')).toBe(true)
    expect(at('operators.md', 'docs/forms.md')).toBe(true)
    expect(at('dist/en/index.html')).toBe(true)
    expect(at('content/service/en/cards.yaml')).toBe(true)
    expect(at('Node.js')).toBe(true)
    expect(at('../page-reuse.ts')).toBe(false)
    expect(at('src/publishing/pages/manage.ts')).toBe(false)
    expect(at('content/pages/services/en/cards.yaml')).toBe(false)
    expect(at('gone.ts')).toBe(false)
    expect(
      format(
        mentionsIn('b.md', [{ text: 'see `a/b.ts`,\nthen https://x.example/c.ts', line: 3 }], PATH),
      ),
    ).toEqual(['b.md:3: a/b.ts'])
  })
})
