/**
 * The editors' round trip: change an entry in the CMS of `npm run dev` against its local
 * backend, save, rebuild with `npm start`, and find the change on the built page. Works on a
 * copy of the content store, so the repository's content stays as it is.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import { parse } from 'yaml'
import { CMS_COLLECTIONS } from '../../../src/cms/config'
import { cmsPathOf, storeFileOf } from '../../../src/cms/paths'
import { listContentFiles, parseContentFile } from '../../../src/content/file-store'
import { ROOT, readBuildConfig } from '../../../src/engine/config'
import { LANGUAGES } from '../../../src/shared/languages'
import { seedBuildCache } from '../../support/build-cache'
import { freePort } from '../../support/free-port'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** The dev server's editor, on a port of its own (the kernel's choice, so runs can overlap). */
let EDITOR = ''
const RELEASE = 'lumora-opens-kyc-platform-to-partners'
/** Images the tests upload: the dev server keeps them in the project's public/images/blog/. */
const IMAGES = join(ROOT, 'public/images/blog')
const UPLOAD_PREFIX = 'e2e-upload-'

let dir: string
const servers: ChildProcess[] = []

function serve(program: 'dev' | 'start', port: number): void {
  const server = spawn(process.execPath, ['scripts/run.mjs', program], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      CONTENT_DIR: join(dir, 'content'),
      OUT_DIR: join(dir, 'dist'),
      // npm start's own state (the forms database) in the test's folder; its publishing service
      // is not what these tests try, and would take the default port and data folder.
      DATA_DIR: join(dir, 'data'),
      PUBLISHING: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  servers.push(server)
}

async function waitFor(url: string, seconds: number): Promise<void> {
  for (let attempt = 0; attempt < seconds * 4; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${url} did not answer within ${seconds} s`)
}

/** Opens the editor and logs in (the local backend has no account: the button lets you in). */
async function logIn(page: Page): Promise<void> {
  await page.goto(EDITOR)
  await page.getByRole('button', { name: 'Login' }).click({ timeout: 60_000 })
  await expect(page.getByRole('heading', { name: 'Collections' })).toBeVisible({ timeout: 60_000 })
}

async function openEntry(page: Page, collection: string, entry: string): Promise<void> {
  await logIn(page)
  await page.goto(`${EDITOR}#/collections/${collection}/entries/${entry}`)
  await expect(page.getByText('Writing in EN')).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Writing in DE')).toBeVisible()
}

async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.getByText('Publish now').click()
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  // A cold dev server beside the other browser tests can take a while on two cores.
  test.setTimeout(150_000)
  dir = await temporaryFolder('cms-e2e-')
  await cp(join(ROOT, 'content'), join(dir, 'content'), { recursive: true })
  const port = await freePort()
  EDITOR = `http://localhost:${port}/admin/`
  serve('dev', port)
  await waitFor(EDITOR, 140)
})

test.afterAll(async () => {
  for (const server of servers) server.kill()
  for (const name of await readdir(IMAGES)) {
    if (name.startsWith(UPLOAD_PREFIX)) await rm(join(IMAGES, name), { force: true })
  }
  // The build cache of this run's site lives in the project's .cache/ (its server bundle must
  // resolve the project's packages); it goes with the run.
  const { cacheDir } = readBuildConfig({ OUT_DIR: join(dir, 'dist') })
  await Promise.all([removeFolder(dir), removeFolder(cacheDir)])
})

