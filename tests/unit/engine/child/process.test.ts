import { writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ContentValidationError } from '../../../../src/content/errors'
import { compiledWorker, inChild, type WorkerScript } from '../../../../src/engine/child/process'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const PROCESS = resolve(import.meta.dirname, '../../../../src/engine/child/process.ts')
let dir: string

/** A worker from source (through tsx) that does `work` with `answerOnce`. */
async function worker(name: string, work: string): Promise<WorkerScript> {
  const script = join(dir, `${name}.ts`)
  await writeFile(
    script,
    [
      `import { ContentValidationError } from ${JSON.stringify(resolve(PROCESS, '../../../content/errors.ts'))}`,
      `import { answerOnce } from ${JSON.stringify(PROCESS)}`,
      'void ContentValidationError',
      `answerOnce(${work})`,
    ].join('\n'),
  )
  return { script, execArgv: ['--import', 'tsx'] }
}

beforeAll(async () => {
  dir = await temporaryFolder('child-')
})

afterAll(async () => {
  await removeFolder(dir)
})

describe('work in a process of its own', () => {
  it('answers what the worker answered, and the process ends', async () => {
    const echo = await worker(
      'echo',
      'async (job) => ({ twice: job.n * 2, at: new Date(0), pid: process.pid, map: new Map([[1, 2]]) })',
    )
    const answer = await inChild<{ n: number }, { twice: number; at: Date; pid: number }>(echo, {
      n: 21,
    })
    expect(answer).toMatchObject({ twice: 42, at: new Date(0), map: new Map([[1, 2]]) })
    expect(answer.pid).not.toBe(process.pid)
    // Gone once it answered.
    await expect.poll(() => alive(answer.pid)).toBe(false)
  })

  it('rejects with the error the worker threw, its message and stack', async () => {
    const failing = await worker('failing', "async () => { throw new TypeError('no such page') }")
    const error = await inChild(failing, {}).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toBe('no such page')
    expect((error as Error).stack).toContain('TypeError: no such page')
  })

  it("rejects with the content store's problems as a ContentValidationError, its message unchanged", async () => {
    const problems = [{ file: 'en/pages/about.yaml', field: 'title', message: 'Required' }]
    const thrown = new ContentValidationError(problems, '/site/content')
    const invalid = await worker(
      'invalid',
      `async () => { throw new ContentValidationError(${JSON.stringify(problems)}, '/site/content') }`,
    )
    const error = await inChild(invalid, {}).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ContentValidationError)
    expect((error as ContentValidationError).problems).toEqual(problems)
    expect((error as Error).message).toBe(thrown.message)
  })

  it('rejects when the process stops without answering', async () => {
    const script = join(dir, 'exits.mjs')
    await writeFile(script, 'process.exit(3)\n')
    await expect(inChild({ script, execArgv: [] }, {})).rejects.toThrow(
      'its process stopped (exit code 3)',
    )
    const killed = await worker('killed', "async () => process.kill(process.pid, 'SIGKILL')")
    await expect(inChild(killed, {})).rejects.toThrow('its process stopped (SIGKILL)')
  })

  it('names the compiled worker in the programs’ folder, and none without one', () => {
    expect(compiledWorker('build-worker', '/app/.cache/bin/0123')).toEqual({
      script: '/app/.cache/bin/0123/build-worker.mjs',
      execArgv: [],
    })
    expect(compiledWorker('build-worker', undefined)).toBeUndefined()
    expect(compiledWorker('build-worker', '')).toBeUndefined()
  })
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
