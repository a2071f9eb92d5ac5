/**
 * The "copy link" under each FAQ answer: copies the address of that answer and says so to
 * screen readers. Without script (or where the clipboard is refused) it is a plain link to the
 * answer, whose address the browser then shows.
 */
import { say } from '../navigation/announcer'

export function startCopyLinks(copied: () => string): void {
  // Before the router (which listens without capture): a copy is no navigation.
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.('a[data-copy-link]')
      if (!(link instanceof HTMLAnchorElement)) return
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey)
        return
      event.preventDefault()
      const address = link.href
      const follow = () => {
        window.location.hash = new URL(address).hash
      }
      if (!navigator.clipboard) {
        follow()
        return
      }
      navigator.clipboard.writeText(address).then(() => say(copied()), follow)
    },
    true,
  )
}
