/**
 * The bank's editors publish through Decap's own interface against `npm start`'s publishing
 * service: people sign in with passkeys (Chromium's virtual authenticator), an author saves a
 * draft and may not approve it, a reviewer approves, an edit voids the approval, a publisher
 * publishes and the public site shows the change, a rollback brings the earlier text back at
 * once, a change the build refuses leaves the live site as it was, and the trail holds every
 * step. The service works on its own repository, made from a "bank's repository" beside it that
 * a developer pushes to.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type Browser, expect, type Page, type Request, test } from '@playwright/test'
import { ROOT } from '../../../src/engine/config'
import type { GitRepository } from '../../../src/publishing/git/repository'
import { AUDIT_TEXTS } from '../../../src/publishing/pages/texts'
import { MAIN } from '../../../src/publishing/workflow/drafts'
import { seedBuildCache } from '../../support/build-cache'
import { englishTexts } from '../../support/english-texts'
import { freePorts } from '../../support/free-port'
import { DEVELOPER, siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'
import { axeViolations } from '../support/axe'
import { passkeyDevice, takeUpInvitation } from '../support/passkeys'
import { englishShown, scrollsSideways, setStatus } from '../support/publishing-screens'

/** The service's and the site's addresses: ports of their own in each run. */
let CMS = ''
let SITE = ''
/** The about page in the editor, loaded afresh (Decap keeps what it read while it runs). */
const about = () => `${CMS}/admin/?${Date.now()}#/collections/pages/entries/about`

let dir: string
let server: ChildProcess
let remote: GitRepository
let firstLink: string
/** Each person's own browser, once signed up. */
const people = {} as Record<'admin' | 'ada' | 'rita' | 'paul', Page>

test.describe.configure({ mode: 'serial' })
test.setTimeout(120_000)

