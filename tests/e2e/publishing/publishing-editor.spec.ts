import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type Browser,
  type BrowserContextOptions,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test'
import { CMS_COLLECTIONS } from '../../../src/cms/config'
import { fieldLabel } from '../../../src/cms/field-labels'
import { ROOT } from '../../../src/engine/config'
import { readAudit } from '../../../src/publishing/audit/trail'
import { MANAGE_TEXTS } from '../../../src/publishing/pages/texts'
import type { PublishingService } from '../../../src/publishing/service'
import { englishTexts } from '../../support/english-texts'
import { addPeople, person } from '../../support/people'
import { axeViolations } from '../support/axe'
import { englishShown, signedIn as signedInAs } from '../support/publishing-screens'
import { type StandInService, startStandInService } from '../support/stand-in-service'

let CMS = ''
let running: StandInService | undefined
let service: PublishingService

const ada = person('ada@bank.example', ['author'])
const greta = person('greta@bank.example', ['author'], 'de')
const rita = person('rita@bank.example', ['reviewer'])
/** Writes and may publish: her editor offers the Publish menu. */
const pia = person('pia@bank.example', ['author', 'publisher'])

test.describe.configure({ mode: 'serial' })
test.setTimeout(120_000)

test.beforeAll(async () => {
  test.setTimeout(300_000)
  running = await startStandInService('publishing-editor', { bundleEditor: true })
  CMS = running.url
  service = running.service
  await addPeople(service.database, [ada, greta, rita, pia])
})

test.afterAll(async () => {
  await running?.close()
})

/** A browser of the person's own, signed in. */
const signedIn = (browser: Browser, email: string, options: BrowserContextOptions = {}) =>
  signedInAs(browser, service, email, options)

/** The refusals in the trail by `email`. */
const refusalsOf = async (email: string) =>
  (await readAudit(service.database, { limit: 1000 })).filter(
    (entry) => entry.action === 'refusal' && entry.actor === email,
  )

