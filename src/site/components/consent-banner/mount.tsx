/** Renders the cookie banner in a root of its own, outside the page's React tree. */
import { createRoot } from 'react-dom/client'
import { ConsentBanner } from '.'
import type { ConsentBannerProps } from './layer'

export interface MountedBanner {
  /** Renders the banner again with new props (its layer and switches stay as they are). */
  render(props: ConsentBannerProps): void
  remove(): void
}

/** Shows the banner. */
export function mountBanner(props: ConsentBannerProps): MountedBanner {
  const container = document.createElement('div')
  container.setAttribute('data-consent-root', '')
  document.body.append(container)
  const root = createRoot(container)
  root.render(<ConsentBanner {...props} />)
  return {
    render: (next) => root.render(<ConsentBanner {...next} />),
    remove() {
      root.unmount()
      container.remove()
    },
  }
}