test.beforeAll(async () => {
  test.setTimeout(300_000)
  dir = await temporaryFolder('publishing-e2e-')
  remote = await siteRepository(join(dir, 'bank.git'))
  let output = ''
  await seedBuildCache({ OUT_DIR: join(dir, 'dist'), BUILD_CACHE_DIR: join(dir, 'cache') })
  const [sitePort, cmsPort] = await freePorts(2)
  SITE = `http://localhost:${sitePort}`
  CMS = `http://localhost:${cmsPort}`
  server = spawn(process.execPath, ['scripts/run.mjs', 'start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(sitePort),
      CMS_PORT: String(cmsPort),
      DATA_DIR: join(dir, 'data'),
      OUT_DIR: join(dir, 'dist'),
      // The build's cache goes with the rest, not into the checkout's .cache/.
      BUILD_CACHE_DIR: join(dir, 'cache'),
      PUBLISHING_REMOTE: remote.gitDir,
      SCHEDULE_CHECK_SECONDS: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  server.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  for (let attempt = 0; attempt < 1200; attempt += 1) {
    const link = /(http:\/\/localhost:\d+\/invitation#[\w-]+)/.exec(output)?.[1]
    const up = await fetch(`${SITE}/en/`).then(
      (response) => response.ok,
      () => false,
    )
    if (link && up) {
      firstLink = link
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`npm start did not print the first administrator's link:\n${output}`)
})

test.afterAll(async () => {
  server?.kill('SIGTERM')
  await new Promise((resolve) => server?.once('exit', resolve))
  await removeFolder(dir)
})

/** A person's own browser (context) with a passkey authenticator, signed up by `link`. */
async function signUp(browser: Browser, link: string, name: string, email?: string) {
  const page = await passkeyDevice(browser)
  // Decap asks "are you sure?" before publishing: the person is.
  page.on('dialog', (dialog) => dialog.accept())
  await takeUpInvitation(page, link, { name, ...(email ? { email } : {}) })
  return page
}

/** An invitation link the administrator makes on the people page. */
async function invitation(email: string, roles: string[]): Promise<string> {
  const admin = people.admin
  await admin.goto(`${CMS}/people`)
  await admin.getByLabel('E-mail address').fill(email)
  const invite = admin.locator('form[data-action="/api/people/invite"]')
  for (const role of ['author', 'reviewer', 'publisher', 'administrator']) {
    await invite.getByLabel(role).setChecked(roles.includes(role))
  }
  await invite.getByRole('button', { name: 'Make an invitation link' }).click()
  // The link, how long it works, and a button that copies it.
  const status = admin.locator('#status')
  await expect(status).toContainText('/invitation#')
  await expect(status).toContainText('The link works once, until')
  await expect(status.getByRole('button', { name: 'Copy link' })).toBeVisible()
  return (await admin.locator('#invitation-link').textContent()) as string
}

async function openAbout(page: Page) {
  await page.goto(about())
  await expect(page.getByLabel('Title').first()).toBeVisible({ timeout: 30_000 })
}

async function saveTitle(page: Page, title: string) {
  await openAbout(page)
  await page.getByLabel('Title').first().fill(title)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Changes saved')).toBeVisible({ timeout: 30_000 })
}

const aboutTitle = async () => {
  const html = await (await fetch(`${SITE}/en/about/`)).text()
  return /<h1[^>]*>([^<]*)</.exec(html)?.[1] ?? ''
}

test('the first administrator signs up by the printed link and invites the team', async ({
  browser,
}) => {
  people.admin = await signUp(browser, firstLink, 'Anna Admin', 'anna@bank.example')
  people.ada = await signUp(browser, await invitation('ada@bank.example', ['author']), 'Ada Author')
  people.rita = await signUp(
    browser,
    await invitation('rita@bank.example', ['reviewer']),
    'Rita Reviewer',
  )
  people.paul = await signUp(
    browser,
    await invitation('paul@bank.example', ['publisher']),
    'Paul Publisher',
  )
  await people.admin.goto(`${CMS}/people`)
  await expect(people.admin.getByRole('heading', { name: /Paul Publisher/ })).toBeVisible()
})

test('the preview beside the editor shows a post with its images, served to signed-in people from the live site', async () => {
  const { ada } = people
  await ada.goto(
    `${CMS}/admin/?${Date.now()}#/collections/blogPost/entries/designing-idempotent-payment-apis`,
  )
  await expect(ada.getByLabel('Title').first()).toBeVisible({ timeout: 30_000 })
  const toggle = ada.locator('button[title="Toggle preview"]')
  await toggle.waitFor()
  if ((await ada.locator('iframe').count()) === 0) await toggle.click()
  const frame = ada.frameLocator('iframe')
  await expect(frame.locator('h1')).toHaveText('Designing idempotent payment APIs', {
    timeout: 30_000,
  })
  const cover = frame.locator('img[src*="/images/blog/designing-idempotent-payment-apis"]')
  await expect(cover).toHaveCount(1)
  // Every image of the preview loaded: the editor's origin serves the live site's images.
  await expect
    .poll(() =>
      frame
        .locator('img')
        .evaluateAll((images) =>
          (images as HTMLImageElement[])
            .filter((image) => !image.complete || image.naturalWidth === 0)
            .map((image) => image.getAttribute('src')),
        ),
    )
    .toEqual([])
  // Not to anyone else.
  expect((await fetch(`${CMS}/images/blog/designing-idempotent-payment-apis.svg`)).status).not.toBe(
    200,
  )
})

test('an author saves a draft and may not approve it; a reviewer approves; a publisher publishes', async () => {
  const { ada, rita, paul } = people
  await saveTitle(ada, 'About the bank of banks')
  expect(await aboutTitle()).not.toContain('bank of banks')
  // The draft as a whole site, for signed-in people, on the service's own address.
  await ada.goto(`${CMS}/preview/pages/about`)
  await expect(ada.locator('h1')).toHaveText('About the bank of banks', { timeout: 60_000 })
  await openAbout(ada)
  await setStatus(ada, 'Draft', 'In review')
  // The author is offered neither the approval nor a Publish button: "Ready" is shown
  // disabled, saying who may, and pressing it changes nothing and says nothing else.
  await ada.getByRole('button', { name: 'Status: In review' }).click()
  const ready = ada.getByRole('menuitem', { name: 'Ready' })
  await expect(ready).toHaveAttribute('aria-disabled', 'true')
  await expect(ready).toHaveAttribute('title', /Only a reviewer who wrote none of the draft/)
  // Pressed anyway, it sends nothing (so no message either, neither success nor refusal).
  const statusChanges: string[] = []
  const watch = (request: Request) => {
    if (request.url().endsWith('/api/cms') && request.postData()?.includes('pending_publish')) {
      statusChanges.push(request.postData() ?? '')
    }
  }
  ada.on('request', watch)
  await ready.click({ force: true })
  await expect(ada.getByRole('button', { name: 'Status: In review' })).toBeVisible()
  // Whatever the page does, the server refuses it, with the reason as the only message (sent
  // from the page after the click, so that a request of the click's would be seen first).
  const refused = await ada.evaluate(async () => {
    const response = await fetch('/api/cms', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'updateUnpublishedEntryStatus',
        params: { collection: 'pages', slug: 'about', newStatus: 'pending_publish', by: 'test' },
      }),
    })
    return { status: response.status, body: await response.json() }
  })
  ada.off('request', watch)
  expect(refused).toMatchObject({ status: 403, body: { error: expect.stringMatching(/reviewer/) } })
  expect(statusChanges.filter((body) => !body.includes('"by":"test"'))).toEqual([])
  await expect(ada.getByText(/Failed to update status|Status not changed/)).toHaveCount(0)
  await expect(ada.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0)

  await openAbout(rita)
  await setStatus(rita, 'In review', 'Ready')
  await expect(rita.getByRole('button', { name: 'Status: Ready' })).toBeVisible()
  // A reviewer who is no publisher is offered no Publish button either.
  await expect(rita.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0)

  await openAbout(paul)
  await paul.getByRole('button', { name: 'Publish', exact: true }).click()
  await paul.getByText('Publish now').click()
  await expect.poll(aboutTitle, { timeout: 30_000 }).toBe('About the bank of banks')
})

test('an edit after the approval returns the draft to Draft; published after a second review', async () => {
  const { ada, rita, paul } = people
  await saveTitle(ada, 'About us')
  await setStatus(ada, 'Draft', 'In review')
  await openAbout(rita)
  await setStatus(rita, 'In review', 'Ready')
  await saveTitle(ada, 'About us, revised')
  // The save returned it to Draft: nobody reviewed this version. The editor says so.
  await expect(ada.getByRole('status').filter({ hasText: 'returns it to Draft' })).toBeVisible()
  await openAbout(paul)
  await expect(paul.getByRole('button', { name: 'Status: Draft' })).toBeVisible()
  await openAbout(ada)
  await setStatus(ada, 'Draft', 'In review')
  await openAbout(rita)
  // The reviewer sees which version she is looking at.
  await expect(
    rita.getByRole('status').filter({
      hasText: /You are looking at version [0-9a-f]{7} of this draft, saved by Ada Author/,
    }),
  ).toBeVisible()
  await setStatus(rita, 'In review', 'Ready')
  await openAbout(paul)
  await paul.getByRole('button', { name: 'Publish', exact: true }).click()
  await paul.getByText('Publish now').click()
  await expect.poll(aboutTitle, { timeout: 30_000 }).toBe('About us, revised')
})

test('a reviewer reads the change field by field, in English and German, and approves only what she saw', async () => {
  test.setTimeout(240_000)
  const { ada, rita } = people
  await saveTitle(ada, 'About us, reviewed by field')
  await setStatus(ada, 'Draft', 'In review')
  await rita.goto(`${CMS}/changes`)
  const draft = rita.locator('ul.changes > li').filter({ hasText: 'pages/about' })
  const title = draft.locator('section.field-change').filter({
    has: rita.getByRole('heading', { name: 'Title (changed)' }),
  })
  // One field changed, and only it: the save did not show untouched fields as changed.
  await expect(draft.locator('section.field-change')).toHaveCount(1)
  await expect(title.locator('.before')).toContainText('Live now')
  await expect(title.locator('.before')).toContainText('About us,')
  await expect(title.locator('.before del')).toContainText('revised')
  await expect(title.locator('.after ins')).toContainText('reviewed by field')
  await expect(title.locator('.after ins')).toContainText('[added:')
  const version = (await draft.locator('.version').textContent()) ?? ''
  expect(version).toMatch(/^Version [0-9a-f]{7}, saved by Ada Author on /)
  expect(await axeViolations(rita)).toEqual([])
  // The author saves again while the reviewer reads: her approval is refused, saying so, and
  // one press shows the new version.
  await saveTitle(ada, 'About us, changed meanwhile')
  // Saved in review, the draft is back in Draft: the editor shows so after a reload.
  await openAbout(ada)
  await setStatus(ada, 'Draft', 'In review')
  await draft.getByRole('button', { name: 'Approve' }).click()
  await expect(rita.locator('#status')).toContainText(
    /This draft changed after you opened it: you saw version [0-9a-f]{7}, and Ada Author saved version [0-9a-f]{7}/,
  )
  await rita.locator('#status').getByRole('button', { name: 'Show the new version' }).click()
  await expect(title.locator('.after ins')).toContainText('changed meanwhile')
  await expect(draft.getByRole('heading', { level: 2 })).toContainText('in review')
  // In German: the same comparison, in her words.
  await rita.goto(`${CMS}/sign-in`)
  await rita.getByLabel('Language of the editor').selectOption('de')
  await rita.getByRole('button', { name: 'Use this language' }).click()
  await expect(rita.getByRole('button', { name: 'Diese Sprache verwenden' })).toBeVisible()
  await rita.goto(`${CMS}/changes`)
  const titel = draft.locator('section.field-change').filter({
    has: rita.getByRole('heading', { name: 'Titel (geändert)' }),
  })
  await expect(titel.locator('.before')).toContainText('Jetzt veröffentlicht')
  await expect(titel.locator('.after')).toContainText('In diesem Entwurf')
  await expect(titel.locator('.after ins')).toContainText('[hinzugefügt:')
  await expect(draft.locator('.version')).toContainText(/^Fassung [0-9a-f]{7}, gespeichert von/)
  expect(await axeViolations(rita)).toEqual([])
  await rita.goto(`${CMS}/sign-in`)
  await rita.getByLabel('Sprache des Editors').selectOption('en')
  await rita.getByRole('button', { name: 'Diese Sprache verwenden' }).click()
  await expect(rita.getByRole('button', { name: 'Use this language' })).toBeVisible()
  // The later scenarios start with no draft of the about page.
  await ada.goto(`${CMS}/changes`)
  await ada
    .locator('ul.changes > li')
    .filter({ hasText: 'pages/about' })
    .getByRole('button', { name: 'Discard' })
    .click()
  // Discarding asks first.
  await ada.getByRole('dialog').getByRole('button', { name: 'Yes, go ahead' }).click()
  await expect(ada.locator('ul.changes > li').filter({ hasText: 'pages/about' })).toHaveCount(0)
})

test('a publisher rolls back to the earlier release, at once', async () => {
  const { paul } = people
  await paul.goto(`${CMS}/releases`)
  // The live release first, marked, then the one before: each says what it changed, who
  // approved and who published it; only the earlier ones offer a rollback.
  const releases = paul.locator('ol.releases > li')
  await expect(releases.first()).toContainText('(live)')
  await expect(releases.first()).toContainText(
    'Published by Paul Publisher, approved by Rita Reviewer',
  )
  await expect(releases.first()).toContainText('content/en/pages/about.yaml')
  await expect(releases.first().getByRole('button')).toHaveCount(0)
  await expect(releases.nth(1)).not.toContainText('(live)')
  await expect(releases.nth(1)).toContainText('Published by Paul Publisher')
  // One step back a publisher may take alone, as an emergency, marked as such. It asks first:
  // Cancel (which has the focus) leaves the live site as it is.
  const rollBack = releases
    .nth(1)
    .getByRole('button', { name: 'Roll back to this release now (emergency)' })
  await rollBack.click()
  const question = paul.getByRole('dialog', { name: 'Are you sure?' })
  await expect(question).toContainText('Roll the live site back to the release of')
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await paul.keyboard.press('Enter')
  await expect(question).toBeHidden()
  expect(await aboutTitle()).toBe('About us, revised')
  await rollBack.click()
  await question.getByRole('button', { name: 'Yes, go ahead' }).click()
  await expect.poll(aboutTitle, { timeout: 10_000 }).toBe('About the bank of banks')
  // The page reloads itself once the answer comes (after the rollback is anchored in git): a
  // navigation of the test's own would race with it.
  await expect(releases.first()).toContainText('emergency rollback', { timeout: 15_000 })
})

test('a change the build refuses is not published, and the live site stays as it was', async () => {
  const { ada, rita, paul } = people
  // A developer pushes a page without its title to the bank's repository.
  const imprint = await readFile(join(ROOT, 'content/en/pages/imprint.yaml'), 'utf8')
  await remote.commit({
    ref: MAIN,
    parent: await remote.resolve(MAIN),
    changes: [
      {
        path: 'content/en/pages/imprint.yaml',
        content: imprint.replace(/^title: .*$/m, 'title: ""'),
      },
    ],
    author: DEVELOPER,
    message: 'Imprint without a title',
  })
  await saveTitle(ada, 'About, never live')
  await setStatus(ada, 'Draft', 'In review')
  await openAbout(rita)
  await setStatus(rita, 'In review', 'Ready')
  await openAbout(paul)
  await paul.getByRole('button', { name: 'Publish', exact: true }).click()
  await paul.getByText('Publish now').click()
  await expect(paul.getByText(/imprint\.yaml.*title/).first()).toBeVisible({ timeout: 30_000 })
  expect(await aboutTitle()).toBe('About the bank of banks')
})

test('a publisher schedules a publication; it fires when due; a schedule can be cancelled', async () => {
  const { ada, rita, paul } = people
  // The developer's broken imprint is mended in the bank's repository.
  await remote.commit({
    ref: MAIN,
    parent: await remote.resolve(MAIN),
    changes: [
      {
        path: 'content/en/pages/imprint.yaml',
        content: await readFile(join(ROOT, 'content/en/pages/imprint.yaml'), 'utf8'),
      },
    ],
    author: DEVELOPER,
    message: 'Imprint title back',
  })
  // The draft the build refused is still there, ready: the edit returns it to Draft, and its
  // author moves it to review again.
  await saveTitle(ada, 'About, on time')
  await openAbout(ada)
  await setStatus(ada, 'Draft', 'In review')
  await openAbout(rita)
  await setStatus(rita, 'In review', 'Ready')

  // Scheduled on the page, for later, and cancelled there.
  await paul.goto(`${CMS}/schedules`)
  await paul.getByLabel('Publish at (Berlin time)').fill('2030-01-02T09:30')
  await paul.getByRole('button', { name: 'Schedule' }).click()
  await expect(paul.getByText(/2 Jan 2030, 09:30:00 \(Berlin\), waiting/)).toBeVisible()
  // Scheduled, the draft is listed as such, with who set it, no longer as waiting for a time.
  await expect(paul.getByText('No draft is approved and waiting.')).toBeVisible()
  await expect(paul.getByText(/waiting, Paul Publisher/)).toBeVisible()
  await paul.getByRole('button', { name: 'Cancel' }).click()
  await expect(paul.getByText(/cancelled/)).toBeVisible()
  await expect(paul.getByLabel('Publish at (Berlin time)')).toBeVisible()

  // Scheduled a few seconds ahead (the form takes minutes; the service takes seconds too).
  const soon = new Date(Date.now() + 4000)
  const berlin = new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Berlin',
    dateStyle: 'short',
    timeStyle: 'medium',
  })
    .format(soon)
    .replace(' ', 'T')
  const scheduled = await paul.evaluate(async (at) => {
    const response = await fetch('/api/schedules', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ draft: 'pages/about', at }),
    })
    return response.status
  }, berlin)
  expect(scheduled).toBe(200)
  expect(await aboutTitle()).not.toBe('About, on time')
  await expect.poll(aboutTitle, { timeout: 30_000 }).toBe('About, on time')
  // The schedule records its outcome just after the release goes live.
  await expect
    .poll(
      async () => {
        await paul.goto(`${CMS}/schedules`)
        return paul.getByText(/published \(published as release/).count()
      },
      { timeout: 30_000 },
    )
    .toBe(1)
})

