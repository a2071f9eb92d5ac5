/**
 * The four-eyes workflow walked in German, through the screens, by four German-speaking people
 * (language `de`, browsers in `de-DE`): the administrator invites the team on Personen, each
 * takes up the invitation with a passkey on the German invitation page; the author changes the
 * German title of the about page in the editor and moves it to review by the German status
 * menu; the reviewer reads the change field by field on Änderungen and approves what she saw;
 * the publisher publishes it there, confirming the question, and finds the release on
 * Veröffentlichungen with who approved it. Every German screen says `lang="de"`, passes axe-core,
 * fits the window and shows none of the service's English sentences. The service runs with a
 * stand-in build (publishing with the real one is publishing.spec.ts's, in English).
 */
import { type Browser, expect, type Page, test } from '@playwright/test'
import { fieldLabel } from '../../../src/cms/field-labels'
import { WORKFLOW_WORDS } from '../../../src/publishing/editor/browser/locale'
import { REVIEW_TEXTS } from '../../../src/publishing/pages/review'
import { BAR_TEXTS, MANAGE_TEXTS, PAGE_TEXTS } from '../../../src/publishing/pages/texts'
import { ROLES, type Role } from '../../../src/publishing/people/roles'
import { ROLE_NAMES } from '../../../src/publishing/workflow/four-eyes'
import { EDITOR_TABLES, englishTexts } from '../../support/english-texts'
import { addPeople } from '../../support/people'
import { axeViolations } from '../support/axe'
import { passkeyDevice, takeUpInvitation } from '../support/passkeys'
import { englishShown, scrollsSideways, setStatus, signedIn } from '../support/publishing-screens'
import { type StandInService, startStandInService } from '../support/stand-in-service'

const t = MANAGE_TEXTS.de
const bar = BAR_TEXTS.de
const review = REVIEW_TEXTS.de
const roleNames = ROLE_NAMES.de
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 375, height: 740 }

/** The team: the administrator is there from the start, the others are invited. */
const anna = { email: 'anna@bank.example', name: 'Anna Adler' }
const team = {
  greta: { email: 'greta@bank.example', name: 'Greta Graf', roles: ['author'] as Role[] },
  renate: { email: 'renate@bank.example', name: 'Renate Roth', roles: ['reviewer'] as Role[] },
  paul: { email: 'paul@bank.example', name: 'Paul Peters', roles: ['publisher'] as Role[] },
}
type Member = keyof typeof team

/** The German about page's title, as the author changes it. */
const TITLE = 'Über die Lumora Bank in Berlin'
const DRAFT = 'pages/about'

let running: StandInService | undefined
let CMS = ''
/** Each person's own browser. */
const people = {} as Record<'anna' | Member, Page>

test.describe.configure({ mode: 'serial' })
test.setTimeout(120_000)

test.beforeAll(async () => {
  test.setTimeout(300_000)
  running = await startStandInService('publishing-german', { bundleEditor: true })
  CMS = running.url
  await addPeople(running.service.database, [{ ...anna, roles: ['administrator'], language: 'de' }])
})

test.afterAll(async () => {
  await running?.close()
})

/**
 * What every German screen must be: German by its `lang`, without English sentences of the
 * service's, without axe-core's findings, and no wider than the window.
 */
async function isGermanScreen(page: Page, name: string) {
  await expect(page.locator('html'), name).toHaveAttribute('lang', 'de')
  expect(await englishShown(page), name).toEqual([])
  expect(await axeViolations(page), name).toEqual([])
  expect(await scrollsSideways(page), name).toBe(false)
}

