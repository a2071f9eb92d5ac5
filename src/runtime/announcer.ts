/**
 * Tells screen-reader users that a client navigation finished, as a full load would:
 * "Navigated to" plus the page's title, in an `aria-live` region outside the React tree.
 */
import { ANNOUNCE_DELAY_MS, ANNOUNCER_ELEMENT_ID } from '../shared/constants'

/** What to announce: the document title, else the first heading, else the address. */
export function announcement(prefix: string, doc: Document = document): string {
  const name =
    doc.title.trim() || doc.querySelector('h1')?.textContent?.trim() || doc.location.pathname
  return `${prefix} ${name}`
}

export function announce(prefix: string, doc: Document = document): void {
  const region = doc.getElementById(ANNOUNCER_ELEMENT_ID)
  if (!region) return
  // Clearing first makes the same title announced again after navigating back and forth.
  region.textContent = ''
  window.setTimeout(() => {
    region.textContent = announcement(prefix, doc)
  }, ANNOUNCE_DELAY_MS)
}

/** Says a short message to screen-reader users (a copied link), in the same live region. */
export function say(message: string, doc: Document = document): void {
  const region = doc.getElementById(ANNOUNCER_ELEMENT_ID)
  if (!region) return
  region.textContent = ''
  window.setTimeout(() => {
    region.textContent = message
  }, ANNOUNCE_DELAY_MS)
}
