/**
 * `npm test`: the unit tests (Vitest), the browser tests (Playwright and Chromium against the
 * built site), the scenarios every engine must pass (Chromium, Firefox, WebKit), then the
 * container image and the Kubernetes manifests under podman (skipped, and said so, where podman
 * is missing), and one closing line `N passed, M failed` over all, so CI records what ran.
 * `npm test -- unit`, `-- e2e`, `-- engines` or `-- containers` runs one suite, and file filters
 * after it run some of its files (`npm test -- unit tests/unit/server`).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'

const reports = join(process.cwd(), '.cache', 'test-reports')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })
const bin = (name: string) => join(process.cwd(), 'node_modules', '.bin', name)
const only = process.argv[2]
/** After the suite's name, file filters for it: `npm test -- unit tests/unit/server`. */
const filters = process.argv.slice(3)

interface Counts {
  passed: number
  failed: number
  skipped: number
  /** The failed tests by file and name, repeated at the end: a clipped log still shows them. */
  failures: string[]
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T
  } catch {
    return undefined
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): number {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } })
  return result.status ?? 1
}

function vitest(name: string, args: string[] = []): Counts & { code: number } {
  const file = join(reports, `${name}.json`)
  const code = run(bin('vitest'), [
    'run',
    ...args,
    ...filters,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ])
  const report = readJson<{
    numPassedTests: number
    numFailedTests: number
    numPendingTests: number
    testResults?: {
      name: string
      status: string
      message?: string
      assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[]
    }[]
  }>(file)
  // A crash before any report counts as one failure, never as silence.
  if (!report)
    return { passed: 0, failed: 1, skipped: 0, failures: [`${name}: no report`], code: code || 1 }
  const failures: string[] = []
  for (const result of report.testResults ?? []) {
    const where = relative(process.cwd(), result.name)
    const failedTests = (result.assertionResults ?? []).filter((test) => test.status === 'failed')
    for (const test of failedTests) {
      failures.push(`${where} > ${test.fullName}${reason(test.failureMessages?.[0])}`)
    }
    // A file that failed before its tests ran (an import, a hook) has no failed test to name.
    if (result.status === 'failed' && failedTests.length === 0) {
      failures.push(`${where}: ${(result.message ?? 'failed').split('\n')[0]}`)
    }
  }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests,
    failures,
    code,
  }
}

/** The first lines of a failure's message, indented under its name: CI's log keeps only its end. */
function reason(message: string | undefined): string {
  if (!message) return ''
  const lines = message
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes are stripped
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
  const stack = (line: string) => line.startsWith('at ')
  const said = lines.filter((line) => !stack(line)).slice(0, 3)
  const where = lines.find((line) => stack(line) && !line.includes('node_modules'))
  return [...said, ...(where ? [where] : [])]
    .map((line) => `\n      ${line.slice(0, 200)}`)
    .join('')
}

interface PlaywrightSuite {
  title: string
  specs?: { title: string; file: string; line: number; tests?: { status: string }[] }[]
  suites?: PlaywrightSuite[]
}

function browser(): Counts & { code: number } {
  const file = join(reports, 'playwright.json')
  const code = run(bin('playwright'), ['test', '--reporter=list,json', ...filters], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
  })
  const report = readJson<{
    stats: { expected: number; unexpected: number; flaky: number; skipped: number }
    suites?: PlaywrightSuite[]
  }>(file)
  if (!report)
    return { passed: 0, failed: 1, skipped: 0, failures: ['browser: no report'], code: code || 1 }
  const { expected, unexpected, flaky, skipped } = report.stats
  const failures: string[] = []
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      if (spec.tests?.some((test) => test.status === 'unexpected')) {
        failures.push(`${spec.file}:${spec.line} > ${[...titles, spec.title].join(' > ')}`)
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title])
  }
  for (const suite of report.suites ?? []) walk(suite, [])
  return { passed: expected + flaky, failed: unexpected, skipped, failures, code }
}

/** Runs one suite and notes how long it took, so CI's log shows where its time goes. */
function timed(name: string, suite: () => Counts & { code: number }) {
  const start = performance.now()
  const counts = suite()
  return { name, ...counts, seconds: Math.round((performance.now() - start) / 1000) }
}

const chosen = (suite: string) => only === undefined || only === suite
const suites = [
  ...(chosen('unit') ? [timed('unit', () => vitest('vitest'))] : []),
  ...(chosen('e2e') ? [timed('browser', browser)] : []),
  // The scenarios every engine must pass (Chromium, Firefox, WebKit; ENGINES= picks some).
  ...(chosen('engines')
    ? [timed('engines', () => vitest('engines', ['--config', 'vitest.engines.config.ts']))]
    : []),
  // The image built and the manifests played with podman (tests/containers/).
  ...(chosen('containers')
    ? [timed('containers', () => vitest('containers', ['--config', 'vitest.containers.config.ts']))]
    : []),
]
const total = suites.reduce(
  (sum, suite) => ({
    passed: sum.passed + suite.passed,
    failed: sum.failed + suite.failed,
    skipped: sum.skipped + suite.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
)
for (const suite of suites) {
  console.log(
    `${suite.name}: ${suite.passed} passed, ${suite.failed} failed, ${suite.skipped} skipped (${suite.seconds} s)`,
  )
  for (const failure of suite.failures) console.log(`  failed: ${failure}`)
}
if (total.passed + total.failed === 0) console.log('No test ran.')
console.log(
  `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
)
const failed = total.failed > 0 || total.passed === 0 || suites.some((suite) => suite.code !== 0)
process.exitCode = failed ? 1 : 0