/** The invitation link the administrator makes on Personen for `email`, with `roles` only. */
async function invite(page: Page, email: string, roles: readonly Role[]): Promise<string> {
  await page.goto(`${CMS}/people`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.people)
  const form = page.locator('form[data-action="/api/people/invite"]')
  await form.getByLabel(t.email).fill(email)
  // Every role set as wanted, whichever the form ticks to begin with.
  for (const role of ROLES) {
    await form.getByLabel(roleNames[role], { exact: true }).setChecked(roles.includes(role))
  }
  await form.getByRole('button', { name: t.sendInvitation }).click()
  // The link, how long it works (a German date, Berlin time), and a German button to copy it.
  const status = page.getByRole('status')
  await expect(status).toContainText('/invitation#')
  await expect(status).toContainText(
    /Der Link gilt einmal, bis \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} \(Berliner Zeit\)\./,
  )
  const link = (await page.locator('#invitation-link').textContent()) ?? ''
  const copy = status.getByRole('button', { name: t.copyLink })
  await copy.click()
  await expect(status.getByRole('button', { name: t.linkCopied })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
  await isGermanScreen(page, `${t.people} (${email})`)
  return link
}

/** A German person's own browser with a passkey, signed up by `link` on the German page. */
async function signUp(browser: Browser, link: string, name: string): Promise<Page> {
  const page = await passkeyDevice(browser, { locale: 'de-DE', viewport: DESKTOP })
  page.on('dialog', (dialog) => dialog.accept())
  await page.goto(link)
  const words = PAGE_TEXTS.de
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.invitationTitle)
  // German is the choice the page offers a German browser.
  await expect(page.getByLabel(words.language)).toHaveValue('de')
  await isGermanScreen(page, words.invitationTitle)
  await takeUpInvitation(page, link, { name }, 'de')
  return page
}

/** The about page's draft on Änderungen. */
const draftOn = (page: Page) =>
  page.locator('ul.changes > li').filter({ has: page.getByText(DRAFT, { exact: true }) })

test('the German administrator invites the team on Personen; each signs up in German', async ({
  browser,
}) => {
  if (!running) throw new Error('the service did not start')
  const admin = await signedIn(browser, running.service, anna.email, {
    locale: 'de-DE',
    viewport: DESKTOP,
  })
  await admin.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: CMS })
  people.anna = admin
  for (const [key, member] of Object.entries(team) as [Member, (typeof team)[Member]][]) {
    const link = await invite(admin, member.email, member.roles)
    people[key] = await signUp(browser, link, member.name)
  }
  // Each is listed by name with their roles, in German.
  await admin.goto(`${CMS}/people`)
  for (const member of Object.values(team)) {
    const item = admin.locator('li.person').filter({
      has: admin.getByRole('heading', { name: new RegExp(member.name) }),
    })
    await expect(item).toContainText(
      `${t.hasRoles}: ${member.roles.map((role) => roleNames[role]).join(', ')}`,
    )
  }
  await isGermanScreen(admin, t.people)
})

test('the German author changes the German title and moves it to review by the German menu', async () => {
  const page = people.greta
  await page.goto(`${CMS}/admin/?${Date.now()}#/collections/pages/entries/about`)
  // The entry's German twin is the second form, below "Sprache: DE".
  const german = page.locator('input[id^="title-field"]').nth(1)
  await expect(german).toHaveValue('Über die Lumora Bank', { timeout: 60_000 })
  await german.fill(TITLE)
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  await expect(page.getByText('Änderungen gespeichert')).toBeVisible({ timeout: 30_000 })
  const { draft, inReview } = WORKFLOW_WORDS.de
  await setStatus(page, draft, inReview)
  await expect(page.getByRole('navigation', { name: bar.navigation })).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  // Neither the service's English nor the editor's own (ours over Decap's): the English twin
  // of the entry is on the page too, in its own words, so single words do not count.
  const english = [...englishTexts(), ...englishTexts(EDITOR_TABLES)]
  const phrases = english.filter((text) => text.includes(' '))
  expect(await englishShown(page, phrases)).toEqual([])
  // Decap's editor too, with its notice of the save and the draft's status button shown.
  expect(await axeViolations(page)).toEqual([])
  expect(await scrollsSideways(page)).toBe(false)
})

