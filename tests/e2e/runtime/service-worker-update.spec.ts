import { readFile, rename, rm, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { isSameDocument, markDocument, openPage, waitForRouteUpdates } from '../support/helpers'

test.use({ serviceWorkers: 'allow' })
// Both tests deploy a new worker by changing the served file; they must not overlap.
test.describe.configure({ mode: 'serial' })

const WORKER_FILE = resolve(import.meta.dirname, '../../..', process.env.OUT_DIR ?? 'dist', 'sw.js')
/** The worker as built. */
const originals = new Map<string, Buffer>()

test.beforeAll(async () => {
  for (const file of [WORKER_FILE]) {
    originals.set(file, await readFile(file))
    // Twins from an `npm run build` before would be served in place of the changed file: the
    // server compresses it instead.
    for (const twin of ['.br', '.gz']) await rm(`${file}${twin}`, { force: true })
  }
})

/**
 * Replaces the served file whole: the other worker's tests fetch it meanwhile, and a file
 * written in place can be read empty or half written (an empty worker installs, and caches
 * nothing).
 */
async function replaceFile(file: string, data: Buffer | string): Promise<void> {
  const next = `${file}.${process.pid}.next`
  await writeFile(next, data)
  await rename(next, file)
}

test.afterEach(async () => {
  for (const [file, data] of originals) await replaceFile(file, data)
})

/** Opens the home page controlled by the service worker. */
async function openControlled(page: Page): Promise<void> {
  await openPage(page, '/en/')
  await page.evaluate(async () => navigator.serviceWorker.ready)
  await page.reload()
  await waitForRouteUpdates(page, 1)
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
    .toBe(true)
}

/** Deploys a changed worker (as a new build would) and waits until it has taken over. */
async function updateWorker(page: Page): Promise<void> {
  await replaceFile(WORKER_FILE, `${originals.get(WORKER_FILE)}\n// deploy ${Date.now()}\n`)
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration()
    const changed = new Promise((resolve) =>
      navigator.serviceWorker.addEventListener('controllerchange', resolve),
    )
    await registration?.update()
    await changed
  })
}

const aboutLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'About us' })

test('after a worker update, the next navigation is a full load when resources failed', async ({
  page,
  context,
}) => {
  // The prefetch of a visible link fails, in the first document and after the reload:
  // the page's resources count as failed.
  let failures = 0
  await context.route('**/page-data/en/careers/page-data.json', async (route) => {
    failures += 1
    await route.fulfill({ status: 500, body: '' })
  })
  await openControlled(page)
  await expect.poll(() => failures).toBeGreaterThanOrEqual(2)
  await markDocument(page)
  await updateWorker(page)
  await aboutLink(page).click()
  await page.waitForURL('/en/about/')
  await page.waitForFunction(() => window.__marker === undefined)
  expect(await isSameDocument(page)).toBe(false)
})

test('after a worker update without failed resources, navigation stays in the page', async ({
  page,
}) => {
  await openControlled(page)
  await markDocument(page)
  await updateWorker(page)
  await aboutLink(page).click()
  await waitForRouteUpdates(page, 2)
  await expect(page).toHaveURL('/en/about/')
  expect(await isSameDocument(page)).toBe(true)
})
