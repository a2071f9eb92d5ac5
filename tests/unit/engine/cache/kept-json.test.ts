/**
 * JSON kept parsed between builds: what this process wrote is read back without parsing, and
 * any change to the file since (another writer, a restore, the same size) is read anew.
 */
import { rm, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readKeptJson, writeKeptJson } from '../../../../src/engine/cache/kept-json'
import { RACY_MS } from '../../../../src/engine/cache/stamp'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let dir: string
beforeAll(async () => {
  dir = await temporaryFolder('kept-json-')
})
afterAll(async () => {
  await removeFolder(dir)
})

const settled = () => new Promise((resolve) => setTimeout(resolve, RACY_MS + 20))

describe('JSON kept between builds', () => {
  it('gives back what it wrote without reading the file again', async () => {
    const file = join(dir, 'pages.json')
    const pages = { '/en/': { title: 'Home' } }
    await writeKeptJson(file, pages)
    expect(await readKeptJson(file)).toBe(pages)
  })

  it('reads the file again once anything changed it, even to the same size and times', async () => {
    const file = join(dir, 'index.json')
    await writeKeptJson(file, { key: 'a', files: [] })
    const written = new Date(Date.now() - 60_000)
    await writeFile(file, JSON.stringify({ key: 'b', files: [] }))
    // Set back to another time: the change time still moves, and it is part of the identity.
    await utimes(file, written, written)
    expect(await readKeptJson(file)).toEqual({ key: 'b', files: [] })
  })

  it('keeps a file read long enough after its change, and not one changed just before', async () => {
    const file = join(dir, 'read.json')
    await writeFile(file, '{"n":1}')
    const racy = await readKeptJson<{ n: number }>(file)
    expect(await readKeptJson(file)).not.toBe(racy)
    await settled()
    const kept = await readKeptJson(file)
    expect(await readKeptJson(file)).toBe(kept)
    expect(kept).toEqual({ n: 1 })
  })

  it('rejects as reading does when the file is gone or not JSON', async () => {
    const file = join(dir, 'gone.json')
    await writeKeptJson(file, { gone: false })
    await rm(file)
    await expect(readKeptJson(file)).rejects.toThrow(/ENOENT/)
    await writeFile(file, 'not json')
    await expect(readKeptJson(file)).rejects.toThrow(SyntaxError)
  })
})