test('the German reviewer reads the change field by field on Änderungen and approves it', async () => {
  const page = people.renate
  await page.goto(`${CMS}/changes`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.changes)
  const item = draftOn(page)
  await expect(item.getByRole('heading', { level: 2 })).toContainText(t.statuses.pending_review)
  const title = item.locator('section.field-change').filter({
    has: page.getByRole('heading', { name: `${fieldLabel('title', 'de')} (${review.changed})` }),
  })
  await expect(item.locator('section.field-change')).toHaveCount(1)
  await expect(title.locator('.before')).toContainText(review.before)
  await expect(title.locator('.before')).toContainText('Über die Lumora Bank')
  await expect(title.locator('.after')).toContainText(review.after)
  await expect(title.locator('.after ins')).toContainText('in Berlin')
  await expect(title.locator('.after ins')).toContainText(`[${review.addedWords}`)
  await expect(item.locator('.version')).toContainText(
    new RegExp(`^Fassung [0-9a-f]{7}, gespeichert von ${team.greta.name} am `),
  )
  await expect(item).toContainText(`${t.by} ${team.greta.name}; ${t.submittedBy(team.greta.name)}`)
  await isGermanScreen(page, t.changes)
  // On a phone, the same screen in German fits and passes too.
  await page.setViewportSize(PHONE)
  await page.reload()
  await expect(title.locator('.after ins')).toContainText('in Berlin')
  await isGermanScreen(page, `${t.changes} (375 px)`)
  await page.setViewportSize(DESKTOP)
  await page.reload()
  // The connection drops as she approves: the screen says so in German, and nothing changed.
  await page.route('**/api/changes/approve', (route) => route.abort('internetdisconnected'))
  await item.getByRole('button', { name: t.approve }).click()
  await expect(page.getByRole('status')).toHaveText(bar.noAnswer)
  await expect(item.getByRole('heading', { level: 2 })).toContainText(t.statuses.pending_review)
  await page.unroute('**/api/changes/approve')
  await item.getByRole('button', { name: t.approve }).click()
  await expect(item.getByRole('heading', { level: 2 })).toContainText(t.statuses.pending_publish, {
    timeout: 30_000,
  })
  await expect(item).toContainText(`${t.approvedBy} ${team.renate.name}`)
  await isGermanScreen(page, t.changes)
})

test('the German publisher publishes from Änderungen, confirming, and finds the release', async () => {
  const page = people.paul
  await page.goto(`${CMS}/changes`)
  const item = draftOn(page)
  await expect(item.getByRole('heading', { level: 2 })).toContainText(t.statuses.pending_publish)
  await isGermanScreen(page, t.changes)
  await item.getByRole('button', { name: t.publishNow }).click()
  const question = page.getByRole('dialog', { name: bar.confirmTitle })
  await expect(question).toContainText(t.publishConfirm)
  await expect(question.getByRole('button', { name: bar.confirmNo })).toBeFocused()
  await isGermanScreen(page, `${t.changes}: ${bar.confirmTitle}`)
  await question.getByRole('button', { name: bar.confirmYes }).click()
  // Published, the page reloads without it; refused, it says why (shown if this fails).
  await expect
    .poll(
      async () =>
        (await draftOn(page).count()) === 0
          ? 'published'
          : (await page.getByRole('status').textContent()) || 'publishing',
      { timeout: 60_000 },
    )
    .toBe('published')
  await expect(page.getByText(t.noChanges)).toBeVisible()
  await page
    .getByRole('navigation', { name: bar.navigation })
    .getByRole('link', {
      name: bar.releases,
    })
    .click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.releases)
  const live = page.locator('ol.releases > li').first()
  await expect(live).toContainText(`(${t.live})`)
  await expect(live).toContainText(
    t.releaseBy(
      t.releaseKinds.publish,
      `${team.paul.name}, ${t.releaseApproved(team.renate.name)}`,
    ),
  )
  await expect(live).toContainText('content/de/pages/about.yaml')
  await isGermanScreen(page, t.releases)
})
