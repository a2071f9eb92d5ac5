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

// A frame, then a task: the first paint has happened. A page opened in a background tab is
// not painted until shown, and has nothing to wait for.
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start))
else start()
