/**
 * The privacy policy's opt-out links, wired to the consent controller. Their status line is a
 * module of its own (`opt-out-status.ts`), loaded on the first click only.
 */

import type { ConsentTexts } from '../../shared/consent'
import { TRACKERS, type Tracker } from '../../shared/consent'
import type { ConsentController } from './controller'

/**
 * The privacy policy's opt-out links (`#opt-out-googleanalytics`, …): a click opts out of that
 * tracker, with its alert, and a status line after the link says so in the page's language.
 */
export function startOptOutLinks(
  consent: ConsentController,
  ui: { texts(): ConsentTexts | undefined },
): void {
  // One chain, so the lines appear in the order of the clicks even while the module loads.
  let shown: Promise<void> = Promise.resolve()
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element | null)?.closest?.('a[href^="#opt-out-"]')
      const tracker = link?.getAttribute('href')?.slice('#opt-out-'.length)
      if (!link || !tracker || !(TRACKERS as readonly string[]).includes(tracker)) return
      event.preventDefault()
      // Captured before the router's listener sees it: the address stays as it is.
      consent.optOut(tracker as Tracker)
      const texts = ui.texts()
      if (!texts) return
      const message = texts.optedOut.replace('{service}', texts.trackers[tracker as Tracker].label)
      shown = shown
        .then(() => import('./opt-out-status'))
        .then(({ showOptOutStatus }) => showOptOutStatus(link, message))
        .catch((error: unknown) => console.error(error))
    },
    true,
  )
}