test('a deletion and an image from the media library wait for approval, and take effect when published', async () => {
  const { ada, rita, paul } = people
  const job = `${SITE}/en/careers/working-student-data/`
  // A job posting that is filled: "delete published entry" makes a draft, in review.
  await ada.goto(`${CMS}/admin/?${Date.now()}#/collections/jobPosting/entries/working-student-data`)
  await ada.getByRole('button', { name: 'Delete published entry' }).click()
  await expect(ada.getByText(/Not deleted yet: every change goes through review/)).toBeVisible({
    timeout: 30_000,
  })
  expect((await fetch(job)).status).toBe(200)

  // An image uploaded in the media library on its own.
  const { default: sharp } = await import('sharp')
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#2a6f97' } })
    .png()
    .toBuffer()
  await ada.goto(`${CMS}/admin/?${Date.now()}#/collections/jobPosting`)
  await ada.getByRole('button', { name: 'Media' }).click()
  await ada
    .locator('input[type="file"]')
    .setInputFiles({ name: 'branch-office.png', mimeType: 'image/png', buffer: png })
  await expect(ada.getByText(/Uploaded as a draft/)).toBeVisible({ timeout: 30_000 })
  expect((await fetch(`${SITE}/images/branch-office.png`)).status).toBe(404)

  // The reviewer sees both on the page of changes, the image itself too, and approves them.
  await rita.goto(`${CMS}/changes`)
  // A draft is named by its entry's title, its id below it.
  const deletion = rita.locator('li', {
    has: rita.getByRole('heading', {
      name: /^Working Student Data Analytics \(f\/m\/d\) \(deletion\)/,
    }),
  })
  await expect(deletion.locator('.draft-id')).toHaveText('jobPosting/working-student-data')
  const image = rita.locator('li', {
    has: rita.getByRole('heading', { name: /media\/branch-office\.png/ }),
  })
  const shown = image.getByRole('img', { name: /branch-office\.png/ })
  await expect(shown).toBeVisible()
  expect(await shown.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(64)
  // The page with changes on it, its forms and images, passes axe-core.
  expect(await axeViolations(rita)).toEqual([])
  for (const item of [deletion, image]) {
    await item.getByRole('button', { name: 'Approve' }).click()
    // Approved, the page reloads with it ready; refused, the page says why (shown if it fails).
    await expect
      .poll(
        async () =>
          /approved, ready/.test(
            (await item.getByRole('heading', { level: 2 }).textContent()) ?? '',
          )
            ? 'approved'
            : (await rita.locator('#status').textContent()) || 'approving',
        { timeout: 60_000 },
      )
      .toBe('approved')
  }

  // The publisher publishes each: the posting is gone from the site, the image is served.
  await paul.goto(`${CMS}/changes`)
  for (const name of [/Working Student Data Analytics/, /media\/branch-office\.png/]) {
    await paul
      .locator('li', { has: paul.getByRole('heading', { name }) })
      .getByRole('button', { name: 'Publish now' })
      .click()
    // Publishing asks first.
    await paul.getByRole('dialog').getByRole('button', { name: 'Yes, go ahead' }).click()
    // Published, the page reloads without it; refused, the page says why (shown if it fails).
    await expect
      .poll(
        async () =>
          (await paul.getByRole('heading', { name }).count()) === 0
            ? 'published'
            : (await paul.locator('#status').textContent()) || 'publishing',
        { timeout: 60_000 },
      )
      .toBe('published')
  }
  expect((await fetch(job)).status).toBe(404)
  const served = await fetch(`${SITE}/images/branch-office.png`)
  expect(served.status).toBe(200)
  expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true)
})

