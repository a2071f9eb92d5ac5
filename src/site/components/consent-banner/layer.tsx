/**
 * What both layers of the cookie banner share: their props, the row of choices, and the keys
 * of a dialog (Tab stays inside, Escape leaves). The settings layer is a chunk of its own, so
 * these stand apart from the first layer that loads it.
 */
import type { KeyboardEvent, ReactNode } from 'react'
import {
  type Choice,
  type ConsentTexts,
  everyCategory,
  type Tracker,
} from '../../../shared/consent'
import { buttonClass } from '../button'
import styles from './styles.module.css'

export interface ConsentBannerProps {
  texts: ConsentTexts
  language: string
  /** The choice the settings start from (the stored one). */
  initial: Choice
  /** The trackers this site has (an ID configured); the others are not offered. */
  trackers: readonly Tracker[]
  layer: 'first' | 'settings'
  /** False when the visitor was busy elsewhere (typing): the banner then waits to be found. */
  takeFocus: boolean
  decide(choice: Choice): void
  close(): void
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled])'

/** Keeps Tab and Shift+Tab inside `container`; Escape calls `onEscape`. */
export function trapKeys(event: KeyboardEvent<HTMLElement>, onEscape: () => void) {
  if (event.key === 'Escape') {
    event.preventDefault()
    onEscape()
    return
  }
  if (event.key !== 'Tab') return
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)]
  const first = items[0]
  const last = items.at(-1)
  if (!first || !last) return
  // From the title (not a stop of its own) Tab goes to the first control, Shift+Tab the last.
  if (!items.includes(document.activeElement as HTMLElement)) {
    event.preventDefault()
    ;(event.shiftKey ? last : first).focus()
  } else if (event.shiftKey && document.activeElement === first) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault()
    first.focus()
  }
}

/**
 * "Accept all" and "Reject all", then the layer's own third button. Every choice is the site's
 * primary button: none is pushed (section 25 TDDDG, equal prominence).
 */
export function Actions(props: ConsentBannerProps & { children: ReactNode }) {
  /** Accept or reject every category; opt-outs of single trackers stay as they are. */
  const all = (allowed: boolean): Choice => everyCategory(allowed, props.initial)
  return (
    <div className={styles.actions}>
      <button type="button" className={buttonClass()} onClick={() => props.decide(all(true))}>
        {props.texts.acceptAll}
      </button>
      <button type="button" className={buttonClass()} onClick={() => props.decide(all(false))}>
        {props.texts.rejectAll}
      </button>
      {props.children}
    </div>
  )
}
