/**
 * Addresses that last, in Chromium against `npm start` on a copy of the content: an editor
 * fixes a published post's title and the post stays where it was; another editor changes a
 * post's address on purpose, and its old address answers 301 to the new one, on a first load
 * and on a client navigation alike; a service (a page with a twin) moved the same way answers
 * its old address in each language with 301, and the sitemap and the site's links name only its
 * new one. The saves go through the editor's backend, as the CMS saves them.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { createCmsBackend } from '../../../src/cms/backend'
import { ROOT } from '../../../src/engine/config'
import { seedBuildCache } from '../../support/build-cache'
import { freePort } from '../../support/free-port'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'
import {
  addLink,
  isSameDocument,
  markDocument,
  openPage,
  routeUpdates,
  waitForRouteUpdates,
} from '../support/helpers'

const RETITLED = 'how-we-test-our-apis'
const RETITLED_ADDRESS = '/blog/how-we-test-our-apis-contract-tests-and-the-sandbox/'
const NEW_TITLE = 'How we test our APIs: contract tests and a sandbox'
const MOVED = 'designing-idempotent-payment-apis'
const OLD_ADDRESS = '/blog/designing-idempotent-payment-apis/'
const NEW_ADDRESS = '/blog/idempotent-payment-apis/'
const SERVICE = 'cards'
const SERVICE_SLUG = 'card-issuing'

let dir: string
let site: string
let server: ChildProcess

test.describe.configure({ mode: 'serial' })

/** Saves a post's front matter with `change` applied, through the editor's backend. */
async function save(contentDir: string, name: string, change: (text: string) => string) {
  const backend = createCmsBackend({ contentDir, publicDir: join(ROOT, 'public') })
  const raw = change(await readFile(join(contentDir, 'blog/posts', `${name}.md`), 'utf8'))
  const answer = await backend.handle({
    action: 'persistEntry',
    params: { dataFiles: [{ path: `content/blogPost/${name}.md`, raw, slug: name }], assets: [] },
  })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
}

/** Saves a service in both languages with `change` applied, through the editor's backend. */
async function saveService(contentDir: string, name: string, change: (text: string) => string) {
  const backend = createCmsBackend({ contentDir, publicDir: join(ROOT, 'public') })
  const dataFiles = await Promise.all(
    ['en', 'de'].map(async (language) => ({
      path: `content/service/${language}/${name}.yaml`,
      raw: change(
        await readFile(join(contentDir, language, 'pages/services', `${name}.yaml`), 'utf8'),
      ),
      slug: name,
    })),
  )
  const answer = await backend.handle({ action: 'persistEntry', params: { dataFiles, assets: [] } })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
}

test.beforeAll(async () => {
  test.setTimeout(300_000)
  dir = await temporaryFolder('addresses-e2e-')
  const contentDir = join(dir, 'content')
  await cp(join(ROOT, 'content'), contentDir, { recursive: true })
  // A typo fixed in the title: the address field is left as it is.
  await save(contentDir, RETITLED, (text) => text.replace(/^title: .*$/m, `title: "${NEW_TITLE}"`))
  // The address changed on purpose.
  await save(contentDir, MOVED, (text) =>
    text.replace(/^slug: .*$/m, `slug: ${NEW_ADDRESS.split('/')[2]}`),
  )
  const saved = await readFile(join(contentDir, 'blog/posts', `${MOVED}.md`), 'utf8')
  expect(saved).toContain(`redirectFrom:\n  - ${OLD_ADDRESS}\n`)
  // A service moved on purpose, in both languages at once (one field for both).
  await saveService(contentDir, SERVICE, (text) =>
    text.replace(/^slug: .*$/m, `slug: ${SERVICE_SLUG}`),
  )
  const service = await readFile(join(contentDir, 'de/pages/services', `${SERVICE}.yaml`), 'utf8')
  expect(service).toContain(`redirectFrom:\n  - /de/services/${SERVICE}/\n`)

  const env = { OUT_DIR: join(dir, 'dist'), BUILD_CACHE_DIR: join(dir, 'cache') }
  await seedBuildCache(env)
  const port = await freePort()
  site = `http://localhost:${port}`
  server = spawn(process.execPath, ['scripts/run.mjs', 'start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      CONTENT_DIR: contentDir,
      PORT: String(port),
      DATA_DIR: join(dir, 'data'),
      PUBLISHING: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<never>((_resolve, reject) =>
    server.once('exit', (code) => reject(new Error(`npm start exited with ${code}`))),
  )
  // Up once it answers the post at its address.
  for (;;) {
    const up = await Promise.race([
      fetch(`${site}${RETITLED_ADDRESS}`).then(
        (response) => response.ok,
        () => false,
      ),
      exited,
    ])
    if (up) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
})

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const gone = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGTERM')
    await gone
  }
  await removeFolder(dir)
})

