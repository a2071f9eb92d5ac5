/**
 * The environment variables the project's code reads, found in its syntax tree (Rolldown's
 * parser), so that the settings' documents can be held to the code (tests/unit/docs/settings.test.ts).
 * A read is every way this code takes a variable:
 * - a member of the environment: `process.env.X`, `process.env['X']`, `env.X` (an object named
 *   `env` is the environment passed down), `env.X ??= …`; not a pure write (`env.X = …`) nor a
 *   `delete`;
 * - destructuring it: `const { X, Y: y } = process.env` (a binding named `_…` is dropped, not read);
 * - a helper that takes the variable's name, found as such because it reads `env[name]` or passes
 *   `name` on to such a helper (`settingOf(env, 'X')`, `portSetting(env, 'X', 8080)`,
 *   `skipped('BENCH_PAIRS')`), also when it makes the name from a prefix (`` `${prefix}METRICS_PORT` ``
 *   with `prefix` `'CMS_'`, or its default `''`);
 * - names in an array whose elements a callback reads (`['A', 'B'].find((name) => env[name])`),
 *   or a `for … of` over them, or a `const` that holds one;
 * - in a shell script, `$X` or `${X…}` that the script does not set itself; in a string of
 *   JavaScript, `$X` or `${X…}` (a shell command given the environment, as git's credential helper).
 * What is read is a name in capitals (`PORT`, `SITE_URL`): `env.search` of the consent
 * controller's own `env` is no variable.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseSync } from 'rolldown/utils'

export interface EnvironmentRead {
  name: string
  /** Relative to the project, with `/`. */
  file: string
  line: number
}

/** A node of the syntax tree, as far as this walk needs it. */
interface Node {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

const VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/
/** `$NAME` or `${NAME…}`, as a shell reads a variable. */
const SHELL_READ = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g
const ARRAY_METHODS = new Set(['find', 'some', 'every', 'filter', 'map', 'forEach', 'flatMap'])
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'])

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as Node).type === 'string'

function children(node: Node): Node[] {
  const found: Node[] = []
  for (const [key, value] of Object.entries(node)) {
    if (key === 'typeAnnotation' || key === 'returnType' || key === 'typeParameters') continue
    if (Array.isArray(value)) found.push(...value.filter(isNode))
    else if (isNode(value)) found.push(value)
  }
  return found
}

const identifierName = (node: unknown): string | undefined =>
  isNode(node) && node.type === 'Identifier' ? (node.name as string) : undefined

/** `process.env`, or an object named `env`. */
function isEnvironment(node: unknown): boolean {
  if (!isNode(node)) return false
  if (node.type === 'Identifier') return node.name === 'env'
  return (
    node.type === 'MemberExpression' &&
    !node.computed &&
    identifierName(node.object) === 'process' &&
    identifierName(node.property) === 'env'
  )
}

/** A function's name, as declared or as the `const` it is assigned to. */
function functionName(fn: Node, parent: Node | undefined): string | undefined {
  if (fn.type === 'FunctionDeclaration') return identifierName(fn.id)
  if (parent?.type === 'VariableDeclarator' && parent.init === fn) return identifierName(parent.id)
  return undefined
}

/** A parameter's own name, and its default when that is a string. */
function parameter(node: Node): { name: string | undefined; fallback: Node | undefined } {
  const inner = node.type === 'TSParameterProperty' ? (node.parameter as Node) : node
  if (inner.type === 'AssignmentPattern') {
    const right = inner.right as Node
    return {
      name: identifierName(inner.left),
      fallback: right.type === 'Literal' && typeof right.value === 'string' ? right : undefined,
    }
  }
  return { name: identifierName(inner), fallback: undefined }
}

/** Where a name comes from: a string in this file (with its node), or a helper's parameter. */
type Origin = { literal: string; node: Node } | { helper: string; index: number; suffix: string }

/** Helpers: function name → parameter index → suffixes (the variable is the argument + suffix). */
export type Helpers = Map<string, Map<number, Set<string>>>

class FileScan {
  private readonly lines: number[] = []