/** Opens the media library from a collection's list. */
async function openMediaLibrary(page: Page) {
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/jobPosting`)
  await page.getByRole('button', { name: /^(Media|Medien)$/ }).click({ timeout: 60_000 })
}

const png = async (background: string) => {
  const { default: sharp } = await import('sharp')
  return sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer()
}

/** A phone's window, used by touch. */
const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 740 }, hasTouch: true }

/**
 * What of `root`, an open dialog or menu, a person cannot use on this window: it or a control
 * of it beyond the window's edges, a control smaller than a fingertip's target (24 × 24 CSS px,
 * WCAG 2.5.8) or covered or cut off at its middle, where it is touched; or anything in it, or
 * the page, that scrolls sideways. Each as a sentence; none, when all is well.
 */
function misfits(root: Locator): Promise<string[]> {
  return root.evaluate((root) => {
    const problems: string[] = []
    const named = (element: Element) => {
      if (element === document.documentElement) return 'the page'
      const name =
        element.getAttribute('aria-label') ??
        element.getAttribute('placeholder') ??
        element.textContent ??
        ''
      return `${element.tagName.toLowerCase()} “${name.trim().slice(0, 40)}”`
    }
    const outside = (element: Element) => {
      const box = element.getBoundingClientRect()
      // Not shown, or a box of no size that only holds what it shows (a menu's, say).
      if (box.width <= 1 || box.height <= 1) return
      if (box.left < 0 || box.right > window.innerWidth || box.top < 0)
        problems.push(
          `${named(element)} is not all in the window: ${Math.round(box.left)} to ${Math.round(box.right)} px across, from ${Math.round(box.top)} px down`,
        )
    }
    outside(root)
    if (root.getBoundingClientRect().bottom > window.innerHeight)
      problems.push(`${named(root)} goes below the window`)
    for (const control of root.querySelectorAll(
      'button, input:not([type="file"]), label, [role="menuitem"]',
    )) {
      const box = control.getBoundingClientRect()
      // Not shown (Decap keeps some buttons' words for screen readers alone).
      if (box.width <= 1 || box.height <= 1) continue
      outside(control)
      if (box.width < 24 || box.height < 24)
        problems.push(
          `${named(control)} is ${Math.round(box.width)} × ${Math.round(box.height)} px, under 24 × 24`,
        )
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      if (!hit || !control.contains(hit))
        problems.push(`${named(control)} is covered or cut off at its middle`)
    }
    for (const element of [document.documentElement, root, ...root.querySelectorAll('*')]) {
      const { overflowX } = getComputedStyle(element)
      const scrolls =
        element === document.documentElement || overflowX === 'auto' || overflowX === 'scroll'
      if (scrolls && element.scrollWidth > element.clientWidth + 1)
        problems.push(
          `${named(element)} scrolls sideways: ${element.scrollWidth} px in ${element.clientWidth}`,
        )
    }
    return problems
  })
}

/**
 * What axe finds in the open media library, named as a dialog should be: by its heading (Decap
 * draws it nameless and its pictures without a text alternative; dialogs.ts mends both).
 */
async function axeOnLibrary(page: Page): Promise<string[]> {
  const dialog = page.getByRole('dialog')
  const heading = (await dialog.getByRole('heading', { level: 1 }).textContent()) ?? ''
  expect(heading).not.toBe('')
  await expect(dialog).toHaveAccessibleName(heading)
  return axeViolations(page, '[role="dialog"]')
}

test('opening an entry that has no draft is no refusal; a refused write still is', async ({
  browser,
}) => {
  const page = await signedIn(browser, ada.email)
  const opened = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/cms') &&
      response.request().postData()?.includes('"action":"unpublishedEntry"') === true,
    { timeout: 120_000 },
  )
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages/entries/about`)
  expect((await opened).status()).toBe(404)
  await expect(page.getByLabel('Title').first()).toBeVisible({ timeout: 30_000 })
  expect(await refusalsOf(ada.email)).toEqual([])
  // A rule's no is recorded as ever: an author may not approve.
  const refused = await page.evaluate(async () => {
    const response = await fetch('/api/cms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'updateUnpublishedEntryStatus',
        params: { collection: 'pages', slug: 'about', newStatus: 'pending_publish' },
      }),
    })
    return response.status
  })
  expect(refused).toBeGreaterThanOrEqual(400)
  expect(await refusalsOf(ada.email)).toHaveLength(1)
  await page.context().close()
})

test('on a phone, the editor sits below the shared bar and its Save and Status fit the screen', async ({
  browser,
}) => {
  const page = await signedIn(browser, ada.email)
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages/entries/careers`)
  const bar = page.getByRole('navigation', { name: 'Publishing' })
  await expect(bar.getByRole('link', { name: 'Editor' })).toHaveAttribute('aria-current', 'page')
  await expect(bar.getByRole('link', { name: /^Changes/ })).toBeVisible()
  // Its links keep their names when their words do not fit (the bank's mark, for one).
  expect(await axeViolations(page, '.bar')).toEqual([])
  const title = page.getByLabel('Title').first()
  await expect(title).toBeVisible({ timeout: 60_000 })
  /** Whether the element is inside the window, from its left edge to its right one. */
  const fits = (name: RegExp) =>
    page
      .getByRole('button', { name })
      .first()
      .evaluate((element) => {
        const box = element.getBoundingClientRect()
        return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth
      })
  await title.fill('Work with us at Lumora Bank')
  expect(await fits(/^Save$/)).toBe(true)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  // Saved: the draft has a status now.
  await expect(page.getByRole('button', { name: /^Status:/ })).toBeVisible({ timeout: 30_000 })
  expect(await fits(/^Status:/)).toBe(true)
  // Nothing scrolls sideways: not the page, not the form.
  const wide = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    form: Math.max(
      ...[...document.querySelectorAll('input, textarea')]
        .map((field) => field.getBoundingClientRect())
        .filter((box) => box.width > 0)
        .map((box) => box.right - window.innerWidth),
    ),
  }))
  expect(wide.page).toBeLessThanOrEqual(0)
  expect(wide.form).toBeLessThanOrEqual(0)
  await page.context().close()
})

test('on a phone, the media library fits the screen, and an image is found and chosen by touch', async ({
  browser,
}) => {
  const page = await signedIn(browser, ada.email, PHONE)
  // From the Media button: the whole library in the window, every button within a finger's reach.
  await openMediaLibrary(page)
  const library = page.getByRole('dialog')
  await expect(library.getByText('designing-idempotent-payment-apis.svg')).toBeVisible({
    timeout: 30_000,
  })
  expect(await misfits(library)).toEqual([])
  await expect(library.getByPlaceholder(/^Search/)).toBeVisible()
  expect(await axeOnLibrary(page)).toEqual([])
  await library.getByRole('button', { name: 'Close' }).tap()
  await expect(library).toBeHidden()
  // From an image field: the image found by the search, selected and chosen by touch.
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/blogPost/new`)
  await page.getByRole('button', { name: 'Choose an image' }).tap({ timeout: 60_000 })
  await library.getByPlaceholder(/^Search/).fill('idempotent')
  await library.getByText('designing-idempotent-payment-apis.svg').tap({ timeout: 30_000 })
  const choose = library.getByRole('button', { name: 'Choose selected' })
  await expect(choose).toBeEnabled()
  expect(await misfits(library)).toEqual([])
  // With a selection, its buttons are enabled: read as well as the rest.
  expect(await axeOnLibrary(page)).toEqual([])
  await choose.tap()
  await expect(library).toBeHidden()
  await expect(page.getByRole('button', { name: 'Choose different image' })).toBeVisible()
  await expect(page.locator('img[src*="designing-idempotent-payment-apis.svg"]')).toBeVisible()
  await page.context().close()
})

