/**
 * The fade of content images (docs/design.md, "Images": 500 ms from the blurred preview).
 * Images marked `data-fade` get `data-loaded` when their file is in; the CSS fades them in from
 * then. Images already loaded when this starts are marked at once (no fade: they are on screen
 * already), and only then is the document marked, so no image ever goes invisible after it was
 * seen.
 */
export function startImageFade(root: Document = document): void {
  const mark = (image: HTMLImageElement) => image.setAttribute('data-loaded', '')
  // Load events do not bubble; a capturing listener sees every image, also those React adds
  // on later pages. A failed image is marked too, so its alternative text shows.
  const onDone = (event: Event) => {
    const target = event.target
    if (target instanceof HTMLImageElement && target.hasAttribute('data-fade')) mark(target)
  }
  root.addEventListener('load', onDone, true)
  root.addEventListener('error', onDone, true)
  for (const image of root.querySelectorAll<HTMLImageElement>('img[data-fade]')) {
    if (image.complete) mark(image)
  }
  root.documentElement.setAttribute('data-image-fade', '')
}
