/**
 * The built site behind Debian's nginx, configured by `npm run nginx-config`, with `/api/`
 * passed to a forms service (on PostgreSQL when TEST_DATABASE_URL names one): it answers as
 * `npm start` does, header by header, for every kind of file; routes, 404 pages, page data and
 * client navigation work; a sign-up goes through it and its link confirms.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { SPEC_PAGES } from '../../../src/shared/spec-routes'
import {
  databases,
  linkIn,
  SITE_CONTENT,
  startService,
  type TestService,
} from '../../support/forms'
import { freePort } from '../../support/free-port'
import { type NginxServer, nginxInstalled, startNginx } from '../../support/nginx'
import { BASE_URL } from '../support/env'
import {
  disablePrefetch,
  isSameDocument,
  markDocument,
  openPage,
  pageDataPath,
  recordCspViolations,
} from '../support/helpers'
import { DIST } from '../support/site'

test.skip(!nginxInstalled(), 'nginx is not installed (CI installs Debian’s)')
test.describe.configure({ mode: 'serial' })

let nginx: NginxServer
let service: TestService

test.beforeAll(async () => {
  const database = databases().find((each) => each.name === 'postgresql') ?? databases()[0]
  if (!database) throw new Error('no database to test with')
  service = await startService(database, { root: DIST, contentDir: SITE_CONTENT })
  const api = new URL(await service.app.listen({ port: 0, host: '127.0.0.1' }))
  nginx = await startNginx({
    root: DIST,
    port: await freePort(),
    api: api.host,
    scratch: '.cache/e2e-nginx',
  })
})

test.afterAll(async () => {
  await nginx?.stop()
  await service?.close()
})

/** The headers a visitor's browser acts on: everything but date, connection and server. */
const COMPARED = [
  'content-type',
  'content-encoding',
  'cache-control',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'cross-origin-opener-policy',
  'x-frame-options',
  'strict-transport-security',
  'location',
  'vary',
]

async function answer(origin: string, path: string, encoding: string) {
  const response = await fetch(`${origin}${path}`, {
    headers: encoding ? { 'accept-encoding': encoding } : {},
    redirect: 'manual',
  })
  const headers = Object.fromEntries(
    COMPARED.map((name) => [name, response.headers.get(name)?.replace(/;\s*/g, '; ')]),
  )
  return {
    status: response.status,
    headers,
    etag: response.headers.has('etag'),
    body: Buffer.from(await response.arrayBuffer()),
  }
}

/** One file of each kind the build writes, found in the built site. */
async function samplePaths(): Promise<string[]> {
  const first = async (dir: string, pattern: RegExp) => {
    const names = (await readdir(join(DIST, dir), { recursive: true })).sort()
    const name = names.find((each) => pattern.test(each))
    if (!name) throw new Error(`no ${pattern} under ${dir}`)
    return `/${dir}/${name}`
  }
  const app = JSON.parse(await readFile(join(DIST, 'page-data/en/page-data.json'), 'utf8')) as {
    staticQueryHashes: string[]
  }
  return [
    '/',
    '/en/',
    '/de/about/',
    '/blog/',
    pageDataPath('/en/about/'),
    '/page-data/app-data.json',
    `/page-data/sq/d/${app.staticQueryHashes[0]}.json`,
    '/sw.js',
    '/manifest-de.webmanifest',
    '/sitemap.xml',
    '/robots.txt',
    '/icon.svg',
    await first('assets', /^client-.*\.js$/),
    await first('assets', /\.css$/),
    await first('assets', /\.woff2$/),
    await first('images/cards', /\.png$/),
    await first('images/_', /\.svg$/),
    // A drawing as the editor uploaded it, served like its hashed copy (in a sandbox).
    await first('images/blog', /\.svg$/),
    await first('documents', /\.pdf$/),
    // A currency's rates by day (cached for good), and one that is not there.
    await first('rates', /\/USD\.json$/),
    '/rates/mastercard/0000000000/USD.json',
    // The search: an index (revalidated), a file of its version (cached for good), one gone.
    '/search/de/index.json',
    await first('search/de', /\/c0\.json$/),
    await first('search/en', /\/p0\.json$/),
    '/search/en/000000000000/c0.json',
    '/de/gibt-es-nicht/',
    '/en/nothing/',
    '/nothing.json',
    '/en/about',
    // Addresses npm start refuses, which nginx would decode or merge into a page's.
    '/en%2F',
    '/de%2Fabout%2F',
    '//en/',
    '/en/about/%2e%2e/',
    '/_headers',
    '/_headers.json',
  ]
}

