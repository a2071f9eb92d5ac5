/** Renders the cookie banner in a root of its own, outside the page's React tree. */
import { createRoot } from 'react-dom/client'
import { ConsentBanner, type ConsentBannerProps } from '.'

/** Shows the banner; returns the function that removes it. */
export function mountBanner(props: ConsentBannerProps): () => void {
  const container = document.createElement('div')
  container.setAttribute('data-consent-root', '')
  document.body.append(container)
  const root = createRoot(container)
  root.render(<ConsentBanner {...props} />)
  return () => {
    root.unmount()
    container.remove()
  }
}
