/**
 * What the browser tests of the publishing service do on its screens again and again: a person's
 * own browser signed in by a session of the service's, a draft moved between Decap's columns,
 * and what a screen must not do in German (show English) or at any width (scroll sideways).
 * Shared by the English and the German walks.
 */
import { type Browser, type BrowserContextOptions, expect, type Page } from '@playwright/test'
import { SESSION_COOKIE } from '../../../src/publishing/http/app'
import { startSession } from '../../../src/publishing/people/people'
import type { PublishingService } from '../../../src/publishing/service'
import { englishTexts } from '../../support/english-texts'

/**
 * A browser (context) of the person's own, signed in as `email` by a session the service
 * started: for people the test added directly, without a passkey.
 */
export async function signedIn(
  browser: Browser,
  service: PublishingService,
  email: string,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', ...options })
  const { token } = await startSession(service.database, email)
  // The service's cookie is a `__Host-` one: secure (localhost counts as such), on `/`.
  await context.addCookies([
    { name: SESSION_COOKIE, value: token, domain: 'localhost', path: '/', secure: true },
  ])
  const page = await context.newPage()
  // Decap asks "are you sure?" before a deletion: the person is.
  page.on('dialog', (dialog) => dialog.accept())
  return page
}

/**
 * Moves the entry open in the editor between Decap's columns by its status menu (`from` and
 * `to` as the menu names them); waits for the new status unless the change is `refused`.
 */
export async function setStatus(page: Page, from: string, to: string, refused = false) {
  const label = (status: string) => page.getByRole('button', { name: `Status: ${status}` })
  await label(from).click()
  await page.getByRole('menuitem', { name: to }).click()
  if (!refused) await expect(label(to)).toBeVisible()
}

/**
 * The English sentences of the service's screens (`englishTexts`) that the page shows: on a
 * German screen, each is English left there. Only what is read counts: not scripts or styles,
 * nor what the service marks `translate="no"` (a recorded value, which is not translated).
 */
export async function englishShown(
  page: Page,
  english: readonly string[] = englishTexts(),
): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const copy = document.body.cloneNode(true) as HTMLElement
    for (const unread of copy.querySelectorAll('[translate="no"], script, style')) unread.remove()
    return copy.textContent ?? ''
  })
  return english.filter((text) => shown.includes(text))
}

/** Whether the page is wider than the window: whether a reader has to scroll sideways. */
export const scrollsSideways = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
