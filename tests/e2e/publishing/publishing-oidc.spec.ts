/**
 * Sign-in to the publishing service through the bank's identity provider, clicked through in
 * Chromium: a real OpenID Connect provider (`oidc-provider` with its development login and
 * consent pages) and three people whose groups map to roles, and one whose groups do not. The
 * service runs in this process on a port of its own, with a stand-in build (publishing itself is
 * tested in publishing.spec.ts); the editor's code is not loaded, only who is signed in matters.
 */
import { join } from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import type { FastifyInstance } from 'fastify'
import { createPublishingApp } from '../../../src/publishing/http/app'
import type { PublishingService } from '../../../src/publishing/service'
import { freePort } from '../../support/free-port'
import {
  OIDC_ACCOUNTS,
  OIDC_CLIENT,
  OIDC_ROLE_MAP,
  startOidcProvider,
} from '../../support/oidc-provider'
import { openServiceWithStandInBuild } from '../../support/publishing'
import { siteRepository } from '../../support/site-repository'
import { removeFolder, temporaryFolder } from '../../support/temporary-folder'

/** The service's address: a port of its own in each run (`--repeat-each` runs them side by side). */
let CMS = ''

let dir: string
let provider: Awaited<ReturnType<typeof startOidcProvider>>
let service: PublishingService
let app: FastifyInstance

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  // The provider must know the service's address before the service can start.
  const port = await freePort()
  CMS = `http://localhost:${port}`
  provider = await startOidcProvider(CMS)
  const issuer = provider.issuer

  dir = await temporaryFolder('publishing-oidc-e2e-')
  const remote = await siteRepository(join(dir, 'bank.git'))
  const env = {
    DATA_DIR: join(dir, 'data'),
    OUT_DIR: join(dir, 'dist'),
    CMS_PORT: String(port),
    PUBLISHING_REMOTE: remote.gitDir,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_ROLE_MAP,
  }
  service = await openServiceWithStandInBuild(env)
  app = await createPublishingApp(service, { logLevel: 'warn' })
  await app.listen({ port, host: '127.0.0.1' })
})

test.afterAll(async () => {
  await app?.close()
  await service?.close()
  await provider?.close()
  if (dir) await removeFolder(dir)
})

/** Opens the service, takes the provider's button, and logs in there as `login`. */
async function signInAs(page: Page, login: string) {
  // Only who is signed in matters here: the editor's code stays unloaded.
  await page.route('**/_publishing/editor/**', (route) => route.abort())
  // The provider's development pages ask for a web font; nothing here goes elsewhere.
  await page.route(
    (url) => !['localhost', '127.0.0.1'].includes(url.hostname),
    (route) => route.abort(),
  )
  await page.goto(`${CMS}/`)
  await expect(page).toHaveURL(`${CMS}/sign-in`)
  await expect(page.getByRole('button', { name: /passkey/i })).toHaveCount(0)
  await page.getByRole('button', { name: 'Sign in with the bank’s account' }).click()
  // The provider's own pages: its login form, then its consent.
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  const consent = page.getByRole('button', { name: 'Continue' })
  await expect(consent.or(page.locator('#provider-return'))).toBeVisible()
  if (await consent.isVisible()) await consent.click()
}

const me = (page: Page) =>
  page.evaluate(async () => {
    const response = await fetch('/api/me')
    return response.ok ? ((await response.json()) as { email: string; roles: string[] }) : null
  })

test('three people sign in through the bank’s provider, each with the roles their groups map to', async ({
  browser,
}) => {
  // The first sign-in lands on the editor's page, which waits for the editor's code to be
  // bundled for this version of the code (a fresh DATA_DIR): seconds, more on a busy machine.
  test.setTimeout(120_000)
  for (const [login, roles] of [
    ['ada', ['author']],
    ['rita', ['reviewer']],
    ['paul', ['publisher', 'administrator']],
  ] as const) {
    const context = await browser.newContext({ locale: 'en-GB' })
    const page = await context.newPage()
    await signInAs(page, login)
    await page.waitForURL(`${CMS}/admin/**`)
    expect(await me(page)).toMatchObject({ email: OIDC_ACCOUNTS[login]?.email, roles })
    // The session cookie is the service's own, out of reach of scripts.
    const [session] = (await context.cookies(CMS)).filter((cookie) =>
      cookie.name.startsWith('__Host-publishing-session'),
    )
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' })
    await context.close()
  }
})

test('someone whose groups map to no role is told so, and is not signed in', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'en-GB' })
  const page = await context.newPage()
  await signInAs(page, 'mallory')
  await expect(page.getByText(/your account has no role in the publishing service/)).toBeVisible()
  expect(await me(page)).toBeNull()
  await context.close()
})
