/**
 * Decap keeps the open entry's form when the address changes straight to another entry (typed
 * into the address bar, or a link followed from a comment): testers saw the first entry's
 * title and description under the second entry's address, and once Decap's own error page.
 * Decap's router does not go from one entry to another itself (it goes through a list, or from
 * `new` to the saved entry), so such a change is always the person's: the page loads afresh at
 * the new address, and the editor opens that entry as it is.
 */

/** An entry's address in the editor: `#/collections/<collection>/entries/<slug>`. */
const ENTRY = /^#\/collections\/([^/?]+)\/entries\/([^?]+)/

const entryOf = (url: string): string | undefined => {
  const match = ENTRY.exec(new URL(url).hash)
  return match ? `${match[1]}/${match[2]}` : undefined
}

/** Reloads `win` when its address moves from one entry straight to another. */
export function reloadBetweenEntries(win: Window): () => void {
  const moved = (event: HashChangeEvent) => {
    const from = entryOf(event.oldURL)
    const to = entryOf(event.newURL)
    if (from && to && from !== to) win.location.reload()
  }
  win.addEventListener('hashchange', moved)
  return () => win.removeEventListener('hashchange', moved)
}