test('on a desktop, the media library is a named dialog where axe finds nothing', async ({
  browser,
}) => {
  const page = await signedIn(browser, ada.email, { viewport: { width: 1280, height: 800 } })
  await openMediaLibrary(page)
  const library = page.getByRole('dialog')
  await expect(library.getByText('designing-idempotent-payment-apis.svg')).toBeVisible({
    timeout: 30_000,
  })
  expect(await axeOnLibrary(page)).toEqual([])
  await library.getByText('designing-idempotent-payment-apis.svg').click()
  await expect(library.getByRole('button', { name: 'Delete selected' })).toBeEnabled()
  expect(await axeOnLibrary(page)).toEqual([])
  await page.context().close()
})

test('on a phone, the status and Publish menus open within the screen and take a finger', async ({
  browser,
}) => {
  const page = await signedIn(browser, pia.email, PHONE)
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages/entries/terms-of-use`)
  const title = page.getByLabel('Title').first()
  await expect(title).toBeVisible({ timeout: 60_000 })
  await title.fill('Terms of use, as drafted on a phone')
  await page.getByRole('button', { name: 'Save', exact: true }).tap()
  // Saved: the draft's status menu, and for her, who may publish, the Publish menu.
  const status = page.getByRole('button', { name: /^Status:/ })
  await expect(status).toBeVisible({ timeout: 30_000 })
  await status.tap()
  const menu = page.getByRole('menu')
  await expect(menu.getByRole('menuitem', { name: 'Draft' })).toBeVisible()
  expect(await misfits(menu)).toEqual([])
  await menu.getByRole('menuitem', { name: 'In review' }).tap()
  await expect(page.getByRole('button', { name: 'Status: In review' })).toBeVisible({
    timeout: 30_000,
  })
  await page.getByRole('button', { name: 'Publish', exact: true }).tap()
  await expect(menu.getByRole('menuitem', { name: 'Publish now' })).toBeVisible()
  expect(await misfits(menu)).toEqual([])
  await page.context().close()
})

test('a reviewer reads an entry in the editor, and can neither type in it nor save it', async ({
  browser,
}) => {
  const page = await signedIn(browser, rita.email)
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages/entries/about`)
  const title = page.getByLabel('Title').first()
  await expect(title).toBeVisible({ timeout: 60_000 })
  await expect(page.getByRole('note').first()).toContainText('only authors change it')
  const before = await title.inputValue()
  await title.click()
  await page.keyboard.type(' typed by a reviewer')
  await expect(title).toHaveValue(before)
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeHidden()
  await page.context().close()
})