test('answers as npm start does, header by header, for every kind of file', async () => {
  const paths = await samplePaths()
  for (const encoding of ['br, gzip', 'gzip', '']) {
    for (const path of paths) {
      const [ours, theirs] = await Promise.all([
        answer(BASE_URL, path, encoding),
        answer(nginx.origin, path, encoding),
      ])
      const where = `${path} (accept-encoding: ${encoding || 'none'})`
      expect(theirs.status, where).toBe(ours.status)
      if (ours.status === 301) {
        // A redirect's body is never shown: nginx writes a line of HTML, npm start none.
        expect(theirs.headers.location, where).toBe(ours.headers.location)
        ours.headers['content-type'] = theirs.headers['content-type']
        ours.body = theirs.body
      }
      expect(theirs.headers, where).toEqual(ours.headers)
      expect(theirs.etag, where).toBe(ours.etag)
      expect(theirs.body.equals(ours.body), `${where}: the same body`).toBe(true)
    }
  }
  expect(await nginx.errors()).not.toMatch(/\[(error|crit|alert|emerg)\]/)
})

test('sends HSTS when a proxy in front says the visitor came over HTTPS', async () => {
  const secure = await fetch(`${nginx.origin}/en/`, { headers: { 'x-forwarded-proto': 'https' } })
  expect(secure.headers.get('strict-transport-security')).toBe(
    'max-age=63072000; includeSubDomains',
  )
  const plain = await fetch(`${nginx.origin}/en/`)
  expect(plain.headers.get('strict-transport-security')).toBeNull()
})

test('every route answers 200 with its page data, unknown paths the 404 page of their language', async ({
  request,
}) => {
  const paths = [
    '/',
    '/blog/',
    ...['en', 'de'].flatMap((language) => SPEC_PAGES.map((path) => `/${language}${path}`)),
  ]
  for (const path of paths) {
    const page = await request.get(`${nginx.origin}${path}`)
    expect(page.status(), path).toBe(200)
    const data = await request.get(`${nginx.origin}${pageDataPath(path)}`)
    expect(data.status(), path).toBe(200)
    expect((await data.json()).path, path).toBe(path)
  }
  const german = await request.get(`${nginx.origin}/de/gibt-es-nicht/`)
  expect(german.status()).toBe(404)
  expect(await german.text()).toContain('<html lang="de">')
  const english = await request.get(`${nginx.origin}/nothing/`)
  expect(english.status()).toBe(404)
  expect(await english.text()).toContain('<html lang="en">')
})

test('navigates on the client with page data from nginx, within the policy', async ({ page }) => {
  const violations = await recordCspViolations(page)
  // No prefetch (data saver): the navigation itself fetches the page data, as the test waits.
  await disablePrefetch(page)
  await openPage(page, `${nginx.origin}/en/`)
  await markDocument(page)
  const data = page.waitForResponse((response) =>
    response.url().endsWith(pageDataPath('/en/about/')),
  )
  await page.locator('a[href="/en/about/"]').first().click()
  expect((await data).status()).toBe(200)
  await expect(page).toHaveURL(`${nginx.origin}/en/about/`)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(await isSameDocument(page)).toBe(true)
  expect(await violations()).toEqual([])
})

test('a sign-up goes through nginx to the forms service, and its link confirms', async ({
  page,
}) => {
  const before = service.inbox.mails.length
  await page.goto(`${nginx.origin}/de/newsletter/`)
  await page.getByLabel('E-Mail-Adresse').fill('grace.nginx@example.com')
  await page.getByLabel('Regulatorische Entwicklungen').check()
  await page.getByLabel(/Ja, ich möchte/).check()
  await page.getByRole('button', { name: 'Newsletter abonnieren' }).click()
  await expect(page).toHaveURL(`${nginx.origin}/de/newsletter-success/`)
  const mails = await service.inbox.waitFor(before + 1)
  const confirm = new URL(linkIn(mails[before], '/confirm'))
  await page.goto(`${nginx.origin}${confirm.pathname}${confirm.search}`)
  // Its stylesheet came through nginx too, within the service's policy: the site's background.
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(248, 245, 242)')
  await page.getByRole('button').click()
  await expect(page).toHaveURL(`${nginx.origin}/de/newsletter-confirmed/`)
  const rows = await service.query<{ status: string }>(
    "SELECT status FROM subscribers WHERE email = 'grace.nginx@example.com'",
  )
  expect(rows).toEqual([{ status: 'confirmed' }])
})
