/**
 * The editor's page in landmarks, as a screen reader moves through it: the service's bar is the
 * page's one banner, so Decap's own header is none (its Contents, Workflow and Media become a
 * navigation named "Editor"); what Decap draws is the page's main content, unless the view
 * brings a main of its own (a collection's list does, beside its sidebar); and the loading bar
 * a library draws at the top of the window (a canvas on the body) is hidden from them.
 */

/** Keeps the page's landmarks so, now and whenever Decap draws another view into `root`. */
export function mendLandmarks(root: HTMLElement, label = 'Editor'): MutationObserver {
  const mend = () => {
    for (const header of root.querySelectorAll('header:not([role])')) {
      header.setAttribute('role', 'none')
      const content = header.firstElementChild
      if (content && !content.hasAttribute('role')) {
        content.setAttribute('role', 'navigation')
        content.setAttribute('aria-label', label)
      }
    }
    const ownMain = root.querySelector('main, [role="main"]')
    if (ownMain && root.getAttribute('role') === 'main') root.removeAttribute('role')
    if (!ownMain && root.getAttribute('role') !== 'main') root.setAttribute('role', 'main')
    for (const bar of root.ownerDocument.querySelectorAll('body > canvas:not([aria-hidden])')) {
      bar.setAttribute('aria-hidden', 'true')
    }
  }
  mend()
  const observer = new MutationObserver(mend)
  observer.observe(root.ownerDocument.body, { childList: true, subtree: true })
  return observer
}