test('every collection opens its entries with their stored text, in both languages', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const files = await listContentFiles(join(dir, 'content'))
  const site = parse(await readFile(join(dir, 'content/site.yaml'), 'utf8'))
  const samples: { url: string; values: string[] }[] = [
    { url: 'settings/entries/site', values: [site.brandName] },
  ]
  for (const collection of CMS_COLLECTIONS) {
    const path = files
      .map(cmsPathOf)
      .find((candidate) => candidate?.startsWith(`content/${collection.name}/`))
    if (!path) throw new Error(`no entry in ${collection.name}`)
    const key = (path.split('/').at(-1) as string).replace(/\.(yaml|md)$/, '')
    const texts = await Promise.all(
      (collection.twin ? LANGUAGES : [undefined]).map(async (language) => {
        const file = storeFileOf(language ? path.replace(/\/(en|de)\//, `/${language}/`) : path)
        const data = parseContentFile(file, await readFile(join(dir, 'content', file), 'utf8'))
        if (!('document' in data)) throw new Error(`cannot read ${file}`)
        const fields = data.document.data as Record<string, unknown>
        const strings = fields.strings as Record<string, string> | undefined
        return String(fields.title ?? strings?.home ?? (fields.name as { en: string }).en)
      }),
    )
    samples.push({ url: `${collection.name}/entries/${key}`, values: texts })
  }
  await logIn(page)
  for (const { url, values } of samples) {
    // As an editor does: through the collection's list (Decap does not reload an entry opened
    // straight from another entry's address).
    await page.goto(`${EDITOR}#/collections/${url.split('/')[0]}`)
    await expect(page.getByRole('heading', { name: 'Collections' })).toBeVisible()
    await page.goto(`${EDITOR}#/collections/${url}`)
    for (const value of values) {
      await page
        .waitForFunction(
          (expected) =>
            [...document.querySelectorAll('input, textarea')].some(
              (field) => (field as HTMLInputElement).value === expected,
            ),
          value,
          { timeout: 20_000 },
        )
        .catch((error: Error) => {
          throw new Error(`${url} does not show "${value}": ${error.message}`)
        })
    }
    // Opening an entry changes nothing.
    await expect(page.getByText(/unsaved changes/i), url).toHaveCount(0)
  }
})

test('the CMS refuses a change that would break the site and says where', async ({ page }) => {
  test.setTimeout(120_000)
  const file = join(dir, 'content/de/jobs/compliance-officer-aml.yaml')
  const before = await readFile(file, 'utf8')
  await openEntry(page, 'jobPosting', 'compliance-officer-aml')
  await page.locator('input[id^="applyEmail-field"]').nth(1).fill('bewerbung at lumora')
  await publish(page)
  await expect(
    page.getByText(
      /content\/de\/jobs\/compliance-officer-aml\.yaml › applyEmail: expected an e-mail address/,
    ),
  ).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText(/nothing was saved/)).toBeVisible()
  expect(await readFile(file, 'utf8')).toBe(before)
})

/** Shows the preview beside the editor (Decap shows the second language there first). */
async function showPreview(page: Page) {
  const toggle = page.locator('button[title="Toggle preview"]')
  await toggle.waitFor()
  if ((await page.locator('iframe').count()) === 0) await toggle.click()
  const frame = page.frameLocator('iframe')
  await expect(frame.locator('h1')).toBeVisible({ timeout: 30_000 })
  return frame
}

test('the preview beside the editor shows the entry as the site does, in both languages, while typing', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const file = join(dir, 'content/en/pages/services/cards.yaml')
  const before = await readFile(file, 'utf8')
  await openEntry(page, 'service', 'cards')
  const frame = await showPreview(page)
  const stored = parse(before) as { title: string }
  await expect(frame.locator('h1')).toHaveText(stored.title)
  // The site's own template and design: its header, breadcrumbs and section headings.
  await expect(frame.locator('[data-site-header]')).toBeVisible()
  await expect(frame.getByRole('navigation', { name: 'Breadcrumb' })).toBeVisible()
  await expect(frame.getByRole('heading', { level: 2, name: 'What it is' })).toBeVisible()

  await page.locator('input[id^="title-field"]').first().fill('Cards for every customer')
  await expect(frame.locator('h1')).toHaveText('Cards for every customer')
  await frame.getByRole('button', { name: 'Deutsch' }).click()
  const german = parse(await readFile(join(dir, 'content/de/pages/services/cards.yaml'), 'utf8'))
  await expect(frame.locator('h1')).toHaveText(german.title)
  await expect(frame.locator('html')).toBeVisible()
  // Nothing is written until the editor saves.
  expect(await readFile(file, 'utf8')).toBe(before)
})

test('a broken link is named beside the editor before a save, and the save is refused', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const file = join(dir, 'content/en/pages/services/cards.yaml')
  const before = await readFile(file, 'utf8')
  await openEntry(page, 'service', 'cards')
  const frame = await showPreview(page)
  // The first Markdown field ("what it is") as Markdown text, a link at its end.
  await page.locator('button[role="switch"]').first().click()
  await page.locator('[data-slate-editor="true"]').first().click()
  await page.keyboard.press('Control+End')
  await page.keyboard.press('Enter')
  await page.keyboard.type('See [our missing page](/en/no-such-page/).')
  const problem =
    'content/en/pages/services/cards.yaml › whatItIs: expected a link to an existing page; nothing is published at /en/no-such-page/'
  await expect(frame.getByRole('alert')).toContainText(problem)
  await publish(page)
  await expect(page.getByText(problem)).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText(/nothing was saved/)).toBeVisible()
  expect(await readFile(file, 'utf8')).toBe(before)
})

