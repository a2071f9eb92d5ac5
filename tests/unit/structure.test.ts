/**
 * The shape of `src/`, read from the code's own imports so it cannot drift: `src/shared/` is
 * the ground everything else stands on, no files import each other in a circle, build code
 * and browser code never import each other, and the database module serves both services
 * without knowing either (docs/architecture.md, "Rules the code keeps"). Every relative import
 * counts: static, `export … from`, dynamic `import()` and type-only ones alike.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { parseSync } from 'rolldown/utils'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const SOURCE = join(ROOT, 'src')

/** Files (relative to the project) and the project files each one imports. */
type ImportGraph = ReadonlyMap<string, readonly string[]>

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

/** Every module specifier the file names: imports, re-exports, `import()` and `import('…').T`. */
function specifiersOf(file: string, text: string): string[] {
  const parsed = parseSync(file, text)
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`)
  const found: string[] = []
  const literal = (node: unknown) => {
    const value = (node as { value?: unknown } | null)?.value
    if (typeof value === 'string') found.push(value)
  }
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (typeof node !== 'object' || node === null) return
    const { type } = node as { type?: string }
    if (
      type === 'ImportDeclaration' ||
      type === 'ExportNamedDeclaration' ||
      type === 'ExportAllDeclaration' ||
      type === 'ImportExpression' ||
      type === 'TSImportType'
    ) {
      literal((node as { source?: unknown }).source)
    }
    for (const child of Object.values(node)) visit(child)
  }
  visit(parsed.program)
  return found
}

/** The project file a relative specifier names, or undefined (packages, styles, assets). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!/^\.\.?(\/|$)/.test(specifier)) return undefined
  const base = resolve(dirname(from), specifier)
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ]
  return candidates.find((path) => /\.tsx?$/.test(path) && isFile(path))
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function readGraph(): ImportGraph {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(SOURCE)) {
    const targets = specifiersOf(file, readFileSync(file, 'utf8'))
      .map((specifier) => resolveSpecifier(file, specifier))
      .filter((target): target is string => target !== undefined)
    graph.set(relative(ROOT, file), [...new Set(targets.map((target) => relative(ROOT, target)))])
  }
  return graph
}

/**
 * Every circle of the graph as a path back to its start (`a → b → a`): the shortest one
 * through each file that has one, each loop of files named once.
 */
function circles(graph: ImportGraph): string[][] {
  const found = new Map<string, string[]>()
  for (const start of [...graph.keys()].sort()) {
    const path = shortestWayBack(graph, start)
    const members = path && [...new Set(path)].sort().join()
    if (path && members && !found.has(members)) found.set(members, path)
  }
  return [...found.values()]
}

/** The shortest chain of imports from `start` back to itself (breadth first), if any. */
function shortestWayBack(graph: ImportGraph, start: string): string[] | undefined {
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (const file of queue) {
    for (const target of graph.get(file) ?? []) {
      if (target === start) {
        const path = [start]
        for (let step = file; step !== start; step = cameFrom.get(step) ?? start) {
          path.splice(1, 0, step)
        }
        return [...path, start]
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file)
        queue.push(target)
      }
    }
  }
  return undefined
}

const isUnder = (folders: readonly string[]) => (file: string) =>
  folders.some((folder) => file.startsWith(`${folder}/`))

/** The imports `from → to` of files `importer` picks that name a file `imported` picks. */
function importsBetween(
  graph: ImportGraph,
  importer: (file: string) => boolean,
  imported: (file: string) => boolean,
): string[] {
  return [...graph].flatMap(([file, targets]) =>
    importer(file) ? targets.filter(imported).map((target) => `${file} → ${target}`) : [],
  )
}

const SHARED = isUnder(['src/shared'])
const BUILD = isUnder(['src/engine'])
const BROWSER = isUnder(['src/runtime', 'src/site', 'src/sw', 'src/publishing/editor/browser'])
/** The publishing service's rules and records, which hold whatever screen or protocol asks. */
const PUBLISHING_CORE = isUnder([
  'src/publishing/workflow',
  'src/publishing/publication',
  'src/publishing/people',
  'src/publishing/git',
  'src/publishing/audit',
  'src/publishing/review',
])
/** Its faces: the HTTP layer, the pages it answers with, and the editor (its protocol). */
const PUBLISHING_FACES = isUnder([
  'src/publishing/http',
  'src/publishing/pages',
  'src/publishing/editor',
])
/**
 * The editor's code in the browser, bundled on its own (editor/bundle.ts): Decap's backend,
 * the site's preview beside each entry.
 */
const EDITOR_BROWSER = isUnder(['src/publishing/editor/browser'])
/** The scripts its pages run in the browser, bundled on their own (http/browser-bundle.ts). */
const PUBLISHING_BROWSER = isUnder(['src/publishing/browser'])
/** The database both services open, and the migration runner they hand their own schemas. */
const DATABASE = isUnder(['src/database'])
/** The public site's server: a release's files, with the forms service mounted under `/api/`. */
const SITE_SERVER = isUnder(['src/server'])
/** The forms service: sign-ups, double opt-in, its pages and its mail queue. */
const FORMS = isUnder(['src/forms'])
/** The publishing service: drafts, four eyes, releases, people, the audit trail, the editor. */
const PUBLISHING = isUnder(['src/publishing'])
/** The services, each a room of its own. */
const SERVICES = isUnder(['src/server', 'src/forms', 'src/publishing'])
/**
 * What the services stand on to speak HTTP and send mail: logger, metrics, health, transport,
 * static files, request paths, client addresses (`src/http`); the SMTP and outbox transport
 * and the queue both services' mails wait in (`src/mail`).
 */
const TOOLKIT = isUnder(['src/http', 'src/mail'])
/** Programs started by npm scripts: nothing imports them. */
const PROGRAMS = isUnder(['src/programs'])

/**
 * The engine's rooms, highest first: the build in a process of its own (child); the build's
 * pipeline; the files a site has beside its
 * pages (site-files), its PDFs and its search index; the pages; the bundles and images they
 * name (assets); what a build reuses (cache); the route table; and the ground the rest stands
 * on (config, entries, timeline, html-scan, build-page, content-hash…). Every import within
 * the engine points down, or stays in its room.
 */
const ENGINE_LEVELS: readonly (readonly [string, number])[] = [
  ['src/engine/child/', 7],
  ['src/engine/build.ts', 6],
  ['src/engine/site-files/', 5],
  ['src/engine/pdf/', 5],
  ['src/engine/search/', 5],
  ['src/engine/pages/', 4],
  ['src/engine/assets/', 3],
  ['src/engine/cache/', 2],
  ['src/engine/routes/', 1],
]

/** The engine room of a file (its folder, or the file itself at the top) and its level. */
function engineRoom(file: string): { room: string; level: number } | undefined {
  if (!file.startsWith('src/engine/')) return undefined
  const found = ENGINE_LEVELS.find(([prefix]) => file === prefix || file.startsWith(prefix))
  return found ? { room: found[0], level: found[1] } : { room: 'src/engine/', level: 0 }
}

/** The imports within the engine that point up, or across to another room of its level. */
function engineArrowsBack(graph: ImportGraph): string[] {
  return [...graph].flatMap(([file, targets]) => {
    const from = engineRoom(file)
    if (!from) return []
    return targets.flatMap((target) => {
      const to = engineRoom(target)
      if (!to || to.room === from.room || to.level < from.level) return []
      return [`${file} → ${target}`]
    })
  })
}

describe('the checks themselves', () => {
  it('read every kind of relative import, also type-only ones and import types', () => {
    const text = [
      "import type { A } from './a'",
      "import { type B, c } from './b'",
      "export type { D } from './d'",
      "export * from './e'",
      "import './f'",
      "type G = import('./g').G",
      "const h = () => import('./h')",
      "// import './comment'",
      "const text = `import('./template')`",
    ].join('\n')
    expect(specifiersOf('x.ts', text)).toEqual(['./a', './b', './d', './e', './f', './g', './h'])
  })

  it('find a circle of three files and name them in order, and a file importing itself', () => {
    const graph = new Map([
      ['c', ['a']],
      ['a', ['b', 'd']],
      ['b', ['c']],
      ['d', []],
    ])
    expect(circles(graph)).toEqual([['a', 'b', 'c', 'a']])
    expect(circles(new Map([['a', ['a']]]))).toEqual([['a', 'a']])
  })

  it('find an engine import that points up, or across to another room of the same level', () => {
    const graph = new Map([
      ['src/engine/pages/page-data.ts', ['src/engine/site-files/feeds.ts', 'src/engine/config.ts']],
      ['src/engine/pdf/writer.ts', ['src/engine/search/collect.ts', 'src/engine/pdf/blocks.ts']],
      ['src/engine/build.ts', ['src/engine/pages/page-data.ts']],
    ])
    expect(engineArrowsBack(graph)).toEqual([
      'src/engine/pages/page-data.ts → src/engine/site-files/feeds.ts',
      'src/engine/pdf/writer.ts → src/engine/search/collect.ts',
    ])
    expect(
      circles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([])
  })
})

describe('the structure of src/', () => {
  const graph = readGraph()

  it('reads the imports of every source file', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('src/runtime/entry.tsx')).toContain('src/runtime/consent/consent.ts')
  })

  it('src/shared imports nothing outside src/shared', () => {
    expect(importsBetween(graph, SHARED, (file) => !SHARED(file))).toEqual([])
  })

  it('has no import circles', () => {
    expect(circles(graph).map((circle) => circle.join(' → '))).toEqual([])
  })

  it('build code and browser code never import each other', () => {
    expect([
      ...importsBetween(graph, BROWSER, BUILD),
      ...importsBetween(graph, BUILD, BROWSER),
    ]).toEqual([])
  })

  it("the publishing service's workflow, review, people, git and audit never import its HTTP layer, pages or editor", () => {
    expect(importsBetween(graph, PUBLISHING_CORE, PUBLISHING_FACES)).toEqual([])
  })

  it("the publishing service's browser scripts import only each other, and nothing imports them", () => {
    expect([
      ...importsBetween(graph, PUBLISHING_BROWSER, (file) => !PUBLISHING_BROWSER(file)),
      ...importsBetween(graph, (file) => !PUBLISHING_BROWSER(file), PUBLISHING_BROWSER),
    ]).toEqual([])
  })

  it("the editor's browser code imports browser code and src/shared only, and only browser code imports it", () => {
    expect([
      ...importsBetween(graph, EDITOR_BROWSER, (file) => !BROWSER(file) && !SHARED(file)),
      ...importsBetween(graph, (file) => !BROWSER(file), EDITOR_BROWSER),
    ]).toEqual([])
  })

  it('the toolkit (src/http, src/mail) imports no service, program, build or browser code', () => {
    expect(
      importsBetween(graph, TOOLKIT, (file) => !TOOLKIT(file) && !SHARED(file) && !DATABASE(file)),
    ).toEqual([])
  })

  it('the services never import each other, but the site server mounts the forms service', () => {
    expect([
      ...importsBetween(graph, PUBLISHING, (file) => SERVICES(file) && !PUBLISHING(file)),
      ...importsBetween(graph, FORMS, (file) => SERVICES(file) && !FORMS(file)),
      ...importsBetween(graph, SITE_SERVER, PUBLISHING),
    ]).toEqual([])
  })

  it('src/database imports nothing from the services: each brings its own migrations', () => {
    expect(importsBetween(graph, DATABASE, SERVICES)).toEqual([])
  })

  it("the engine's arrows all point one way: pipeline, site files, pages, assets, cache, routes, ground", () => {
    expect(engineArrowsBack(graph)).toEqual([])
  })

  it('programs are where running starts: no source file imports one', () => {
    expect(importsBetween(graph, () => true, PROGRAMS)).toEqual([])
  })
})

/**
 * Source folders whose code runs only in a browser page and is tried there, by the specs named,
 * rather than by unit tests in a mirror folder of their own.
 */
const TRIED_IN_THE_BROWSER: Readonly<Record<string, readonly string[]>> = {
  'src/sw': [
    'tests/e2e/runtime/service-worker.spec.ts',
    'tests/e2e/runtime/service-worker-update.spec.ts',
  ],
  'src/site/templates': ['tests/e2e/site/routes.spec.ts', 'tests/e2e/site/accessibility.spec.ts'],
  'src/publishing/browser': ['tests/e2e/publishing/publishing.spec.ts'],
}

/** Unit test folders that mirror no folder of `src/`, and what they test instead. */
const OTHER_TEST_FOLDERS: Readonly<Record<string, string>> = {
  'tests/unit/bench': 'the benchmarks in bench/',
  'tests/unit/deploy': 'the manifests and alert rules in deploy/',
  'tests/unit/docs': 'the documents in docs/ against the code',
  'tests/unit/scripts': 'scripts/ (the test runner, the commit-msg hook)',
  'tests/unit/upgrade': "the current code on an older version's data",
}

/** The folders below `directory` (relative to the project), `depth` levels deep at most. */
function foldersBelow(directory: string, depth: number): string[] {
  if (depth === 0) return []
  return readdirSync(join(ROOT, directory), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const folder = `${directory}/${entry.name}`
      return [folder, ...foldersBelow(folder, depth - 1)]
    })
}

const exists = (path: string) => {
  try {
    statSync(join(ROOT, path))
    return true
  } catch {
    return false
  }
}

describe('the tests of src/', () => {
  it('have a folder in tests/unit for every folder of src/ two levels deep, or name the specs that try it', () => {
    const untested = foldersBelow('src', 2).filter((folder) => {
      const mirror = folder.replace(/^src\//, 'tests/unit/')
      if (exists(mirror)) return false
      const specs = TRIED_IN_THE_BROWSER[folder]
      return !specs?.every(exists)
    })
    expect(untested).toEqual([])
  })

  it('sit in folders that mirror a folder of src/, save those named with what they test', () => {
    const strays = foldersBelow('tests/unit', 8).filter((folder) => {
      const named = Object.keys(OTHER_TEST_FOLDERS).some(
        (other) => folder === other || folder.startsWith(`${other}/`),
      )
      return !named && !exists(folder.replace(/^tests\/unit\//, 'src/'))
    })
    expect(strays).toEqual([])
  })
})

describe('the files of the repository', () => {
  // The publishing service builds from this repository's tree and refuses a tree with a
  // symbolic link or a submodule (see docs/operators.md): one committed anywhere, a test
  // fixture too, would stop every publication.
  it('holds regular files only: no symbolic link, no submodule', () => {
    const listed = execFileSync('git', ['ls-files', '--stage'], { cwd: ROOT }).toString()
    const special = listed
      .split('\n')
      .filter((line) => /^(120000|160000) /.test(line))
      .map((line) => line.split('\t')[1])
    expect(special).toEqual([])
  })
})
