/**
 * The screenshots of the editors' guide (`docs/editors/en.md`, `de.md`), made from the real
 * screens in both languages: the sign-in page, Changes with a draft in review, Releases with a
 * publication, Schedules, People, the audit trail and "Your sign-in", at 1280 px, and Changes
 * and Releases at 375 px too. They are written to `docs/editors/images/` on every run, so they
 * change when the screens do; the test then checks that every image each guide shows is one
 * it made. The service runs in this process with a stand-in build, as in
 * publishing-sign-in.spec.ts.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { ROOT } from '../../../src/engine/config'
import { firstAdministratorInvitation } from '../../../src/publishing/people/people'
import type { PublishingService } from '../../../src/publishing/service'
import { ada, paul } from '../../support/people'
import { ABOUT, approvedDraft } from '../../support/publishing'
import { passkeyDevice, takeUpInvitation } from '../support/passkeys'
import { type StandInService, startStandInService } from '../support/stand-in-service'

const IMAGES = join(ROOT, 'docs', 'editors', 'images')
/** The screens shown, by the name of their image, and where they are. */
const SCREENS = {
  changes: '/changes',
  releases: '/releases',
  schedules: '/schedules',
  people: '/people',
  audit: '/audit',
  'your-sign-in': '/me/sign-in',
} as const
/** The screens shown on a phone too. */
const ON_A_PHONE = ['changes', 'releases'] as const

let CMS = ''
let running: StandInService | undefined
let service: PublishingService

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  running = await startStandInService('editors-guide')
  CMS = running.url
  service = running.service
  // One publication on Releases, and one draft in review on Changes.
  await approvedDraft(service.drafts, 'About the bank of banks')
  await service.publisher.publish(paul, 'pages/about')
  const text = (await readFile(join(ROOT, ABOUT), 'utf8')).replace(
    /^title: .*$/m,
    'title: About us, revised',
  )
  await service.drafts.save(ada, 'pages/about', [{ path: ABOUT, content: text }], 'About us')
  await service.drafts.setStatus(ada, 'pages/about', 'pending_review')
})

test.afterAll(async () => {
  await running?.close()
})

const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(IMAGES, `${name}.png`), fullPage: true, animations: 'disabled' })

test('makes the guide’s screenshots from the real screens, in English and German', async ({
  browser,
}) => {
  test.setTimeout(180_000)
  // Before signing in: the sign-in page, in each language the browser asks for.
  for (const [language, locale] of [
    ['en', 'en-GB'],
    ['de', 'de-DE'],
  ] as const) {
    const visitor = await passkeyDevice(browser, { locale, viewport: { width: 1280, height: 800 } })
    await visitor.goto(`${CMS}/sign-in`)
    await expect(visitor.locator('html')).toHaveAttribute('lang', language)
    await shot(visitor, `${language}-sign-in-1280`)
    await visitor.context().close()
  }

  const first = await firstAdministratorInvitation(service.database, 'anna@bank.example')
  if (!first) throw new Error('no first administrator’s link')
  const admin = await passkeyDevice(browser, { viewport: { width: 1280, height: 800 } })
  // The editor's own code is not shown here: only the service's screens.
  await admin.route('**/_publishing/editor/**', (route) => route.abort())
  await takeUpInvitation(admin, `${CMS}/invitation#${first.token}`, {
    name: 'Anna Admin',
    email: 'anna@bank.example',
  })
  for (const language of ['en', 'de'] as const) {
    if (language === 'de') {
      await admin.goto(`${CMS}/changes`)
      await admin.getByRole('banner').getByRole('button', { name: 'Deutsch' }).click()
      await expect(admin.locator('html')).toHaveAttribute('lang', 'de')
    }
    for (const [name, path] of Object.entries(SCREENS)) {
      await admin.setViewportSize({ width: 1280, height: 800 })
      await admin.goto(`${CMS}${path}`)
      await expect(admin.locator('html')).toHaveAttribute('lang', language)
      await shot(admin, `${language}-${name}-1280`)
      if ((ON_A_PHONE as readonly string[]).includes(name)) {
        await admin.setViewportSize({ width: 375, height: 800 })
        await shot(admin, `${language}-${name}-375`)
      }
    }
  }

  // Every image a guide shows is one made here, of its own language.
  for (const language of ['en', 'de'] as const) {
    const guide = await readFile(join(ROOT, 'docs', 'editors', `${language}.md`), 'utf8')
    const shown = [...guide.matchAll(/!\[[^\]]*\]\(images\/([^)]+)\.png\)/g)].map(
      (match) => match[1] ?? '',
    )
    expect(shown.length).toBeGreaterThanOrEqual(4)
    const made = [
      `${language}-sign-in-1280`,
      ...Object.keys(SCREENS).map((name) => `${language}-${name}-1280`),
      ...ON_A_PHONE.map((name) => `${language}-${name}-375`),
    ]
    expect(shown.filter((name) => !made.includes(name))).toEqual([])
  }
})
