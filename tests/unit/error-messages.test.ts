/**
 * No source recognises an error by the text of its message: the service's errors carry codes
 * (src/publishing/errors.ts), and a part below it is told apart by its class or its code
 * (`error.code === 'ENOENT'`, PostgreSQL's `'23505'`, zlib's `'Z_DATA_ERROR'`). Read from the
 * syntax of every file of `src/`: a regular expression, `includes`, `startsWith` and their kin
 * applied to a message or to words taken from one (`const said = error.message.split('\n')`,
 * `const { message } = error`), a message compared with a string, or a message used as a key.
 * A message handed to a function is not followed into it; a parameter that happens to be
 * called `message` (a commit's) is no error's. What has to read a third party's words, which
 * come with no code, is allowed below, place by place, with its reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { parseSync } from 'rolldown/utils'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const SOURCE = join(ROOT, 'src')

/**
 * What reads words that come with no code, file by file: why, and each place as its source
 * reads (its first line). Anything else that reads a message's words fails, in these files too.
 */
const ALLOWED: Record<string, { why: string; reads: string[] }> = {
  'src/database/errors.ts': {
    why: 'node-postgres and PGlite say a lost connection ("Connection terminated", "PGlite is closed") and, outside PostgreSQL, a full disk in words only, with no code',
    reads: [
      '/^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed)/.test(',
      '/No space left on device/.test(message)',
    ],
  },
  'src/database/settings.ts': {
    why: 'node-postgres says a connection that timed out, ended or failed for SSL in words only, with no code: read to tell the operator which setting to look at',
    reads: [
      '/^timeout exceeded when trying to connect|^Connection terminated/.test(text)',
      '/\\bSSL\\b/i.test(text)',
    ],
  },
  'src/publishing/service.ts': {
    why: 'git fails every way with exit code 128: the line of its standard error that says why a clone failed ("fatal: …") is quoted to the operator',
    reads: ['/fatal|error/i.test(line)'],
  },
  'src/publishing/editor/browser/backend.ts': {
    why: 'Decap’s proxy backend hands the browser the service’s answer as an API_ERROR with its sentence as the message and no code: a refused save’s sentence loses the “Not saved:” the editor puts before it anyway',
    reads: ["error.message.replace(NOT_SAVED, '')"],
  },
}

/** Calls that recognise a text: on a message, or with a message as what is looked for. */
const TEXT_TESTS = new Set([
  'includes',
  'startsWith',
  'endsWith',
  'match',
  'matchAll',
  'search',
  'indexOf',
  'lastIndexOf',
  'replace',
  'replaceAll',
  'localeCompare',
])
const COMPARISONS = new Set(['===', '!==', '==', '!='])
/** Expressions that only wrap another: `(x)`, `x as T`, `x!`, `x?.y`. */
const WRAPPERS = new Set([
  'ParenthesizedExpression',
  'TSAsExpression',
  'TSNonNullExpression',
  'TSSatisfiesExpression',
  'ChainExpression',
])

type Node = { type: string; start: number; end: number; [key: string]: unknown }

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'

function children(node: Node): Node[] {
  return Object.values(node).flatMap((value) =>
    Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : [],
  )
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node)
  for (const child of children(node)) walk(child, visit)
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

const nameOf = (node: unknown) =>
  isNode(node) && node.type === 'Identifier' ? (node.name as string) : undefined

