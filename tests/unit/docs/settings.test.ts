/**
 * `docs/settings.md` and `docs/testing.md` against the environment variables the code reads
 * (tests/support/environment-reads.ts finds them, in every way this code reads one):
 * - every variable the programs read (`src/`, the launcher every npm script of a program runs
 *   them through, the image's own scripts in `deploy/`) has a row in the settings' table, and
 *   every row's variable is read by them;
 * - every variable only the tests, benchmarks, scripts and CI read has a row in the table of
 *   `docs/testing.md`, and every row's variable is read there, not by the programs.
 * A failure names the variable and a file and line that reads it, or the document's line.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type EnvironmentRead, scriptReads, shellReads } from '../../support/environment-reads'
import { PROJECT_ROOT, projectFiles } from '../../support/project-files'

/**
 * Variables of the system and its tools, which the code reads but the project does not define:
 * the shell's (`PATH`, `HOME`, bash's `SECONDS`) and git's (`GIT_DIR`).
 */
const SYSTEM = new Set(['PATH', 'HOME', 'SECONDS', 'GIT_DIR'])

/** The files the npm scripts run with `node` (`node scripts/run.mjs start`): the launcher. */
function launchers(root: string): Set<string> {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  return new Set(
    Object.values(scripts).flatMap(
      (command) => /^node\s+(\S+\.[cm]?js)\b/.exec(command)?.[1] ?? [],
    ),
  )
}

/** Whether a file is the programs' code, as opposed to the tests', benchmarks' and tools'. */
function programsCode(root: string): (file: string) => boolean {
  const launcher = launchers(root)
  return (file) =>
    file.startsWith('src/') ||
    (file.startsWith('deploy/') && /\.[cm]?[jt]s$/.test(file)) ||
    launcher.has(file)
}

const isShell = (file: string) => file.endsWith('.sh') || file.startsWith('.ci/')

/** Every read of a variable in the project's code, shell scripts too. */
function projectReads(root: string, files: readonly string[]): EnvironmentRead[] {
  const shell = files
    .filter(isShell)
    .flatMap((file) => shellReads(file, readFileSync(join(root, file), 'utf8')))
  return [...scriptReads(root, files), ...shell].filter((read) => !SYSTEM.has(read.name))
}

/** The variables of a document's tables headed `variable`, each with its row's line. */
function documented(text: string): Map<string, number> {
  const found = new Map<string, number>()
  let inTable = false
  text.split('\n').forEach((line, index) => {
    const cells = line.startsWith('|') ? line.split('|').map((cell) => cell.trim()) : undefined
    if (!cells) {
      inTable = false
      return
    }
    if (/^variables?$/i.test(cells[1] ?? '')) {
      inTable = true
      return
    }
    if (!inTable || /^-+$/.test(cells[1] ?? '')) return
    for (const match of (cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)) {
      found.set(match[1] ?? '', index + 1)
    }
  })
  return found
}

const where = (read: EnvironmentRead) => `${read.file}:${read.line}`

/** What does not agree between the reads and the two documents, one line each. */
function disagreements(
  reads: readonly EnvironmentRead[],
  isProgram: (file: string) => boolean,
  settings: ReadonlyMap<string, number>,
  testing: ReadonlyMap<string, number>,
): string[] {
  const byPrograms = new Map<string, EnvironmentRead>()
  const byOthers = new Map<string, EnvironmentRead>()
  for (const read of reads) {
    const map = isProgram(read.file) ? byPrograms : byOthers
    if (!map.has(read.name)) map.set(read.name, read)
  }
  const problems: string[] = []
  for (const [name, read] of byPrograms) {
    if (!settings.has(name)) {
      problems.push(`${name}: read by ${where(read)}, but docs/settings.md has no row for it`)
    }
  }
  for (const [name, line] of settings) {
    if (!byPrograms.has(name)) {
      problems.push(`${name}: docs/settings.md:${line} has a row for it, but no program reads it`)
    }
  }
  for (const [name, read] of byOthers) {
    if (!byPrograms.has(name) && !testing.has(name)) {
      problems.push(`${name}: read by ${where(read)}, but docs/testing.md has no row for it`)
    }
  }
  for (const [name, line] of testing) {
    const program = byPrograms.get(name)
    if (program) {
      problems.push(
        `${name}: docs/testing.md:${line} has a row for it, but the programs read it (${where(program)}): it belongs in docs/settings.md`,
      )
    } else if (!byOthers.has(name)) {
      problems.push(`${name}: docs/testing.md:${line} has a row for it, but nothing reads it`)
    }
  }
  return problems
}

