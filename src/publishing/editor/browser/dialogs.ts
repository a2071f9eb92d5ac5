/**
 * What Decap's dialogs lack for a screen reader, added as Decap draws them: its modal (the media
 * library) opens as a `role="dialog"` without a name, and the library's pictures have no text
 * alternative, not even an empty one. The dialog is named by its own heading ("Media",
 * "Medien"); each picture is marked as decoration, since the file's name is written beside it.
 */

/** The heading a dialog is named by: the first one in it. */
const HEADING = 'h1, h2, h3, [role="heading"]'

let headings = 0

/** Names every unnamed dialog by its heading and gives its pictures their (empty) alternative. */
function mend(root: ParentNode) {
  for (const dialog of root.querySelectorAll<HTMLElement>('[role="dialog"]')) {
    if (!dialog.hasAttribute('aria-label') && !dialog.hasAttribute('aria-labelledby')) {
      const heading = dialog.querySelector<HTMLElement>(HEADING)
      if (heading) {
        heading.id ||= `dialog-heading-${++headings}`
        dialog.setAttribute('aria-labelledby', heading.id)
      }
    }
    for (const picture of dialog.querySelectorAll('img:not([alt])')) picture.setAttribute('alt', '')
  }
}

/** Mends Decap's dialogs under `root` now and whenever Decap draws one. */
export function mendDialogs(root: HTMLElement): MutationObserver {
  mend(root)
  const observer = new MutationObserver(() => mend(root))
  observer.observe(root, { childList: true, subtree: true })
  return observer
}
