/**
 * The project's programs (`src/programs/`) run as operators run them, `node scripts/run.mjs
 * <name>`, from this checkout or an older version's (`older-version.ts`): each compiles and
 * runs its own code. A service's log lines (JSON) are kept for the test to read.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { copyFile, mkdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { freePort } from './free-port'

/** The publishing service with a stand-in build, for any version (see the file). */
const PUBLISHING_PROCESS = join('tests', 'fixtures', 'upgrade', 'publishing-process.mjs')
const PROJECT = resolve(import.meta.dirname, '../..')

/** Settings of the test's own environment that no program started here may inherit. */
export const LEFT_OUT = [
  'DATABASE_URL',
  'DATABASE_OWNER_URL',
  'SMTP_URL',
  'AUDIT_KEY',
  'DATA_DIR',
  'RUN_BIN_DIR',
  'SITE_PROGRAMS_DIR',
  'PORT',
  'CMS_PORT',
]

function environment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env }
  for (const name of LEFT_OUT) delete base[name]
  // As `npm start` runs them (Vitest sets NODE_ENV=test).
  return { ...base, NODE_ENV: 'production', LOG_FORMAT: 'json', ...env }
}

export interface ProgramResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs `node scripts/run.mjs <name> <args>` in `root` to its end. */
export function runProgram(
  root: string,
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<ProgramResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['scripts/run.mjs', name, ...args],
      { cwd: root, env: environment(env), maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0
        done({ code: Number.isInteger(code) ? code : 1, stdout, stderr })
      },
    )
  })
}

export interface RunningService {
  child: ChildProcess
  origin: string
  /** Every line it wrote, standard output and error. */
  lines: string[]
  /** Its log lines at `level` or above (pino's: 40 warn, 50 error, 60 fatal), as JSON. */
  logged(level: number): Record<string, unknown>[]
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>
}

/**
 * Starts the service program `name` (`serve-api`) in `root` on a free port of 127.0.0.1, and
 * resolves once its `/healthz` answers 200; rejects if it exits first or takes over a minute.
 */
export async function startProgram(
  root: string,
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<RunningService> {
  const port = await freePort()
  const child = spawn(process.execPath, ['scripts/run.mjs', name], {
    cwd: root,
    env: environment({ HOST: '127.0.0.1', ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const service = watched(child, `http://127.0.0.1:${port}`)
  const { lines } = service
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} in ${root} stopped before it was ready:\n${lines.join('\n')}`)
    }
    const healthy = await fetch(`${service.origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    )
    if (healthy) return service
    if (Date.now() > deadline) {
      await service.stop()
      throw new Error(`${name} in ${root} was not ready within a minute:\n${lines.join('\n')}`)
    }
    await new Promise((done) => setTimeout(done, 100))
  }
}

/** What a service prints besides its log, and Node.js's warnings (`(node:123) …Warning: …`). */
const PRINTED =
  /^(listening \d+$|First administrator: |Nobody has signed in yet|\(node:\d+\) \w*Warning: |\(Use `node --trace-warnings)/

/** A child process's lines, its log and its stop, as a `RunningService` at `origin`. */
function watched(child: ChildProcess, origin: string): RunningService {
  const lines: string[] = []
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let rest = ''
    stream?.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n')
      rest = parts.pop() ?? ''
      lines.push(...parts.filter(Boolean))
    })
    stream?.on('end', () => rest && lines.push(rest))
  }
  collect(child.stdout)
  collect(child.stderr)
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  return {
    child,
    origin,
    lines,
    logged(level) {
      return lines.flatMap((line) => {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>
          return typeof entry.level === 'number' && entry.level >= level ? [entry] : []
        } catch {
          // Not a log line: the lines the service prints itself, and Node.js's warnings
          // (an experimental API a library uses), are not errors; anything else is.
          return PRINTED.test(line) || level > 50 ? [] : [{ level: 50, msg: line }]
        }
      })
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}

/**
 * The publishing service of the checkout at `root`, this one or an older version's:
 * `publishing-process.mjs` (copied into an older version's folder) puts it together as its
 * `start.ts` does, with a stand-in build. `env` sets it as `npm run serve:cms` is set, with
 * `CMS_PORT` (it listens on 127.0.0.1); resolves once it listens.
 */
export async function startPublishingProcess(
  root: string,
  env: NodeJS.ProcessEnv & { CMS_PORT: string },
): Promise<RunningService> {
  if (resolve(root) !== PROJECT) {
    await mkdir(dirname(join(root, PUBLISHING_PROCESS)), { recursive: true })
    await copyFile(join(PROJECT, PUBLISHING_PROCESS), join(root, PUBLISHING_PROCESS))
  }
  const child = spawn(process.execPath, ['--import', 'tsx', PUBLISHING_PROCESS], {
    cwd: root,
    env: environment({ LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const service = watched(child, `http://127.0.0.1:${env.CMS_PORT}`)
  const deadline = Date.now() + 60_000
  while (!service.lines.some((line) => /^listening \d+$/.test(line))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await service.stop()
      throw new Error(
        `the publishing service in ${root} did not start:\n${service.lines.join('\n')}`,
      )
    }
    await new Promise((done) => setTimeout(done, 100))
  }
  return service
}