test('a retitled post keeps its address', async ({ page }) => {
  const response = await page.goto(`${site}${RETITLED_ADDRESS}`)
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(NEW_TITLE)
  // The sitemap lists it where it was, and the moved post only at its new address.
  const sitemap = await (await page.request.get(`${site}/sitemap.xml`)).text()
  expect(sitemap).toContain(RETITLED_ADDRESS)
  expect(sitemap).toContain(NEW_ADDRESS)
  expect(sitemap).not.toContain(OLD_ADDRESS)
})

test('a moved post answers its old address with a permanent redirect', async ({ page }) => {
  const answer = await page.request.get(`${site}${OLD_ADDRESS}`, { maxRedirects: 0 })
  expect(answer.status()).toBe(301)
  expect(answer.headers().location).toBe(NEW_ADDRESS)
  expect(answer.headers()['content-security-policy']).toContain("default-src 'self'")

  const response = await page.goto(`${site}${OLD_ADDRESS}`)
  expect(response?.status()).toBe(200)
  expect(response?.request().redirectedFrom()?.url()).toBe(`${site}${OLD_ADDRESS}`)
  expect(new URL(page.url()).pathname).toBe(NEW_ADDRESS)
})

test('a client navigation to the old address shows the post at its new one', async ({ page }) => {
  await openPage(page, `${site}/blog/`)
  await markDocument(page)
  // A link to the old address, as an old newsletter's page would have one (the site's own
  // links already name the new address).
  const link = await addLink(page, OLD_ADDRESS, { first: true })
  await link.click()
  await waitForRouteUpdates(page, 2)
  expect(new URL(page.url()).pathname).toBe(NEW_ADDRESS)
  expect(await routeUpdates(page)).toEqual(['/blog/', NEW_ADDRESS])
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Designing idempotent payment APIs',
  )
  expect(await isSameDocument(page)).toBe(true)
})

test('a moved service answers its old address in each language with a permanent redirect', async ({
  page,
}) => {
  for (const language of ['en', 'de']) {
    const from = `/${language}/services/${SERVICE}/`
    const to = `/${language}/services/${SERVICE_SLUG}/`
    const answer = await page.request.get(`${site}${from}`, { maxRedirects: 0 })
    expect(answer.status(), from).toBe(301)
    expect(answer.headers().location).toBe(to)
    const data = await page.request.get(`${site}/page-data${from}page-data.json`, {
      maxRedirects: 0,
    })
    expect(data.status()).toBe(301)
    expect(data.headers().location).toBe(`/page-data${to}page-data.json`)
  }
  const sitemap = await (await page.request.get(`${site}/sitemap.xml`)).text()
  expect(sitemap).toContain(`/en/services/${SERVICE_SLUG}/`)
  expect(sitemap).not.toContain(`/services/${SERVICE}/`)
  // The page answers at its new address, and the site links it there.
  const response = await page.goto(`${site}/en/case-studies/penta/`)
  expect(response?.status()).toBe(200)
  const links = await page
    .locator('main a[href*="/services/"]')
    .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')))
  expect(links).toContain(`/en/services/${SERVICE_SLUG}/`)
  expect(links).not.toContain(`/en/services/${SERVICE}/`)
  await page.goto(`${site}/de/services/${SERVICE}/`)
  expect(new URL(page.url()).pathname).toBe(`/de/services/${SERVICE_SLUG}/`)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
})
