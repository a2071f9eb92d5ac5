/**
 * Tells screen-reader users that a client navigation finished, as a full load would:
 * "Navigated to" plus the page's title, in an `aria-live` region outside the React tree.
 */
import { ANNOUNCE_DELAY_MS, ANNOUNCER_ELEMENT_ID } from '../../shared/constants'

/**
 * What to announce: the document title, else the first heading, else the address; with the
 * title's language where it is another than the page's.
 */
function announcedName(doc: Document): { name: string; lang?: string } {
  const title = doc.title.trim()
  if (title) {
    const lang = doc.querySelector('title')?.getAttribute('lang')
    return lang ? { name: title, lang } : { name: title }
  }
  return { name: doc.querySelector('h1')?.textContent?.trim() || doc.location.pathname }
}

export function announce(prefix: string, doc: Document = document): void {
  const region = doc.getElementById(ANNOUNCER_ELEMENT_ID)
  if (!region) return
  // Clearing first makes the same title announced again after navigating back and forth.
  region.textContent = ''
  window.setTimeout(() => {
    const { name, lang } = announcedName(doc)
    if (!lang) {
      region.textContent = `${prefix} ${name}`
      return
    }
    // A title in another language is spoken in that language (WCAG 3.1.2).
    const part = doc.createElement('span')
    part.lang = lang
    part.textContent = name
    region.replaceChildren(`${prefix} `, part)
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
