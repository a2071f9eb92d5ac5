/**
 * What the publishing service's editor offers a person who may not approve: Decap's status menu
 * has "Ready" (an approval, here) for everyone and no setting to leave it out, so for anyone
 * without the reviewer role the item is shown disabled, saying who may. The service refuses
 * such a change whatever the page does; this keeps the page from offering it. (The Publish
 * button is left out for non-publishers by the configuration the service writes.)
 */
import { WORKFLOW_WORDS } from './locale'

/** The editor's label for the "Ready" status, in each language it speaks (./locale.ts). */
const READY_LABELS: Record<string, string> = {
  en: WORKFLOW_WORDS.en.ready,
  de: WORKFLOW_WORDS.de.ready,
}

const EXPLANATIONS: Record<string, string> = {
  en: `Only a reviewer who wrote none of the draft sets it to ${WORKFLOW_WORDS.en.ready} (approves it).`,
  de: `Nur wer prüft und nicht mitgeschrieben hat, setzt einen Entwurf auf „${WORKFLOW_WORDS.de.ready}“ (gibt ihn frei).`,
}

/** Disables the "Ready" item wherever Decap's menu shows it, now and whenever it opens. */
export function withholdApproval(root: HTMLElement, language: string): MutationObserver {
  const label = READY_LABELS[language] ?? READY_LABELS.en
  const explanation = EXPLANATIONS[language] ?? EXPLANATIONS.en ?? ''
  const mark = () => {
    for (const item of root.querySelectorAll<HTMLElement>('[role="menuitem"]')) {
      if (item.textContent?.trim() !== label || item.getAttribute('aria-disabled') === 'true')
        continue
      item.setAttribute('aria-disabled', 'true')
      item.setAttribute('title', explanation)
      item.style.opacity = '0.55'
      item.style.cursor = 'not-allowed'
    }
  }
  // A click or key on a disabled item goes no further than here (Decap listens below).
  const stop = (event: Event) => {
    const item = (event.target as Element | null)?.closest?.('[role="menuitem"]')
    if (item?.getAttribute('aria-disabled') !== 'true') return
    if (event instanceof KeyboardEvent && event.key !== 'Enter' && event.key !== ' ') return
    event.preventDefault()
    event.stopImmediatePropagation()
  }
  for (const type of ['click', 'mousedown', 'mouseup', 'keydown']) {
    root.addEventListener(type, stop, true)
  }
  const observer = new MutationObserver(mark)
  observer.observe(root, { childList: true, subtree: true })
  mark()
  return observer
}