test('typing another entry’s address over an open entry opens that entry, as it is', async ({
  browser,
}) => {
  const page = await signedIn(browser, ada.email)
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages/entries/accessibility`)
  const title = page.getByLabel('Title').first()
  await expect(title).toHaveValue('Accessibility statement', { timeout: 60_000 })
  // Only the part after # changes, as when an address is typed over the open one.
  await page.evaluate(() => {
    location.hash = '#/collections/pages/entries/imprint'
  })
  await expect(title).toHaveValue('Imprint', { timeout: 60_000 })
  await expect(page.getByText('There’s been an error')).toHaveCount(0)
  await page.context().close()
})

test("the media library lists the site's images", async ({ browser }) => {
  const page = await signedIn(browser, ada.email)
  await openMediaLibrary(page)
  await expect(page.getByText('designing-idempotent-payment-apis.svg')).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.getByText('No assets found.')).toHaveCount(0)
  await page.context().close()
})

test('an image uploaded in the media library is shown as uploaded, a draft, and stays listed', async ({
  browser,
}) => {
  const page = await signedIn(browser, ada.email)
  await openMediaLibrary(page)
  await expect(page.getByText('designing-idempotent-payment-apis.svg')).toBeVisible({
    timeout: 30_000,
  })
  const uploaded = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/cms') &&
      response.request().postData()?.includes('"action":"persistMedia"') === true,
  )
  await page.locator('input[type="file"]').setInputFiles({
    name: 'branch-office.png',
    mimeType: 'image/png',
    buffer: await png('#2a6f97'),
  })
  expect((await uploaded).status()).toBe(200)
  await expect(page.getByText('branch-office.png', { exact: true })).toBeVisible()
  await expect(page.getByText(/Failed to persist media/)).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: /branch-office\.png/ })).toContainText(
    /draft/,
  )
  const draft = await service.drafts.get('media/branch-office.png')
  expect(draft?.adds).toEqual(['public/images/branch-office.png'])
  expect(draft?.status).toBe('pending_review')
  // Opened again, the library still lists it: it is in the person's draft.
  await openMediaLibrary(page)
  await expect(page.getByText('branch-office.png', { exact: true })).toBeVisible({
    timeout: 30_000,
  })
  await page.context().close()
})

test('deleting a published entry makes a draft that deletes it, shown as such, not as an error', async ({
  browser,
}) => {
  const page = await signedIn(browser, ada.email)
  await page.goto(
    `${CMS}/admin/?${Date.now()}#/collections/jobPosting/entries/working-student-data`,
  )
  const deleted = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/cms') &&
      response.request().postData()?.includes('"action":"deleteFiles"') === true,
    { timeout: 120_000 },
  )
  await page.getByRole('button', { name: 'Delete published entry' }).click({ timeout: 60_000 })
  expect((await deleted).status()).toBe(200)
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /Not deleted yet: every change goes through review/ }),
  ).toBeVisible()
  await expect(page.getByText(/Failed to delete entry/)).toHaveCount(0)
  const draft = await service.drafts.get('jobPosting/working-student-data')
  expect(draft?.deletes.length).toBeGreaterThan(0)
  expect(draft?.status).toBe('pending_review')
  expect(await refusalsOf(ada.email)).toHaveLength(1)
  await page.context().close()
})

test("a refusal reads as the service's own sentence, in German for a German editor", async ({
  browser,
}) => {
  const page = await signedIn(browser, greta.email)
  await openMediaLibrary(page)
  const refused = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/cms') &&
      response.request().postData()?.includes('"action":"persistMedia"') === true,
  )
  // No image: refused, saying so in German.
  await page.locator('input[type="file"]').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('not an image'),
  })
  expect((await refused).status()).toBe(400)
  await expect(page.getByText(/ist kein Bild, das die Website nimmt/)).toBeVisible()
  // Decap's own English beginning of a failed upload is put in her words too.
  await expect(
    page.getByText(/^Bild nicht hochgeladen: public\/images\/notes\.txt ist kein Bild/),
  ).toBeVisible()
  await expect(page.getByText(/API_ERROR|Failed to persist media/)).toHaveCount(0)
  await page.context().close()
})

