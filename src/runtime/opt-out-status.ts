/**
 * The visible answer to a privacy-policy opt-out link: a status line right after the link
 * ("LinkedIn Insight Tag is now deactivated in this browser."), read out politely by screen
 * readers. Loaded on the first click of such a link, not with the page.
 */

/** The attribute marking a status line, one per link. */
const STATUS = 'data-opt-out-status'

/** Shows `message` after `link`, in a live region that exists before its text arrives. */
export function showOptOutStatus(link: Element, message: string): void {
  let status = link.nextElementSibling
  if (!status?.hasAttribute(STATUS)) {
    status = document.createElement('span')
    status.setAttribute(STATUS, '')
    status.setAttribute('role', 'status')
    link.after(status)
  }
  const region = status
  // A live region announces changes, not its first content: fill it a moment after it exists.
  region.textContent = ''
  setTimeout(() => {
    region.textContent = message
  }, 100)
}