  constructor(
    readonly file: string,
    text: string,
    private readonly program: Node,
  ) {
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) this.lines.push(at)
  }

  lineOf(offset: number): number {
    let low = 0
    let high = this.lines.length
    while (low < high) {
      const middle = (low + high) >> 1
      if ((this.lines[middle] ?? 0) < offset) low = middle + 1
      else high = middle
    }
    return low + 1
  }

  /** Calls `visit` with every node and its ancestors (nearest last). */
  walk(visit: (node: Node, ancestors: readonly Node[]) => void): void {
    const ancestors: Node[] = []
    const go = (node: Node) => {
      visit(node, ancestors)
      ancestors.push(node)
      for (const child of children(node)) go(child)
      ancestors.pop()
    }
    go(this.program)
  }

  /** Where the value of `node` comes from, with `suffix` appended to the name it makes. */
  origins(node: unknown, ancestors: readonly Node[], suffix = '', depth = 0): Origin[] {
    if (!isNode(node) || depth > 8) return []
    switch (node.type) {
      case 'Literal':
        return typeof node.value === 'string' ? [{ literal: node.value + suffix, node }] : []
      case 'TemplateLiteral': {
        const quasis = node.quasis as Node[]
        const expressions = node.expressions as Node[]
        const cooked = (quasi: Node | undefined) =>
          ((quasi?.value as { cooked?: string } | undefined)?.cooked ?? '') as string
        if (expressions.length === 0) return [{ literal: cooked(quasis[0]) + suffix, node }]
        // `${prefix}NAME`: the prefix, and the rest as a suffix.
        if (expressions.length === 1 && cooked(quasis[0]) === '') {
          return this.origins(expressions[0], ancestors, cooked(quasis[1]) + suffix, depth + 1)
        }
        return []
      }
      case 'ConditionalExpression':
        return [
          ...this.origins(node.consequent, ancestors, suffix, depth + 1),
          ...this.origins(node.alternate, ancestors, suffix, depth + 1),
        ]
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'ParenthesizedExpression':
        return this.origins(node.expression, ancestors, suffix, depth + 1)
      case 'Identifier':
        return this.binding(node.name as string, ancestors, suffix, depth)
      default:
        return []
    }
  }

  /** What the nearest binding of `name` among the ancestors holds. */
  private binding(
    name: string,
    ancestors: readonly Node[],
    suffix: string,
    depth: number,
  ): Origin[] {
    for (let at = ancestors.length - 1; at >= 0; at--) {
      const scope = ancestors[at] as Node
      const parent = ancestors[at - 1]
      if (FUNCTIONS.has(scope.type)) {
        const params = (scope.params as Node[]).map(parameter)
        const index = params.findIndex((each) => each.name === name)
        if (index >= 0) {
          const fallback = params[index]?.fallback
          const found: Origin[] = fallback
            ? [{ literal: (fallback.value as string) + suffix, node: fallback }]
            : []
          const helper = functionName(scope, parent)
          if (helper) found.push({ helper, index, suffix })
          // A callback of an array of names: ['A', 'B'].find((name) => env[name])
          const call = parent
          const callee = call?.type === 'CallExpression' ? (call.callee as Node) : undefined
          if (
            index === 0 &&
            callee?.type === 'MemberExpression' &&
            (callee.object as Node).type === 'ArrayExpression' &&
            ARRAY_METHODS.has(identifierName(callee.property) ?? '')
          ) {
            for (const element of (callee.object as Node).elements as Node[]) {
              found.push(...this.origins(element, ancestors.slice(0, at - 1), suffix, depth + 1))
            }
          }
          return found
        }
      }
      if (scope.type === 'ForOfStatement') {
        const declaration = scope.left as Node
        const declared = (declaration.declarations as Node[] | undefined)?.[0]?.id
        if (identifierName(declared) === name && (scope.right as Node).type === 'ArrayExpression') {
          return ((scope.right as Node).elements as Node[]).flatMap((element) =>
            this.origins(element, ancestors.slice(0, at), suffix, depth + 1),
          )
        }
      }
      const statements =
        scope.type === 'BlockStatement' || scope.type === 'Program'
          ? (scope.body as Node[])
          : undefined
      for (const statement of statements ?? []) {
        if (statement.type !== 'VariableDeclaration' || statement.kind !== 'const') continue
        for (const declarator of statement.declarations as Node[]) {
          if (identifierName(declarator.id) === name && declarator.init) {
            return this.origins(declarator.init, ancestors.slice(0, at + 1), suffix, depth + 1)
          }
        }
      }
    }
    return []
  }

  /**
   * The names this file reads (with `helpers` as known so far), and what it teaches of helpers:
   * a function whose parameter flows into a read is one.
   */
  scan(helpers: Helpers): { reads: EnvironmentRead[]; learned: boolean } {
    const reads: EnvironmentRead[] = []
    let learned = false
    const take = (origins: Origin[]) => {
      for (const origin of origins) {
        if ('literal' in origin) {
          if (VARIABLE.test(origin.literal)) this.add(reads, origin.literal, origin.node.start)
          continue
        }
        const indices = helpers.get(origin.helper) ?? new Map<number, Set<string>>()
        helpers.set(origin.helper, indices)
        const suffixes = indices.get(origin.index) ?? new Set<string>()
        indices.set(origin.index, suffixes)
        if (!suffixes.has(origin.suffix)) {
          suffixes.add(origin.suffix)
          learned = true
        }
      }
    }
    this.walk((node, ancestors) => {
      const parent = ancestors.at(-1)
      if (node.type === 'MemberExpression' && isEnvironment(node.object)) {
        const written =
          (parent?.type === 'AssignmentExpression' &&
            parent.left === node &&
            parent.operator === '=') ||
          (parent?.type === 'UnaryExpression' && parent.operator === 'delete')
        if (written) return
        if (!node.computed) {
          const name = identifierName(node.property)
          if (name && VARIABLE.test(name)) this.add(reads, name, node.start)
        } else {
          take(this.origins(node.property, ancestors))
        }
      }
      if (node.type === 'VariableDeclarator' && isEnvironment(node.init)) {
        const pattern = node.id as Node
        if (pattern.type !== 'ObjectPattern') return
        for (const property of pattern.properties as Node[]) {
          if (property.type !== 'Property') continue
          const key = property.key as Node
          const name = key.type === 'Literal' ? String(key.value) : identifierName(key)
          const value = property.value as Node
          const bound = identifierName(value.type === 'AssignmentPattern' ? value.left : value)
          if (name && VARIABLE.test(name) && !bound?.startsWith('_')) {
            this.add(reads, name, key.start)
          }
        }
      }
      // A shell command in a string, run with this environment: '… "$PUBLISHING_REMOTE_TOKEN" …'
      if (node.type === 'Literal' && typeof node.value === 'string') {
        for (const match of node.value.matchAll(SHELL_READ)) {
          if (VARIABLE.test(match[1] ?? '')) this.add(reads, match[1] ?? '', node.start)
        }
      }
      if (node.type === 'CallExpression') {
        const helper = helpers.get(identifierName(node.callee) ?? '')
        for (const [index, suffixes] of helper ?? []) {
          const argument = (node.arguments as Node[])[index]
          for (const suffix of suffixes) take(this.origins(argument, ancestors, suffix))
        }
      }
    })
    return { reads, learned }
  }

  private add(reads: EnvironmentRead[], name: string, offset: number): void {
    reads.push({ name, file: this.file, line: this.lineOf(offset) })
  }
}