describe('the settings documented against the code', () => {
  const files = projectFiles()
  const reads = projectReads(PROJECT_ROOT, files)
  const doc = (name: string) => documented(readFileSync(join(PROJECT_ROOT, 'docs', name), 'utf8'))

  it('documents every variable read, where it belongs, and only those', () => {
    const settings = doc('settings.md')
    const testing = doc('testing.md')
    expect(settings.size).toBeGreaterThan(50)
    expect(testing.size).toBeGreaterThan(20)
    expect(disagreements(reads, programsCode(PROJECT_ROOT), settings, testing)).toEqual([])
  })

  it('counts the launcher and the image’s scripts as the programs', () => {
    const isProgram = programsCode(PROJECT_ROOT)
    expect([...launchers(PROJECT_ROOT)]).toContain('scripts/run.mjs')
    expect(reads.some((read) => read.name === 'UMASK' && isProgram(read.file))).toBe(true)
    expect(reads.some((read) => read.name === 'TEST_PORT' && isProgram(read.file))).toBe(false)
  })

  it('names the variable and the file that reads it, or the line of the row', () => {
    const read = { name: 'NEW_SETTING', file: 'src/new.ts', line: 3 }
    const test = { name: 'NEW_TEST_SETTING', file: 'tests/new.ts', line: 4 }
    const isProgram = (file: string) => file.startsWith('src/')
    expect(
      disagreements(
        [read, test],
        isProgram,
        new Map([['GONE', 7]]),
        new Map([
          ['NEW_SETTING', 9],
          ['GONE_TOO', 10],
        ]),
      ),
    ).toEqual([
      'NEW_SETTING: read by src/new.ts:3, but docs/settings.md has no row for it',
      'GONE: docs/settings.md:7 has a row for it, but no program reads it',
      'NEW_TEST_SETTING: read by tests/new.ts:4, but docs/testing.md has no row for it',
      'NEW_SETTING: docs/testing.md:9 has a row for it, but the programs read it (src/new.ts:3): it belongs in docs/settings.md',
      'GONE_TOO: docs/testing.md:10 has a row for it, but nothing reads it',
    ])
  })
})

describe('the reads found in code', () => {
  const folder = mkdtempSync(join(tmpdir(), 'environment-reads-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  const readsOf = (code: string) => {
    writeFileSync(join(folder, 'sample.ts'), code)
    return scriptReads(folder, ['sample.ts'])
      .map((read) => `${read.name}:${read.line}`)
      .sort()
  }

  it('finds each way this code reads a variable', () => {
    // Written in template literals: the scan of the project reads no template as a shell's.
    expect(
      readsOf(`
const a = process.env.A_MEMBER ?? 'x'
const b = process.env['B_COMPUTED']
function read(env: NodeJS.ProcessEnv = process.env) {
  return env.C_ENV_PARAMETER
}
const { D_DESTRUCTURED, E_RENAMED: e, F_DROPPED: _f, ...rest } = process.env
const settingOf = (env: Record<string, string>, name: string) => env[name]
const port = (env: Record<string, string>, name: string, fallback: number) =>
  Number(settingOf(env, name) ?? fallback)
port(process.env, 'G_THROUGH_HELPERS', 1)
function metrics(env: Record<string, string>, prefix = '') {
  const portName = \`\${prefix}H_SUFFIX\`
  return settingOf(env, portName)
}
metrics(process.env, 'CMS_')
const orphan = ['I_IN_ARRAY', 'J_IN_ARRAY'].find((name) => process.env[name])
const skipped = (variable: string) => process.env[variable] === '0'
skipped('K_SKIPPED')
process.env.NOT_READ = '1'
delete process.env.NOT_READ_EITHER
process.env.L_DEFAULTED ??= 'production'
const shell = 'printf %s "$M_IN_A_SHELL_COMMAND"'
const lower = env.search
`),
    ).toEqual([
      'A_MEMBER:2',
      'B_COMPUTED:3',
      'CMS_H_SUFFIX:16',
      'C_ENV_PARAMETER:5',
      'D_DESTRUCTURED:7',
      'E_RENAMED:7',
      'G_THROUGH_HELPERS:11',
      'H_SUFFIX:12',
      'I_IN_ARRAY:17',
      'J_IN_ARRAY:17',
      'K_SKIPPED:19',
      'L_DEFAULTED:22',
      'M_IN_A_SHELL_COMMAND:23',
    ])
  })

  it('finds what a shell script reads and does not set itself', () => {
    expect(
      shellReads(
        'run.sh',
        `#!/usr/bin/env bash\nOWN=1\nexport ALSO_OWN=2\necho "$OWN \${ALSO_OWN} $READ_HERE \${WITH_DEFAULT:-x}"\n# $IN_A_COMMENT\n`,
      ).map((read) => `${read.name}:${read.line}`),
    ).toEqual(['READ_HERE:4', 'WITH_DEFAULT:4'])
  })
})
