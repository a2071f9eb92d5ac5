/**
 * The hash over a build's inputs: the same files give the same hash, read again only when they
 * changed; a file written anew is read, even with the length and the time of the one it replaced.
 */
import { createHash } from 'node:crypto'
import { rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hashFiles } from '../../../../src/engine/cache/stamp'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let dir: string
beforeEach(async () => {
  dir = await temporaryFolder('stamp-')
})
afterEach(async () => {
  await removeFolder(dir)
})

const hashOf = async (files: string[]) => {
  const hash = createHash('sha256')
  await hashFiles(hash, files, (file) => file.slice(dir.length))
  return hash.digest('hex')
}

describe('the hash of the inputs', () => {
  it('changes with any file changed, written anew or into, and with one gone', async () => {
    const time = new Date('2026-11-30T12:00:00Z')
    const a = join(dir, 'a.yaml')
    const b = join(dir, 'b.yaml')
    await writeFile(a, 'title: One\n')
    await writeFile(b, 'title: Two\n')
    await utimes(a, time, time)
    const first = await hashOf([a, b])
    expect(await hashOf([a, b])).toBe(first)
    // Written anew (as git and the CMS write), with the same length and time: a new file.
    await rm(a)
    await writeFile(a, 'title: Eno\n')
    await utimes(a, time, time)
    const second = await hashOf([a, b])
    expect(second).not.toBe(first)
    // Written into at once, the same length, likely within the same tick of the file times.
    await writeFile(b, 'title: Owt\n')
    const third = await hashOf([a, b])
    expect(third).not.toBe(second)
    await writeFile(b, 'title: Two\n')
    expect(await hashOf([a, b])).toBe(second)
    await writeFile(b, 'title: Owt\n')
    expect(await hashOf([a, b])).toBe(third)
    // Back as they were: the first hash again.
    await writeFile(a, 'title: One\n')
    await writeFile(b, 'title: Two\n')
    expect(await hashOf([a, b])).toBe(first)
    await rm(b)
    expect(await hashOf([a, b])).not.toBe(first)
  })
})