test('an image uploaded in the CMS goes to the site’s images; a file that is no image is refused', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const post = 'designing-idempotent-payment-apis'
  const file = join(dir, `content/blog/posts/${post}.md`)
  const good = `${UPLOAD_PREFIX}cover.png`
  const bad = `${UPLOAD_PREFIX}notes.png`
  const chooseImage = async (name: string, data: Buffer) => {
    // The image chosen now goes first: the library would open with it selected, and "Choose
    // selected" could take it before the upload is selected.
    await page.getByRole('button', { name: 'Remove image' }).first().click()
    await page.getByRole('button', { name: 'Choose an image' }).first().click()
    // The library has loaded its list (the post's own cover is in it). Uploaded before, the
    // list arriving after the upload replaces it, and the library selects its first file
    // instead of the upload.
    await expect(page.getByText(`${post}.svg`, { exact: true })).toBeVisible({ timeout: 30_000 })
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name, mimeType: 'image/png', buffer: data })
    // The new file is selected once uploaded.
    await expect(page.getByText(name)).toBeVisible()
    await page.getByRole('button', { name: 'Choose selected' }).click()
    await expect(page.getByRole('button', { name: 'Choose selected' })).toBeHidden()
  }

  // A post is written in one language: one editor, no side by side.
  const openPost = async () => {
    await logIn(page)
    await page.goto(`${EDITOR}#/collections/blogPost/entries/${post}`)
    await expect(page.locator('input[id^="title-field"]')).toBeVisible({ timeout: 30_000 })
  }

  await openPost()
  // A picture: saved into public/images/blog/, and the post names it with its text.
  const png = await sharp({
    create: { width: 1200, height: 630, channels: 3, background: '#e4650f' },
  })
    .png()
    .toBuffer()
  await chooseImage(good, png)
  // A save with a new file makes Decap load the library's list again. The next image must wait
  // for it: the list arriving after an upload would replace it, as on the library's first open.
  const listReloaded = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/v1') &&
      response.request().postDataJSON()?.action === 'getMedia',
  )
  await publish(page)
  await expect(page.getByText('Entry saved')).toBeVisible({ timeout: 30_000 })
  await listReloaded
  expect(existsSync(join(IMAGES, good))).toBe(true)
  const front = parse((await readFile(file, 'utf8')).split('---')[1] ?? '')
  expect(front.cover.src).toBe(`/images/blog/${good}`)
  expect(front.cover.alt).toBeTruthy()

  // A text file named .png: refused on saving, naming the file and why; nothing saved.
  const before = await readFile(file, 'utf8')
  await chooseImage(bad, Buffer.from('this is no picture'))
  await publish(page)
  await expect(page.getByText(`${bad} is not an image`)).toBeVisible({ timeout: 30_000 })
  expect(await readFile(file, 'utf8')).toBe(before)
  expect(existsSync(join(IMAGES, bad))).toBe(false)
})

test('an entry edited in the CMS appears on the rebuilt site, in both languages', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const english = 'Lumora Bank opens its identity platform to every partner'
  const german = 'Lumora Bank öffnet seine Identitätsplattform für alle Partner'
  await openEntry(page, 'pressRelease', RELEASE)
  const titles = page.locator('input[id^="title-field"]')
  await titles.nth(0).fill(english)
  await titles.nth(1).fill(german)
  await publish(page)
  await expect(page.getByText('Entry saved')).toBeVisible({ timeout: 30_000 })

  // Saved in the store's own layout, one file per language, the body untouched.
  const stored = await readFile(join(dir, `content/de/press/${RELEASE}.md`), 'utf8')
  const original = await readFile(join(ROOT, `content/de/press/${RELEASE}.md`), 'utf8')
  const front = (text: string) => parse(text.split('---')[1] ?? '')
  expect(front(stored)).toEqual({ ...front(original), title: german })
  expect(stored.split('---').slice(2).join('---').trim()).toBe(
    original.split('---').slice(2).join('---').trim(),
  )

  // `npm start` sees the store changed, rebuilds and serves the new site (its build cache
  // started from the suite's own, as a developer's is: the rebuild is of what changed).
  await seedBuildCache({ OUT_DIR: join(dir, 'dist') })
  const sitePort = await freePort()
  serve('start', sitePort)
  const site = `http://localhost:${sitePort}`
  await waitFor(`${site}/en/`, 240)
  await page.goto(`${site}/de/press/${RELEASE}/`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(german)
  await page.goto(`${site}/en/press/`)
  await expect(page.getByRole('link', { name: english })).toBeVisible()

  // The image uploaded above went through the image pipeline: sizes and formats of its own.
  await page.goto(`${site}/blog/designing-idempotent-payment-apis/`)
  const cover = page.locator('article picture').first()
  await expect(cover.locator('source[type="image/avif"]')).toHaveAttribute(
    'srcset',
    /\/images\/_\/.+ \d+w/,
  )
  await expect(cover.locator('source[type="image/webp"]')).toHaveAttribute(
    'srcset',
    /\/images\/_\//,
  )
})