test('the administrator finds every step in the audit trail, its chain intact, in either language, and signs out', async () => {
  const { admin } = people
  await admin.goto(`${CMS}/audit`)
  await expect(admin.getByText(/The chain of \d+ entries is intact/)).toBeVisible()
  // Each action in the administrator's words, not the trail's codes.
  const actions = await admin.locator('tbody td[data-label="What"]').allTextContents()
  // At phone width the page does not scroll sideways: the table scrolls in its own region.
  await admin.setViewportSize({ width: 375, height: 800 })
  expect(await scrollsSideways(admin)).toBe(false)
  await expect(admin.getByRole('region', { name: 'Audit trail' })).toHaveAttribute('tabindex', '0')
  // The service's own pages pass axe-core, at phone width too.
  for (const path of [
    '/audit',
    '/people',
    '/releases',
    '/schedules',
    '/changes',
    '/sign-in',
    '/me/sign-in',
  ]) {
    await admin.goto(`${CMS}${path}`)
    expect(await axeViolations(admin), path).toEqual([])
    expect(await scrollsSideways(admin), path).toBe(false)
  }
  // And in German: the pages speak it, still fit and still pass.
  const english = englishTexts()
  expect(english.length).toBeGreaterThan(200)
  // The bar's other language, from any screen.
  await admin.getByRole('banner').getByRole('button', { name: 'Deutsch' }).click()
  await expect(admin.getByRole('banner').getByRole('button', { name: 'English' })).toBeVisible()
  await expect(admin.getByRole('heading', { level: 1 })).toHaveText('Ihre Anmeldung')
  for (const [path, heading] of [
    ['/changes', 'Änderungen'],
    ['/releases', 'Veröffentlichungen'],
    ['/schedules', 'Zeitpläne'],
    ['/people', 'Personen'],
    ['/audit', 'Prüfpfad'],
  ]) {
    await admin.goto(`${CMS}${path}`)
    await expect(admin.getByRole('heading', { level: 1 })).toHaveText(heading as string)
    await expect(admin.locator('html')).toHaveAttribute('lang', 'de')
    expect(await scrollsSideways(admin), path).toBe(false)
    expect(await axeViolations(admin), path).toEqual([])
    // No English on a German screen: none of the English sentences German words differently.
    // (The trail's recorded values are marked translate="no": a record is not translated.)
    expect(await englishShown(admin, english), path).toEqual([])
  }
  // Signing out from the start page ends the session: the service's pages ask to sign in
  // (in the browser's language now, English here, as no one is signed in).
  await admin.goto(`${CMS}/sign-in`)
  await admin.getByRole('banner').getByRole('button', { name: 'Abmelden' }).click()
  await expect(admin.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible()
  await admin.goto(`${CMS}/audit`)
  expect(new URL(admin.url()).pathname).toBe('/sign-in')
  for (const action of [
    'sign-in',
    'invite',
    'save',
    'submit',
    'refusal',
    'approve',
    'publish',
    'rollback',
    'publish-failed',
    'schedule',
    'schedule-cancel',
    'schedule-fired',
  ] as const) {
    expect(actions).toContain(AUDIT_TEXTS.en.actions[action])
  }
})
