/**
 * A browser that signs in as a person would: a context of its own with Chromium's virtual
 * passkey authenticator (a device that always says yes), and the taking up of an invitation
 * link on it. Shared by the browser tests that sign in to the publishing service.
 */
import type { Browser, Page } from '@playwright/test'
import { PAGE_TEXTS } from '../../../src/publishing/pages/texts'
import type { EditorLanguage } from '../../../src/publishing/people/roles'

/** A browser of its own with a passkey authenticator: its page. */
export async function passkeyDevice(
  browser: Browser,
  options: { locale?: string; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-GB',
    ...(options.viewport ? { viewport: options.viewport } : {}),
  })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return page
}

/**
 * Makes a passkey on `page` by an invitation (or reset) `link`, on the page in `language` (the
 * browser's), and waits until the service sends the new person on (to the editor).
 */
export async function takeUpInvitation(
  page: Page,
  link: string,
  fill?: { name: string; email?: string },
  language: EditorLanguage = 'en',
): Promise<void> {
  const t = PAGE_TEXTS[language]
  await page.goto(link)
  if (fill) {
    await page.getByLabel(t.name).fill(fill.name)
    if (fill.email) await page.getByLabel(t.email).fill(fill.email)
  }
  await page.getByRole('button', { name: t.createPasskey }).click()
  await page.waitForURL((url) => url.pathname.startsWith('/admin/'))
}
