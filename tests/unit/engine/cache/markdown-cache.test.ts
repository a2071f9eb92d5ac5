import { readdir } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openMarkdownCache } from '../../../../src/engine/cache/markdown-cache'
import { readBuildConfig } from '../../../../src/engine/config'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

let cacheDir: string
beforeAll(async () => {
  cacheDir = await temporaryFolder('markdown-cache-')
})
afterAll(async () => {
  await removeFolder(cacheDir)
})

describe('build markdown cache', () => {
  it('keeps what a build rendered or reused, and drops texts no longer in the content', async () => {
    const config = { ...readBuildConfig(), cacheDir }
    const first = await openMarkdownCache(config)
    expect(first.get('a')).toBeUndefined()
    first.set('a', { html: '<p>a</p>' })
    first.set('b', { error: 'expected headings from "##" down' })
    await first.save()
    expect(await readdir(cacheDir)).toEqual([
      expect.stringMatching(/^markdown-[0-9a-f]{16}\.json$/),
    ])

    const second = await openMarkdownCache(config)
    expect(second.get('a')).toEqual({ html: '<p>a</p>' })
    await second.save()
    const third = await openMarkdownCache(config)
    expect(third.get('a')).toEqual({ html: '<p>a</p>' })
    expect(third.get('b')).toBeUndefined()
  })
})