test('a German editor meets German: content types, fields, the board as on Changes, a refused save', async ({
  browser,
}) => {
  const page = await signedIn(browser, greta.email)
  // The content types, by their German names only.
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages`)
  const sidebar = page.getByRole('navigation').first()
  for (const collection of CMS_COLLECTIONS) {
    await expect(page.getByRole('link', { name: collection.de.label, exact: true })).toBeVisible({
      timeout: 60_000,
    })
    await expect(sidebar.getByText(collection.label, { exact: true })).toHaveCount(0)
  }
  // An entry's fields by their German labels; a list's item named and spelt as German does.
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages/entries/about`)
  await expect(page.getByLabel(fieldLabel('title', 'de')).first()).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.getByText(/^\d+ Abschnitte?$/).first()).toBeVisible()
  await expect(page.getByText('Abschnitt hinzufügen').first()).toBeVisible()
  await expect(page.getByText(/^\d+ abschnitte?$|^abschnitt hinzufügen$/)).toHaveCount(0)
  // The board's columns, named as on the page of changes.
  await page.goto(`${CMS}/admin/?${Date.now()}#/workflow`)
  const { statuses } = MANAGE_TEXTS.de
  for (const status of [statuses.draft, statuses.pending_review, statuses.pending_publish]) {
    const name = status.charAt(0).toUpperCase() + status.slice(1)
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible({ timeout: 30_000 })
  }
  await expect(page.getByText('Abgeschlossen', { exact: true })).toHaveCount(0)
  // A save the content check refuses: said in German, the field by its German label, no
  // Decap name before it and "nicht gespeichert" once.
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/service/entries/cards`)
  const address = page.getByLabel(fieldLabel('slug', 'de')).first()
  await expect(address).toBeVisible({ timeout: 30_000 })
  const saved = page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/cms') &&
      response.request().postData()?.includes('"action":"persistEntry"') === true,
  )
  await address.fill('Keine Adresse!')
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  expect((await saved).status()).toBe(422)
  const toast = page.getByText(/^Nicht gespeichert: Diese Änderung würde Inhalte der Website/)
  await expect(toast).toBeVisible()
  await expect(toast).toContainText(
    'Feld „Adresse (Slug)“: Die Adresse der Seite (ihr Slug) darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten.',
  )
  await expect(toast).not.toContainText(/Nicht gespeichert:.*Nicht gespeichert:/)
  await expect(page.getByText(/API_ERROR|Failed to persist/)).toHaveCount(0)
  // None of the service's English phrases is on her page (its text, not its scripts: the
  // configuration names fields by their names). Single words are left out: the entry's English
  // twin is on the page too, in its own words.
  const phrases = englishTexts().filter((english) => english.includes(' '))
  expect(await englishShown(page, phrases)).toEqual([])
  await page.context().close()
})

test('axe finds nothing in the editor: a collection, an entry, the workflow board, on a desktop and a phone', async ({
  browser,
}) => {
  test.setTimeout(240_000)
  // A draft on the board, so that its card is read too.
  const path = 'content/en/pages/consumer-credit-faqs.yaml'
  const text = await readFile(join(ROOT, path), 'utf8')
  await service.drafts.save(
    ada,
    'pages/consumer-credit-faqs',
    [{ path, content: text.replace(/^title: .*$/m, 'title: Consumer credit, asked and answered') }],
    'A card on the board',
  )
  const findings: string[] = []
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 740 },
  ]) {
    const page = await signedIn(browser, ada.email, { viewport })
    for (const [view, ready] of [
      ['collections/pages', page.getByRole('link', { name: /About/ }).first()],
      ['collections/pages/entries/about', page.getByLabel('Title').first()],
      ['workflow', page.getByRole('heading', { name: /^Drafts/ }).first()],
    ] as const) {
      await page.goto(`${CMS}/admin/?${Date.now()}#/${view}`)
      await expect(ready).toBeVisible({ timeout: 60_000 })
      for (const finding of await axeViolations(page)) {
        findings.push(`${viewport.width} px, ${view}: ${finding}`)
      }
    }
    await page.context().close()
  }
  expect(findings).toEqual([])
})