const SCRIPT = /\.(?:[cm]?[jt]sx?)$/

/** Parses the files (JavaScript and TypeScript); a file the parser refuses fails loudly. */
function parseFiles(root: string, files: readonly string[]): FileScan[] {
  return files
    .filter((file) => SCRIPT.test(file) && !file.endsWith('.d.ts'))
    .map((file) => {
      const text = readFileSync(join(root, file), 'utf8')
      const parsed = parseSync(file, text)
      if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`)
      return new FileScan(file, text, parsed.program as unknown as Node)
    })
}

/**
 * Every read of a variable in the JavaScript and TypeScript `files` (relative to `root`), the
 * helpers found in any of them applying to all.
 */
export function scriptReads(root: string, files: readonly string[]): EnvironmentRead[] {
  const scans = parseFiles(root, files)
  const helpers: Helpers = new Map()
  // Until no file teaches a new helper: helpers call helpers, across files.
  for (let round = 0; round < 10; round++) {
    let learned = false
    for (const scan of scans) learned = scan.scan(helpers).learned || learned
    if (!learned) break
  }
  return scans.flatMap((scan) => scan.scan(helpers).reads)
}

/** A shell script's reads: `$X`, `${X…}` of a name it does not assign itself. */
export function shellReads(file: string, text: string): EnvironmentRead[] {
  const assigned = new Set(
    [...text.matchAll(/(?:^|[\s;(])(?:export\s+|local\s+|readonly\s+)?([A-Z][A-Z0-9_]*)=/g)].map(
      (match) => match[1],
    ),
  )
  for (const match of text.matchAll(/\bread\s+(?:-\w+\s+)*([A-Za-z_][\w ]*)/g)) {
    for (const name of (match[1] ?? '').split(/\s+/)) assigned.add(name)
  }
  const reads: EnvironmentRead[] = []
  text.split('\n').forEach((line, index) => {
    if (/^\s*#/.test(line)) return
    for (const match of line.matchAll(SHELL_READ)) {
      const name = match[1] ?? ''
      if (VARIABLE.test(name) && !assigned.has(name)) reads.push({ name, file, line: index + 1 })
    }
  })
  return reads
}
