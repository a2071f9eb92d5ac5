/**
 * `npm test`: the unit tests (Vitest), the browser tests (Playwright and Chromium against the
 * built site), the scenarios every engine must pass (Chromium, Firefox, WebKit), then the
 * container image and the Kubernetes manifests under podman (skipped, and said so, where podman
 * is missing), and one closing line `N passed, M failed` over all, so CI records what ran.
 * `npm test -- unit`, `-- e2e`, `-- engines` or `-- containers` runs one suite.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const reports = join(process.cwd(), '.cache', 'test-reports')
rmSync(reports, { recursive: true, force: true })
mkdirSync(reports, { recursive: true })
const bin = (name: string) => join(process.cwd(), 'node_modules', '.bin', name)
const only = process.argv[2]

interface Counts {
  passed: number
  failed: number
  skipped: number
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
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${file}`,
  ])
  const report = readJson<{
    numPassedTests: number
    numFailedTests: number
    numPendingTests: number
  }>(file)
  // A crash before any report counts as one failure, never as silence.
  if (!report) return { passed: 0, failed: 1, skipped: 0, code: code || 1 }
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests,
    code,
  }
}

function browser(): Counts & { code: number } {
  const file = join(reports, 'playwright.json')
  const code = run(bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: file,
  })
  const report = readJson<{
    stats: { expected: number; unexpected: number; flaky: number; skipped: number }
  }>(file)
  if (!report) return { passed: 0, failed: 1, skipped: 0, code: code || 1 }
  const { expected, unexpected, flaky, skipped } = report.stats
  return { passed: expected + flaky, failed: unexpected, skipped, code }
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
}
if (total.passed + total.failed === 0) console.log('No test ran.')
console.log(
  `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
)
const failed = total.failed > 0 || total.passed === 0 || suites.some((suite) => suite.code !== 0)
process.exitCode = failed ? 1 : 0
