import { type Browser, expect, type Page, test } from '@playwright/test'
import { firstAdministratorInvitation } from '../../../src/publishing/people/people'
import type { PublishingService } from '../../../src/publishing/service'
import { axeViolations } from '../support/axe'
import { passkeyDevice, takeUpInvitation } from '../support/passkeys'
import { type StandInService, startStandInService } from '../support/stand-in-service'

let CMS = ''
let running: StandInService | undefined
let service: PublishingService

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  running = await startStandInService('publishing-sign-in')
  CMS = running.url
  service = running.service
})

test.afterAll(async () => {
  await running?.close()
})

/** A device with a passkey authenticator; only who is signed in matters, so no editor code. */
async function device(browser: Browser): Promise<Page> {
  const page = await passkeyDevice(browser)
  await page.route('**/_publishing/editor/**', (route) => route.abort())
  return page
}

const takeUp = takeUpInvitation

const me = (page: Page) =>
  page.evaluate(async () => {
    const response = await fetch('/api/me')
    return response.ok ? ((await response.json()) as { email: string; roles: string[] }) : null
  })

test('a person with a lost passkey gets back in after an administrator’s reset, as the same person', async ({
  browser,
}) => {
  test.setTimeout(120_000)
  const first = await firstAdministratorInvitation(service.database, 'anna@bank.example')
  if (!first) throw new Error('no first administrator’s link')
  const admin = await device(browser)
  await takeUp(admin, `${CMS}/invitation#${first.token}`, {
    name: 'Anna Admin',
    email: 'anna@bank.example',
  })

  // Anna invites Ada, who signs up on her phone.
  await admin.goto(`${CMS}/people`)
  await admin.getByLabel('E-mail address').fill('ada@bank.example')
  const invite = admin.locator('form[data-action="/api/people/invite"]')
  // No role is ticked for her: the administrator chooses, and is told to.
  await invite.getByRole('button', { name: 'Make an invitation link' }).click()
  await expect(admin.locator('#status')).toHaveText('A person needs at least one role: tick one.')
  await invite.getByLabel('author').check()
  await invite.getByRole('button', { name: 'Make an invitation link' }).click()
  await expect(admin.locator('#status')).toContainText('/invitation#')
  // The form is empty again for the next person: Ada's role is not carried over to them.
  await expect(admin.getByLabel('E-mail address')).toHaveValue('')
  await expect(invite.getByLabel('author')).not.toBeChecked()
  const phone = await device(browser)
  await takeUp(phone, String(await admin.locator('#invitation-link').textContent()), {
    name: 'Ada Author',
  })

  // Ada's "Your sign-in": her passkey, named by keyboard; the page passes axe-core.
  await phone.goto(`${CMS}/me/sign-in`)
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText('Your sign-in')
  await expect(phone.getByRole('heading', { name: 'Passkey without a name' })).toBeVisible()
  await phone.getByLabel('New name').fill('Old phone')
  await phone.getByLabel('New name').press('Enter')
  await expect(phone.getByRole('heading', { name: 'Old phone' })).toBeVisible()
  expect(await axeViolations(phone)).toEqual([])

  // The phone is lost. Anna resets Ada's sign-in on /people, by keyboard.
  await admin.goto(`${CMS}/people`)
  expect(await axeViolations(admin)).toEqual([])
  const adaRow = admin.locator('li', { has: admin.getByRole('heading', { name: /Ada Author/ }) })
  await expect(adaRow).toContainText('1 passkey')
  await adaRow.getByRole('button', { name: 'Reset sign-in' }).focus()
  await admin.keyboard.press('Enter')
  await expect(admin.locator('#status')).toContainText('/invitation#')
  const link = String(await admin.locator('#invitation-link').textContent())

  // Whoever holds the old phone is signed out, and its passkey no longer signs in.
  expect(await me(phone)).toBeNull()
  await phone.goto(`${CMS}/sign-in`)
  await phone.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(phone.locator('#status')).toContainText('this passkey is not known here')

  // On her new phone Ada takes the link up: no name asked, she is who she was.
  const newPhone = await device(browser)
  await newPhone.goto(link)
  await expect(newPhone.getByText('An administrator has reset your sign-in')).toBeVisible()
  await expect(newPhone.getByLabel('Your name')).toBeHidden()
  expect(await axeViolations(newPhone)).toEqual([])
  await takeUp(newPhone, link)
  expect(await me(newPhone)).toMatchObject({ email: 'ada@bank.example', roles: ['author'] })

  // One Ada on /people, with her new passkey; the trail keeps her history under one address.
  await admin.goto(`${CMS}/people`)
  await expect(admin.getByRole('heading', { name: /Ada Author/ })).toHaveCount(1)
  await expect(adaRow).toContainText('1 passkey')
  const trail = (await (await admin.request.get(`${CMS}/audit.json`)).json()) as {
    actor: string
    action: string
    subject: string
    details: Record<string, unknown>
  }[]
  const of = (action: string) =>
    trail.filter((entry) => entry.action === action && entry.subject === 'ada@bank.example')
  expect(of('sign-in').length).toBe(2)
  expect(of('sign-in-reset')[0]?.actor).toBe('anna@bank.example')
  expect(of('passkey-rename')[0]?.actor).toBe('ada@bank.example')
  expect(JSON.stringify(of('passkey-add')[0]?.details)).toContain('reset link')
})
