/**
 * The visible answer to the privacy policy's opt-out links: a status region right after their
 * list, one line per opt-out ("LinkedIn Insight Tag is now deactivated in this browser."),
 * read out politely by screen readers. Below the list, so no link moves under the pointer.
 * Loaded on the first click of such a link, not with the page.
 */

/** The attribute marking the status region of a list of opt-out links. */
const STATUS = 'data-opt-out-status'

/** Adds `message` to the status region after the list holding `link`. */
export function showOptOutStatus(link: Element, message: string): void {
  const list = link.closest('ul, ol, p') ?? link
  let region = list.nextElementSibling
  if (!region?.hasAttribute(STATUS)) {
    region = document.createElement('p')
    region.setAttribute(STATUS, '')
    region.setAttribute('role', 'status')
    list.after(region)
  }
  const status = region
  // A live region announces what is added to it, not its first content: a moment later.
  setTimeout(() => {
    const line = document.createElement('span')
    line.textContent = message
    status.append(line)
  }, 100)
}
