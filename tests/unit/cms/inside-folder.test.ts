/**
 * The backend's writes stay inside their folder by real path: a folder on the way that is a
 * symbolic link out of it, or a file that is one, is refused and nothing is written, made or
 * removed where it points; a link that stays inside, and plain folders, are written through.
 */
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCmsBackend } from '../../../src/cms/backend'
import {
  isInside,
  OutsideFolderError,
  removeInside,
  writeInside,
} from '../../../src/cms/inside-folder'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let dir: string
let root: string
let outside: string

beforeEach(async () => {
  dir = await temporaryFolder('cms-inside-')
  root = join(dir, 'store')
  outside = join(dir, 'live')
  await mkdir(join(root, 'images'), { recursive: true })
  await mkdir(outside)
  await writeFile(join(outside, 'cover.svg'), 'live')
})

afterEach(() => removeFolder(dir))

describe('a path inside its folder', () => {
  it('is the folder or below it, by path segments', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true)
    expect(isInside('/a/b', '/a/b/c/d')).toBe(true)
    expect(isInside('/a/b', '/a/b/..c')).toBe(true)
    expect(isInside('/a/b', '/a/bc')).toBe(false)
    expect(isInside('/a/b', '/a')).toBe(false)
    expect(isInside('/a/b', '/a/b/../c')).toBe(false)
  })
})

describe('writes inside a folder', () => {
  it('writes, making folders, and through a link that stays inside', async () => {
    await writeInside(root, join(root, 'images/blog/2026/a.svg'), 'a')
    await symlink(join(root, 'images'), join(root, 'pictures'))
    await writeInside(root, join(root, 'pictures/b.svg'), 'b')
    expect(await readFile(join(root, 'images/blog/2026/a.svg'), 'utf8')).toBe('a')
    expect(await readFile(join(root, 'images/b.svg'), 'utf8')).toBe('b')
  })

  it('refuses a folder on the way that links out, writing and making nothing there', async () => {
    await symlink(outside, join(root, 'images/brand'))
    for (const file of ['images/brand/cover.svg', 'images/brand/blog/new.svg']) {
      await expect(writeInside(root, join(root, file), 'defaced')).rejects.toThrow(
        OutsideFolderError,
      )
    }
    await expect(writeInside(root, join(root, 'images/brand/x.svg'), 'x')).rejects.toThrow(
      /^images\/brand is a symbolic link that leads out of its folder$/,
    )
    await expect(removeInside(root, join(root, 'images/brand/cover.svg'))).rejects.toThrow(
      OutsideFolderError,
    )
    expect(await readFile(join(outside, 'cover.svg'), 'utf8')).toBe('live')
    expect(await readdir(outside)).toEqual(['cover.svg'])
  })

  it('writes no file through a link in its place, and removes only the link', async () => {
    await symlink(join(outside, 'cover.svg'), join(root, 'images/cover.svg'))
    await expect(writeInside(root, join(root, 'images/cover.svg'), 'defaced')).rejects.toThrow(
      /images\/cover\.svg is a symbolic link/,
    )
    await removeInside(root, join(root, 'images/cover.svg'))
    expect(await readdir(join(root, 'images'))).toEqual([])
    expect(await readFile(join(outside, 'cover.svg'), 'utf8')).toBe('live')
  })

  it('is how the editor’s backend writes: an upload under a link out is refused, naming no server path', async () => {
    await symlink(outside, join(root, 'images/brand'))
    const backend = createCmsBackend({ contentDir: join(dir, 'content'), publicDir: root })
    const answer = await backend.handle({
      action: 'persistMedia',
      params: {
        asset: {
          path: 'public/images/brand/cover.svg',
          content: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
          encoding: 'base64',
        },
      },
    })
    expect(answer).toEqual({
      status: 422,
      body: { error: 'Refused: images/brand is a symbolic link that leads out of its folder.' },
    })
    expect(await readFile(join(outside, 'cover.svg'), 'utf8')).toBe('live')
  })
})
