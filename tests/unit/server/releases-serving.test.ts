/**
 * The public server follows the publishing service's `current` link for every request: the
 * checkout's build until the first release, then whichever release the link points at, a
 * switch taking effect at the next request; the policy headers are the served release's.
 */
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CURRENT } from '../../../src/publishing/workflow/releases'
import { createApp } from '../../../src/server/app'
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
})