/** The places in `text` that recognise a message by its words: line and source. */
function messageTests(file: string, text: string): { line: number; source: string }[] {
  const parsed = parseSync(file, text)
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`)
  const program = parsed.program as unknown as Node
  // Names that hold a message's words: those taken from one (`const { message } = error`,
  // `const said = String(error.message).split('\n')[0]`), and a callback's parameter given
  // its parts (`said.split('\n').find((line) => …)`).
  const holders = new Set<string>()
  const isMessage = (node: unknown): boolean => {
    if (!isNode(node)) return false
    if (node.type === 'MemberExpression' && !node.computed) {
      return nameOf(node.property) === 'message'
    }
    if (node.type === 'Identifier') return holders.has(node.name as string)
    return WRAPPERS.has(node.type) && isMessage(node.expression)
  }
  /** Whether `node` is a message's words, or made of them. */
  const derived = (node: unknown): boolean => {
    if (!isNode(node)) return false
    if (isMessage(node)) return true
    switch (node.type) {
      case 'ConditionalExpression':
        return derived(node.consequent) || derived(node.alternate)
      case 'LogicalExpression':
        return derived(node.left) || derived(node.right)
      case 'TemplateLiteral':
        return (node.expressions as Node[]).some(derived)
      case 'MemberExpression':
        return derived(node.object)
      case 'CallExpression': {
        const callee = node.callee as Node
        if (callee.type === 'MemberExpression') return derived(callee.object)
        return (node.arguments as Node[]).some(derived)
      }
      default:
        return WRAPPERS.has(node.type) && derived(node.expression)
    }
  }
  const holdsMessage = (node: Node) => {
    let found = false
    walk(node, (inner) => {
      if (isMessage(inner)) found = true
    })
    return found
  }
  walk(program, (node) => {
    if (node.type !== 'ObjectPattern') return
    for (const property of node.properties as Node[]) {
      const local = nameOf(property.value)
      if (nameOf(property.key) === 'message' && local) holders.add(local)
    }
  })
  for (let grew = true; grew; ) {
    const before = holders.size
    walk(program, (node) => {
      const name = node.type === 'VariableDeclarator' ? nameOf(node.id) : undefined
      if (name && derived(node.init)) holders.add(name)
      const callee = node.callee as Node | undefined
      if (node.type === 'CallExpression' && callee?.type === 'MemberExpression') {
        if (!derived(callee.object)) return
        for (const argument of node.arguments as Node[]) {
          const parameter = nameOf((argument.params as Node[] | undefined)?.[0])
          if (parameter) holders.add(parameter)
        }
      }
    })
    grew = holders.size > before
  }
  const found: Node[] = []
  walk(program, (node) => {
    if (node.type === 'CallExpression' && isNode(node.callee)) {
      const callee = node.callee as Node
      const method = callee.type === 'MemberExpression' ? nameOf(callee.property) : undefined
      const args = node.arguments as Node[]
      if ((method === 'test' || method === 'exec') && args.some(holdsMessage)) found.push(node)
      if (method && TEXT_TESTS.has(method)) {
        if (isMessage(callee.object) || args.some(isMessage)) found.push(node)
      }
    }
    if (node.type === 'BinaryExpression' && COMPARISONS.has(node.operator as string)) {
      const [left, right] = [node.left as Node, node.right as Node]
      const literal = (side: Node) => side.type === 'Literal' || side.type === 'TemplateLiteral'
      if ((isMessage(left) && literal(right)) || (isMessage(right) && literal(left))) {
        found.push(node)
      }
    }
    if (node.type === 'MemberExpression' && node.computed && isMessage(node.property)) {
      found.push(node)
    }
    if (node.type === 'SwitchStatement' && isMessage(node.discriminant)) found.push(node)
  })
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length
  return found.map((node) => ({
    line: lineOf(node.start),
    source: text.slice(node.start, node.end).split('\n')[0] ?? '',
  }))
}

describe('errors are told apart by code, never by their words', () => {
  const files = sourceFiles(SOURCE).map((path) => relative(ROOT, path))
  const found = new Map(
    files
      .map((file) => [file, messageTests(file, readFileSync(join(ROOT, file), 'utf8'))] as const)
      .filter(([, places]) => places.length > 0),
  )

  it('finds no source that reads a message’s words but those allowed, with their reasons', () => {
    const unexplained = [...found].flatMap(([file, places]) =>
      places
        .filter((place) => !ALLOWED[file]?.reads.includes(place.source))
        .map((place) => `${file}:${place.line}: ${place.source}`),
    )
    expect(unexplained).toEqual([])
  })

  it('allows only what is still there', () => {
    const gone = Object.entries(ALLOWED).flatMap(([file, { reads }]) =>
      reads
        .filter((source) => !found.get(file)?.some((place) => place.source === source))
        .map((source) => `${file}: ${source}`),
    )
    expect(gone).toEqual([])
  })

  it('sees what it is looking for', () => {
    const seen = (text: string) => messageTests('probe.ts', text).map((place) => place.source)
    expect(seen('if (/^not a draft id/.test(error.message)) {}')).toHaveLength(1)
    expect(seen('const m = error.message; m.startsWith("no release")')).toHaveLength(1)
    expect(seen('const { message } = error; /down/.test(message)')).toHaveLength(1)
    expect(seen('texts.busy[error.message]')).toHaveLength(1)
    expect(seen("if (error.message === 'gone') {}")).toHaveLength(1)
    expect(seen("if (error.code === '23505') {}")).toEqual([])
    expect(seen('console.error(error.message.split("\\n")[0])')).toEqual([])
    expect(seen("if (typeof message === 'string') {}")).toEqual([])
    expect(
      seen("const said = String(e.message).split('\\n').find((line) => /fatal/.test(line))"),
    ).toHaveLength(1)
    expect(
      seen('const { code, message } = error as Failure; if (/^timeout/.test(message)) {}'),
    ).toHaveLength(1)
    // A commit's message or a content problem's is no error's: read where it is written.
    expect(seen('function defuse(message: string) { return message.replace(/^x/, "> ") }')).toEqual(
      [],
    )
  })
})
