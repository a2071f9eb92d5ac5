/**
 * A draft as a whole site for signed-in people: built from the draft merged onto main, served by
 * the publishing service at the site's own addresses once opened, with the site's policy; the
 * public site and main untouched; a draft the site does not build with named by file and field.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildSite } from '../../../../src/engine/build'
import { ROOT, readBuildConfig } from '../../../../src/engine/config'
import {
  createPublishingApp,
  PREVIEW_COOKIE,
  SESSION_COOKIE,
} from '../../../../src/publishing/http/app'
import { startSession } from '../../../../src/publishing/people/people'
import { openPublishingService, type PublishingService } from '../../../../src/publishing/service'
import { readPublishingSettings } from '../../../../src/publishing/settings'
import { MAIN } from '../../../../src/publishing/workflow/drafts'
import { documentOf } from '../../../support/html'
import { ada, addPeople } from '../../../support/people'
import { ABOUT } from '../../../support/publishing'
import { siteRepository } from '../../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../../support/temporary-folder'

const ORIGIN = 'http://localhost:8081'
let dir: string
let service: PublishingService
let app: FastifyInstance
let session: string
let builds = 0

beforeAll(async () => {
  dir = await temporaryFolder('publishing-previews-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = { DATA_DIR: join(dir, 'data'), PUBLISHING_REMOTE: remote.gitDir }
  service = await openPublishingService(readPublishingSettings(ROOT, env), {
    root: ROOT,
    buildConfig: readBuildConfig(env),
    build: (config) => {
      builds += 1
      return buildSite(config)
    },
  })
  app = await createPublishingApp(service, { logLevel: 'silent' })
  await addPeople(service.database, [ada])
  session = `${SESSION_COOKIE}=${(await startSession(service.database, ada.email)).token}`
})

afterAll(async () => {
  await app.close()
  await service.close()
  await removeFolder(dir)
})

const retitled = async (title: string) =>
  (await readFile(join(ROOT, ABOUT), 'utf8')).replace(/^title: .*$/m, `title: ${title}`)

describe('a draft as a whole site', () => {
  it('is built from the draft on main and served at the site’s addresses to signed-in people only', async () => {
    const main = await service.repo.resolve(MAIN)
    await service.drafts.save(
      ada,
      'pages/about',
      [{ path: ABOUT, content: await retitled('About, in preview') }],
      'Preview me',
    )
    expect((await app.inject({ url: '/preview/pages/about' })).headers.location).toBe('/sign-in')
    const opened = await app.inject({ url: '/preview/pages/about', headers: { cookie: session } })
    expect(opened.statusCode).toBe(303)
    expect(opened.headers.location).toBe('/en/about/')
    const preview = String(opened.headers['set-cookie']).split(';')[0] as string
    expect(preview.startsWith(`${PREVIEW_COOKIE}=`)).toBe(true)
    const page = await app.inject({
      url: '/en/about/',
      headers: { cookie: `${session}; ${preview}` },
    })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('About, in preview')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect(page.headers['cache-control']).toBe('no-store')
    // Said to be a preview, first in the page, in its language; sent whole, even compressed.
    const body = documentOf(page.body).body
    expect(body.firstElementChild?.getAttribute('aria-label')).toBe('Preview')
    expect(body.firstElementChild?.textContent).toContain('The live site has not changed.')
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(page.body))
    const brotli = await app.inject({
      url: '/en/about/',
      headers: { cookie: `${session}; ${preview}`, 'accept-encoding': 'br, gzip' },
    })
    expect(brotli.headers['content-encoding']).toBeUndefined()
    expect(brotli.body).toContain('data-preview-banner')
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1] as string
    expect(
      (await app.inject({ url: asset, headers: { cookie: `${session}; ${preview}` } })).statusCode,
    ).toBe(200)
    // Signed out, the preview's cookie opens nothing.
    expect((await app.inject({ url: '/en/about/', headers: { cookie: preview } })).statusCode).toBe(
      404,
    )
    expect(await service.repo.resolve(MAIN)).toBe(main)
    expect(await service.releases.current()).toBeNull()
    // The editor links to it.
    const linked = await app.inject({
      method: 'POST',
      url: '/api/cms',
      headers: { cookie: session, origin: ORIGIN, 'content-type': 'application/json' },
      payload: { action: 'getDeployPreview', params: { collection: 'pages', slug: 'about' } },
    })
    expect(linked.json()).toEqual({ url: `${ORIGIN}/preview/pages/about`, status: 'SUCCESS' })
  }, 120_000)

  it('opens a blog post’s preview at the post, not at the home page', async () => {
    const POST = 'content/blog/posts/how-we-test-our-apis.md'
    const text = (await readFile(join(ROOT, POST), 'utf8')).replace(
      /^title: .*$/m,
      'title: How we test our APIs, in preview',
    )
    await service.drafts.save(
      ada,
      'blogPost/how-we-test-our-apis',
      [{ path: POST, content: text }],
      'Post',
    )
    const opened = await app.inject({
      url: '/preview/blogPost/how-we-test-our-apis',
      headers: { cookie: session },
    })
    expect(opened.statusCode).toBe(303)
    // Posts live outside the language prefixes, at their own address: a new title keeps it.
    expect(opened.headers.location).toBe(
      '/blog/how-we-test-our-apis-contract-tests-and-the-sandbox/',
    )
    const preview = String(opened.headers['set-cookie']).split(';')[0] as string
    const page = await app.inject({
      url: String(opened.headers.location),
      headers: { cookie: `${session}; ${preview}` },
    })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('How we test our APIs, in preview')
  }, 120_000)

  it('names file and field when the site does not build with the draft', async () => {
    await service.drafts.save(
      ada,
      'pages/about',
      [{ path: ABOUT, content: await retitled('""') }],
      'Broken',
    )
    const answer = await app.inject({ url: '/preview/pages/about', headers: { cookie: session } })
    expect(answer.statusCode).toBe(422)
    expect(answer.json().error).toMatch(/about\.yaml › title/)
    // Asked again, and for its pages, it fails the same way without building again.
    const tried = builds
    const again = await app.inject({ url: '/preview/pages/about', headers: { cookie: session } })
    expect(again.statusCode).toBe(422)
    expect(again.json().error).toMatch(/about\.yaml › title/)
    const cookie = `${session}; ${PREVIEW_COOKIE}=${encodeURIComponent('pages/about')}`
    expect((await app.inject({ url: '/en/about/', headers: { cookie } })).statusCode).toBe(404)
    expect(builds).toBe(tried)
  }, 120_000)
})
