/**
 * Commands run through the small helper process: what they read and write arrives byte for
 * byte, each answer reaches its own caller, a failure says what failed, a helper that stops
 * fails only the commands under way, and the helper never keeps a finished process running.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../../../src/engine/config'
import { runCommand, stopHelper } from '../../../../src/publishing/git/spawner'

const env = process.env

describe('runCommand', () => {
  it('hands the command its input and returns its outputs and exit code, bytes as they are', async () => {
    const bytes = Buffer.from([0, 255, 10, 13, 128, 65])
    const copied = await runCommand('cat', [], { env, input: bytes })
    expect(copied).toMatchObject({ code: 0, signal: null })
    expect(copied.stdout.equals(bytes)).toBe(true)

    const failed = await runCommand('sh', ['-c', 'echo out; echo wrong >&2; exit 3'], { env })
    expect(failed.code).toBe(3)
    expect(failed.stdout.toString()).toBe('out\n')
    expect(failed.stderr.toString()).toBe('wrong\n')

    const text = await runCommand('wc', ['-c'], { env, input: 'zwölf' })
    expect(text.stdout.toString().trim()).toBe('6')
  })

  it('runs each command in the environment it is given', async () => {
    const { stdout } = await runCommand('sh', ['-c', 'printf %s "$GIT_DIR"'], {
      env: { PATH: env.PATH, GIT_DIR: '/srv/site.git' },
    })
    expect(stdout.toString()).toBe('/srv/site.git')
  })

  it('answers every caller with its own command when many run at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        runCommand('sh', ['-c', `sleep 0.0${index % 5}; printf ${index}`], { env }),
      ),
    )
    expect(results.map((result) => result.stdout.toString())).toEqual(
      Array.from({ length: 40 }, (_, index) => String(index)),
    )
  })

  it('says which command could not be started', async () => {
    await expect(runCommand('no-such-command-here', [], { env })).rejects.toMatchObject({
      code: 'ENOENT',
      message: expect.stringContaining('no-such-command-here'),
    })
  })

  it('fails the commands under way when the helper stops, and starts another for the next', async () => {
    const long = runCommand('sleep', ['30'], { env })
    await new Promise((resolve) => setTimeout(resolve, 200))
    stopHelper()
    await expect(long).rejects.toThrow(/did not finish: the helper process ended/)
    const next = await runCommand('printf', ['again'], { env })
    expect(next.stdout.toString()).toBe('again')
  })

  it('does not keep a process running once its commands are done, nor outlive it', async () => {
    // A program that runs one command and has nothing else to do ends at once; it names the
    // processes it started (the helper), which end with it.
    const script = `
      import { execFileSync } from 'node:child_process'
      import { runCommand } from ${JSON.stringify(join(ROOT, 'src/publishing/git/spawner.ts'))}
      const { stdout } = await runCommand('printf', ['done'], { env: process.env })
      const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)])
      console.log(stdout.toString(), JSON.stringify(String(children)))
    `
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: ROOT, timeout: 20_000 },
    )
    const [word, listed] = [stdout.slice(0, 4), stdout.slice(5).trim()]
    expect(word).toBe('done')
    const helpers = (JSON.parse(listed ?? '""') as string)
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([, name]) => name?.startsWith('node'))
      .map(([pid]) => Number(pid))
    expect(helpers, stdout).toHaveLength(1)
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    await expect.poll(() => helpers.filter(alive), { timeout: 5000 }).toEqual([])
  })
})
