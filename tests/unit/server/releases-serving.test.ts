/**
 * The public server follows the publishing service's `current` link for every request: the
 * checkout's build until the first release, then whichever release the link points at, a
 * switch taking effect at the next request; the policy headers are the served release's. The
 * forms service alone (nginx in front serves the files) answers the live release's moves.
 */
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../../src/server/app'
import { CURRENT } from '../../../src/shared/release-layout'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

let dir: string
let app: FastifyInstance
const FIRST = '20261126T090000Z-aaaaaaaaaaaa'
const SECOND = '20261126T100000Z-bbbbbbbbbbbb'

async function site(folder: string, title: string, policy?: object) {
  await mkdir(join(folder, 'en', 'about'), { recursive: true })
  await writeFile(join(folder, 'en', 'about', 'index.html'), `<title>${title}</title>`)
  if (policy) await writeFile(join(folder, '_headers.json'), JSON.stringify(policy))
}

async function point(folder: string) {
  const link = join(dir, 'releases', '.next-link')
  await symlink(folder, link)
  await rename(link, join(dir, 'releases', CURRENT))
}

beforeAll(async () => {
  dir = await temporaryFolder('releases-serving-')
  await site(join(dir, 'dist'), 'checkout')
  await site(join(dir, 'releases', FIRST), 'first')
  await site(join(dir, 'releases', SECOND), 'second', {
    tracking: { adsIds: [] },
    scriptHashes: [],
    styleHashes: ['sha256-secondrelease'],
  })
  app = await createApp({
    root: join(dir, 'dist'),
    releasesDir: join(dir, 'releases'),
    logLevel: 'silent',
  })
})

afterAll(async () => {
  await app.close()
  await removeFolder(dir)
})

describe('serving releases', () => {
  it('serves the checkout’s build until the first release, then the release the link names', async () => {
    expect((await app.inject('/en/about/')).body).toContain('checkout')
    await point(FIRST)
    expect((await app.inject('/en/about/')).body).toContain('first')
    await point(SECOND)
    const second = await app.inject('/en/about/')
    expect(second.body).toContain('second')
    expect(second.headers['content-security-policy']).toContain('sha256-secondrelease')
    await point(FIRST)
    expect((await app.inject('/en/about/')).body).toContain('first')
  })

  it('answers 503 when there is neither a release nor a build', async () => {
    const alone = await createApp({ releasesDir: join(dir, 'nothing'), logLevel: 'silent' })
    const answer = await alone.inject('/en/about/')
    expect(answer.statusCode).toBe(503)
    expect(answer.headers['content-security-policy']).toBeTruthy()
    await alone.close()
  })

  it("answers only the live release's moves when it serves no file (nginx in front)", async () => {
    await writeFile(
      join(dir, 'releases', SECOND, '_redirects.json'),
      JSON.stringify([{ from: '/en/about-us/', to: '/en/about/' }]),
    )
    const moves = await createApp({
      root: join(dir, 'dist'),
      releasesDir: join(dir, 'releases'),
      movesOnly: true,
      logLevel: 'silent',
    })
    try {
      await point(FIRST)
      expect((await moves.inject('/en/about-us/')).statusCode).toBe(404)
      await point(SECOND)
      const moved = await moves.inject('/en/about-us/')
      expect([moved.statusCode, moved.headers.location]).toEqual([301, '/en/about/'])
      expect(moved.headers['content-security-policy']).toBeTruthy()
      // A page's own address is no file of this service's, nor is any other.
      for (const path of ['/en/about/', '/en/nothing/', '/page-data/en/about-us/x.json'])
        expect((await moves.inject(path)).statusCode, path).toBe(404)
      expect((await moves.inject('/page-data/en/about-us/page-data.json')).headers.location).toBe(
        '/page-data/en/about/page-data.json',
      )
    } finally {
      await moves.close()
    }
  })
})
