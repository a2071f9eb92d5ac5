/**
 * A database folder the service may not write stops `npm run serve:api` (and `npm start`,
 * which checks the same folders) at once with one line that names the folder and the setting
 * to change, and a non-zero exit: no stack trace, no PGlite "Aborted()", no silence.
 *
 * Two ways to a folder that cannot be written: rights (chmod 0555; skipped when the tests run
 * as root, whom rights do not stop, as in CI containers), and a read-only file system (a tmpfs
 * mounted read-only in a mount namespace of the service's own, `unshare -rm`; that stops root
 * too; skipped where unprivileged user namespaces are not allowed).
 */
import { spawn, spawnSync } from 'node:child_process'
import { chmod, mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../../src/database/open'
import { ROOT } from '../../../src/engine/config'
import { FORMS_MIGRATIONS } from '../../../src/forms/migrations'
import { CONFIG_EXIT_CODE } from '../../../src/shared/settings-error'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** `npm run serve:api` on `dataDir`, behind `prefix`: its exit code and what it printed. */
function serveApi(dataDir: string, prefix: string[] = []) {
  const command = [process.execPath, join(ROOT, 'scripts/run.mjs'), 'serve-api']
  const [program = '', ...args] = [...prefix, ...command]
  const child = spawn(program, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  // A start that hangs (or serves) is a failure too: it is stopped after 40 s.
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000)
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    child.once('exit', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    })
  })
}

/** The one line that says which folder, and which setting to change. */
function expectOneClearLine(
  result: { code: number | null; stdout: string; stderr: string },
  folder: string,
) {
  expect(result.code).toBe(CONFIG_EXIT_CODE)
  const lines = result.stderr.trim().split('\n')
  expect(lines, result.stderr).toHaveLength(1)
  expect(lines[0]).toMatch(/^DATA_DIR: /)
  expect(lines[0]).toContain(`database folder ${folder}`)
  expect(lines[0]).toContain('set DATA_DIR')
  expect(result.stdout).not.toContain('listening')
}

const asRoot = process.getuid?.() === 0

describe.skipIf(asRoot)('a database folder without write rights (chmod 0555)', () => {
  let scratch = ''
  beforeEach(async () => {
    scratch = await temporaryFolder('forms-read-only-')
  })
  afterEach(async () => {
    await chmod(scratch, 0o755).catch(() => {})
    for (const entry of await readdir(scratch, { recursive: true }).catch(() => [])) {
      await chmod(join(scratch, entry), 0o755).catch(() => {})
    }
    await removeFolder(scratch)
  })

  it('stops with one line naming DATA_DIR when the folder is new', async () => {
    const data = join(scratch, 'data')
    await mkdir(data)
    await chmod(data, 0o555)
    expectOneClearLine(await serveApi(data), data)
  }, 60_000)

  it('stops with one line when the database in it cannot be written', async () => {
    const data = join(scratch, 'data')
    const database = await openDatabase({ dataDir: join(data, 'db'), migrations: FORMS_MIGRATIONS })
    await database.close()
    for (const entry of await readdir(join(data, 'db'), { recursive: true })) {
      await chmod(join(data, 'db', entry), 0o555)
    }
    expectOneClearLine(await serveApi(data), join(data, 'db'))
  }, 60_000)
})

/** Whether this machine lets an unprivileged process mount a tmpfs of its own. */
function canMountTmpfs(): boolean {
  const tried = spawnSync('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=1m tmpfs /mnt'], {
    stdio: 'ignore',
  })
  return tried.status === 0
}

describe.skipIf(!canMountTmpfs())('a database folder on a read-only file system', () => {
  it('stops with one line naming DATA_DIR, whoever runs it', async () => {
    const data = await temporaryFolder('forms-read-only-fs-')
    try {
      const readOnly = [
        'unshare',
        '-rm',
        'sh',
        '-c',
        'mount -t tmpfs -o ro tmpfs "$0" && exec "$@"',
        data,
      ]
      expectOneClearLine(await serveApi(data, readOnly), data)
    } finally {
      await removeFolder(data)
    }
  }, 60_000)
})
