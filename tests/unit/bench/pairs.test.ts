/**
 * The paired runner the bench compares builds with: each side's runs timed by GNU time from
 * outside, in turn, its medians and the ratios pair by pair.
 */
import { chmod, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pairedRun, pairsUnavailable, timedRun } from '../../../bench/pairs'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let dir = ''
const script = async (name: string, body: string) => {
  const file = join(dir, name)
  await writeFile(file, `#!/bin/sh\n${body}\n`)
  await chmod(file, 0o755)
  return file
}

beforeAll(async () => {
  dir = await temporaryFolder('bench-pairs-')
})
afterAll(async () => {
  await removeFolder(dir)
})

describe.skipIf(pairsUnavailable() !== undefined)('paired runs', () => {
  it('count the CPU of the processes a command waited for, and not time it slept', async () => {
    // The work is done by a child of the shell: its CPU counts all the same.
    const busy = await script('busy', "sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'")
    const idle = await script('idle', 'sleep 0.3')
    const pair = pairedRun(busy, idle, 3)
    expect(pair.runs).toBe(3)
    expect(pair.a.cpu).toBeGreaterThan(0.05)
    expect(pair.b.cpu).toBeLessThan(pair.a.cpu)
    expect(pair.b.wall).toBeGreaterThanOrEqual(0.3)
    expect(pair.a.peakMib).toBeGreaterThan(0)
    expect(pair.ratio.cpu).toBeGreaterThan(1)
  })

  it('say which command failed, and with what', async () => {
    const failing = await script('failing', 'exit 3')
    expect(() => timedRun(failing)).toThrow(`${failing} failed (exit 3)`)
  })
})
