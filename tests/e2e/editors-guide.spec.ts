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
import type { FastifyInstance } from 'fastify'
import { ROOT } from '../../src/engine/config'
import { createPublishingApp } from '../../src/publishing/http/app'
import { firstAdministratorInvitation } from '../../src/publishing/people/people'
import type { PublishingService } from '../../src/publishing/service'
import { freePort } from '../support/free-port'
import { ada, paul } from '../support/people'
import { ABOUT, approvedDraft, openServiceWithStandInBuild } from '../support/publishing'
import { siteRepository } from '../support/site-repository'
import { removeFolder, temporaryFolder } from '../support/temporary-folder'
import { passkeyDevice, takeUpInvitation } from './support/passkeys'

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
let dir: string
let service: PublishingService
let app: FastifyInstance

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  const port = await freePort()
  CMS = `http://localhost:${port}`
  dir = await temporaryFolder('editors-guide-e2e-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  service = await openServiceWithStandInBuild({
    DATA_DIR: join(dir, 'data'),
    OUT_DIR: join(dir, 'dist'),
    CMS_PORT: String(port),
    CMS_URL: CMS,
    PUBLISHING_REMOTE: remote.gitDir,
  })
  app = await createPublishingApp(service, { logLevel: 'warn' })
  await app.listen({ port, host: '127.0.0.1' })
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
  await app?.close()
  await service?.close()
  if (dir) await removeFolder(dir)
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
