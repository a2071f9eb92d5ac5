/**
 * The one script a page names: it starts the page's code (`./entry.tsx` and the chunks the
 * page needs) once the page has been painted. Nothing of the code is needed to show the page,
 * which is complete HTML; fetched during the first paint, its 75 KB shared the connection with
 * the stylesheet and delayed the first paint on slow networks. The chunks are fetched side by
 * side (module preloads), so the code arrives as soon as if the page had named it.
 */
const script = document.querySelector<HTMLScriptElement>('script[data-entry]')

function start(): void {
  if (!script?.dataset.entry) return
  for (const href of (script.dataset.modules ?? '').split(' ')) {
    if (!href) continue
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    document.head.append(link)
  }
  import(/* @vite-ignore */ script.dataset.entry).catch((error: unknown) => {
    // Without its code the page stays as served: readable, with plain links and forms.
    console.error(error)
  })
}

/** The longest the code waits for the fonts: a slow font must not keep the page's code away. */
const FONT_WAIT_MS = 1000

// The page's text is painted once its font is there (`font-display: optional` holds it back a
// moment), often a frame or more after the first paint: the code waits for the fonts, then for
// two frames (the second begins once the first is on screen) and a task. Started at the first
// frame, its requests ran ahead of the largest paint on slow loads, which then waited for them.
// A page opened in a background tab is not painted until shown, and has nothing to wait for.
if (document.visibilityState === 'visible') {
  Promise.race([
    // Without the Font Loading API there is nothing to wait for.
    document.fonts?.ready,
    new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS)),
  ]).then(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(start))))
} else {
  start()
}
